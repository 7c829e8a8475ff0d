package store_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/clarify-sql/clarify/internal/store"
	"github.com/clarify-sql/clarify/internal/testdb"
)

// TestAuditAppendOnly: the database itself refuses to change or delete
// audit records, before and after the audit sweep ran (its permission
// ends with its transaction), so a bug or a hand-typed statement cannot
// rewrite the audit log; the records stay.
func TestAuditAppendOnly(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name   string
		newDSN func(testing.TB) string
		extra  []string
	}{
		{"sqlite", sqliteDSN, nil},
		{"postgres", func(tb testing.TB) string { testdb.Postgres(tb); return postgresDSN(tb) },
			[]string{`TRUNCATE audit_log`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			s, err := store.Open(ctx, tc.newDSN(t))
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			now := time.Now()
			for _, at := range []time.Time{now.Add(-48 * time.Hour), now} {
				r := store.AuditRecord{At: at, UserID: "ana", Source: "labs", Scope: "17", Outcome: store.AuditAnswered}
				if err := s.AppendAudit(ctx, r); err != nil {
					t.Fatal(err)
				}
			}
			refused := func(when string) {
				t.Helper()
				stmts := append([]string{
					`UPDATE audit_log SET scope = '18'`,
					`UPDATE audit_log SET user_id = 'bo' WHERE scope = '17'`,
					`DELETE FROM audit_log`,
					`DELETE FROM audit_log WHERE scope = '17'`,
				}, tc.extra...)
				for _, q := range stmts {
					err := store.Write(ctx, s, q)
					if err == nil || !strings.Contains(err.Error(), "append-only") {
						t.Errorf("%s: %s = %v; want it refused as append-only", when, q, err)
					}
				}
			}
			refused("before the sweep")
			if n, err := s.DeleteAuditBefore(ctx, now.Add(-time.Hour)); err != nil || n != 1 {
				t.Fatalf("DeleteAuditBefore = %d, %v; want 1", n, err)
			}
			refused("after the sweep")
			got, err := s.Audit(ctx, store.AuditFilter{})
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != 1 || got[0].Scope != "17" || got[0].UserID != "ana" {
				t.Errorf("audit log after the refused statements = %+v; want ana's recent record, unchanged", got)
			}
		})
	}
}

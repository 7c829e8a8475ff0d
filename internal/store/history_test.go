package store_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/clarify-sql/clarify/internal/store"
	"github.com/clarify-sql/clarify/internal/store/storetest"
)

// TestUpgradeListsStatements opens a store left at version 2 by an older
// binary: its conversations are listed with the statement of their last
// answer, read once from their state by the migration that added it.
func TestUpgradeListsStatements(t *testing.T) {
	t.Parallel()
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	for _, tc := range []struct {
		name   string
		newDSN storetest.NewDSN
		at     string // how the dialect writes a time
		state  func(string) string
		yes    string
	}{
		{"sqlite", sqliteDSN, fmt.Sprint(at.UnixMicro()), func(s string) string { return "CAST('" + s + "' AS BLOB)" }, "1"},
		{"postgres", postgresDSN, "'" + at.Format(time.RFC3339) + "'", func(s string) string { return "convert_to('" + s + "', 'UTF8')" }, "true"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			dsn := tc.newDSN(t)
			insert := func(id, state string) string {
				return `INSERT INTO conversations (id, user_id, source, question, status, interactive, state, messages,
    created_at, updated_at, version)
VALUES ('` + id + `', 'u1', 'retail', 'revenue by month', 'answered', ` + tc.yes + `, ` + tc.state(state) + `, 1, ` + tc.at + `, ` + tc.at + `, 1)`
			}
			err := store.MigrateTo(ctx, dsn, 2,
				insert("answered", `{"last":{"status":"answered","answer":{"statement":"Revenue by month: 12 months."}}}`),
				insert("asking", `{"last":{"status":"needs_clarification"}}`),
				insert("empty", ``))
			if err != nil {
				t.Fatalf("migrate to version 2: %v", err)
			}
			s, err := store.Open(ctx, dsn)
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			list, err := s.Conversations(ctx, "u1", store.Cursor{}, 10)
			if err != nil {
				t.Fatal(err)
			}
			got := map[string]string{}
			for _, c := range list {
				got[c.ID] = c.Statement
			}
			want := map[string]string{"answered": "Revenue by month: 12 months.", "asking": "", "empty": ""}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("statements after the upgrade (-want +got):\n%s", diff)
			}
		})
	}
}

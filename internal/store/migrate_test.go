package store_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/clarify-sql/clarify/internal/store"
	"github.com/clarify-sql/clarify/internal/store/storetest"
)

func TestMigrationsMatch(t *testing.T) {
	t.Parallel()
	lite, err := store.MigrationVersions("sqlite")
	if err != nil {
		t.Fatal(err)
	}
	pg, err := store.MigrationVersions("postgres")
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(lite, pg); diff != "" {
		t.Errorf("the dialects' migrations differ (-sqlite +postgres):\n%s", diff)
	}
}

// TestMigrations opens a store twice: the second open applies nothing; a
// store whose schema is newer than the binary is refused.
func TestMigrations(t *testing.T) {
	t.Parallel()
	for _, tc := range backends {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			dsn := tc.newDSN(t)
			versions, err := store.MigrationVersions(tc.name)
			if err != nil {
				t.Fatal(err)
			}
			applied := func() []string {
				t.Helper()
				s, err := store.Open(ctx, dsn)
				if err != nil {
					t.Fatal(err)
				}
				defer s.Close()
				rows, err := store.AppliedMigrations(ctx, s)
				if err != nil {
					t.Fatal(err)
				}
				return rows
			}
			first := applied()
			if len(first) != len(versions) {
				t.Fatalf("applied %q, want %d migrations", first, len(versions))
			}
			if diff := cmp.Diff(first, applied()); diff != "" {
				t.Errorf("reopening changed the applied migrations (-first +second):\n%s", diff)
			}

			s, err := store.Open(ctx, dsn)
			if err != nil {
				t.Fatal(err)
			}
			if err := store.Write(ctx, s, `INSERT INTO store_migrations (version, name, applied_at) VALUES (9999, 'future', 'x')`); err != nil {
				t.Fatal(err)
			}
			s.Close()
			s, err = store.Open(ctx, dsn)
			if err == nil {
				s.Close()
				t.Fatal("Open accepted a store with a newer schema")
			}
			if !strings.Contains(err.Error(), "newer") {
				t.Errorf("Open of a newer schema: %v", err)
			}
		})
	}
}

// TestUpgradeKeepsRows opens a store left at version 1 by an older binary:
// its query log and answers read back with the columns version 2 added
// empty.
func TestUpgradeKeepsRows(t *testing.T) {
	t.Parallel()
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	for _, tc := range []struct {
		name   string
		newDSN storetest.NewDSN
		at     string // how the dialect writes at
		yes    string // and true
	}{
		{"sqlite", sqliteDSN, fmt.Sprint(at.UnixMicro()), "1"},
		{"postgres", postgresDSN, "'" + at.Format(time.RFC3339) + "'", "true"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			dsn := tc.newDSN(t)
			err := store.MigrateTo(ctx, dsn, 1,
				`INSERT INTO query_log (conversation_id, user_id, source, question, sql, status, error_code,
    duration_ms, rows, turns, clarifications, assumptions, at)
VALUES ('c1', 'u1', 'clinic', 'glorp wounds', '', 'failed', 'UNANSWERABLE', 1.5, 0, 1, 0, 0, `+tc.at+`)`,
				`INSERT INTO answers (user_id, source, slot, value, remember, at)
VALUES ('u1', 'clinic', 'vague:serious', 'opt:infected', `+tc.yes+`, `+tc.at+`)`)
			if err != nil {
				t.Fatalf("migrate to version 1: %v", err)
			}
			s, err := store.Open(ctx, dsn)
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			recs, err := s.QueryLog(ctx, "clinic", time.Time{})
			if err != nil {
				t.Fatal(err)
			}
			wantRecs := []store.QueryRecord{{ConversationID: "c1", UserID: "u1", Source: "clinic", Question: "glorp wounds",
				Status: "failed", ErrorCode: "UNANSWERABLE", DurationMS: 1.5, Turns: 1, At: at}}
			if diff := cmp.Diff(wantRecs, recs); diff != "" {
				t.Errorf("query log after the upgrade (-want +got):\n%s", diff)
			}
			answers, err := s.Answers(ctx, "clinic", time.Time{})
			if err != nil {
				t.Fatal(err)
			}
			wantAnswers := []store.Answer{{UserID: "u1", Source: "clinic", Slot: "vague:serious", Value: "opt:infected", Remember: true, At: at}}
			if diff := cmp.Diff(wantAnswers, answers); diff != "" {
				t.Errorf("answers after the upgrade (-want +got):\n%s", diff)
			}
		})
	}
}

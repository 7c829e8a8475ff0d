package store_test

import (
	"context"
	"strings"
	"testing"

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
	for _, tc := range []struct {
		name   string
		newDSN storetest.NewDSN
	}{
		{"sqlite", sqliteDSN},
		{"postgres", postgresDSN},
	} {
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

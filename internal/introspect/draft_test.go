package introspect_test

import (
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/clarify-sql/clarify/internal/introspect"
	"github.com/clarify-sql/clarify/internal/model"
	"github.com/clarify-sql/clarify/internal/testdb"
)

var update = flag.Bool("update", false, "rewrite the golden drafts in testdata/")

// sqliteDraft drafts the model of a test schema loaded into SQLite.
func sqliteDraft(t *testing.T, schema string) ([]byte, *model.Model) {
	t.Helper()
	db := openSQLite(t, sqliteFile(t, schema))
	return draft(t, inspect(t, db, model.SQLite), schema)
}

// TestDraftGolden keeps the SQLite drafts of the test schemas as golden
// files: go test -run TestDraftGolden -update rewrites them.
func TestDraftGolden(t *testing.T) {
	t.Parallel()
	for _, schema := range schemas {
		t.Run(schema, func(t *testing.T) {
			t.Parallel()
			got, _ := sqliteDraft(t, schema)
			golden := filepath.Join("testdata", schema+".yaml")
			if *update {
				if err := os.WriteFile(golden, got, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run with -update to create it)", err)
			}
			if diff := cmp.Diff(string(want), string(got)); diff != "" {
				t.Errorf("draft of %s differs from %s (-want +got):\n%s", schema, golden, diff)
			}
		})
	}
}

// TestDraftSameOnEveryDialect loads each test schema into PostgreSQL and
// MariaDB and checks that the draft is the one SQLite gives.
func TestDraftSameOnEveryDialect(t *testing.T) {
	t.Parallel()
	for _, schema := range schemas {
		want, _ := sqliteDraft(t, schema)
		wantSchema := inspect(t, openSQLite(t, sqliteFile(t, schema)), model.SQLite)
		for _, tc := range []struct {
			dialect model.Dialect
			open    func(*testing.T, string) *introspect.Schema
		}{
			{model.Postgres, func(t *testing.T, s string) *introspect.Schema {
				db, _ := loaded(t, testdb.PostgresServer(t), s)
				return inspect(t, db, model.Postgres)
			}},
			{model.MySQL, func(t *testing.T, s string) *introspect.Schema {
				db, _ := loaded(t, testdb.MySQLServer(t), s)
				return inspect(t, db, model.MySQL)
			}},
		} {
			t.Run(schema+"/"+string(tc.dialect), func(t *testing.T) {
				t.Parallel()
				s := tc.open(t, schema)
				if s.Dialect != tc.dialect {
					t.Errorf("Dialect = %q, want %q", s.Dialect, tc.dialect)
				}
				// the header names the dialect; everything else must match
				same := *s
				same.Dialect = model.SQLite
				got, _ := draft(t, &same, schema)
				if diff := cmp.Diff(string(want), string(got)); diff != "" {
					t.Errorf("%s draft differs from the SQLite one (-sqlite +%s):\n%s", tc.dialect, tc.dialect, diff)
				}
				// declared types and sample order (collations) differ by dialect
				ignore := cmp.FilterPath(func(p cmp.Path) bool {
					switch p.Last().String() {
					case ".DeclaredType", ".Samples", ".Dialect":
						return true
					}
					return false
				}, cmp.Ignore())
				if diff := cmp.Diff(wantSchema, s, ignore); diff != "" {
					t.Errorf("%s schema differs from the SQLite one (-sqlite +%s):\n%s", tc.dialect, tc.dialect, diff)
				}
			})
		}
	}
}

package source_test

import (
	"context"
	"database/sql"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/clarify-sql/clarify/internal/source"
	"github.com/clarify-sql/clarify/internal/testdb"
)

// careTeam creates a mapping table pairing clinicians with patients; the
// model need not know it.
func careTeam(t *testing.T, admin *sql.DB, table string) {
	t.Helper()
	mustExec(t, admin, "CREATE TABLE "+table+" (clinician varchar(40), patient_id varchar(10))")
	mustExec(t, admin, "INSERT INTO "+table+" VALUES ('ana', 'L2'), ('ana', 'L1'), ('ana', 'L1'), ('bo', 'L3'), ('ana', NULL), ('x'' OR 1=1 --', 'L9')")
}

// TestScopeMapping reads the patients a mapping table grants each user, on
// every dialect: sorted, once each, no NULLs; a user's name is bound, so
// one that looks like SQL grants only its own rows.
func TestScopeMapping(t *testing.T) {
	for name, open := range map[string]func(t *testing.T) *source.Source{
		"sqlite": func(t *testing.T) *source.Source {
			path := filepath.Join(t.TempDir(), "odd.db")
			admin, err := sql.Open("sqlite", path)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { admin.Close() })
			oddCreate(t, admin, `"odd""items"`, `"col""our"`)
			careTeam(t, admin, "care_team")
			return oddOpen(t, "sqlite:"+path, oddModel(t, `"`))
		},
		"postgres": func(t *testing.T) *source.Source {
			admin, ns, dsn := testdb.PostgresSchema(t, "t_map")
			oddCreate(t, admin, ns+`."odd""items"`, `"col""our"`)
			careTeam(t, admin, ns+".care_team")
			return oddOpen(t, dsn, oddModel(t, `"`))
		},
		"mysql": func(t *testing.T) *source.Source {
			admin, ns, dsn := testdb.MySQLDatabase(t, "t_map")
			oddCreate(t, admin, ns+".`odd``items`", "`col``our`")
			careTeam(t, admin, ns+".care_team")
			return oddOpen(t, dsn, oddModel(t, "`"))
		},
	} {
		t.Run(name, func(t *testing.T) {
			src := open(t)
			ctx := context.Background()
			for user, want := range map[string][]string{"ana": {"L1", "L2"}, "bo": {"L3"}, "nobody": {}, "x' OR 1=1 --": {"L9"}, "' OR '1'='1": {}} {
				got, err := src.ScopeMapping(ctx, "care_team", "clinician", "patient_id", user)
				if err != nil {
					t.Fatalf("%s: %v", user, err)
				}
				if !slices.Equal(got, want) {
					t.Errorf("%s: %v, want %v", user, got, want)
				}
			}
			// a mistake in the configuration is an error that names the table
			if _, err := src.ScopeMapping(ctx, "care_teams", "clinician", "patient_id", "ana"); err == nil || !strings.Contains(err.Error(), "care_teams") {
				t.Errorf("a missing table: %v", err)
			}
		})
	}
}

package testdb_test

import (
	"context"
	"database/sql"
	"testing"

	"github.com/clarify-sql/clarify/internal/testdb"
)

// TestNamespace: a namespace made by Create holds the tables created
// through its DSN, and is gone once the test that made it ends; one only
// named by Namespace is dropped too once something created it. A prefix
// that is no bare identifier is quoted, case and all.
func TestNamespace(t *testing.T) {
	t.Parallel()
	servers := []struct {
		name   string
		open   func(testing.TB) *testdb.Server
		exists string // counts the namespaces named by its one argument
	}{
		{"postgres", testdb.PostgresServer, "SELECT count(*) FROM information_schema.schemata WHERE schema_name = $1"},
		{"mysql", testdb.MySQLServer, "SELECT count(*) FROM information_schema.schemata WHERE schema_name = ?"},
	}
	for _, srv := range servers {
		t.Run(srv.name, func(t *testing.T) {
			t.Parallel()
			s := srv.open(t)
			count := func(t *testing.T, ns string) int {
				t.Helper()
				var n int
				if err := s.Admin.QueryRowContext(context.Background(), srv.exists, ns).Scan(&n); err != nil {
					t.Fatal(err)
				}
				return n
			}
			var created, named, odd string
			t.Run("inner", func(t *testing.T) {
				created = s.Create(t, "t_testdb")
				db := s.Open(t, created)
				mustExec(t, db, "CREATE TABLE probe (a INT)")
				var n int
				if err := s.Admin.QueryRowContext(context.Background(), "SELECT count(*) FROM "+created+".probe").Scan(&n); err != nil {
					t.Errorf("the table created through the DSN is not in %s: %v", created, err)
				}
				named = s.Namespace(t, "t_testdb")
				if count(t, named) != 0 {
					t.Errorf("Namespace created %s", named)
				}
				create := "CREATE SCHEMA " + named
				if srv.name == "mysql" {
					create = "CREATE DATABASE " + named
				}
				mustExec(t, s.Admin, create)
				odd = s.Create(t, "t-Odd")
				if count(t, odd) != 1 {
					t.Errorf("Create(%q) made no namespace named %s", "t-Odd", odd)
				}
			})
			for _, ns := range []string{created, named, odd} {
				if n := count(t, ns); n != 0 {
					t.Errorf("%s still exists after its test ended", ns)
				}
			}
		})
	}
}

func mustExec(t *testing.T, db *sql.DB, stmt string) {
	t.Helper()
	if _, err := db.ExecContext(context.Background(), stmt); err != nil {
		t.Fatalf("%s: %v", stmt, err)
	}
}

package demo_test

import (
	"context"
	"database/sql"
	"testing"

	"github.com/google/go-cmp/cmp"
	_ "github.com/jackc/pgx/v5/stdlib"

	"github.com/clarify-sql/clarify/internal/demo"
	"github.com/clarify-sql/clarify/internal/model"
	"github.com/clarify-sql/clarify/internal/testdb"
)

// server is what the shared dialect suite needs to know about one server.
type server struct {
	dialect model.Dialect
	// open opens the test server (skipping the test, or failing it in CI,
	// when there is none).
	open func(t testing.TB) *testdb.Server
	load func(ctx context.Context, db *sql.DB, name, ns string, opt demo.Options) error
	// selectAll reads a whole table; MySQL gets a bound parameter so the
	// server answers in the binary protocol, where DOUBLE is the exact float64.
	selectAll func(ns, table string) (string, []any)
	// types maps SQLite's declared types to this server's information_schema
	// data types.
	types map[string][]string
}

var postgres = server{
	dialect: model.Postgres,
	open:    testdb.PostgresServer,
	load:    demo.LoadPostgres,
	selectAll: func(ns, table string) (string, []any) {
		q := model.Postgres.QuoteIdent
		return "SELECT * FROM " + q(ns) + "." + q(table), nil
	},
	types: map[string][]string{
		"TEXT":    {"text"},
		"INTEGER": {"integer", "bigint"},
		"REAL":    {"double precision"},
	},
}

var mariadb = server{
	dialect: model.MySQL,
	open:    testdb.MySQLServer,
	load:    demo.LoadMySQL,
	selectAll: func(ns, table string) (string, []any) {
		q := model.MySQL.QuoteIdent
		return "SELECT * FROM " + q(ns) + "." + q(table) + " WHERE ? = 1", []any{1}
	},
	types: map[string][]string{
		"TEXT":    {"varchar"},
		"INTEGER": {"int", "bigint"},
		"REAL":    {"double"},
	},
}

func TestPostgres(t *testing.T) {
	t.Parallel()
	testServer(t, postgres)
}

func TestMySQL(t *testing.T) {
	t.Parallel()
	testServer(t, mariadb)
}

// testServer loads every source into a fresh schema or database of the
// server and compares row counts and content hashes of every table with the
// SQLite file of the same (seed, as_of).
func testServer(t *testing.T, srv server) {
	ctx := context.Background()
	s := srv.open(t)
	db := s.Admin
	opt := defaultOpt
	fresh := func(t *testing.T) string { return s.Namespace(t, "t_demo") }
	for _, name := range demo.Names() {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			skipSlowUnderRace(t, name)
			ns := fresh(t)
			if err := srv.load(ctx, db, name, ns, opt); err != nil {
				t.Fatal(err)
			}
			tables, want := sqliteSums(t, source(t, name, opt))
			got := map[string]tableSum{}
			for _, ti := range tables {
				q, args := srv.selectAll(ns, ti.name)
				got[ti.name] = sumTable(t, db, ti, q, args...)
				checkTypes(t, db, srv, ns, ti)
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("tables differ from SQLite (-sqlite +server):\n%s", diff)
			}

			// AsOf through a connection whose default namespace is ns.
			nsDB := s.Open(t, ns)
			asOf, err := demo.AsOf(ctx, nsDB)
			if err != nil {
				t.Fatal(err)
			}
			if !asOf.Equal(friday) {
				t.Errorf("AsOf = %v, want %v", asOf, friday)
			}
			// Comparisons are case-sensitive, as in SQLite.
			if name == "clinic" {
				if n := queryString(t, nsDB, "SELECT COUNT(*) FROM wounds WHERE status = 'open'"); n != "0" {
					t.Errorf("status = 'open' matched %s rows; want case-sensitive comparison", n)
				}
			}
		})
	}
	// Loading again into the same namespace replaces the tables.
	t.Run("reload", func(t *testing.T) {
		t.Parallel()
		ns := fresh(t)
		for _, seed := range []int64{7, 0} {
			if err := srv.load(ctx, db, "labs", ns, demo.Options{AsOf: friday, Seed: seed}); err != nil {
				t.Fatal(err)
			}
		}
		tables, want := sqliteSums(t, source(t, "labs", opt))
		for _, ti := range tables {
			q, args := srv.selectAll(ns, ti.name)
			if got := sumTable(t, db, ti, q, args...); got != want[ti.name] {
				t.Errorf("table %s after reload: %+v, want %+v", ti.name, got, want[ti.name])
			}
		}
	})
}

// checkTypes checks the server's column types against the SQLite ones: REAL
// must be a double so values survive exactly.
func checkTypes(t *testing.T, db *sql.DB, srv server, ns string, ti tableInfo) {
	t.Helper()
	q := "SELECT column_name, data_type FROM information_schema.columns WHERE table_schema = ? AND table_name = ?"
	if srv.dialect == model.Postgres {
		q = "SELECT column_name, data_type FROM information_schema.columns WHERE table_schema = $1 AND table_name = $2"
	}
	rows, err := db.QueryContext(context.Background(), q, ns, ti.name)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	got := map[string]string{}
	for rows.Next() {
		var c, typ string
		if err := rows.Scan(&c, &typ); err != nil {
			t.Fatal(err)
		}
		got[c] = typ
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	for i, c := range ti.cols {
		ok := false
		for _, typ := range srv.types[ti.types[i]] {
			ok = ok || got[c] == typ
		}
		if !ok {
			t.Errorf("%s.%s is %q, want one of %v for SQLite %s", ti.name, c, got[c], srv.types[ti.types[i]], ti.types[i])
		}
	}
}

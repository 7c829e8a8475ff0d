package source_test

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	_ "github.com/jackc/pgx/v5/stdlib"

	"github.com/clarify-sql/clarify/internal/model"
	"github.com/clarify-sql/clarify/internal/source"
	"github.com/clarify-sql/clarify/internal/testdb"
)

const testModel = `source: t
entities:
  - name: items
    key: id
    columns:
      - {name: id, role: id, type: integer}
      - {name: name, role: name, type: text}
`

func testModelT(t *testing.T) *model.Model {
	t.Helper()
	m, err := model.Parse("test.yaml", []byte(testModel))
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// server is one database the execution tests run against: a source on a
// fresh namespace holding table items (3 rows), and an admin connection
// that can look at the server from outside.
type server struct {
	name    string
	src     *source.Source
	admin   *sql.DB
	count   func(t *testing.T) int // rows in items, read by admin
	slow    string                 // a statement that runs for seconds
	huge    string                 // a statement returning millions of rows
	running func(t *testing.T) int // server-side statements still running "slow"
}

func newServers(t *testing.T, opt source.Options) []server {
	t.Helper()
	return []server{sqliteServer(t, opt), pgServer(t, opt), mysqlServer(t, opt), pooledServer(t, testdb.EnvPgBouncer, opt)}
}

func sqliteServer(t *testing.T, opt source.Options) server {
	t.Helper()
	path := filepath.Join(t.TempDir(), "items.db")
	admin, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { admin.Close() })
	mustExec(t, admin, `CREATE TABLE items (id INTEGER PRIMARY KEY, name TEXT)`)
	mustExec(t, admin, `INSERT INTO items VALUES (1, 'a'), (2, 'b'), (3, 'c')`)
	src, err := source.Open(context.Background(), "t", "sqlite:"+path, testModelT(t), opt)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { src.Close() })
	return server{
		name: "sqlite", src: src, admin: admin,
		count: func(t *testing.T) int { return countRows(t, admin, "SELECT count(*) FROM items") },
		slow:  `WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c) SELECT count(*) FROM c`,
		huge:  `WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c LIMIT 10000000) SELECT x FROM c`,
		// SQLite runs in-process: an interrupted statement is gone.
		running: func(*testing.T) int { return 0 },
	}
}

func pgServer(t *testing.T, opt source.Options) server {
	t.Helper()
	admin, ns, dsn := testdb.PostgresSchema(t, "t_exec")
	mustExec(t, admin, "CREATE TABLE "+ns+".items (id integer PRIMARY KEY, name text)")
	mustExec(t, admin, "INSERT INTO "+ns+".items VALUES (1, 'a'), (2, 'b'), (3, 'c')")
	src, err := source.Open(context.Background(), "t", dsn, testModelT(t), opt)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { src.Close() })
	return server{
		name: "postgres", src: src, admin: admin,
		count: func(t *testing.T) int { return countRows(t, admin, "SELECT count(*) FROM "+ns+".items") },
		slow:  "SELECT pg_sleep(30)",
		huge:  "SELECT 1 FROM pg_class a, pg_class b, pg_class c",
		running: func(t *testing.T) int {
			return countRows(t, admin, `SELECT count(*) FROM pg_stat_activity WHERE state = 'active' AND query = 'SELECT pg_sleep(30)'`)
		},
	}
}

func mysqlServer(t *testing.T, opt source.Options) server {
	t.Helper()
	s, _ := mysqlServerIn(t, "t_exec", opt)
	return s
}

// mysqlServerIn is mysqlServer in a test database named after prefix,
// with that database's name.
func mysqlServerIn(t *testing.T, prefix string, opt source.Options) (server, string) {
	t.Helper()
	admin, ns, dsn := testdb.MySQLDatabase(t, prefix)
	mustExec(t, admin, "CREATE TABLE "+ns+".items (id int PRIMARY KEY, name varchar(20))")
	mustExec(t, admin, "INSERT INTO "+ns+".items VALUES (1, 'a'), (2, 'b'), (3, 'c')")
	src, err := source.Open(context.Background(), "t", dsn, testModelT(t), opt)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { src.Close() })
	return server{
		name: "mysql", src: src, admin: admin,
		count: func(t *testing.T) int { return countRows(t, admin, "SELECT count(*) FROM "+ns+".items") },
		slow:  "SELECT SLEEP(30)",
		huge:  "SELECT 1 FROM information_schema.columns a, information_schema.columns b, information_schema.columns c",
		running: func(t *testing.T) int {
			return countRows(t, admin, `SELECT count(*) FROM information_schema.processlist WHERE info = 'SELECT SLEEP(30)'`)
		},
	}, ns
}

func mustExec(t *testing.T, db *sql.DB, q string) {
	t.Helper()
	if _, err := db.Exec(q); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
}

func countRows(t *testing.T, db *sql.DB, q string) int {
	t.Helper()
	var n int
	if err := db.QueryRow(q).Scan(&n); err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	return n
}

// stillRunning polls the server until no slow statement runs, or gives up.
func stillRunning(t *testing.T, s server) int {
	t.Helper()
	n := 0
	for i := 0; i < 30; i++ {
		if n = s.running(t); n == 0 {
			return 0
		}
		time.Sleep(100 * time.Millisecond)
	}
	return n
}

// TestTimeoutStopsServerQuery runs a statement that would take 30 s: the
// timeout ends it, on the server too.
func TestTimeoutStopsServerQuery(t *testing.T) {
	for _, s := range newServers(t, source.Options{QueryTimeout: 700 * time.Millisecond}) {
		t.Run(s.name, func(t *testing.T) {
			start := time.Now()
			_, err := s.src.Query(context.Background(), s.slow, nil, 0)
			took := time.Since(start)
			if !errors.Is(err, source.ErrTimeout) {
				t.Fatalf("err = %v, want ErrTimeout", err)
			}
			if took > 10*time.Second {
				t.Errorf("the timeout took %s to stop the statement", took)
			}
			if n := stillRunning(t, s); n > 0 {
				t.Errorf("%d slow statements still run on the server after the timeout", n)
			}
		})
	}
}

// TestCancelStopsServerQuery cancels the caller's context mid-statement,
// as a client that disconnects does.
func TestCancelStopsServerQuery(t *testing.T) {
	for _, s := range newServers(t, source.Options{QueryTimeout: time.Minute}) {
		t.Run(s.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 700*time.Millisecond)
			defer cancel()
			_, err := s.src.Query(ctx, s.slow, nil, 0)
			if err == nil {
				t.Fatal("the canceled statement succeeded")
			}
			if n := stillRunning(t, s); n > 0 {
				t.Errorf("%d slow statements still run on the server after the client went away", n)
			}
		})
	}
}

// TestHugeResultTruncated reads millions of rows with a small cap: the
// answer stops at the cap with the flag set, without reading the rest.
func TestHugeResultTruncated(t *testing.T) {
	for _, s := range newServers(t, source.Options{RowCap: 500, QueryTimeout: 30 * time.Second}) {
		t.Run(s.name, func(t *testing.T) {
			start := time.Now()
			res, err := s.src.Query(context.Background(), s.huge, nil, 0)
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Rows) != 500 || !res.Truncated {
				t.Errorf("got %d rows, truncated=%v; want 500 rows, truncated", len(res.Rows), res.Truncated)
			}
			t.Logf("%s: truncated after %s", s.name, time.Since(start))
			// The connection is usable after the rest was abandoned.
			if res, err := s.src.Query(context.Background(), "SELECT count(*) FROM items", nil, 0); err != nil || len(res.Rows) != 1 {
				t.Errorf("the next statement failed: %v", err)
			}
		})
	}
}

// TestWritesRefused sends writes straight to the execution path, as if the
// guard had accepted them: the read-only transaction (the authorizer for
// SQLite) refuses every one, and the table is unchanged.
func TestWritesRefused(t *testing.T) {
	writes := []string{
		"INSERT INTO items (id, name) VALUES (9, 'x')",
		"UPDATE items SET name = 'x'",
		"DELETE FROM items",
		"DROP TABLE items",
		"CREATE TABLE pwned (a int)",
		"SELECT 1; DELETE FROM items",
		"DELETE FROM items; SELECT 1",
	}
	for _, s := range newServers(t, source.Options{}) {
		t.Run(s.name, func(t *testing.T) {
			ws := writes
			if s.name == "postgres" {
				ws = append(ws, "WITH d AS (DELETE FROM items RETURNING id) SELECT id FROM d",
					"INSERT INTO items VALUES (9, 'x') RETURNING id")
			}
			for _, w := range ws {
				if _, err := s.src.Query(context.Background(), w, nil, 0); err == nil {
					t.Errorf("%q was executed", w)
				}
			}
			if n := s.count(t); n != 3 {
				t.Errorf("items has %d rows after the writes, want 3", n)
			}
		})
	}
}

// TestStackedStatementsRefusedByServer: PostgreSQL itself refuses two
// statements in one string on the extended protocol.
func TestStackedStatementsRefusedByServer(t *testing.T) {
	s := pgServer(t, source.Options{})
	_, err := s.src.Query(context.Background(), "SELECT 1; SELECT 2", nil, 0)
	if err == nil || !strings.Contains(err.Error(), "cannot insert multiple commands into a prepared statement") {
		t.Errorf("err = %v, want the server's refusal of multiple commands", err)
	}
}

// TestSQLiteRunsOneStatement: the SQLite driver would run every statement
// of a text and return the last one's rows, so the execution path refuses
// more than one, and a comment, where a second one hides.
func TestSQLiteRunsOneStatement(t *testing.T) {
	s := sqliteServer(t, source.Options{})
	for _, q := range []string{
		"SELECT 1; SELECT name FROM items",
		"SELECT --1 AS x, '\n 1 AS a; SELECT name FROM items --' AS y",
		"SELECT 1 /* c */",
	} {
		if _, err := s.src.Query(context.Background(), q, nil, 0); !errors.Is(err, source.ErrNotSingle) {
			t.Errorf("%q: err = %v, want ErrNotSingle", q, err)
		}
	}
	res, err := s.src.Query(context.Background(), "SELECT 'a;b -- c' AS x, name FROM items;", nil, 0)
	if err != nil || len(res.Rows) != 3 {
		t.Fatalf("one statement with a semicolon in a string: %v, %v", res, err)
	}
}

// TestNonFiniteNumbers: JSON has no NaN or infinity, so a result holding
// them still has to be sendable.
func TestNonFiniteNumbers(t *testing.T) {
	for _, tc := range []struct {
		name  string
		open  func(*testing.T, source.Options) server
		query string
		want  []any
	}{
		{"sqlite", sqliteServer, "SELECT 1e999 AS a, -1e999 AS b, NULL AS c", []any{"Infinity", "-Infinity", nil}},
		{"postgres", pgServer, "SELECT 'Infinity'::float8 AS a, '-Infinity'::float8 AS b, 'NaN'::float8 AS c", []any{"Infinity", "-Infinity", "NaN"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := tc.open(t, source.Options{}) // skips this subtest only when the server is not configured
			res, err := s.src.Query(context.Background(), tc.query, nil, 0)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tc.want, res.Rows[0]); diff != "" {
				t.Errorf("row (-want +got):\n%s", diff)
			}
			if _, err := json.Marshal(res.Rows); err != nil {
				t.Error(err)
			}
		})
	}
}

// TestNoStateSurvives changes session state in one statement and looks
// for it in the next.
func TestNoStateSurvives(t *testing.T) {
	ctx := context.Background()
	t.Run("postgres", func(t *testing.T) {
		s := pgServer(t, source.Options{})
		for _, q := range []string{
			"SELECT set_config('work_mem', '1234kB', false)",
			"SELECT set_config('search_path', 'pg_catalog', false)",
			"SELECT pg_advisory_lock(4242)",
		} {
			if _, err := s.src.Query(ctx, q, nil, 0); err != nil {
				t.Fatalf("%s: %v", q, err)
			}
		}
		res, err := s.src.Query(ctx, "SELECT current_setting('work_mem'), (SELECT count(*) FROM items)", nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		if got := fmt.Sprint(res.Rows[0][0]); got == "1234kB" {
			t.Errorf("work_mem set by an earlier statement survived")
		}
		if n := countRows(t, s.admin, "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND objid = 4242"); n != 0 {
			t.Errorf("an advisory lock taken by an earlier statement is still held")
		}
	})
	t.Run("mysql", func(t *testing.T) {
		s := mysqlServer(t, source.Options{})
		for _, q := range []string{"SELECT @pwned := 1", "SELECT GET_LOCK('clarify_pwned', 0)"} {
			if _, err := s.src.Query(ctx, q, nil, 0); err != nil {
				t.Fatalf("%s: %v", q, err)
			}
		}
		res, err := s.src.Query(ctx, "SELECT @pwned", nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		if res.Rows[0][0] != nil {
			t.Errorf("a user variable set by an earlier statement survived: %v", res.Rows[0][0])
		}
		if n := countRows(t, s.admin, "SELECT IS_FREE_LOCK('clarify_pwned')"); n != 1 {
			t.Errorf("a named lock taken by an earlier statement is still held")
		}
	})
	t.Run("sqlite", func(t *testing.T) {
		s := sqliteServer(t, source.Options{})
		for _, q := range []string{
			"PRAGMA query_only = 0",
			"ATTACH DATABASE ':memory:' AS x",
			"SELECT * FROM pragma_table_info('items')",
			"SELECT load_extension('x')",
			"BEGIN",
			"CREATE TEMP TABLE tt (a)",
		} {
			if _, err := s.src.Query(ctx, q, nil, 0); err == nil {
				t.Errorf("%q was executed", q)
			}
		}
	})
}

// TestSetRefused: PostgreSQL statements that return no rows (SET, COPY,
// DO …) are refused by the execution path itself.
func TestSetRefused(t *testing.T) {
	s := pgServer(t, source.Options{})
	dir := t.TempDir()
	for _, q := range []string{
		"SET statement_timeout = 0",
		"RESET ALL",
		"COPY (SELECT 1) TO '" + filepath.Join(dir, "pwned") + "'",
		"DO $$ BEGIN PERFORM 1; END $$",
	} {
		_, err := s.src.Query(context.Background(), q, nil, 0)
		if !errors.Is(err, source.ErrNotQuery) {
			t.Errorf("%q: err = %v, want ErrNotQuery", q, err)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "pwned")); err == nil {
		t.Error("COPY wrote a file")
	}
}

// TestArgumentsChecked: argument types a driver could read as options are
// refused.
func TestArgumentsChecked(t *testing.T) {
	s := sqliteServer(t, source.Options{})
	type sneaky struct{}
	if _, err := s.src.Query(context.Background(), "SELECT ?", []any{sneaky{}}, 0); err == nil {
		t.Error("an argument of an unknown type was accepted")
	}
	res, err := s.src.Query(context.Background(), "SELECT name FROM items WHERE id = ?", []any{int64(2)}, 0)
	if err != nil || len(res.Rows) != 1 || res.Rows[0][0] != "b" {
		t.Errorf("got %v, %v", res, err)
	}
}

// TestCheckPrivileges: the superuser accounts of the test servers are
// reported loudly; an account that can only read is reported as such.
func TestCheckPrivileges(t *testing.T) {
	ctx := context.Background()
	hasWarning := func(fs []source.Finding, substr string) bool {
		for _, f := range fs {
			if f.Warn && strings.Contains(f.Message, substr) {
				return true
			}
		}
		return false
	}
	t.Run("postgres", func(t *testing.T) {
		s := pgServer(t, source.Options{})
		fs, err := s.src.CheckPrivileges(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if !hasWarning(fs, "superuser") {
			t.Errorf("a superuser account was not reported: %v", fs)
		}
		role := testdb.Name("clarify_ro")
		mustExec(t, s.admin, "CREATE ROLE "+role+" LOGIN")
		t.Cleanup(func() { mustExec(t, s.admin, "DROP OWNED BY "+role+"; DROP ROLE "+role) })
		ns := s.src.Target.Display[strings.Index(s.src.Target.Display, "search_path=")+len("search_path="):]
		mustExec(t, s.admin, "GRANT USAGE ON SCHEMA "+ns+" TO "+role)
		mustExec(t, s.admin, "GRANT SELECT ON "+ns+".items TO "+role)
		u, err := url.Parse(testdb.Postgres(t))
		if err != nil {
			t.Fatal(err)
		}
		u.User = url.User(role)
		ro, err := source.Open(ctx, "ro", u.String(), testModelT(t), source.Options{})
		if err != nil {
			testdb.Skip(t, "cannot log in as a new role without a password here: "+err.Error())
		}
		defer ro.Close()
		fs, err = ro.CheckPrivileges(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if hasWarning(fs, "superuser") || hasWarning(fs, "may INSERT") || hasWarning(fs, "may DELETE") {
			t.Errorf("a read-only role was reported with write privileges: %v", fs)
		}
	})
	t.Run("mysql", func(t *testing.T) {
		s := mysqlServer(t, source.Options{})
		fs, err := s.src.CheckPrivileges(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if !hasWarning(fs, "ALL PRIVILEGES") && !hasWarning(fs, "INSERT") {
			t.Errorf("the root account was not reported: %v", fs)
		}
	})
	t.Run("sqlite", func(t *testing.T) {
		s := sqliteServer(t, source.Options{})
		fs, err := s.src.CheckPrivileges(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if os.Geteuid() != 0 && !hasWarning(fs, "writable") {
			t.Errorf("a writable database file was not reported: %v", fs)
		}
	})
}

// TestSessionResetAfterEachStatement takes a session-level lock in a
// statement that succeeds, one that fails after taking it, and one whose
// result is cut at the row cap, and looks for the lock from outside as
// soon as each returns, with no statement after it: the connection goes
// back to the pool idle and reset, not at its next use.
func TestSessionResetAfterEachStatement(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		name, open, held string
		statements       []string
	}{
		{"postgres", "postgres", "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND objid = 4343", []string{
			"SELECT pg_advisory_lock(4343)",
			"SELECT pg_advisory_lock(4343), 1 / (SELECT count(*) - 3 FROM items)",
			"SELECT pg_advisory_lock(4343), g FROM generate_series(1, 10000000) g",
		}},
		{"mysql", "mysql", "SELECT IS_FREE_LOCK('clarify_reset') = 0", []string{
			"SELECT GET_LOCK('clarify_reset', 0)",
			"SELECT GET_LOCK('clarify_reset', 0), (SELECT name FROM items)",
			"SELECT GET_LOCK('clarify_reset', 0), a.id FROM items a, items b, items c, items d, items e, items f, items g, items h, items i, items j, items k, items l",
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := pgServer
			if tc.open == "mysql" {
				s = mysqlServer
			}
			srv := s(t, source.Options{RowCap: 10})
			for _, q := range tc.statements {
				_, err := srv.src.Query(ctx, q, nil, 0)
				t.Logf("%s: err %v", q, err)
				// MySQL ends a session when it reads the client's quit, just
				// after the statement returns; PostgreSQL's is reset before.
				deadline := time.Now()
				if tc.open == "mysql" {
					deadline = deadline.Add(2 * time.Second)
				}
				for countRows(t, srv.admin, tc.held) != 0 {
					if time.Now().After(deadline) {
						t.Errorf("after %q (err %v): the lock is still held", q, err)
						break
					}
					time.Sleep(10 * time.Millisecond)
				}
			}
		})
	}
}

// TestPostgresDescribedOnce runs a statement the pool has described
// before with other arguments and after its table changed type: the
// remembered description gives the same answers as a first run, and a
// stale one is not kept.
func TestPostgresDescribedOnce(t *testing.T) {
	ctx := context.Background()
	s := pgServer(t, source.Options{})
	q := "SELECT name FROM items WHERE id = $1"
	for _, tc := range []struct {
		id   any
		want []any
	}{{int64(1), []any{"a"}}, {int64(2), []any{"b"}}, {"3", []any{"c"}}} {
		res, err := s.src.Query(ctx, q, []any{tc.id}, 0)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff([][]any{tc.want}, res.Rows); diff != "" {
			t.Errorf("id %v (-want +got):\n%s", tc.id, diff)
		}
	}
	ns := s.src.Target.Display[strings.Index(s.src.Target.Display, "search_path=")+len("search_path="):]
	mustExec(t, s.admin, "ALTER TABLE "+ns+".items ALTER COLUMN id TYPE text")
	for i := range 2 {
		res, err := s.src.Query(ctx, q, []any{"2"}, 0)
		if err != nil || len(res.Rows) != 1 || res.Rows[0][0] != "b" {
			t.Errorf("run %d after the type change: %v, %v", i+1, res, err)
		}
	}
}

// TestPostgresSessionClean runs, straight on the execution path (no
// guard), statements that try to leave something in their session, each
// followed on the same connection by a statement that looks for it, and
// names the layer that stops each: the describe step refusing a statement
// that returns no rows, the read-only transaction, or the ROLLBACK and
// reset (advisory locks released) that end every statement. What the
// next statement finds is the session as it started, its limits included
// (work_mem and statement_timeout are the pool's startup values, not the
// server's defaults). Booleans arrive as 1 and 0.
func TestPostgresSessionClean(t *testing.T) {
	ctx := context.Background()
	s := pgServer(t, source.Options{QueryTimeout: 15 * time.Second})
	ns := s.src.Target.Display[strings.Index(s.src.Target.Display, "search_path=")+len("search_path="):]
	mustExec(t, s.admin, "CREATE SEQUENCE "+ns+".s")
	const (
		notQuery = "refused as returning no rows"
		readOnly = "refused by the read-only transaction"
		undone   = "run, then undone"
	)
	for _, tc := range []struct {
		name, leave, stop string
		look              string // an expression the next statement reads
		want              any
	}{
		{"session setting", "SELECT set_config('work_mem', '1234kB', false)", undone, "current_setting('work_mem')", "16MB"},
		{"time limit off", "SELECT set_config('statement_timeout', '0', false)", undone, "current_setting('statement_timeout')", "15s"},
		{"read-write session", "SELECT set_config('default_transaction_read_only', 'off', false)", undone, "current_setting('default_transaction_read_only')", "on"},
		{"role", "SELECT set_config('role', 'pg_monitor', false)", undone, "current_user = session_user", int64(1)},
		{"advisory lock", "SELECT pg_advisory_lock(4545)", undone, "(SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND pid = pg_backend_pid())", int64(0)},
		{"shared advisory lock", "SELECT pg_advisory_lock_shared(4546)", undone, "(SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND pid = pg_backend_pid())", int64(0)},
		{"prepared statement", "PREPARE leave AS SELECT 1", notQuery, "(SELECT count(*) FROM pg_prepared_statements WHERE from_sql)", int64(0)},
		{"listen", "LISTEN clarify_leave", notQuery, "(SELECT count(*) FROM pg_listening_channels())", int64(0)},
		{"held cursor", "DECLARE leave CURSOR WITH HOLD FOR SELECT 1", notQuery, "(SELECT count(*) FROM pg_cursors WHERE name <> '')", int64(0)},
		{"temporary table", "SELECT 1 AS a INTO TEMP leave", notQuery, "(SELECT count(*) FROM pg_class WHERE relnamespace = pg_my_temp_schema())", int64(0)},
		{"sequence", "SELECT nextval('s')", readOnly, "(SELECT is_called FROM s)", int64(0)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			pid := func() any {
				res, err := s.src.Query(ctx, "SELECT pg_backend_pid()", nil, 0)
				if err != nil {
					t.Fatal(err)
				}
				return res.Rows[0][0]
			}
			before := pid()
			_, err := s.src.Query(ctx, tc.leave, nil, 0)
			stop := undone
			switch {
			case errors.Is(err, source.ErrNotQuery):
				stop = notQuery
			case err != nil && strings.Contains(err.Error(), "read-only transaction"):
				stop = readOnly
			case err != nil:
				t.Fatalf("%s: %v", tc.leave, err)
			}
			if stop != tc.stop {
				t.Errorf("%s: %s, want %s", tc.leave, stop, tc.stop)
			}
			res, err := s.src.Query(ctx, "SELECT "+tc.look+", pg_backend_pid()", nil, 0)
			if err != nil {
				t.Fatalf("%s: %v", tc.look, err)
			}
			if res.Rows[0][1] != before {
				t.Fatalf("the look ran on backend %v, the statement on %v: the test shows nothing", res.Rows[0][1], before)
			}
			if diff := cmp.Diff(tc.want, res.Rows[0][0]); diff != "" {
				t.Errorf("after %s: %s (-want +got):\n%s", tc.leave, tc.look, diff)
			}
		})
	}
}

// TestMySQLSessionClean runs, straight on the execution path (no guard),
// statements that try to leave something in their MariaDB session, then
// statements that look for it until one runs on the same connection (the
// pool reuses connections, reset in between): the look finds the session
// as a new connection would, and a named lock is free as soon as the
// statement that took it returns.
func TestMySQLSessionClean(t *testing.T) {
	s := mysqlServer(t, source.Options{})
	for _, tc := range []struct {
		name, leave string // leave returns the connection id last
		look        string // an expression the later statement reads
		want        any
	}{
		{"user variable", "SELECT @leave := 42, CONNECTION_ID()", "@leave", nil},
		{"named lock", "SELECT GET_LOCK('clarify_leave', 0), CONNECTION_ID()", "IS_USED_LOCK('clarify_leave')", nil},
		{"last insert id", "SELECT LAST_INSERT_ID(77), CONNECTION_ID()", "LAST_INSERT_ID()", int64(0)},
		// a reset keeps FOUND_ROWS(): the one row of the warmer's SELECT
		// CONNECTION_ID(), as on a new connection
		{"found rows", "SELECT SQL_CALC_FOUND_ROWS id, CONNECTION_ID() FROM items LIMIT 1", "FOUND_ROWS()", int64(1)},
		{"status counters", "SELECT count(*), CONNECTION_ID() FROM information_schema.columns",
			"(SELECT VARIABLE_VALUE < 100 FROM information_schema.SESSION_STATUS WHERE VARIABLE_NAME = 'HANDLER_READ_RND_NEXT')", int64(1)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// a connection may be closed rather than reused (the warmer had
			// enough ready): try again with another
			for range 5 {
				if sameConnection(t, s, tc.leave, tc.look, tc.want) {
					return
				}
			}
			t.Fatal("no connection served a statement again: the test shows nothing")
		})
	}
}

// sameConnection runs leave, then statements reading look until one runs
// on leave's connection, and checks what it reads there; false when none
// did.
func sameConnection(t *testing.T, s server, leave, look string, want any) bool {
	t.Helper()
	ctx := context.Background()
	res, err := s.src.Query(ctx, leave, nil, 0)
	if err != nil {
		t.Fatalf("%s: %v", leave, err)
	}
	id := res.Rows[0][len(res.Rows[0])-1]
	if strings.Contains(leave, "GET_LOCK") {
		if n := countRows(t, s.admin, "SELECT IS_FREE_LOCK('clarify_leave')"); n != 1 {
			t.Errorf("the named lock is still held after the statement returned")
		}
	}
	for range 10 {
		res, err := s.src.Query(ctx, "SELECT "+look+", CONNECTION_ID()", nil, 0)
		if err != nil {
			t.Fatalf("%s: %v", look, err)
		}
		if res.Rows[0][1] != id {
			continue // another connection of the pool
		}
		if diff := cmp.Diff(want, res.Rows[0][0]); diff != "" {
			t.Errorf("after %s, on the same connection: %s (-want +got):\n%s", leave, look, diff)
		}
		return true
	}
	return false
}

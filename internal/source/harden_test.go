package source_test

import (
	"context"
	"database/sql"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/clarify-sql/clarify/internal/guard"
	"github.com/clarify-sql/clarify/internal/source"
)

// TestSQLiteFunctionsCoverGuard: every function the guard accepts in a
// SQLite statement is allowed by the execution path's authorizer.
func TestSQLiteFunctionsCoverGuard(t *testing.T) {
	for f := range guard.SQLiteFunctions {
		if !source.ExecFunctions[f] {
			t.Errorf("the guard allows %s(), the SQLite authorizer does not", f)
		}
	}
}

func TestMySQLStatementAllowed(t *testing.T) {
	for _, tc := range []struct {
		q  string
		ok bool
	}{
		{"SELECT 1", true},
		{"  (SELECT 1) UNION (SELECT 2)", true},
		{"/* note */ -- line\n# hash\nWITH x AS (SELECT 1) SELECT * FROM x", true},
		{"SET GLOBAL general_log = 1", false},
		{"/*!50000 SET */ SELECT 1", false},
		{"SELECT /*+ MAX_EXECUTION_TIME(0) */ 1", false},
		{"SELECT * FROM t INTO OUTFILE '/tmp/x'", false},
		{"SELECT 1 INTO DUMPFILE '/tmp/x'", false},
		{"DO SLEEP(1)", false},
		{"-- only a comment", false},
		{"/* unterminated", false},
	} {
		if got := source.MySQLStatementAllowed(tc.q) == nil; got != tc.ok {
			t.Errorf("%q: allowed = %v, want %v", tc.q, got, tc.ok)
		}
	}
}

// TestSQLiteExecConnection: a connection opened as the execution pool
// opens them is read-only and query-only, trusts no schema, and reads the
// file through a memory mapping (harden.go says why).
func TestSQLiteExecConnection(t *testing.T) {
	path := filepath.Join(t.TempDir(), "m.db")
	admin, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close()
	mustExec(t, admin, "CREATE TABLE items (id INTEGER PRIMARY KEY, name TEXT)")
	db, err := sql.Open("sqlite", source.SQLiteURI(path, source.SQLiteExecParams))
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	db.SetMaxOpenConns(1)
	for _, tc := range []struct {
		pragma string
		ok     func(int64) bool
		want   string
	}{
		{"mmap_size", func(n int64) bool { return n > 0 }, "> 0"},
		{"query_only", func(n int64) bool { return n == 1 }, "1"},
		{"trusted_schema", func(n int64) bool { return n == 0 }, "0"},
	} {
		var n int64
		if err := db.QueryRow("PRAGMA " + tc.pragma).Scan(&n); err != nil {
			t.Fatalf("PRAGMA %s: %v", tc.pragma, err)
		}
		if !tc.ok(n) {
			t.Errorf("PRAGMA %s = %d, want %s", tc.pragma, n, tc.want)
		}
	}
	if _, err := db.Exec("PRAGMA query_only = 0"); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec("INSERT INTO items VALUES (1, 'x')"); err == nil {
		t.Error("an INSERT on a connection opened mode=ro succeeded")
	}
}

// TestSQLiteMappedReads: statements on the execution path read a file
// larger than the page cache through the mapping and get the rows the
// file holds, while PRAGMA (the mapping's size among them) stays refused.
func TestSQLiteMappedReads(t *testing.T) {
	s := sqliteServer(t, source.Options{})
	mustExec(t, s.admin, "CREATE TABLE big (id INTEGER PRIMARY KEY, pad TEXT)")
	mustExec(t, s.admin, "WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c LIMIT 20000) INSERT INTO big SELECT x, printf('%0500d', x) FROM c")
	want := countRows(t, s.admin, "SELECT sum(length(pad)) + sum(id) FROM big")
	res, err := s.src.Query(context.Background(), "SELECT sum(length(pad)) + sum(id) FROM big", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(res.Rows[0][0]); got != fmt.Sprint(want) {
		t.Errorf("sum through the execution path = %s, want %d", got, want)
	}
	for _, q := range []string{
		"PRAGMA mmap_size = 0",
		"PRAGMA query_only = 0",
		"SELECT * FROM pragma_mmap_size",
		"PRAGMA cache_size = 1",
	} {
		if _, err := s.src.Query(context.Background(), q, nil, 0); err == nil {
			t.Errorf("%q was executed", q)
		}
	}
}

package source_test

import (
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

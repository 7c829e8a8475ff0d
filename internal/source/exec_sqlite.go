package source

import (
	"database/sql"
	"fmt"
	"strings"

	sqlite "modernc.org/sqlite"

	"github.com/clarify-sql/clarify/internal/sqliteauth"
)

// The SQLite side of the hardened execution path: a read-only, defensive
// connection with the authorizer and the limits for untrusted SQL.

// sqliteURI turns a file path into a read-only SQLite URI.
func sqliteURI(path, params string) string {
	esc := strings.NewReplacer("%", "%25", "?", "%3f", "#", "%23").Replace(path)
	return "file:" + esc + "?" + params
}

// sqliteExecParams open the file read-only and defensive, with no trust in
// the schema (views and triggers cannot call functions with side effects),
// read through a memory map of at most 1 GiB (sqlite_mapped.go).
const sqliteExecParams = "mode=ro&_defensive=1&_pragma=query_only(1)&_pragma=trusted_schema(0)&_pragma=busy_timeout(5000)&_pragma=mmap_size(1073741824)"

func openSQLiteExec(t Target) (*execPool, error) {
	base, err := sqlite.NewConnector(sqliteURI(t.DSN, sqliteExecParams))
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", t.Display, err)
	}
	db := sql.OpenDB(sqliteauth.Connector{Connector: base, Authorize: authorizeSQLite})
	setPoolSize(db, 4)
	return &execPool{db: db}, nil
}

// SQLite limit identifiers (sqlite3.h).
const (
	limitLength            = 0
	limitSQLLength         = 1
	limitColumn            = 2
	limitExprDepth         = 3
	limitCompoundSelect    = 4
	limitVDBEOp            = 5
	limitFunctionArg       = 6
	limitAttached          = 7
	limitLikePatternLength = 8
	limitVariableNumber    = 9
	limitTriggerDepth      = 10
	limitWorkerThreads     = 11
)

// sqliteLimits follow https://www.sqlite.org/security.html ("untrusted
// SQL"), loosened where Clarify's own queries need more: expression depth
// (long AND chains), compound members, variables (IN lists) and columns.
var sqliteLimits = []struct{ id, value int }{
	{limitLength, 1_000_000},
	{limitSQLLength, 100_000},
	{limitColumn, 200},
	{limitExprDepth, 100},
	{limitCompoundSelect, 20},
	{limitVDBEOp, 250_000},
	{limitFunctionArg, 16},
	{limitAttached, 0},
	{limitLikePatternLength, 100},
	{limitVariableNumber, 1000},
	{limitTriggerDepth, 1},
	{limitWorkerThreads, 0},
}

// sqliteFunctions may be called by statements on the execution path: the
// guard's list plus what Clarify's own and evaluation queries use.
var sqliteFunctions = words(`count sum avg min max total group_concat string_agg
		row_number rank dense_rank percent_rank cume_dist ntile lag lead first_value last_value nth_value
		abs round ceil ceiling floor sign sqrt power pow exp ln log log10 log2 mod pi trunc
		coalesce nullif ifnull iif lower upper length substr substring trim ltrim rtrim replace instr
		date time datetime julianday strftime unixepoch timediff printf format char unicode hex typeof
		like glob likely unlikely`)

func words(s string) map[string]bool {
	m := map[string]bool{}
	for _, w := range strings.Fields(s) {
		m[w] = true
	}
	return m
}

// authorizeSQLite allows reading and the listed functions; it denies
// writes, schema changes, PRAGMA (including pragma_* table functions),
// ATTACH/DETACH and transactions.
func authorizeSQLite(action sqlite.AuthorizerActionCode, _, arg2, _, _ string) sqlite.AuthorizerReturnCode {
	switch action {
	case sqlite.AuthSelect, sqlite.AuthRead, sqlite.AuthRecursive:
		return sqlite.AuthorizerOK
	case sqlite.AuthFunction:
		if sqliteFunctions[strings.ToLower(arg2)] {
			return sqlite.AuthorizerOK
		}
	}
	return sqlite.AuthorizerDeny
}

// harden reasserts the authorizer and the limits on one SQLite connection.
func hardenSQLite(conn *sql.Conn) error {
	err := conn.Raw(func(dc any) error { return sqliteauth.Install(dc, authorizeSQLite) })
	if err != nil {
		return err
	}
	for _, l := range sqliteLimits {
		if _, err := sqlite.Limit(conn, l.id, l.value); err != nil {
			return err
		}
	}
	return nil
}

package source

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/go-sql-driver/mysql"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgconn/ctxwatch"
	"github.com/jackc/pgx/v5/stdlib"
	sqlite "modernc.org/sqlite"

	"github.com/clarify-sql/clarify/internal/model"
	"github.com/clarify-sql/clarify/internal/sqliteauth"
	"github.com/clarify-sql/clarify/internal/sqlitelex"
)

// The hardened execution path is the second wall behind the guard: it
// holds even for a statement the guard wrongly accepted.
//
//   - PostgreSQL: statements go only through the extended protocol (a
//     string holding two statements is refused by the server), inside a
//     READ ONLY transaction with the time and memory limits of limits.go
//     set locally for each statement; sessions start read-only and each
//     statement ends with ROLLBACK and DISCARD ALL, sent with it in one
//     round trip (exec_postgres.go); a canceled context sends a cancel
//     request, which stops the query on the server.
//   - SQLite: its own read-only pool (mode=ro, query_only, defensive), an
//     authorizer that allows only reading and a list of functions, and the
//     limits SQLite's guidance for untrusted SQL recommends, reasserted
//     for each statement.
//   - MySQL/MariaDB: no multi-statements, server-side prepared statements
//     for arguments, a read-only session (every transaction, the
//     statement's autocommit one included, is READ ONLY), the server-side
//     time and memory limits of limits.go (a canceled context alone does
//     not stop a MySQL query; a canceled one is also killed), and a fresh
//     connection per statement, so no session state (variables, locks)
//     outlives it (exec_mysql.go).

// execPool is the hardened pool of a source.
type execPool struct {
	db *sql.DB
	// limits are the server-side limits the database accepts.
	limits limitSet
	// admit caps and orders the statements running at once (nil: no cap).
	admit *limiter
	// PostgreSQL only: the descriptions of texts that return rows.
	described pgDescriptions
	// MySQL only: the fresh connections kept ready.
	warm *warmer
	// MySQL only: whether the server is MariaDB, read once.
	flavorOnce sync.Once
	mariadb    bool
	flavorErr  error
}

// setPoolSize lets a hardened pool open n connections and keep them all
// idle between statements: with database/sql's default of two idle, a
// burst of statements opened and closed a session for most of them. An
// idle connection is closed after a minute unused.
func setPoolSize(db *sql.DB, n int) {
	db.SetMaxOpenConns(n)
	db.SetMaxIdleConns(n)
	db.SetConnMaxIdleTime(time.Minute)
}

func openExec(t Target, opt Options) (*execPool, error) {
	var p *execPool
	var err error
	switch t.Dialect {
	case model.SQLite:
		p, err = openSQLiteExec(t)
	case model.Postgres:
		p, err = openPostgresExec(t, opt)
	case model.MySQL:
		p, err = openMySQLExec(t)
	default:
		return nil, fmt.Errorf("unknown dialect %q", t.Dialect)
	}
	if err != nil {
		return nil, err
	}
	p.admit = newLimiter(opt.Concurrency, t.Dialect)
	return p, nil
}

// close stops the pool's warmer, if any, and closes the pool.
func (p *execPool) close() error {
	if p.warm != nil {
		p.warm.close()
	}
	return p.db.Close()
}

// sqliteURI turns a file path into a read-only SQLite URI.
func sqliteURI(path, params string) string {
	esc := strings.NewReplacer("%", "%25", "?", "%3f", "#", "%23").Replace(path)
	return "file:" + esc + "?" + params
}

// sqliteExecParams open the file read-only and defensive, with no trust in
// the schema (views and triggers cannot call functions with side effects).
const sqliteExecParams = "mode=ro&_defensive=1&_pragma=query_only(1)&_pragma=trusted_schema(0)&_pragma=busy_timeout(5000)"

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

func openPostgresExec(t Target, opt Options) (*execPool, error) {
	cfg, err := pgx.ParseConfig(t.DSN)
	if err != nil {
		return nil, fmt.Errorf("parse postgres DSN: %w", redact(err, t.DSN))
	}
	// Whatever the DSN says: extended protocol with unnamed statements
	// only, a read-only session, and cancel requests on cancel.
	cfg.DefaultQueryExecMode = pgx.QueryExecModeDescribeExec
	cfg.StatementCacheCapacity = 0
	cfg.DescriptionCacheCapacity = 0
	cfg.RuntimeParams["default_transaction_read_only"] = "on"
	cfg.RuntimeParams["statement_timeout"] = strconv.FormatInt(opt.QueryTimeout.Milliseconds(), 10)
	cfg.RuntimeParams["idle_in_transaction_session_timeout"] = strconv.FormatInt(opt.QueryTimeout.Milliseconds()+5000, 10)
	cfg.BuildContextWatcherHandler = func(pc *pgconn.PgConn) ctxwatch.Handler {
		return &pgWatch{
			cancel:   &pgconn.CancelRequestContextWatcherHandler{Conn: pc, DeadlineDelay: 2 * time.Second},
			deadline: &pgconn.DeadlineContextWatcherHandler{Conn: pc.Conn()},
		}
	}
	// Each statement ends with DISCARD ALL (exec_postgres.go), so an idle
	// connection holds no state of the statement it ran.
	db := stdlib.OpenDB(*cfg)
	setPoolSize(db, 10)
	return &execPool{db: db}, nil
}

func openMySQLExec(t Target) (*execPool, error) {
	cfg, err := mysql.ParseDSN(t.DSN)
	if err != nil {
		return nil, fmt.Errorf("parse mysql DSN: %w", err)
	}
	cfg.MultiStatements = false
	cfg.InterpolateParams = false
	cfg.AllowAllFiles = false
	cfg.Params = nil // no session variables from the DSN
	conn, err := mysql.NewConnector(cfg)
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", t.Display, err)
	}
	db := sql.OpenDB(conn)
	// A fresh connection per statement, so no session state survives it:
	// each is closed after its statement, and a warmer keeps a few fresh
	// ones ready (exec_mysql.go), so connecting is not on the way.
	setPoolSize(db, 10)
	p := &execPool{db: db}
	p.warm = newWarmer(db, mysqlWarm)
	return p, nil
}

// checkArgs refuses argument types a driver could read as options (pgx
// takes a leading QueryExecMode argument as the protocol to use).
func checkArgs(args []any) error {
	for i, a := range args {
		switch a.(type) {
		case nil, bool, string, []byte, time.Time,
			int, int8, int16, int32, int64, uint, uint8, uint16, uint32, uint64, float32, float64:
		default:
			return fmt.Errorf("argument %d has unsupported type %T", i+1, a)
		}
	}
	return nil
}

// run executes one statement on the hardened path once the source's
// limiter admits it.
func (p *execPool) run(ctx context.Context, s *Source, query string, args []any, maxRows int) (*Result, error) {
	if err := checkArgs(args); err != nil {
		return nil, err
	}
	return p.admitted(ctx, query, func() (*Result, error) { return p.runAdmitted(ctx, s, query, args, maxRows) })
}

func (p *execPool) runAdmitted(ctx context.Context, s *Source, query string, args []any, maxRows int) (*Result, error) {
	ctx, stop := context.WithCancel(ctx)
	defer stop()
	switch s.Target.Dialect {
	case model.SQLite:
		// The driver runs every statement of a text; run only one.
		if !sqlitelex.Scan(query).Single() {
			return nil, ErrNotSingle
		}
		conn, err := p.db.Conn(ctx)
		if err != nil {
			return nil, err
		}
		defer conn.Close()
		if err := hardenSQLite(conn); err != nil {
			return nil, err
		}
		return collect(ctx, stop, conn, query, args, maxRows)
	case model.Postgres:
		return p.runPostgres(ctx, stop, s, query, args, maxRows)
	}
	if err := mysqlStatementAllowed(query); err != nil {
		return nil, err
	}
	return p.runMySQL(ctx, stop, s, query, args, maxRows)
}

// ErrNotSingle is returned for SQLite text that is not exactly one
// statement free of comments: the SQLite driver would run each statement
// of it, and a comment is where a second one hides.
var ErrNotSingle = errors.New("only one statement without comments is executed")

// ErrNotQuery is returned for a statement the database says returns no
// rows (SET, COPY, DO, CALL …): only queries are executed.
var ErrNotQuery = errors.New("only statements that return rows are executed")

// mysqlStatementAllowed is the MySQL wall's look at the text: MySQL can
// prepare SET and other statements that write nothing a READ ONLY
// transaction refuses, and SELECT … INTO OUTFILE writes server files. The
// statement must start with SELECT, WITH or ( after comments, contain no
// executable comment, and name no OUTFILE or DUMPFILE anywhere.
func mysqlStatementAllowed(q string) error {
	lower := strings.ToLower(q)
	if strings.Contains(lower, "outfile") || strings.Contains(lower, "dumpfile") || strings.Contains(lower, "/*!") || strings.Contains(lower, "/*+") {
		// Checked on the raw text, strings included, because this wall
		// must hold without a MySQL lexer; Clarify's own statements carry
		// values as arguments, never in the text.
		return fmt.Errorf("%w: the text holds OUTFILE, DUMPFILE or an executable or hint comment (even inside a string), which MySQL may act on", ErrNotQuery)
	}
	rest := strings.TrimLeft(lower, " \t\r\n(")
	for {
		switch {
		case strings.HasPrefix(rest, "--"), strings.HasPrefix(rest, "#"):
			i := strings.IndexByte(rest, '\n')
			if i < 0 {
				return ErrNotQuery
			}
			rest = rest[i+1:]
		case strings.HasPrefix(rest, "/*"):
			i := strings.Index(rest, "*/")
			if i < 0 {
				return ErrNotQuery
			}
			rest = rest[i+2:]
		default:
			if strings.HasPrefix(rest, "select") || strings.HasPrefix(rest, "with") {
				return nil
			}
			return ErrNotQuery
		}
		rest = strings.TrimLeft(rest, " \t\r\n(")
	}
}

// pgWatch ends a PostgreSQL statement whose context ends. A deadline that
// passed (a preview's budget, the query timeout) drops the connection at
// once: the server stops the statement itself, since statement_timeout is
// set to the same deadline, and waiting for a cancel request's round trip
// (100 ms or more) would make the caller overrun its budget. A caller that
// went away (cancelled, not timed out) gets a cancel request, so the server
// stops at once rather than at the timeout.
type pgWatch struct {
	cancel   *pgconn.CancelRequestContextWatcherHandler
	deadline *pgconn.DeadlineContextWatcherHandler
	used     ctxwatch.Handler
}

func (w *pgWatch) HandleCancel(ctx context.Context) {
	w.used = w.cancel
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		w.used = w.deadline
	}
	w.used.HandleCancel(ctx)
}

func (w *pgWatch) HandleUnwatchAfterCancel() {
	if w.used != nil {
		w.used.HandleUnwatchAfterCancel()
		w.used = nil
	}
}

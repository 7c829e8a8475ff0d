package source

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/go-sql-driver/mysql"
	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/pgconn/ctxwatch"
	"github.com/jackc/pgx/v5/stdlib"

	"github.com/clarify-sql/clarify/internal/model"
	"github.com/clarify-sql/clarify/internal/sqlitelex"
)

// The hardened execution path is the second wall behind the guard: it
// holds even for a statement the guard wrongly accepted.
//
//   - PostgreSQL: statements go only through the extended protocol (a
//     string holding two statements is refused by the server), inside a
//     READ ONLY transaction; sessions start read-only with the time and
//     memory limits of limits.go as their reset values, a statement whose
//     caller's deadline is nearer sets its own time limit locally, and
//     each statement ends with ROLLBACK and a reset (advisory locks
//     released; a connection left holding a prepared statement made in
//     SQL is closed), sent with it in one round trip; a connection keeps
//     the statements it ran prepared (exec_postgres.go, pg_kept.go); a
//     canceled context sends a cancel request, which stops the query on
//     the server.
//   - SQLite: its own read-only pool (mode=ro, query_only, defensive), an
//     authorizer that allows only reading and a list of functions, and the
//     limits SQLite's guidance for untrusted SQL recommends, reasserted
//     for each statement; the file is read through a memory map, and a
//     file truncated under a statement fails that statement instead of
//     crashing the process (sqlite_mapped.go).
//   - MySQL/MariaDB: no multi-statements, server-side prepared statements
//     for arguments, a read-only session (every transaction, the
//     statement's autocommit one included, is READ ONLY), the server-side
//     time and memory limits of limits.go (a canceled context alone does
//     not stop a MySQL query; a canceled one is also killed), and per
//     statement a new connection or one reset with COM_RESET_CONNECTION
//     after its last statement, so no session state (variables, locks)
//     outlives it (exec_mysql.go, mysql_reset.go).

// execPool is the hardened pool of a source.
type execPool struct {
	db *sql.DB
	// limits are the server-side limits the database accepts.
	limits limitSet
	// admit caps and orders the statements running at once (nil: no cap).
	admit *limiter
	// PostgreSQL only: the descriptions of texts that return rows.
	described pgDescriptions
	// PostgreSQL only: how statements run (a pgMode: connections keep
	// their statements, or not, or a pooler is between; pg_pooled.go).
	pgMode atomic.Int32
	// PostgreSQL only: the limits a pooled pool's statements set in their
	// own transactions (pg_pooled.go).
	local limitSet
	// MySQL only: the fresh or reset connections kept ready.
	warm *warmer
	// PostgreSQL only: keeps one connection open between questions
	// (keep.go); used is when the last statement was admitted, in Unix
	// nanoseconds.
	keep *keeper
	used atomic.Int64
	// MySQL only: whether the server is MariaDB, read once.
	flavorOnce sync.Once
	mariadb    bool
	flavorErr  error
}

// setPoolSize lets a hardened pool open n connections and keep them all
// idle between statements: with database/sql's default of two idle, a
// burst of statements opened and closed a session for most of them. An
// idle connection is closed after poolIdle unused (keep.go).
func setPoolSize(db *sql.DB, n int) {
	db.SetMaxOpenConns(n)
	db.SetMaxIdleConns(n)
	db.SetConnMaxIdleTime(poolIdle)
}

// openExec opens the hardened pool of the source named name.
func openExec(name string, t Target, opt Options) (*execPool, error) {
	var p *execPool
	var err error
	switch t.Dialect {
	case model.SQLite:
		p, err = openSQLiteExec(t)
	case model.Postgres:
		p, err = openPostgresExec(name, t, opt)
	case model.MySQL:
		p, err = openMySQLExec(t, opt)
	default:
		return nil, fmt.Errorf("unknown dialect %q", t.Dialect)
	}
	if err != nil {
		return nil, err
	}
	p.admit = newLimiter(opt.Concurrency, t.Dialect)
	return p, nil
}

// close stops the pool's warmer and keeper, if any, and closes the pool.
func (p *execPool) close() error {
	if p.warm != nil {
		p.warm.close()
	}
	p.stopKeeper()
	return p.db.Close()
}

func openPostgresExec(name string, t Target, opt Options) (*execPool, error) {
	cfg, err := pgx.ParseConfig(t.DSN)
	if err != nil {
		return nil, fmt.Errorf("parse postgres DSN: %w", redact(err, t.DSN))
	}
	// Whatever the DSN says: extended protocol with unnamed statements
	// only, a read-only session, and cancel requests on cancel.
	cfg.DefaultQueryExecMode = pgx.QueryExecModeDescribeExec
	cfg.StatementCacheCapacity = 0
	cfg.DescriptionCacheCapacity = 0
	// Each connection starts with default_transaction_read_only and the
	// limits of limits.go (pgStartupLimits), unless a pooler is between.
	cfg.BuildContextWatcherHandler = func(pc *pgconn.PgConn) ctxwatch.Handler {
		return &pgWatch{
			cancel:   &pgCancel{conn: pc, delay: pgCancelDelay},
			deadline: &pgconn.DeadlineContextWatcherHandler{Conn: pc.Conn()},
		}
	}
	// Each statement ends with ROLLBACK and a reset (exec_postgres.go), so
	// an idle connection holds no state of the statement it ran but the
	// statement itself, prepared.
	p := &execPool{}
	p.db = sql.OpenDB(&pgConnector{inner: stdlib.GetConnector(*cfg, stdlib.OptionBeforeConnect(p.pgStartupLimits(opt.Log, opt.QueryTimeout))), p: p, log: opt.Log, source: name, timeout: opt.QueryTimeout})
	setPoolSize(p.db, 10)
	p.startKeeper(poolIdle, keepFor)
	return p, nil
}

func openMySQLExec(t Target, opt Options) (*execPool, error) {
	cfg, err := mysql.ParseDSN(t.DSN)
	if err != nil {
		return nil, fmt.Errorf("parse mysql DSN: %w", err)
	}
	cfg.MultiStatements = false
	cfg.InterpolateParams = false
	cfg.AllowAllFiles = false
	cfg.Params = nil // no session variables from the DSN
	// the driver's notes (a connection broken by a cancel, say) go to the
	// source's log, not to the process's standard error
	cfg.Logger = driverLog{opt.Log}
	// Sessions are reset by writing COM_RESET_CONNECTION on the socket
	// (mysql_reset.go), which needs the protocol's own bytes on it: not
	// under TLS or compression, and a socket this package dials.
	resets := cfg.TLS == nil && (cfg.Net == "tcp" || cfg.Net == "unix")
	if resets {
		cfg.DialFunc = dialMySQL
		if err := cfg.Apply(mysql.EnableCompression(false)); err != nil {
			return nil, fmt.Errorf("open %s: %w", t.Display, err)
		}
	}
	conn, err := mysql.NewConnector(cfg)
	if err != nil {
		return nil, fmt.Errorf("open %s: %w", t.Display, err)
	}
	p := &execPool{}
	var reset func(context.Context, *sql.Conn) (mysqlSession, error)
	if resets {
		conn, reset = resetConnector{conn}, p.resetMySQL
	}
	p.db = sql.OpenDB(conn)
	// No session state survives a statement: a warmer keeps a few fresh or
	// reset connections ready (exec_mysql.go), so neither connecting nor
	// resetting is on a statement's way.
	setPoolSize(p.db, 10)
	p.warm = newWarmer(p.db, mysqlWarm, p.prepareMySQL(opt.Log, opt.QueryTimeout), reset)
	return p, nil
}

// driverLog is the MySQL driver's logger on a source's log, at debug
// level: what it reports is also returned as the statement's error.
type driverLog struct{ log *slog.Logger }

func (l driverLog) Print(v ...any) { l.log.Debug("mysql driver: " + fmt.Sprint(v...)) }

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
		return readMapped(conn, func() (*Result, error) { return collect(ctx, stop, conn, query, args, maxRows) })
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
// stops at once rather than at the timeout (pgCancel).
type pgWatch struct {
	cancel   *pgCancel
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

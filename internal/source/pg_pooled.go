package source

import (
	"context"
	"database/sql/driver"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"strings"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/stdlib"
)

// A PostgreSQL source may be reached through a pooler in transaction mode
// (PgBouncer, and the poolers of hosted PostgreSQL services that use it):
// each transaction of a client connection then runs on whichever of the
// pooler's server sessions is free, and the session outlives the client.
// Three things the execution path relies on on a connection of its own
// do not hold there:
//
//   - startup parameters: PgBouncer refuses every one it does not track
//     ("unsupported startup parameter: jit"), so a connection asking for
//     the limits of limits.go never opens, and one that ignores them
//     (ignore_startup_parameters) gives sessions without them;
//   - kept statements: a statement prepared by name in one transaction's
//     session is not in the next one's (pg_kept.go names them so that
//     this is an error, 26000, never another client's statement);
//   - DISCARD ALL: it would reset a session the pooler shares with its
//     other clients (the settings its connect_query gave, say).
//
// A pool that meets one of the first two — a start refused, a new
// session without the statement_timeout it asked for (pgConnector,
// pgParamsIgnored), a kept statement missing (stopKeeping) — turns
// pooled for good, warning once: its connections open without the
// limits; each statement's pipeline sets them in its own transaction
// (SELECT set_config(…, true) after BEGIN READ ONLY, statement_timeout
// the statement's own), runs the statement unnamed and, after the
// ROLLBACK that ends the transaction with every local setting, releases
// session advisory locks (pgPooledReset) instead of DISCARD ALL. A
// prepared statement a function made in SQL is then not looked for: the
// session is the pooler's, and the guard refuses EXECUTE.

// pgMode is how a PostgreSQL pool runs its statements.
type pgMode int32

const (
	// pgKeeping: the pool's connections keep their statements prepared
	// (pg_kept.go), start with the limits as startup parameters, and end
	// each statement with the reset statement (pgResetSQL).
	pgKeeping pgMode = iota
	// pgPlain: the server refused the reset statement (a role that may
	// not read pg_prepared_statements); statements run unnamed and end
	// with DISCARD ALL.
	pgPlain
	// pgPooled: a pooler is between (this file's comment).
	pgPooled
)

// mode returns how the pool runs its PostgreSQL statements now.
func (p *execPool) mode() pgMode { return pgMode(p.pgMode.Load()) }

// setMode moves the pool to mode m, never back (keeping, then plain, then
// pooled); the move is logged as a warning, once.
func (p *execPool) setMode(log *slog.Logger, source string, m pgMode, err error) {
	for {
		cur := p.pgMode.Load()
		if pgMode(cur) >= m {
			return
		}
		if p.pgMode.CompareAndSwap(cur, int32(m)) {
			break
		}
	}
	switch m {
	case pgPlain:
		log.Warn("PostgreSQL statements are no longer kept prepared on this source; each now ends with DISCARD ALL", "source", source, "err", err)
	case pgPooled:
		log.Warn("a pooler is between this source and PostgreSQL (it refused or ignored the session's startup parameters, or lost a statement prepared on the connection): each statement now sets its limits in its own transaction, unprepared",
			"source", source, "err", err)
	}
}

// pgStartupRefused reports whether a connection's start failed for a
// startup parameter the other end does not take, as PgBouncer refuses
// one it does not track (SQLSTATE 08P01, "unsupported startup
// parameter: …"). PostgreSQL itself refuses an unknown or forbidden
// setting with another code (refusal).
func pgStartupRefused(err error) bool {
	var pg *pgconn.PgError
	return errors.As(err, &pg) && pg.Code == "08P01" && strings.Contains(pg.Message, "startup parameter")
}

// errParamsIgnored reports a session that started without the startup
// parameters its connection asked for (pgParamsIgnored).
var errParamsIgnored = errors.New("the session runs without the statement_timeout its connection asked for at startup")

// pgParamsIgnored reports whether a new connection, which asked for the
// limits as startup parameters, has a session without them: a pooler
// that ignores startup parameters (PgBouncer's ignore_startup_parameters)
// hands it a session of its own. PostgreSQL gives a startup parameter
// precedence over a role's or database's setting, so a session that has
// them shows the statement_timeout asked for. One round trip per new
// connection; a server that will not say (an error of its own) is taken
// to have them.
func pgParamsIgnored(ctx context.Context, conn driver.Conn, timeout time.Duration) (bool, error) {
	sc, ok := conn.(*stdlib.Conn)
	if !ok {
		return false, errors.New("unexpected PostgreSQL driver")
	}
	res := sc.Conn().PgConn().ExecParams(ctx, pgTimeoutMS, nil, nil, nil, nil).Read()
	switch {
	case pgCode(res.Err) != "":
		return false, nil
	case res.Err != nil:
		return false, fmt.Errorf("read the session's statement_timeout: %w", res.Err)
	case len(res.Rows) != 1 || len(res.Rows[0]) != 1:
		return false, errors.New("read the session's statement_timeout: no row")
	}
	return string(res.Rows[0][0]) != PostgresSettings(timeout)["statement_timeout"], nil
}

// pgTimeoutMS reads the session's statement_timeout in milliseconds
// (current_setting writes it with a unit, "30s"; pg_settings, which gives
// it bare, is a view a cautious administrator may revoke).
const pgTimeoutMS = "SELECT (extract(epoch FROM pg_catalog.current_setting('statement_timeout')::interval) * 1000)::bigint"

// pgLocalLimits returns the statement that gives one transaction the
// limits ls, and its arguments: names and values are bound, and the text
// holds only placeholders.
func pgLocalLimits(ls []limit) (string, [][]byte) {
	var b strings.Builder
	args := make([][]byte, 0, 2*len(ls))
	b.WriteString("SELECT ")
	for i, l := range ls {
		if i > 0 {
			b.WriteString(", ")
		}
		n := 2*i + 1
		b.WriteString("pg_catalog.set_config($" + strconv.Itoa(n) + ", $" + strconv.Itoa(n+1) + ", true)")
		args = append(args, []byte(l.name), []byte(l.value))
	}
	return b.String(), args
}

// pooledLimits returns the limits a pooled statement with timeout left
// sets (postgresLimits: statement_timeout is that time), trying each once
// per pool on pc (in a transaction of its own) and leaving out an
// optional one the server refuses, with a warning.
func (p *execPool) pooledLimits(ctx context.Context, s *Source, pc *pgconn.PgConn, timeout time.Duration) ([]limit, error) {
	return p.local.usable(ctx, s.opt.Log, "postgres", postgresLimits(timeout), func(ctx context.Context, l limit) error {
		return probePostgresLimit(ctx, pc, l)
	})
}

// pgPooledReset ends a pooled statement's batch after its ROLLBACK: it
// releases session advisory locks, the one thing a read-only statement
// can leave in a session that the rollback keeps and the pooler's next
// client would find.
const pgPooledReset = "SELECT pg_catalog.pg_advisory_unlock_all()"

package source

import (
	"context"
	"database/sql/driver"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgconn"
	"github.com/jackc/pgx/v5/stdlib"
)

// A PostgreSQL statement on the hardened path costs two round trips, one
// when its text was described before on the pool:
//
//  1. describe: the server parses and describes the statement without
//     running it (the extended protocol refuses two statements in one
//     string), and one that returns no rows (SET, COPY, DO …) is refused;
//  2. one pipeline, one Sync: the statement prepared by name on this
//     connection if it has not run there before (pg_kept.go); BEGIN READ
//     ONLY; SET LOCAL statement_timeout when the caller's deadline is
//     nearer than the query timeout; the statement; ROLLBACK; the reset
//     (pgResetSQL: advisory locks released, and a prepared statement made
//     in SQL found, which closes the connection).
//
// The limits of limits.go that do not depend on the caller's deadline are
// the session's own: each connection starts with them as startup
// parameters (pgStartupLimits), which makes them the values a ROLLBACK,
// RESET ALL and DISCARD ALL return to, so a statement does not pay for
// setting them (a set_config of six limits was a third of the server's
// time for a statement reading three rows by key).
//
// Whether a text returns rows is a property of its parse tree, so the
// description of a text that does is kept (pgDescriptions) and step 1 is
// skipped the next time. The statement's parameters are sent with the
// types the description gave, as the describe-then-execute mode did.
// When anything in the pipeline fails, the server skips the rest up to
// the Sync: ROLLBACK and DISCARD ALL are then sent on their own (which
// deallocates the kept statements, forgotten with them), and a connection
// that cannot be brought back to an idle, reset session is closed rather
// than returned to the pool.
//
// A pool whose server refuses the reset (a role that may not read
// pg_prepared_statements) stops keeping statements (stopKeeping): its
// statements then end with ROLLBACK and DISCARD ALL, unnamed. One whose
// connection's start a pooler refused, or that lost a kept statement (a
// pooler handing each transaction another session), turns pooled
// (pg_pooled.go). Either way the statement that found out runs again, or
// keeps its answer when it had one.
//
// Until 2026-11 every statement ended with DISCARD ALL, which also
// deallocates every prepared statement: each statement was then parsed
// and planned anew. What DISCARD ALL reset beyond the rollback is, for a
// statement in a read-only transaction, the session's advisory locks and
// prepared statements made in SQL (settings, LISTEN and held cursors are
// undone by the rollback; temporary tables and sequences are refused by
// the read-only transaction): pgResetSQL covers both.

// pgDescriptions remembers the descriptions of statements that return
// rows, by text, for one pool.
type pgDescriptions struct {
	mu sync.Mutex
	m  map[string]*pgconn.StatementDescription
}

// maxDescriptions bounds the texts a pool remembers; past it, an
// arbitrary one is forgotten for each new one.
const maxDescriptions = 1024

func (d *pgDescriptions) get(query string) *pgconn.StatementDescription {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.m[query]
}

func (d *pgDescriptions) put(query string, sd *pgconn.StatementDescription) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.m == nil {
		d.m = map[string]*pgconn.StatementDescription{}
	}
	if len(d.m) >= maxDescriptions {
		for k := range d.m {
			delete(d.m, k)
			break
		}
	}
	d.m[query] = sd
}

func (d *pgDescriptions) forget(query string) {
	d.mu.Lock()
	defer d.mu.Unlock()
	delete(d.m, query)
}

func (p *execPool) runPostgres(ctx context.Context, stop func(), s *Source, query string, args []any, maxRows int) (*Result, error) {
	conn, err := p.db.Conn(ctx)
	if err != nil {
		return nil, err
	}
	defer conn.Close()
	var res *Result
	err = conn.Raw(func(dc any) error {
		c, ok := dc.(*stdlib.Conn)
		if !ok {
			return errors.New("unexpected PostgreSQL driver")
		}
		var err error
		res, err = p.postgresStatement(ctx, stop, s, c.Conn(), query, args, maxRows)
		if errors.Is(err, errStaleDescription) || errors.Is(err, errKeepingOff) {
			// described again, from the server's catalog as it is now,
			// or run without kept statements
			res, err = p.postgresStatement(ctx, stop, s, c.Conn(), query, args, maxRows)
		}
		return err
	})
	return res, err
}

// errStaleDescription reports a statement that failed in a way a changed
// table explains (a type mismatch, a missing operator or function), run
// with a remembered description: it is worth one more run, described anew.
var errStaleDescription = errors.New("statement description out of date")

// staleDescription reports whether err could come from parameter types
// that no longer fit the tables: SQLSTATE class 42 (no such operator,
// datatype mismatch), 22P02 (an argument that is not of the type) and
// 0A000 ("cached plan must not change result type").
func staleDescription(err error) bool {
	code := pgCode(err)
	return strings.HasPrefix(code, "42") || code == "22P02" || code == "0A000"
}

func (p *execPool) postgresStatement(ctx context.Context, stop func(), s *Source, c *pgx.Conn, query string, args []any, maxRows int) (res *Result, err error) {
	pc := c.PgConn()
	sd := p.described.get(query)
	remembered := sd != nil
	// fail reports a failure of the statement itself, forgetting its
	// description, which may be what failed.
	fail := func(err error) (*Result, error) {
		p.described.forget(query)
		if remembered && staleDescription(err) {
			return nil, fmt.Errorf("%w: %w", errStaleDescription, err)
		}
		return nil, err
	}
	if sd == nil {
		if sd, err = pc.Prepare(ctx, "", query, nil); err != nil {
			return nil, err
		}
		if len(sd.Fields) == 0 {
			return nil, ErrNotQuery
		}
		p.described.put(query, sd)
	}
	if len(sd.ParamOIDs) != len(args) {
		return nil, fmt.Errorf("the statement takes %d arguments, got %d", len(sd.ParamOIDs), len(args))
	}
	var eqb pgx.ExtendedQueryBuilder
	if err := eqb.Build(c.TypeMap(), sd, args); err != nil {
		return nil, err
	}
	mode := p.mode()
	q := pgSend{query: query, sd: sd, eqb: &eqb, mode: mode}
	var kept *pgKept
	if mode != pgPooled {
		q.setTimeout, _ = pgStatementTimeout(ctx, s.opt.QueryTimeout)
	}
	switch mode {
	case pgKeeping:
		kept = keptOn(pc)
		q.plan = kept.plan(query, sd)
		q.reset = kept.resetName()
		q.prepareReset = !kept.reset
	case pgPooled:
		ls, err := p.pooledLimits(ctx, s, pc, statementTimeout(ctx, s.opt.QueryTimeout))
		if err != nil {
			return nil, err
		}
		q.local, q.localArgs = pgLocalLimits(ls)
		if k := keptOf(pc); k != nil {
			// kept before the pool turned pooled: deallocated in this
			// batch, wherever the session they were prepared in is
			q.drop = k.names()
		}
	}
	plan := q.plan
	pl := pc.StartPipeline(ctx)
	before := sendPostgres(pl, q)
	clean, leftover := false, false
	defer func() {
		if err := pl.Close(); err != nil {
			clean = false
		}
		switch {
		case leftover:
			// a prepared statement this batch did not make: the
			// connection goes, with whatever else it may hold
			s.opt.Log.Warn("a statement left a prepared statement in its session; its connection is closed", "source", s.Name)
			pc.Close(ctx) //nolint:errcheck // the pool drops a closed connection either way
		case !clean:
			pgRecover(ctx, pc, p.mode())
		case mode == pgKeeping:
			kept.commit(plan)
		default:
			// unnamed statements; DISCARD ALL, or the Close messages of
			// q.drop, took whatever the connection had kept
			forgetKept(pc)
		}
	}()
	if err := pl.Sync(); err != nil {
		return nil, err
	}
	if q.prepareReset {
		if _, err := pgNext[*pgconn.StatementDescription](pl); err != nil {
			return nil, p.stopKeeping(s, err)
		}
	}
	if plan.prepare {
		got, err := pgNext[*pgconn.StatementDescription](pl)
		if err != nil {
			return fail(err)
		}
		if !sameShape(got, sd) {
			p.described.forget(query)
			return nil, fmt.Errorf("%w: the statement's tables changed since it was described", errStaleDescription)
		}
	}
	for range before {
		if err := pgSkip(pl); err != nil {
			return nil, err
		}
	}
	rr, err := pgNext[*pgconn.ResultReader](pl)
	if err != nil {
		if mode == pgKeeping && !plan.prepare && pgCode(err) == "26000" {
			// the session lost a statement this connection kept: a
			// pooler between, or a function that deallocated it
			return nil, p.stopKeeping(s, err)
		}
		return fail(err)
	}
	res, err = pgCollect(stop, c.TypeMap(), rr, maxRows)
	if err != nil {
		return fail(err)
	}
	// ROLLBACK and the reset; when a truncated result's statement was
	// canceled, the server skipped them, and pgRecover sends them again.
	if err := pgSkip(pl); err != nil {
		if res.Truncated {
			return res, nil
		}
		return nil, err
	}
	switch mode {
	case pgKeeping:
		if leftover, err = pgResetLeft(pl); err != nil {
			// the statement ran and was rolled back, so its answer
			// stands; pgRecover resets the session
			_ = p.stopKeeping(s, err)
			return res, nil
		}
		if plan.evict != "" {
			if _, err := pgNext[*pgconn.CloseComplete](pl); err != nil {
				return nil, err
			}
		}
	default:
		// DISCARD ALL, or the pooled reset
		if err := pgSkip(pl); err != nil {
			return nil, err
		}
		for range q.drop {
			if _, err := pgNext[*pgconn.CloseComplete](pl); err != nil {
				return nil, err
			}
		}
	}
	if _, err := pgNext[*pgconn.PipelineSync](pl); err != nil {
		return nil, err
	}
	clean = pc.TxStatus() == 'I'
	return res, nil
}

// pgSend is what one statement's pipeline sends.
type pgSend struct {
	query string
	sd    *pgconn.StatementDescription // the pool's description
	eqb   *pgx.ExtendedQueryBuilder    // the arguments, encoded
	mode  pgMode
	// keeping only: the kept statement to run, the name of the reset
	// statement, and whether it is to be prepared first
	plan         keptPlan
	reset        string
	prepareReset bool
	// keeping and plain: the SET LOCAL statement_timeout, or ""
	setTimeout string
	// pooled only: the statement setting the limits (pgLocalLimits), its
	// arguments, and the names of statements to deallocate at the end
	local     string
	localArgs [][]byte
	drop      []string
}

// sendPostgres queues one statement's pipeline (the file's comment) and
// returns how many results come between the preparations and the
// statement's.
func sendPostgres(pl *pgconn.Pipeline, q pgSend) (before int) {
	if q.prepareReset {
		pl.SendPrepare(q.reset, pgResetSQL, nil)
	}
	if q.plan.prepare {
		pl.SendPrepare(q.plan.sd.Name, q.query, q.sd.ParamOIDs)
	}
	pl.SendQueryParams("BEGIN READ ONLY", nil, nil, nil, nil)
	before = 1
	if q.setTimeout != "" {
		pl.SendQueryParams(q.setTimeout, nil, nil, nil, nil)
		before++
	}
	if q.local != "" {
		pl.SendQueryParams(q.local, q.localArgs, nil, nil, nil)
		before++
	}
	if q.mode == pgKeeping {
		pl.SendQueryStatement(q.plan.sd, q.eqb.ParamValues, q.eqb.ParamFormats, resultFormats(q.sd))
	} else {
		pl.SendQueryParams(q.query, q.eqb.ParamValues, q.sd.ParamOIDs, q.eqb.ParamFormats, resultFormats(q.sd))
	}
	pl.SendQueryParams("ROLLBACK", nil, nil, nil, nil)
	switch q.mode {
	case pgKeeping:
		pl.SendQueryPrepared(q.reset, nil, nil, nil)
		if q.plan.evict != "" {
			pl.SendDeallocate(q.plan.evict)
		}
	case pgPlain:
		pl.SendQueryParams("DISCARD ALL", nil, nil, nil, nil)
	case pgPooled:
		pl.SendQueryParams(pgPooledReset, nil, nil, nil, nil)
		for _, name := range q.drop {
			pl.SendDeallocate(name)
		}
	}
	return before
}

// errKeepingOff reports a statement that did not run because its pool
// has just stopped keeping statements: it is worth one more run, without.
var errKeepingOff = errors.New("statements are no longer kept prepared")

// stopKeeping turns keeping statements off for the pool when the server
// refused the reset statement (a role without access to
// pg_prepared_statements: the pool's statements then end with DISCARD
// ALL) or a kept statement was gone (26000: a pooler that hands each
// transaction another session, PgBouncer in transaction mode; the pool
// turns pooled, pg_pooled.go). It returns errKeepingOff wrapping err, or
// err itself when that is no refusal (a canceled statement, a broken
// connection).
func (p *execPool) stopKeeping(s *Source, err error) error {
	code := pgCode(err)
	if code == "" || strings.HasPrefix(code, "57") || strings.HasPrefix(code, "53") {
		return err
	}
	to := pgPlain
	if code == "26000" {
		to = pgPooled
	}
	p.setMode(s.opt.Log, s.Name, to, err)
	return fmt.Errorf("%w: %w", errKeepingOff, err)
}

// pgCode is the SQLSTATE of a server's error, "" for any other error.
func pgCode(err error) string {
	var pg *pgconn.PgError
	if errors.As(err, &pg) {
		return pg.Code
	}
	return ""
}

// pgResetSQL ends every statement's batch, after its ROLLBACK (which
// undoes whatever the statement changed in the transaction, settings
// included): it releases session advisory locks, the one thing of a
// session a rollback keeps that a read-only statement can take, and
// reports whether the session holds a prepared statement made in SQL — a
// function can leave one (EXECUTE 'PREPARE …' survives the rollback); the
// connection is then closed. It is what DISCARD ALL did for these
// statements while leaving the connection's own, protocol-level ones.
const pgResetSQL = "SELECT pg_catalog.pg_advisory_unlock_all(), EXISTS (SELECT FROM pg_catalog.pg_prepared_statements WHERE from_sql)"

// pgNext reads the pipeline's next result, which must be a T.
func pgNext[T any](pl *pgconn.Pipeline) (T, error) {
	var zero T
	r, err := pl.GetResults()
	if err != nil {
		return zero, err
	}
	t, ok := r.(T)
	if !ok {
		return zero, fmt.Errorf("the pipeline returned %T, want %T", r, zero)
	}
	return t, nil
}

// pgSkip reads a statement's result the batch does not use.
func pgSkip(pl *pgconn.Pipeline) error {
	rr, err := pgNext[*pgconn.ResultReader](pl)
	if err != nil {
		return err
	}
	_, err = rr.Close()
	return err
}

// pgResetLeft reads pgResetSQL's row: whether the session holds a
// prepared statement made in SQL.
func pgResetLeft(pl *pgconn.Pipeline) (bool, error) {
	rr, err := pgNext[*pgconn.ResultReader](pl)
	if err != nil {
		return false, err
	}
	left := false
	for rr.NextRow() {
		if v := rr.Values(); len(v) == 2 {
			left = string(v[1]) != "f"
		}
	}
	_, err = rr.Close()
	return left, err
}

// pgRecover ends whatever the batch left open (an aborted transaction, a
// session the statement changed) on a context of its own, the caller's
// having possibly ended; a connection it cannot reset is closed, so the
// pool drops it.
func pgRecover(ctx context.Context, pc *pgconn.PgConn, mode pgMode) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	defer cancel()
	kept := keptOf(pc)
	forgetKept(pc)
	var err error
	if mode == pgPooled {
		// the session is the pooler's: only what this connection made
		// is taken back (a Close of a statement the session does not
		// hold is no error)
		pl := pc.StartPipeline(ctx)
		pl.SendQueryParams("ROLLBACK", nil, nil, nil, nil)
		pl.SendQueryParams(pgPooledReset, nil, nil, nil, nil)
		if kept != nil {
			for _, name := range kept.names() {
				pl.SendDeallocate(name)
			}
		}
		// Close reads every result up to the Sync and returns the error
		// among them, closing the connection when it broke
		err = errors.Join(pl.Sync(), pl.Close())
	} else {
		var b pgconn.Batch
		b.ExecParams("ROLLBACK", nil, nil, nil, nil)
		// DISCARD ALL deallocates the connection's kept statements too
		b.ExecParams("DISCARD ALL", nil, nil, nil, nil)
		_, err = pc.ExecBatch(ctx, &b).ReadAll()
	}
	if err != nil || pc.TxStatus() != 'I' {
		pc.Close(ctx) //nolint:errcheck // the pool drops a closed connection either way
	}
}

// pgTimeoutSlack is how much nearer than the query timeout the caller's
// deadline must be for a statement to set a statement_timeout of its own:
// past it the session's (the query timeout, from the statement's start)
// ends the statement at most this long after the caller gave up, which
// the caller does not wait for (pgWatch drops the connection at its
// deadline). Source.Query's own deadline is the query timeout from its
// start, so without a nearer deadline of the caller's nothing is set.
const pgTimeoutSlack = 50 * time.Millisecond

// pgStatementTimeout returns the SET LOCAL that gives a statement the
// time left before the caller's deadline, and whether it is needed. The
// text holds only a number this package writes.
func pgStatementTimeout(ctx context.Context, queryTimeout time.Duration) (string, bool) {
	t := statementTimeout(ctx, queryTimeout)
	if t > queryTimeout-pgTimeoutSlack {
		return "", false
	}
	return "SET LOCAL statement_timeout = " + strconv.FormatInt(max(t.Milliseconds(), 1), 10), true
}

// pgStartupLimits returns the hook that gives each new connection of the
// pool the limits of limits.go for a statement of the full query timeout
// as startup parameters (statement_timeout, work_mem …): they are then the
// session's reset values, which the DISCARD ALL after every statement
// returns to, so no statement needs to set them. The pool's first
// connections ask for all of them (pgConnector): a session that starts
// with them has accepted every one. Only after a start was refused for a
// setting is each limit tried, once per pool, on a connection of its own
// opened for it, and a refused optional one left out with a warning: a
// startup parameter the role may not set would fail every connection.
func (p *execPool) pgStartupLimits(log *slog.Logger, queryTimeout time.Duration) func(context.Context, *pgx.ConnConfig) error {
	return func(ctx context.Context, cc *pgx.ConnConfig) error {
		if p.mode() == pgPooled {
			// a pooler between: the statements set their limits
			// (pg_pooled.go), and the session's start asks for none
			return nil
		}
		all := postgresLimits(queryTimeout)
		use := all
		if !p.limits.assumeAll() {
			var probe *pgconn.PgConn
			defer func() {
				if probe != nil {
					probe.Close(ctx) //nolint:errcheck // the probe's connection served its purpose
				}
			}()
			var err error
			use, err = p.limits.usable(ctx, log, "postgres", all, func(ctx context.Context, l limit) error {
				if probe == nil {
					c, err := pgconn.ConnectConfig(ctx, &cc.Config)
					if err != nil {
						return fmt.Errorf("connect to try the limits: %w", err)
					}
					probe = c
				}
				return probePostgresLimit(ctx, probe, l)
			})
			if err != nil {
				return err
			}
		}
		// cc is a shallow copy of the pool's configuration: its map is
		// shared with every other connection's
		params := maps.Clone(cc.RuntimeParams)
		params["default_transaction_read_only"] = "on"
		for _, l := range use {
			params[l.name] = l.value
		}
		cc.RuntimeParams = params
		return nil
	}
}

// pgConnector opens the execution pool's connections. Until the pool
// knows which limits the database accepts, a connection starts with all
// of them: PostgreSQL ends a startup that names a setting it does not
// know or that the role may not set, so a session that starts has
// accepted every one, and the pool learns it without a probe (which cost
// a connection of its own and a round trip per limit before a cold
// source's first answer). A start refused for a setting makes the pool
// try each limit instead (limitSet.distrust), and the connection is
// opened again with those it accepts. A start refused by a pooler that
// takes no such parameters turns the pool pooled (pg_pooled.go), and the
// connection is opened again without them.
type pgConnector struct {
	inner driver.Connector
	p     *execPool
	// log and source name the pool's warnings
	log    *slog.Logger
	source string
	// timeout is the query timeout, the startup statement_timeout
	timeout time.Duration
}

func (c *pgConnector) Connect(ctx context.Context) (driver.Conn, error) {
	pooled := c.p.mode() == pgPooled
	conn, err := c.inner.Connect(ctx)
	switch {
	case err == nil:
		if pooled {
			return conn, nil
		}
		ignored, err := pgParamsIgnored(ctx, conn, c.timeout)
		if err != nil {
			conn.Close()
			return nil, err
		}
		if ignored {
			c.p.setMode(c.log, c.source, pgPooled, errParamsIgnored)
		} else {
			c.p.limits.acceptedAll()
		}
		return conn, nil
	case !pooled && pgStartupRefused(err):
		c.p.setMode(c.log, c.source, pgPooled, err)
	case !refusal(err) || !c.p.limits.distrust():
		return nil, err
	}
	return c.inner.Connect(ctx)
}

func (c *pgConnector) Driver() driver.Driver { return c.inner.Driver() }

// probePostgresLimit tries one limit in a read-only transaction of its
// own and returns the database's error.
func probePostgresLimit(ctx context.Context, pc *pgconn.PgConn, l limit) error {
	var b pgconn.Batch
	b.ExecParams("BEGIN READ ONLY", nil, nil, nil, nil)
	b.ExecParams("SELECT set_config($1, $2, true)", [][]byte{[]byte(l.name), []byte(l.value)}, nil, nil, nil)
	_, err := pc.ExecBatch(ctx, &b).ReadAll()
	if rerr := pc.Exec(ctx, "ROLLBACK").Close(); rerr != nil {
		return errors.Join(err, rerr)
	}
	return err
}

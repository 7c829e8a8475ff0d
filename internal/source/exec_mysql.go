package source

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"fmt"
	"log/slog"
	"net"
	"strconv"
	"strings"
	"sync"
	"time"
)

// A MySQL/MariaDB statement on the hardened path runs on a connection
// whose session holds nothing of any earlier statement: a new one, or one
// reset with COM_RESET_CONNECTION after its previous statement
// (mysql_reset.go), which clears what a statement may leave in a session
// (user variables, named locks, temporary tables, prepared statements,
// session variables and counters). A warmer keeps a few such connections
// ready, each with its server-side id known and sql_mode keeping
// backslash escapes on. The limits of limits.go (time and memory limits,
// and tx_read_only, which makes the statement's transaction read-only,
// its own autocommit one included) are
//
//   - on MariaDB, carried by each statement itself, SET STATEMENT … FOR
//     <statement>, with its own time limit: they hold for that statement
//     only, so a reset session needs nothing set again, and a nearer
//     deadline costs nothing. A text holding a SET STATEMENT of its own,
//     which MariaDB would apply inside ours and so lift them, is refused:
//     mysqlStatementAllowed admits only SELECT or WITH first and no /*!
//     comment, mariadbCommentFree no /*M! comment (MariaDB's own
//     executable one);
//   - on MySQL, which has no SET STATEMENT, session settings for a
//     statement of the full query timeout, set by the warmer on each new
//     or reset connection, and a SET of the statement's time limit when
//     its caller's deadline is nearer.
//
// The connection of a statement that ended well is reset before the
// statement returns, in one round trip with a probe of the new session
// (its id, its sql_mode; mysql_reset.go); on MariaDB it is then ready at
// once, on MySQL (or when sql_mode needs setting) the warmer prepares it
// first. Any other connection is closed.
// Where the pool cannot reset a session (TLS, or a network other than TCP
// or a Unix socket), every statement gets a new connection, closed after
// it, as the driver cannot reset one.
//
// Connecting is what a new connection costs (185 µs of the two machines'
// time for MariaDB here, as much as four statements reading three rows
// by key); a reset costs about 30 µs.

// mysqlSession is what resetting a connection found: its session's id
// and whether it may serve a statement as it is (else the warmer
// prepares it first).
type mysqlSession struct {
	id    int64
	ready bool
}

// mysqlWarm is how many connections the warmer keeps ready.
const mysqlWarm = 3

// maxReadyAge is how long a connection may wait ready: an older one may
// have been dropped by the server (wait_timeout) and is closed unused.
const maxReadyAge = time.Minute

// fresh is an open connection whose session holds nothing of the user's
// statements, with its server-side id, which KILL QUERY needs, and, in a
// pool that dials its own sockets (mysql_reset.go), its socket.
type fresh struct {
	conn *sql.Conn
	id   int64
	at   time.Time
	nc   net.Conn
}

// warmer keeps up to cap(ready) fresh connections checked out of a pool
// whose connections serve one statement each between resets. It holds
// them itself, not in the pool's idle list: database/sql hands idle
// connections out first, so it could not open a new one while one sat
// idle, and a connection must not go back to a statement unreset.
type warmer struct {
	db    *sql.DB
	ready chan fresh
	// used are connections reset after their statement, to prepare and
	// ready again (nil: each is closed after its statement).
	used chan fresh
	kick chan struct{}
	// prepare gives a new or reset connection its session settings.
	prepare func(context.Context, *sql.Conn) error
	// reset clears the session of a statement's connection (nil: never
	// reused).
	reset func(context.Context, *sql.Conn) (mysqlSession, error)
	stop  context.CancelFunc
	done  chan struct{}
}

// newWarmer starts the warmer of db; close stops it.
func newWarmer(db *sql.DB, n int, prepare func(context.Context, *sql.Conn) error, reset func(context.Context, *sql.Conn) (mysqlSession, error)) *warmer {
	ctx, cancel := context.WithCancel(context.Background())
	w := &warmer{db: db, ready: make(chan fresh, n), kick: make(chan struct{}, 1),
		prepare: prepare, reset: reset, stop: cancel, done: make(chan struct{})}
	if reset != nil {
		w.used = make(chan fresh, n)
	}
	go w.run(ctx)
	w.wake()
	return w
}

// close stops the warmer, waits for it and closes the connections it
// kept ready or was given back.
func (w *warmer) close() {
	w.stop()
	<-w.done
	for {
		select {
		case f := <-w.ready:
			discard(f.conn)
		case f := <-w.used:
			discard(f.conn)
		default:
			return
		}
	}
}

// wake asks the warmer to top the ready connections up.
func (w *warmer) wake() {
	select {
	case w.kick <- struct{}{}:
	default:
	}
}

// release ends a statement's use of f. The connection of a statement
// that ended well is reset now, before the statement returns, so that
// nothing of its session (a named lock, say) outlives it, and readied
// again: at once when its session needs nothing more, else by the warmer,
// which prepares it first. Any other is closed, as is every connection of
// a pool that does not reset them, and one whose reset gave another
// session (KILL QUERY would then stop another session's statement).
func (w *warmer) release(ctx context.Context, f fresh, endedWell bool) {
	if !endedWell || w.reset == nil {
		w.drop(f)
		return
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 5*time.Second)
	defer cancel()
	s, err := w.reset(ctx, f.conn)
	if err != nil || s.id != f.id {
		w.drop(f)
		return
	}
	if s.ready {
		f.at = time.Now()
		w.put(f)
		return
	}
	select {
	case w.used <- f:
	default: // the warmer has enough to do
		w.drop(f)
	}
}

// put readies f, or closes it when enough are ready.
func (w *warmer) put(f fresh) {
	select {
	case w.ready <- f:
	default:
		discard(f.conn)
	}
}

// drop closes a connection that will not be ready again and asks the
// warmer for another.
func (w *warmer) drop(f fresh) {
	discard(f.conn)
	w.wake()
}

func (w *warmer) run(ctx context.Context) {
	defer close(w.done)
	for {
		select {
		case <-ctx.Done():
			return
		case <-w.kick:
		case f := <-w.used:
			// it replaces itself: opening another now would make one
			// too many when the next comes back
			w.recycle(ctx, f)
			continue
		}
	fill:
		for len(w.ready) < cap(w.ready) {
			// a reset connection first: readying it is cheaper than
			// opening one, and a busy warmer would not come back for it
			select {
			case f := <-w.used:
				w.recycle(ctx, f)
				continue
			default:
			}
			f, err := w.open(ctx)
			if err != nil {
				// the server is down or full: statements connect on their
				// own meanwhile; try again a second later at the earliest
				select {
				case <-ctx.Done():
					return
				case <-time.After(time.Second):
				}
				break fill
			}
			w.put(f)
		}
	}
}

// recycle prepares and readies a reset connection, or closes it.
func (w *warmer) recycle(ctx context.Context, f fresh) {
	if len(w.ready) == cap(w.ready) {
		discard(f.conn)
		return
	}
	if err := w.prepare(ctx, f.conn); err != nil {
		discard(f.conn)
		return
	}
	f.at = time.Now()
	w.put(f)
}

// connectionID reads the server-side id of c's session.
func connectionID(ctx context.Context, c *sql.Conn) (int64, error) {
	var id int64
	err := c.QueryRowContext(ctx, "SELECT CONNECTION_ID()").Scan(&id)
	return id, err
}

// open opens a connection, reads its id and prepares its session.
func (w *warmer) open(ctx context.Context) (fresh, error) {
	c, err := w.db.Conn(ctx)
	if err != nil {
		return fresh{}, err
	}
	id, err := connectionID(ctx, c)
	if err != nil {
		discard(c)
		return fresh{}, err
	}
	if err := w.prepare(ctx, c); err != nil {
		discard(c)
		return fresh{}, err
	}
	f := fresh{conn: c, id: id, at: time.Now()}
	_ = c.Raw(func(dc any) error {
		if rc, ok := dc.(*resettableConn); ok {
			f.nc = rc.nc
		}
		return nil
	})
	return f, nil
}

// take returns a fresh connection: a ready one if there is one young
// enough, else one opened now. The warmer replaces it at once when it
// will not come back; when it may, only if it does not (release).
func (w *warmer) take(ctx context.Context) (fresh, error) {
	if w.reset == nil {
		defer w.wake()
	}
	for {
		select {
		case f := <-w.ready:
			if time.Since(f.at) < maxReadyAge {
				return f, nil
			}
			discard(f.conn)
			continue
		default:
		}
		return w.open(ctx)
	}
}

// discard closes a connection after its statement, so that the pool
// never hands it out again.
func discard(c *sql.Conn) {
	// database/sql closes a connection reported bad
	_ = c.Raw(func(any) error { return driver.ErrBadConn })
	c.Close()
}

// resetMySQL clears the session of c, one of a resetting pool's
// connections (mysql_reset.go). The session is ready as it is on MariaDB,
// whose statements carry their limits, unless the sql_mode the reset
// restored turns backslash escapes off.
func (p *execPool) resetMySQL(ctx context.Context, c *sql.Conn) (mysqlSession, error) {
	var s resetSession
	err := c.Raw(func(dc any) error {
		rc, ok := dc.(*resettableConn)
		if !ok {
			return fmt.Errorf("%w: unexpected driver connection %T", errNoReset, dc)
		}
		var err error
		s, err = rc.reset(ctx)
		return err
	})
	return mysqlSession{id: s.id, ready: p.mariadb && !s.noBackslashEscapes}, err
}

// prepareMySQL gives a new or reset connection its session settings
// (setMySQLLimits), learning first, once per pool, whether the server is
// MariaDB.
func (p *execPool) prepareMySQL(log *slog.Logger, queryTimeout time.Duration) func(context.Context, *sql.Conn) error {
	return func(ctx context.Context, c *sql.Conn) error {
		if err := p.mysqlFlavor(ctx, c); err != nil {
			return err
		}
		return p.setMySQLLimits(ctx, c, log, queryTimeout)
	}
}

// mysqlTimeoutSlack is pgTimeoutSlack's MySQL twin: a statement sets a
// time limit of its own only when its caller's deadline is this much
// nearer than the query timeout its session was prepared with; otherwise
// the server ends it at most this long after the caller gave up, which
// the caller does not wait for (a canceled statement is also killed).
const mysqlTimeoutSlack = 50 * time.Millisecond

// mysqlStatementTimeout returns the SET of a MySQL statement's own time
// limit, and whether it is needed. The text holds only a number this
// package writes.
func (p *execPool) mysqlStatementTimeout(ctx context.Context, queryTimeout time.Duration) (string, bool) {
	t := statementTimeout(ctx, queryTimeout)
	if t > queryTimeout-mysqlTimeoutSlack {
		return "", false
	}
	l := mysqlLimits(t, p.mariadb)[0] // the time limit, required
	return "SET SESSION " + l.name + " = " + l.value, true
}

// mariadbCommentFree refuses a text holding MariaDB's own executable
// comment, /*M! … */, whose content MariaDB runs as part of the statement:
// "/*M! SET STATEMENT tx_read_only = 0 FOR */ SELECT …" would lift the
// statement's limits, read-only included, for the SELECT after it.
// mysqlStatementAllowed refuses /*! but reads /*M! as a plain comment.
// Like it, this looks at the raw text, strings included.
func mariadbCommentFree(query string) error {
	if strings.Contains(strings.ToLower(query), "/*m!") {
		return fmt.Errorf("%w: the text holds a MariaDB executable comment (even inside a string), which MariaDB may act on", ErrNotQuery)
	}
	return nil
}

// mysqlFlavor reads, once per pool, whether the server is MariaDB.
func (p *execPool) mysqlFlavor(ctx context.Context, conn *sql.Conn) error {
	p.flavorOnce.Do(func() {
		var v string
		p.flavorErr = conn.QueryRowContext(ctx, "SELECT VERSION()").Scan(&v)
		p.mariadb = strings.Contains(strings.ToLower(v), "mariadb")
	})
	if p.flavorErr != nil {
		err := p.flavorErr
		p.flavorOnce = sync.Once{}
		return err
	}
	return nil
}

func (p *execPool) runMySQL(ctx context.Context, stopQuery func(), s *Source, query string, args []any, maxRows int) (res *Result, err error) {
	if err := mariadbCommentFree(query); err != nil {
		return nil, err
	}
	f, err := p.warm.take(ctx)
	if err != nil {
		return nil, err
	}
	conn, id := f.conn, f.id
	defer func() {
		// only a statement that ended well leaves its connection idle
		// and whole, fit to reset
		p.warm.release(ctx, f, err == nil && !res.Truncated && ctx.Err() == nil)
	}()
	// The driver watches a cancelable context of each of its calls with
	// a goroutine of the connection, woken when the call starts and again
	// when it ends, and database/sql watches the rows with a goroutine of
	// their own: on a small statement, a third of the client's work. On a
	// connection whose socket this package holds, the driver is given a
	// context that is never canceled, and a canceled ctx closes the socket
	// itself below, as the driver's watch would.
	dctx := ctx
	if f.nc != nil {
		dctx = context.WithoutCancel(ctx)
	}
	// The statement's time limit is enforced by the server.
	if p.mariadb {
		if query, err = p.mariadbStatement(ctx, conn, s.opt.Log, s.opt.QueryTimeout, query); err != nil {
			return nil, err
		}
	} else if set, ok := p.mysqlStatementTimeout(ctx, s.opt.QueryTimeout); ok {
		if _, err := conn.ExecContext(dctx, set); err != nil {
			return nil, err
		}
	}
	// A canceled context closes the client side only: kill the query too.
	killed := make(chan struct{})
	stop := context.AfterFunc(ctx, func() {
		defer close(killed)
		if f.nc != nil {
			// the statement returns at once, its connection broken
			f.nc.Close()
		}
		kctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if kc, err := p.db.Conn(kctx); err == nil {
			_, _ = kc.ExecContext(kctx, "KILL QUERY "+strconv.FormatInt(id, 10))
			kc.Close()
		}
	})
	defer func() {
		if !stop() {
			<-killed
		}
	}()
	return collect(dctx, stopQuery, conn, query, args, maxRows)
}

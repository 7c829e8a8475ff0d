package source

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"strconv"
	"strings"
	"sync"
	"time"
)

// A MySQL/MariaDB statement on the hardened path runs on a fresh
// connection that is closed after it, so nothing of the session outlives
// it (user variables, named locks, session settings): the driver has no
// way to reset a session. Connecting is what that costs, so a warmer
// keeps a few fresh connections open and ready, each with its server-side
// id already read. On its connection a statement then costs one SET (its
// time and memory limits, sql_mode, and tx_read_only, which makes every
// transaction of the session read-only, its own autocommit one included)
// and the statement itself.

// mysqlWarm is how many fresh connections the warmer keeps ready.
const mysqlWarm = 3

// maxReadyAge is how long a connection may wait ready: an older one may
// have been dropped by the server (wait_timeout) and is closed unused.
const maxReadyAge = time.Minute

// fresh is an open connection that has run none of the user's statements,
// with its server-side id, which KILL QUERY needs.
type fresh struct {
	conn *sql.Conn
	id   int64
	at   time.Time
}

// warmer keeps up to cap(ready) fresh connections checked out of a pool
// whose connections each serve one statement. It holds them itself, not
// in the pool's idle list: database/sql hands idle connections out first,
// so it could not open a new one while one sat idle.
type warmer struct {
	db    *sql.DB
	ready chan fresh
	kick  chan struct{}
	stop  context.CancelFunc
	done  chan struct{}
}

// newWarmer starts the warmer of db; close stops it.
func newWarmer(db *sql.DB, n int) *warmer {
	ctx, cancel := context.WithCancel(context.Background())
	w := &warmer{db: db, ready: make(chan fresh, n), kick: make(chan struct{}, 1), stop: cancel, done: make(chan struct{})}
	go w.run(ctx)
	w.wake()
	return w
}

// close stops the warmer, waits for it and closes the connections it
// kept ready.
func (w *warmer) close() {
	w.stop()
	<-w.done
	for {
		select {
		case f := <-w.ready:
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

func (w *warmer) run(ctx context.Context) {
	defer close(w.done)
	for {
		select {
		case <-ctx.Done():
			return
		case <-w.kick:
		}
		// only the warmer sends on ready, so a send below never blocks
	fill:
		for len(w.ready) < cap(w.ready) {
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
			w.ready <- f
		}
	}
}

// open opens a connection and reads its id.
func (w *warmer) open(ctx context.Context) (fresh, error) {
	c, err := w.db.Conn(ctx)
	if err != nil {
		return fresh{}, err
	}
	var id int64
	if err := c.QueryRowContext(ctx, "SELECT CONNECTION_ID()").Scan(&id); err != nil {
		discard(c)
		return fresh{}, err
	}
	return fresh{conn: c, id: id, at: time.Now()}, nil
}

// take returns a fresh connection: a ready one if there is one young
// enough, else one opened now.
func (w *warmer) take(ctx context.Context) (fresh, error) {
	defer w.wake()
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

func (p *execPool) runMySQL(ctx context.Context, stopQuery func(), s *Source, query string, args []any, maxRows int) (*Result, error) {
	f, err := p.warm.take(ctx)
	if err != nil {
		return nil, err
	}
	conn, id := f.conn, f.id
	defer discard(conn)
	if err := p.mysqlFlavor(ctx, conn); err != nil {
		return nil, err
	}
	// The statement's time and memory limits are enforced by the server.
	if err := p.setMySQLLimits(ctx, conn, s.opt.Log, statementTimeout(ctx, s.opt.QueryTimeout)); err != nil {
		return nil, err
	}
	// A canceled context closes the client side only: kill the query too.
	killed := make(chan struct{})
	stop := context.AfterFunc(ctx, func() {
		defer close(killed)
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
	return collect(ctx, stopQuery, conn, query, args, maxRows)
}

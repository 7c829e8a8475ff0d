package source

import (
	"context"
	"time"
)

// A conversation pauses between questions: the user reads an answer,
// thinks, types. An idle connection of the hardened pool is closed after
// poolIdle, so on PostgreSQL most questions asked after such a pause
// waited for a new connection (TCP, TLS, authentication, the session's
// startup limits: 5 ms on the same machine, tens of milliseconds to a
// server elsewhere) and then for a new server process's first statement,
// which touches shared memory the process has not mapped yet (on 10
// million trades, 148–156 ms against 112–128 ms on a connection that had
// run before; docs/bench.md). The keeper keeps the most recently used
// connection open by pinging it before it would be closed, for keepFor
// after the pool's last statement; past that the pool lets all its
// connections go, as before.

const (
	// poolIdle is how long an unused connection stays open.
	poolIdle = time.Minute
	// keepFor is how long after its last statement a pool keeps one
	// connection open.
	keepFor = 30 * time.Minute
)

// keeper pings one connection of a pool now and then; its owner stops it
// and waits for it.
type keeper struct {
	stop context.CancelFunc
	done chan struct{}
}

// startKeeper sets the pool's idle time and keeps one connection open
// while p has run a statement within window: database/sql hands out the
// connection returned last, and a ping returns it again, so the ping
// renews the one connection a new statement would take, and the others
// still close after idle.
func (p *execPool) startKeeper(idle, window time.Duration) {
	p.db.SetConnMaxIdleTime(idle)
	ctx, cancel := context.WithCancel(context.Background())
	k := &keeper{stop: cancel, done: make(chan struct{})}
	p.keep = k
	go func() {
		defer close(k.done)
		t := time.NewTicker(idle / 2)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
			}
			last := p.used.Load()
			if last == 0 || time.Since(time.Unix(0, last)) > window {
				continue
			}
			pctx, done := context.WithTimeout(ctx, 5*time.Second)
			// a failed ping leaves the pool to open a connection when a
			// statement needs one, as it would have
			_ = p.db.PingContext(pctx)
			done()
		}
	}()
}

// stopKeeper stops the keeper, if any, and waits for it.
func (p *execPool) stopKeeper() {
	if p.keep != nil {
		p.keep.stop()
		<-p.keep.done
		p.keep = nil
	}
}

package source

import (
	"context"
	"time"
)

// ExecFunctions are the SQLite functions the execution path's authorizer allows.
var ExecFunctions = sqliteFunctions

// MySQLStatementAllowed is the MySQL execution path's look at the text.
var MySQLStatementAllowed = mysqlStatementAllowed

// WaitValues waits for the background refreshes of a source's value cache.
func WaitValues(s *Source) { s.values.wait() }

// Limiter is the admission of statements to a source.
type Limiter = limiter

// Slot is an admitted statement.
type Slot = slot

// NewLimiter returns the limiter of a source of dialect d (nil: off).
var NewLimiter = newLimiter

// Acquire waits for a slot.
func (l *limiter) Acquire(ctx context.Context, user, query string) (*Slot, error) {
	return l.acquire(ctx, user, query)
}

// Release gives a slot back, learning took when learn is set.
func (s *slot) Release(took time.Duration, learn bool) { s.release(took, learn) }

// State returns the statements running and waiting in the ordinary and
// the heavy lane, and the users the lanes remember.
func (l *limiter) State() (running, waiting, users [2]int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for i, ln := range l.lanes {
		if ln != nil {
			running[i], waiting[i], users[i] = ln.running, len(ln.queue), len(ln.users)
		}
	}
	return running, waiting, users
}

// LimitsTried is how many limits the source's execution pool has tried
// one by one on its database.
func LimitsTried(s *Source) int {
	s.exec.limits.mu.Lock()
	defer s.exec.limits.mu.Unlock()
	return s.exec.limits.tried
}

// KeepConnection restarts the keeper of a source's statement pool with
// an idle time and a keep time short enough for a test; keepFor 0 stops
// it, the pool then closing idle connections as any pool does.
func KeepConnection(s *Source, idle, keepFor time.Duration) error {
	p, err := s.execPool()
	if err != nil {
		return err
	}
	p.stopKeeper()
	if keepFor == 0 {
		p.db.SetConnMaxIdleTime(idle)
		return nil
	}
	p.startKeeper(idle, keepFor)
	return nil
}

// OpenConnections is how many connections the statement pool holds.
func OpenConnections(s *Source) int {
	if s.exec == nil {
		return 0
	}
	return s.exec.db.Stats().OpenConnections
}

// MaxKept is how many statements a PostgreSQL connection keeps prepared.
const MaxKept = maxKept

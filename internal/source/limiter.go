package source

import (
	"context"
	"errors"
	"hash/maphash"
	"sync"
	"time"

	"github.com/clarify-sql/clarify/internal/model"
)

// Admission: a source runs a bounded number of statements at once, and
// when statements wait, the next slot goes to the user served least: the
// one with fewest statements running, then the one whose last statement
// was admitted longest ago, then the one who came first. A user with
// nothing running therefore goes before a user with several queued, and
// users who queue many statements take turns with everyone else instead
// of filling the source.
//
// Statements of a shape known to be heavy (the same text, values being
// bound arguments, whose recent runs averaged HeavyAfter or more) run in
// a small lane of their own beside the ordinary one, so that a crowd of
// heavy questions waits for its own slots while light questions keep
// theirs. A shape is learned from the duration of its runs on the server
// (time waiting for a slot not included); a new shape starts ordinary.
// Waiting counts toward the query timeout: a source saturated for longer
// than that answers "timed out" rather than queueing without end.

// Concurrency caps the statements a source runs at once.
type Concurrency struct {
	// Max is how many statements of ordinary shapes run at once (default
	// 8; 3 for SQLite, whose pool holds 4 connections). Negative turns
	// admission off: statements run as soon as the pool has a connection,
	// in no particular order.
	Max int
	// Heavy is how many statements of heavy shapes run at once, in a lane
	// beside Max (default 1). Negative: no heavy lane, heavy statements
	// share Max with the others.
	Heavy int
	// HeavyAfter is the mean duration of a shape's recent runs from which
	// it is heavy (default 100ms).
	HeavyAfter time.Duration
}

// maxShapes bounds the shapes a limiter remembers; past it, an arbitrary
// one is forgotten for each new one.
const maxShapes = 4096

type userKey struct{}

// WithUser returns a context that carries the user a statement is run
// for, so the source can share its capacity fairly between users.
// Statements without a user count as one anonymous user.
func WithUser(ctx context.Context, user string) context.Context {
	return context.WithValue(ctx, userKey{}, user)
}

// User returns the user ctx carries ("" when none).
func User(ctx context.Context) string {
	u, _ := ctx.Value(userKey{}).(string)
	return u
}

// limiter admits statements to a source. It starts no goroutines: a
// statement waits in its caller's goroutine and leaves the queue when its
// context ends.
type limiter struct {
	heavyAfter time.Duration
	seed       maphash.Seed

	mu     sync.Mutex
	lanes  [2]*lane // ordinary, heavy (nil: none)
	shapes map[uint64]time.Duration
}

// lane is one group of slots with its queue.
type lane struct {
	cap, running int
	served       uint64 // admissions so far, the clock of lastServed
	users        map[string]*userState
	queue        []*waiter // arrival order
}

type userState struct {
	running    int
	lastServed uint64
}

type waiter struct {
	user     string
	ready    chan struct{}
	admitted bool
}

// slot is an admitted statement; release gives it back.
type slot struct {
	l     *limiter
	ln    *lane
	user  string
	shape uint64
}

// newLimiter returns the limiter of a source of dialect d, or nil when
// admission is off.
func newLimiter(c Concurrency, d model.Dialect) *limiter {
	if c.Max < 0 {
		return nil
	}
	if c.Max == 0 {
		c.Max = 8
		if d == model.SQLite {
			c.Max = 3
		}
	}
	if c.Heavy == 0 {
		c.Heavy = 1
	}
	if c.HeavyAfter <= 0 {
		c.HeavyAfter = 100 * time.Millisecond
	}
	l := &limiter{heavyAfter: c.HeavyAfter, seed: maphash.MakeSeed(), shapes: map[uint64]time.Duration{}}
	l.lanes[0] = newLane(c.Max)
	if c.Heavy > 0 {
		l.lanes[1] = newLane(c.Heavy)
	}
	return l
}

func newLane(n int) *lane { return &lane{cap: n, users: map[string]*userState{}} }

// acquire waits for a slot for a statement of user, or for ctx to end.
func (l *limiter) acquire(ctx context.Context, user, query string) (*slot, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	shape := maphash.String(l.seed, query)
	l.mu.Lock()
	ln := l.lanes[0]
	if l.lanes[1] != nil && l.shapes[shape] >= l.heavyAfter {
		ln = l.lanes[1]
	}
	sl := &slot{l: l, ln: ln, user: user, shape: shape}
	if ln.running < ln.cap && len(ln.queue) == 0 {
		ln.admit(user)
		l.mu.Unlock()
		return sl, nil
	}
	w := &waiter{user: user, ready: make(chan struct{})}
	ln.queue = append(ln.queue, w)
	l.mu.Unlock()
	select {
	case <-w.ready:
		return sl, nil
	case <-ctx.Done():
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if w.admitted {
		// admitted as the context ended: pass the slot on
		ln.leave(user)
	} else {
		ln.remove(w)
	}
	ln.dispatch()
	return nil, ctx.Err()
}

// release gives the slot back; when learn is set, took (the statement's
// time on the server) updates what is known of its shape.
func (s *slot) release(took time.Duration, learn bool) {
	l := s.l
	l.mu.Lock()
	defer l.mu.Unlock()
	if learn {
		l.learn(s.shape, took)
	}
	s.ln.leave(s.user)
	s.ln.dispatch()
}

// learn folds one run into the shape's moving mean (weight 1/3 for the
// newest run, so a shape changes lane after a few runs, not one).
func (l *limiter) learn(shape uint64, took time.Duration) {
	prev, ok := l.shapes[shape]
	if !ok {
		if len(l.shapes) >= maxShapes {
			for k := range l.shapes {
				delete(l.shapes, k)
				break
			}
		}
		l.shapes[shape] = took
		return
	}
	l.shapes[shape] = prev + (took-prev)/3
}

func (ln *lane) admit(user string) {
	u := ln.users[user]
	if u == nil {
		u = &userState{}
		ln.users[user] = u
	}
	ln.served++
	u.running++
	u.lastServed = ln.served
	ln.running++
}

func (ln *lane) leave(user string) {
	ln.running--
	if u := ln.users[user]; u != nil {
		u.running--
	}
}

func (ln *lane) remove(w *waiter) {
	for i, q := range ln.queue {
		if q == w {
			ln.queue = append(ln.queue[:i], ln.queue[i+1:]...)
			return
		}
	}
}

// dispatch admits waiters while slots are free, the user served least
// first. With nobody waiting, users with nothing running are forgotten.
func (ln *lane) dispatch() {
	for ln.running < ln.cap && len(ln.queue) > 0 {
		best := 0
		for i, w := range ln.queue[1:] {
			if ln.before(w.user, ln.queue[best].user) {
				best = i + 1
			}
		}
		w := ln.queue[best]
		ln.queue = append(ln.queue[:best], ln.queue[best+1:]...)
		ln.admit(w.user)
		w.admitted = true
		close(w.ready)
	}
	if len(ln.queue) == 0 {
		for name, u := range ln.users {
			if u.running <= 0 {
				delete(ln.users, name)
			}
		}
	}
}

// before reports whether user a is served before user b (strictly; ties
// keep arrival order).
func (ln *lane) before(a, b string) bool {
	ua, ub := ln.users[a], ln.users[b]
	var ra, rb int
	var sa, sb uint64
	if ua != nil {
		ra, sa = ua.running, ua.lastServed
	}
	if ub != nil {
		rb, sb = ub.running, ub.lastServed
	}
	if ra != rb {
		return ra < rb
	}
	return sa < sb
}

// admitted runs f once the limiter admits the statement (at once without
// a limiter), then releases the slot, learning the statement's duration
// when it completed or ran into its time limit.
func (p *execPool) admitted(ctx context.Context, query string, f func() (*Result, error)) (res *Result, err error) {
	p.used.Store(time.Now().UnixNano())
	if p.admit == nil {
		return f()
	}
	sl, err := p.admit.acquire(ctx, User(ctx), query)
	if err != nil {
		return nil, err
	}
	start := time.Now()
	defer func() {
		learn := err == nil || errors.Is(ctx.Err(), context.DeadlineExceeded) || serverTimeout(err)
		sl.release(time.Since(start), learn)
	}()
	return f()
}

// ConfiguredConcurrency turns a source's configuration (nil: default,
// 0: off, n: a cap of n, as in YAML) into Concurrency.
func ConfiguredConcurrency(maxConcurrent, heavyConcurrent *int, heavyAfter time.Duration) Concurrency {
	conv := func(p *int) int {
		switch {
		case p == nil:
			return 0
		case *p == 0:
			return -1
		}
		return *p
	}
	return Concurrency{Max: conv(maxConcurrent), Heavy: conv(heavyConcurrent), HeavyAfter: heavyAfter}
}

package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"sync"
	"time"
)

// announceTimeout bounds one statement of announcements.
const announceTimeout = 5 * time.Second

// maxAnnounced bounds the conversations one statement announces.
const maxAnnounced = 1000

// announcer announces the conversations that have new events (PostgreSQL's
// NOTIFY), after the commits that wrote them, from one goroutine: the ids
// committed while a statement of announcements runs go together in the
// next, so a thousand concurrent writers cost a few round trips instead of
// one each. A write never waits for its announcement; one lost (the
// statement failed, or the store closed) is only late, since followers
// also poll Heads.
type announcer struct {
	db      *sql.DB
	q       string // dialect.notifySQL: $1 the channel, $2 a JSON array of ids
	channel string

	mu      sync.Mutex
	pending []string
	closed  bool
	wake    chan struct{} // holds one signal
	quit    chan struct{}
	done    chan struct{}
}

func newAnnouncer(db *sql.DB, q, channel string) *announcer {
	a := &announcer{db: db, q: q, channel: channel, wake: make(chan struct{}, 1),
		quit: make(chan struct{}), done: make(chan struct{})}
	go a.run()
	return a
}

// announce queues the announcement of conversation id; it never blocks.
func (a *announcer) announce(id string) {
	a.mu.Lock()
	if a.closed {
		a.mu.Unlock()
		return
	}
	a.pending = append(a.pending, id)
	a.mu.Unlock()
	select {
	case a.wake <- struct{}{}:
	default:
	}
}

// close sends what is queued, then stops the goroutine.
func (a *announcer) close() { stopOnce(&a.mu, &a.closed, a.quit, a.done) }

func (a *announcer) run() {
	defer close(a.done)
	for {
		select {
		case <-a.wake:
		case <-a.quit:
			a.send()
			return
		}
		a.send()
	}
}

// send announces every queued id, each once.
func (a *announcer) send() {
	a.mu.Lock()
	ids := a.pending
	a.pending = nil
	a.mu.Unlock()
	seen := make(map[string]bool, len(ids))
	uniq := ids[:0]
	for _, id := range ids {
		if !seen[id] {
			seen[id] = true
			uniq = append(uniq, id)
		}
	}
	for len(uniq) > 0 {
		batch := uniq[:min(len(uniq), maxAnnounced)]
		uniq = uniq[len(batch):]
		arg, err := json.Marshal(batch)
		if err != nil {
			continue
		}
		ctx, cancel := context.WithTimeout(context.Background(), announceTimeout)
		_, _ = a.db.ExecContext(ctx, a.q, a.channel, string(arg))
		cancel()
	}
}

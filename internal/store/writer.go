package store

import (
	"cmp"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
)

// errClosed: a write was attempted on a closed store.
var errClosed = errors.New("store is closed")

// writer is SQLite's only writer: one goroutine owning the write connection,
// to which every write transaction is handed. It commits the writes queued
// at the same moment together — each in its own SAVEPOINT, so one failing
// write undoes only itself — paying SQLite's commit, and with
// synchronous=FULL its fsync, once per group instead of once per write. A
// write is acknowledged only after its group's COMMIT returned, so nothing
// acknowledged is lost. Writes run in arrival order (a channel is FIFO),
// so none waits much longer than the others under load.
type writer struct {
	db *sql.DB
	s  *sqlStore // for the prepared statements of txn

	reqs chan *writeReq
	// mu guards closed; senders hold it shared while enqueueing, so once
	// Close holds it exclusively, every accepted write is in reqs.
	mu     sync.RWMutex
	closed bool
	quit   chan struct{}
	done   chan struct{}
}

// maxGroup bounds the writes committed together.
const maxGroup = 256

// Request states: a queued request is taken by the writer or abandoned by
// its caller, whichever comes first.
const (
	reqQueued int32 = iota
	reqTaken
	reqAbandoned
)

type writeReq struct {
	ctx   context.Context
	f     func(txn) error
	state atomic.Int32
	done  chan error // buffered: the writer never waits for the caller
}

func newWriter(db *sql.DB, s *sqlStore) *writer {
	w := &writer{
		db:   db,
		s:    s,
		reqs: make(chan *writeReq, 4*maxGroup),
		quit: make(chan struct{}),
		done: make(chan struct{}),
	}
	go w.run()
	return w
}

// do runs f in a write transaction and returns once it is committed (nil),
// or failed (f's error, or the commit's). A caller whose ctx ends while its
// write is still queued gets ctx.Err() and the write never runs; once the
// write has started, do waits for its outcome, so that a reported failure
// always means nothing was written.
func (w *writer) do(ctx context.Context, f func(txn) error) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	req := &writeReq{ctx: ctx, f: f, done: make(chan error, 1)}
	w.mu.RLock()
	if w.closed {
		w.mu.RUnlock()
		return errClosed
	}
	select {
	case w.reqs <- req:
		w.mu.RUnlock()
	case <-ctx.Done():
		w.mu.RUnlock()
		return ctx.Err()
	}
	select {
	case err := <-req.done:
		return err
	case <-ctx.Done():
		if req.state.CompareAndSwap(reqQueued, reqAbandoned) {
			return ctx.Err()
		}
		return <-req.done
	}
}

// close lets the writer finish every accepted write, then stops it.
func (w *writer) close() { stopOnce(&w.mu, &w.closed, w.quit, w.done) }

// stopOnce stops a goroutine's owner once: it sets *closed under l (so
// that nothing is queued after), tells the goroutine to quit, and waits
// for it to end. Later calls return at once.
func stopOnce(l sync.Locker, closed *bool, quit chan struct{}, done <-chan struct{}) {
	l.Lock()
	if *closed {
		l.Unlock()
		return
	}
	*closed = true
	l.Unlock()
	close(quit)
	<-done
}

func (w *writer) run() {
	defer close(w.done)
	group := make([]*writeReq, 0, maxGroup)
	for {
		select {
		case r := <-w.reqs:
			group = append(group[:0], r)
		case <-w.quit:
			// No write can be enqueued any more: finish the queue.
			for len(w.reqs) > 0 {
				group = w.fill(group[:0])
				w.commit(group)
			}
			return
		}
		w.commit(w.fill(group))
	}
}

// fill adds the writes already waiting, up to maxGroup.
func (w *writer) fill(group []*writeReq) []*writeReq {
	for len(group) < maxGroup {
		select {
		case r := <-w.reqs:
			group = append(group, r)
		default:
			return group
		}
	}
	return group
}

const (
	savepoint         = `SAVEPOINT w`
	releaseSavepoint  = `RELEASE w`
	rollbackSavepoint = `ROLLBACK TO w`
)

// commit runs a group of writes in one transaction and reports to each.
func (w *writer) commit(group []*writeReq) {
	live := group[:0]
	for _, r := range group {
		if r.state.CompareAndSwap(reqQueued, reqTaken) {
			live = append(live, r)
		}
	}
	if len(live) == 0 {
		return
	}
	errs := make([]error, len(live))
	// reply gives each write its own error, else err (the group's).
	reply := func(err error) {
		for i, r := range live {
			r.done <- cmp.Or(errs[i], err)
		}
	}
	var tx *sql.Tx
	var err error
	defer func() {
		// A bug must not stop the writer and hang every later write.
		if p := recover(); p != nil {
			if tx != nil {
				_ = tx.Rollback()
			}
			clear(errs)
			reply(fmt.Errorf("grouped write: panic: %v", p))
		}
	}()
	// The transaction is the group's; each write's statements run under
	// its caller's values but not its cancellation: SQLite answers a
	// cancellation by interrupting the connection, which would roll back
	// the whole group. A write is short once started.
	tx, err = w.db.BeginTx(context.Background(), nil)
	if err != nil {
		reply(err)
		return
	}
	single := len(live) == 1
	for i, r := range live {
		t := txn{ctx: context.WithoutCancel(r.ctx), tx: tx, s: w.s}
		if single {
			errs[i] = r.f(t)
			break
		}
		if err := w.savepointed(t, r.f, &errs[i]); err != nil {
			_ = tx.Rollback()
			reply(fmt.Errorf("grouped write: %w", err))
			return
		}
	}
	if single && errs[0] != nil {
		_ = tx.Rollback()
		reply(nil)
		return
	}
	reply(tx.Commit())
}

// savepointed runs f inside a savepoint, rolled back when f fails (its error
// goes to *ferr); an error returned means the transaction is unusable.
func (w *writer) savepointed(t txn, f func(txn) error, ferr *error) error {
	if _, err := t.exec(savepoint); err != nil {
		return err
	}
	if *ferr = f(t); *ferr != nil {
		if _, err := t.exec(rollbackSavepoint); err != nil {
			return err
		}
	}
	_, err := t.exec(releaseSavepoint)
	return err
}

package source

import (
	"context"
	"sync"
)

// background runs the work a source does for no one request: value
// refreshes, first loads that every waiting caller has given up on, and
// the rebuilds of an analyzer's value index that reads the source's
// values. It outlives the request that started it, but not the source:
// Source.Close calls close, which cancels every job and waits for it, so
// no job is left reading a closed database.
type background struct {
	mu      sync.Mutex
	closed  bool
	next    uint64
	cancels map[uint64]context.CancelFunc
	wg      sync.WaitGroup
}

// run starts f on its own goroutine with a context that keeps ctx's values
// but not its cancellation or deadline, and is canceled by close. It
// reports false, and f does not run, once close has been called.
func (b *background) run(ctx context.Context, f func(context.Context)) bool {
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed {
		return false
	}
	if b.cancels == nil {
		b.cancels = map[uint64]context.CancelFunc{}
	}
	jctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	id := b.next
	b.next++
	b.cancels[id] = cancel
	// added under mu while not closed: close's Wait never races an Add
	b.wg.Go(func() {
		defer func() {
			b.mu.Lock()
			delete(b.cancels, id)
			b.mu.Unlock()
			cancel()
		}()
		f(jctx)
	})
	return true
}

// wait blocks until the jobs running now have finished, without stopping
// them or refusing new ones.
func (b *background) wait() { b.wg.Wait() }

// close refuses new jobs, cancels the running ones and waits for them.
func (b *background) close() {
	b.mu.Lock()
	b.closed = true
	for _, cancel := range b.cancels {
		cancel()
	}
	b.mu.Unlock()
	b.wg.Wait()
}

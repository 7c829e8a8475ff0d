package conversation

import (
	"context"
	"errors"
	"sync"
	"time"
)

// errLeaseLost is the cause of a turn's cancellation when its lease on the
// conversation was lost: another instance may be running the turn.
var errLeaseLost = errors.New("the conversation's lease was lost")

// errChanged is the cause of the SESSION_BUSY of a save that found the
// conversation changed since it was read.
var errChanged = errors.New("the conversation changed since it was read")

// leaseLost reports whether ctx was cancelled because its turn's lease was
// lost.
func leaseLost(ctx context.Context) bool {
	return errors.Is(context.Cause(ctx), errLeaseLost)
}

// underLease runs f while a heartbeat renews owner's lease on conversation
// id every Options.RenewEvery. If the lease is lost, f's context is
// cancelled with cause errLeaseLost. f may stop the heartbeat early (stop
// returns once it has stopped), before a write that releases the lease;
// it has stopped when underLease returns. Releasing the lease is the
// caller's, or f's.
func (s *Service) underLease(ctx context.Context, id, owner string, f func(ctx context.Context, stop func())) {
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	beat, stopBeat := context.WithCancel(ctx)
	defer stopBeat()
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		s.heartbeat(beat, id, owner, cancel)
	}()
	stop := func() {
		stopBeat()
		wg.Wait()
	}
	f(ctx, stop)
	stop()
}

// heartbeat renews owner's lease on conversation id every
// Options.RenewEvery until ctx ends. It calls lose (and returns) when the
// lease was lost — released, or taken by another instance after renewals
// came too late — or when no renewal has succeeded for Options.LockTTL, by
// which time another instance may have taken it.
func (s *Service) heartbeat(ctx context.Context, id, owner string, lose context.CancelCauseFunc) {
	t := time.NewTicker(s.opt.RenewEvery)
	defer t.Stop()
	// the lease was taken or renewed a moment before the heartbeat started
	renewed := time.Now()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		at := time.Now()
		rctx, cancel := context.WithTimeout(ctx, s.opt.RenewEvery)
		ok, err := s.st.Renew(rctx, id, owner, s.opt.LockTTL)
		cancel()
		switch {
		case ctx.Err() != nil:
			return
		case err == nil && ok:
			renewed = at
		case err == nil:
			s.opt.Log.Warn("lost the conversation's lease; stopping its turn", "conversation", id)
			lose(errLeaseLost)
			return
		case time.Since(renewed) >= s.opt.LockTTL:
			s.opt.Log.Warn("could not renew the conversation's lease before it ran out; stopping its turn", "conversation", id, "err", err)
			lose(errLeaseLost)
			return
		default:
			s.opt.Log.Warn("renew the conversation's lease; trying again", "conversation", id, "err", err)
		}
	}
}

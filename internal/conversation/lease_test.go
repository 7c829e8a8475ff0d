package conversation_test

import (
	"context"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/clarify-sql/clarify/internal/apperr"
	"github.com/clarify-sql/clarify/internal/conversation"
	"github.com/clarify-sql/clarify/internal/demo/demotest"
	"github.com/clarify-sql/clarify/internal/store"
)

// heldTurn is a question asked by startHeld: its conversation's id, and
// the Ask's outcome once ended is closed.
type heldTurn struct {
	id     string
	result *conversation.Result
	err    error
	ended  chan struct{}
}

// holds is how a test holds a turn: hooks whose first NeverAsk reports on
// started, then waits until release is called or its context ends.
type holds struct {
	hooks
	started chan struct{}
	release func()
}

func holdTurns() holds {
	started, release := make(chan struct{}), make(chan struct{})
	var once, first sync.Once
	h := hooks{neverAsk: func(ctx context.Context) {
		held := false
		first.Do(func() { held = true })
		if !held {
			return
		}
		close(started)
		select {
		case <-release:
		case <-ctx.Done():
		}
	}}
	return holds{hooks: h, started: started, release: func() { once.Do(func() { close(release) }) }}
}

// startHeld asks a question on svc, whose store has hs's hooks, and
// returns once its turn is held (under its lease).
func startHeld(t *testing.T, svc *conversation.Service, hs holds) *heldTurn {
	t.Helper()
	h := &heldTurn{ended: make(chan struct{})}
	ids := make(chan string, 1)
	go func() {
		defer close(h.ended)
		h.result, h.err = svc.Ask(context.Background(), "ana", notInteractive(bigWounds, "clinic"), eachEvent(func(ev store.Event) {
			if ev.Type == "conversation" {
				ids <- ev.ConversationID
			}
		}))
	}()
	t.Cleanup(func() {
		hs.release()
		<-h.ended
	})
	select {
	case h.id = <-ids:
	case <-time.After(waitLimit):
		t.Fatal("the question was not asked")
	}
	select {
	case <-hs.started:
	case <-h.ended:
		t.Fatalf("the turn ended before it was held: %v", h.err)
	case <-time.After(waitLimit):
		t.Fatal("the turn did not start")
	}
	return h
}

func (h *heldTurn) wait(t *testing.T) {
	t.Helper()
	select {
	case <-h.ended:
	case <-time.After(waitLimit):
		t.Fatal("the turn did not end")
	}
}

// TestLeaseRenewedWhileTurnRuns: a turn running for many lease lifetimes
// keeps its conversation: a follower on another instance, trying to
// resume it all along, never runs it a second time, and the conversation
// gets one outcome.
func TestLeaseRenewedWhileTurnRuns(t *testing.T) {
	t.Parallel()
	// leases timed by the real clock: they run out unless renewed
	st, err := store.Open(context.Background(), "sqlite:"+filepath.Join(t.TempDir(), "store.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	e := &env{st: st, clock: &fakeClock{now: demotest.AsOf.Add(9 * time.Hour)}, engines: demoEngines(t)}
	const ttl = time.Second
	h := holdTurns()
	a := e.instance(t, conversation.Options{LockTTL: ttl}, h.hooks)
	turn := startHeld(t, a, h)

	refused := make(chan struct{}, 1024)
	b := e.instance(t, conversation.Options{LockTTL: ttl, PollInterval: 10 * time.Millisecond}, hooks{
		lock: func(id, _ string, ok bool) {
			if id == turn.id && !ok {
				refused <- struct{}{}
			}
		}})
	f := follow(t, b, "ana", turn.id, 1) // after the stored "conversation" event
	// refused every ttl/4 for 2 ttl: unrenewed, the lease would have run
	// out after 4
	for range 8 {
		select {
		case <-refused:
		case ev := <-f.events:
			t.Fatalf("the turn ran again on another instance while it ran: %s", ev.Type)
		case <-f.ended:
			t.Fatalf("Follow ended: %v", f.err)
		}
	}
	h.release()
	turn.wait(t)
	if turn.err != nil || turn.result.Status != "answered" {
		t.Fatalf("the held turn: %v %+v", turn.err, turn.result)
	}
	evs := f.until(t, "done")
	wantConsecutive(t, evs, 1)
	wantOutcome(t, evs, "result")
	all := events(t, a, "ana", turn.id, 0)
	if all[len(all)-1].Type != "done" || countType(all, "done") != 1 {
		t.Errorf("stored events %v, want one turn with one outcome", types(all))
	}
}

// TestLeaseLostStopsTurn: when a turn's lease is taken by someone else,
// its heartbeat stops the turn, which saves nothing (the new holder saves
// the outcome); what the user asked is kept, and a follower gets the
// answer once the lease is free.
func TestLeaseLostStopsTurn(t *testing.T) {
	t.Parallel()
	var mu sync.Mutex
	owners := map[string]string{}
	h := holdTurns()
	h.lock = func(id, owner string, ok bool) {
		mu.Lock()
		defer mu.Unlock()
		if _, seen := owners[id]; ok && !seen {
			owners[id] = owner
		}
	}
	e := newEnv(t, conversation.Options{LockTTL: 300 * time.Millisecond}, h.hooks)
	turn := startHeld(t, e.svc, h)
	mu.Lock()
	owner := owners[turn.id]
	mu.Unlock()
	before := events(t, e.svc, "ana", turn.id, 0)

	ctx := context.Background()
	if err := e.st.Unlock(ctx, turn.id, owner); err != nil {
		t.Fatal(err)
	}
	if ok, err := e.st.Lock(ctx, turn.id, "i_other/1", time.Hour); err != nil || !ok {
		t.Fatalf("taking the lease: %v %v", ok, err)
	}
	turn.wait(t) // the turn waits for its context: only losing the lease ends it
	wantCode(t, turn.err, apperr.CodeSessionBusy)
	if after := events(t, e.svc, "ana", turn.id, 0); len(after) != len(before) {
		t.Errorf("events %v after the lease was lost, want %v: nothing saved", types(after), types(before))
	}
	if got := e.stored(t, turn.id); got != store.StatusActive {
		t.Errorf("stored status %s, want active: the turn has no outcome yet", got)
	}
	if v := get(t, e.svc, "ana", turn.id); len(v.Turns) != 1 || v.Turns[0].Text != bigWounds {
		t.Errorf("turns %+v, want the question kept", v.Turns)
	}

	if err := e.st.Unlock(ctx, turn.id, "i_other/1"); err != nil {
		t.Fatal(err)
	}
	last := before[len(before)-1].Seq
	evs := follow(t, e.svc, "ana", turn.id, last).until(t, "done")
	wantConsecutive(t, evs, last)
	wantOutcome(t, evs, "result")
	if v := get(t, e.svc, "ana", turn.id); v.Status != store.StatusAnswered || len(v.Turns) != 2 {
		t.Errorf("after following: %s with turns %+v, want answered: the question and its answer", v.Status, v.Turns)
	}
}

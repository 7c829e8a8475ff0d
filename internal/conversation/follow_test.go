package conversation_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/clarify-sql/clarify/internal/apperr"
	"github.com/clarify-sql/clarify/internal/conversation"
	"github.com/clarify-sql/clarify/internal/engine"
	"github.com/clarify-sql/clarify/internal/store"
)

// follower runs Follow in the background until the test ends.
type follower struct {
	events chan store.Event
	ended  chan struct{}
	err    error // once ended is closed
}

func follow(t *testing.T, svc *conversation.Service, user, id string, after int64) *follower {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), waitLimit)
	f := &follower{events: make(chan store.Event, 1024), ended: make(chan struct{})}
	go func() {
		defer close(f.ended)
		f.err = svc.Follow(ctx, user, id, after, func(ev store.Event) error {
			select {
			case f.events <- ev:
				return nil
			case <-ctx.Done():
				return ctx.Err()
			}
		})
	}()
	t.Cleanup(func() {
		cancel()
		<-f.ended
	})
	return f
}

// until returns the events followed up to and including the first of type typ.
func (f *follower) until(t *testing.T, typ string) []store.Event {
	t.Helper()
	var out []store.Event
	for {
		select {
		case ev := <-f.events:
			out = append(out, ev)
			if ev.Type == typ {
				return out
			}
		case <-f.ended:
			for len(f.events) > 0 {
				out = append(out, <-f.events)
			}
			t.Fatalf("Follow ended (%v) after %v, before a %q event", f.err, types(out), typ)
		}
	}
}

// wantOutcome checks that a turn's events end with its outcome and done.
func wantOutcome(t *testing.T, evs []store.Event, outcome string) store.Event {
	t.Helper()
	if len(evs) < 2 || evs[len(evs)-2].Type != outcome || evs[len(evs)-1].Type != "done" {
		t.Fatalf("events %v, want them to end with %s and done", types(evs), outcome)
	}
	return evs[len(evs)-2]
}

func rowsOf(t *testing.T, result store.Event) int {
	t.Helper()
	var a engine.Answer
	if err := json.Unmarshal(result.Data, &a); err != nil {
		t.Fatal(err)
	}
	return a.RowCount
}

func events(t *testing.T, svc *conversation.Service, user, id string, after int64) []store.Event {
	t.Helper()
	evs, err := svc.Events(context.Background(), user, id, after)
	if err != nil {
		t.Fatal(err)
	}
	return evs
}

// TestFollowReplays: following from an event id gives exactly the later
// events, in order, then the events of new turns as they happen.
func TestFollowReplays(t *testing.T) {
	t.Parallel()
	e := newEnv(t, conversation.Options{PollInterval: 10 * time.Millisecond}, hooks{})
	ctx := context.Background()
	var emitted []store.Event // what a client streaming the turns receives
	emit := eachEvent(func(ev store.Event) { emitted = append(emitted, ev) })
	r, err := e.svc.Ask(ctx, "ana", conversation.Ask{Question: severeWounds}, emit)
	if err != nil {
		t.Fatal(err)
	}
	id := r.ConversationID
	if _, err := e.svc.Send(ctx, "ana", id, conversation.Message{Answer: &conversation.Answer{ClarificationID: r.Clarification.ID, OptionID: "infected"}}, emit); err != nil {
		t.Fatal(err)
	}
	all := events(t, e.svc, "ana", id, 0)
	wantConsecutive(t, all, 0)
	if all[0].Type != "conversation" || countType(all, "done") != 2 {
		t.Fatalf("events %v, want the conversation and two turns", types(all))
	}
	if diff := cmp.Diff(all, emitted); diff != "" {
		t.Errorf("streamed events differ from the stored ones (-stored +streamed):\n%s", diff)
	}
	stop := errors.New("enough")
	n := int64(len(all))
	for _, after := range []int64{0, 1, n / 2, n - 1} {
		t.Run(fmt.Sprint("after ", after), func(t *testing.T) {
			if diff := cmp.Diff(all[after:], events(t, e.svc, "ana", id, after)); diff != "" {
				t.Errorf("Events (-want +got):\n%s", diff)
			}
			fctx, cancel := context.WithTimeout(ctx, waitLimit)
			defer cancel()
			var got []store.Event
			err := e.svc.Follow(fctx, "ana", id, after, func(ev store.Event) error {
				got = append(got, ev)
				if len(got) == int(n-after) {
					return stop
				}
				return nil
			})
			if !errors.Is(err, stop) {
				t.Errorf("Follow: %v", err)
			}
			if diff := cmp.Diff(all[after:], got); diff != "" {
				t.Errorf("replay after %d (-want +got):\n%s", after, diff)
			}
		})
	}
	// then live: a follower at the end gets the next turn as it happens
	f := follow(t, e.svc, "ana", id, n)
	send(t, e.svc, "ana", id, conversation.Message{Text: "only the infected ones"})
	live := f.until(t, "done")
	wantConsecutive(t, live, n)
	wantOutcome(t, live, "result")
	if diff := cmp.Diff(events(t, e.svc, "ana", id, n), live); diff != "" {
		t.Errorf("live events differ from the stored ones (-stored +live):\n%s", diff)
	}
}

// TestFollowAcrossInstances: a follower on one instance gets the turn an
// answer sent to another instance runs.
func TestFollowAcrossInstances(t *testing.T) {
	t.Parallel()
	e := newEnv(t, conversation.Options{}, hooks{})
	b := e.instance(t, conversation.Options{PollInterval: 10 * time.Millisecond}, hooks{})
	r := ask(t, e.svc, "ana", conversation.Ask{Question: severeWounds})
	id := r.ConversationID
	seen := events(t, b, "ana", id, 0)
	last := seen[len(seen)-1].Seq
	f := follow(t, b, "ana", id, last)
	choose(t, e.svc, "ana", r, "infect")
	evs := f.until(t, "done")
	wantConsecutive(t, evs, last)
	if evs[0].Type != "answer" {
		t.Errorf("events %v, want the answer first", types(evs))
	}
	if got, want := rowsOf(t, wantOutcome(t, evs, "result")), count(t, "SELECT COUNT(DISTINCT patient_id) FROM wounds WHERE infected = 1"); got != want {
		t.Errorf("%d rows, want %d", got, want)
	}
}

// TestFollowJoinsMidTurn: a follower that joins while a turn runs, after
// missing its first events, gets every event in order, none skipped: the
// live ones wait until the store has the ones before them.
func TestFollowJoinsMidTurn(t *testing.T) {
	t.Parallel()
	var armed atomic.Bool
	saving, release := make(chan struct{}), make(chan struct{})
	e := newEnv(t, conversation.Options{}, hooks{saveOutcome: func(context.Context) error {
		if armed.CompareAndSwap(true, false) {
			close(saving)
			select {
			case <-release:
			case <-time.After(waitLimit):
			}
		}
		return nil
	}})
	ctx := context.Background()
	r := ask(t, e.svc, "ana", conversation.Ask{Question: severeWounds})
	id := r.ConversationID
	armed.Store(true)
	sent := make(chan error, 1)
	go func() {
		_, err := e.svc.Send(ctx, "ana", id, conversation.Message{Answer: &conversation.Answer{ClarificationID: r.Clarification.ID, OptionID: "infected"}}, nil)
		sent <- err
	}()
	select {
	case <-saving: // the turn has published all its events but done, and stored none
	case err := <-sent:
		t.Fatalf("the turn ended without saving: %v", err)
	}
	stored := events(t, e.svc, "ana", id, 0)
	answer := stored[len(stored)-1]
	if answer.Type != "answer" {
		t.Fatalf("stored events %v, want the answer last", types(stored))
	}
	f := follow(t, e.svc, "ana", id, answer.Seq-1)
	if got := f.until(t, "answer"); len(got) != 1 { // the follower is subscribed
		t.Fatalf("first events %v, want the answer", types(got))
	}
	close(release)
	if err := <-sent; err != nil {
		t.Fatal(err)
	}
	evs := f.until(t, "done")
	wantConsecutive(t, evs, answer.Seq)
	wantOutcome(t, evs, "result")
	if diff := cmp.Diff(events(t, e.svc, "ana", id, answer.Seq), evs); diff != "" {
		t.Errorf("followed events differ from the stored ones (-stored +followed):\n%s", diff)
	}
}

// TestDroppedTurnResumes: whenever the client of a turn goes away, a
// follower gets the turn's outcome: a turn cut short is left active with
// an "interrupted" event and the follower runs it again.
func TestDroppedTurnResumes(t *testing.T) {
	t.Parallel()
	infected := count(t, "SELECT COUNT(DISTINCT patient_id) FROM wounds WHERE infected = 1")
	over10 := count(t, "SELECT COUNT(*) FROM wounds WHERE area_cm2 > 10 AND created_date < ?", daysAgo(90))
	type op struct {
		prepare func(t *testing.T, e *env) string // returns the conversation, if any
		run     func(ctx context.Context, e *env, id string, emit conversation.Emit) (*conversation.Result, error)
		outcome string // the turn's outcome event
		rows    int    // of the result
	}
	askOp := op{
		run: func(ctx context.Context, e *env, _ string, emit conversation.Emit) (*conversation.Result, error) {
			return e.svc.Ask(ctx, "ana", conversation.Ask{Question: severeWounds}, emit)
		},
		outcome: "clarification",
	}
	answerOp := op{
		prepare: func(t *testing.T, e *env) string {
			return ask(t, e.svc, "ana", conversation.Ask{Question: severeWounds}).ConversationID
		},
		run: func(ctx context.Context, e *env, id string, emit conversation.Emit) (*conversation.Result, error) {
			v, err := e.svc.Get(ctx, "ana", id)
			if err != nil {
				return nil, err
			}
			return e.svc.Send(ctx, "ana", id, conversation.Message{Answer: &conversation.Answer{ClarificationID: v.Pending.ID, OptionID: "infected"}}, emit)
		},
		outcome: "result", rows: infected,
	}
	changeOp := op{
		// an interactive conversation answered while questions were off:
		// run again with questions on, it would ask about vague:old
		prepare: func(t *testing.T, e *env) string {
			return answeredUnasked(t, e, "ana")
		},
		run: func(ctx context.Context, e *env, id string, emit conversation.Emit) (*conversation.Result, error) {
			return e.svc.ChangeAssumption(ctx, "ana", id, "vague:large", "area_gt_10", emit)
		},
		outcome: "result", rows: over10,
	}
	cases := []struct {
		name string
		op   op
		// leaveAfter is the step after which the client leaves; "" while
		// the turn is held at its start
		leaveAfter  string
		interrupted bool // the turn must be left without an outcome
	}{
		{"question, held", askOp, "", true},
		{"answer, held", answerOp, "", true},
		{"changed assumption, held", changeOp, "", true},
		{"answer, after understanding", answerOp, "understand", false},
		{"answer, after planning", answerOp, "plan", false},
		{"answer, after executing", answerOp, "execute", false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var armed atomic.Bool
			entered := make(chan struct{})
			e := newEnv(t, conversation.Options{PollInterval: 10 * time.Millisecond}, hooks{neverAsk: func(ctx context.Context) {
				if armed.CompareAndSwap(true, false) {
					close(entered)
					select {
					case <-ctx.Done():
					case <-time.After(waitLimit):
					}
				}
			}})
			var id string
			if tc.op.prepare != nil {
				id = tc.op.prepare(t, e)
			}
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			var (
				mu   sync.Mutex
				seen int64 // the last event the client received before leaving
			)
			emit := eachEvent(func(ev store.Event) {
				mu.Lock()
				defer mu.Unlock()
				if ctx.Err() != nil {
					return
				}
				seen, id = ev.Seq, ev.ConversationID
				if ev.Type == "step" && tc.leaveAfter != "" {
					var s struct{ Step string }
					if json.Unmarshal(ev.Data, &s) == nil && s.Step == tc.leaveAfter {
						cancel()
					}
				}
			})
			armed.Store(tc.leaveAfter == "")
			type outcome struct {
				r   *conversation.Result
				err error
			}
			done := make(chan outcome, 1)
			go func() {
				r, err := tc.op.run(ctx, e, id, emit)
				done <- outcome{r, err}
			}()
			if tc.leaveAfter == "" {
				select {
				case <-entered:
				case o := <-done:
					t.Fatalf("the turn never started: %+v %v", o.r, o.err)
				}
				cancel()
			}
			o := <-done
			mu.Lock()
			after, conv := seen, id
			mu.Unlock()
			if tc.interrupted {
				if !errors.Is(o.err, context.Canceled) {
					t.Errorf("the dropped turn returned %+v, %v; want context.Canceled", o.r, o.err)
				}
				if got := e.stored(t, conv); got != store.StatusActive {
					t.Errorf("stored status %s, want active: the turn has no outcome", got)
				}
				evs := events(t, e.svc, "ana", conv, 0)
				if last := evs[len(evs)-1]; last.Type != "interrupted" {
					t.Errorf("events %v, want the last one interrupted", types(evs))
				}
			}
			evs := follow(t, e.svc, "ana", conv, after).until(t, "done")
			wantConsecutive(t, evs, after)
			if tc.interrupted && evs[0].Type != "interrupted" {
				t.Errorf("events after %d: %v, want interrupted first", after, types(evs))
			}
			last := wantOutcome(t, evs, tc.op.outcome)
			if tc.op.outcome == "result" {
				if got := rowsOf(t, last); got != tc.op.rows {
					t.Errorf("%d rows, want %d", got, tc.op.rows)
				}
			}
			want := map[string]string{"clarification": store.StatusAwaiting, "result": store.StatusAnswered}[tc.op.outcome]
			if got := get(t, e.svc, "ana", conv).Status; got != want {
				t.Errorf("after following: %s, want %s", got, want)
			}
		})
	}
}

// TestFollowAfterInstanceDied: an instance died after saving an answer but
// before its turn's outcome, still holding the conversation's lease. A
// follower on another instance waits for the lease to run out, then runs
// the turn.
func TestFollowAfterInstanceDied(t *testing.T) {
	t.Parallel()
	var dying atomic.Bool
	e := newEnv(t, conversation.Options{}, hooks{saveOutcome: func(context.Context) error {
		if dying.Load() {
			return errors.New("the instance died")
		}
		return nil
	}})
	ctx := context.Background()
	r := ask(t, e.svc, "ana", conversation.Ask{Question: severeWounds})
	id := r.ConversationID
	dying.Store(true)
	_, err := e.svc.Send(ctx, "ana", id, conversation.Message{Answer: &conversation.Answer{ClarificationID: r.Clarification.ID, OptionID: "infected"}}, nil)
	wantCode(t, err, apperr.CodeInternal)
	if got := e.stored(t, id); got != store.StatusActive {
		t.Fatalf("stored status %s, want active: the answer saved, no outcome", got)
	}
	if ok, err := e.st.Lock(ctx, id, "i_dead/1", time.Minute); err != nil || !ok {
		t.Fatalf("the dead instance's lease: %v %v", ok, err)
	}
	stored := events(t, e.svc, "ana", id, 0)
	after := stored[len(stored)-1].Seq

	refused := make(chan struct{}, 1024)
	b := e.instance(t, conversation.Options{LockTTL: 100 * time.Millisecond, PollInterval: 10 * time.Millisecond}, hooks{
		lock: func(lid, _ string, ok bool) {
			if lid == id && !ok {
				refused <- struct{}{}
			}
		}})
	f := follow(t, b, "ana", id, after)
	// two refused attempts: the follower has tried and given up once
	// (resuming runs on the follower's goroutine), so a turn run despite
	// the lease would have delivered its events by now
	for range 2 {
		select {
		case <-refused:
		case ev := <-f.events:
			t.Fatalf("the turn ran while the dead instance's lease held: %s", ev.Type)
		case <-f.ended:
			t.Fatalf("Follow ended: %v", f.err)
		}
	}
	select {
	case ev := <-f.events:
		t.Fatalf("the turn ran while the dead instance's lease held: %s", ev.Type)
	default:
	}
	e.clock.Add(2 * time.Minute) // the lease runs out
	evs := f.until(t, "done")
	wantConsecutive(t, evs, after)
	if got, want := rowsOf(t, wantOutcome(t, evs, "result")), count(t, "SELECT COUNT(DISTINCT patient_id) FROM wounds WHERE infected = 1"); got != want {
		t.Errorf("%d rows, want %d", got, want)
	}
	if got := get(t, e.svc, "ana", id).Status; got != store.StatusAnswered {
		t.Errorf("after resuming: %s", got)
	}
}

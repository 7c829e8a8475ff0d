package conversation_test

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/clarify-sql/clarify/internal/apperr"
	"github.com/clarify-sql/clarify/internal/conversation"
	"github.com/clarify-sql/clarify/internal/store"
	"github.com/clarify-sql/clarify/internal/understand"
)

// TestClarifyThenAnswer follows the clinic's severe-wounds question through
// its clarification: each step is persisted (another instance reads it),
// the answer is saved before its turn runs, and the answer counts what the
// data holds.
func TestClarifyThenAnswer(t *testing.T) {
	t.Parallel()
	entered, release := make(chan struct{}), make(chan struct{})
	var turns atomic.Int32
	e := newEnv(t, conversation.Options{}, hooks{neverAsk: func(context.Context) {
		if turns.Add(1) == 2 { // the turn that answers: hold it until the test has looked
			close(entered)
			select {
			case <-release:
			case <-time.After(waitLimit): // the test has failed
			}
		}
	}})
	other := e.instance(t, conversation.Options{}, hooks{}) // reads what the store holds
	ctx := context.Background()
	asked := e.clock.Now()

	r := ask(t, e.svc, "ana", conversation.Ask{Question: severeWounds, Source: "clinic"})
	if r.Status != "needs_clarification" || r.Clarification == nil || r.Clarification.Kind != understand.KindVague || r.Answer != nil {
		t.Fatalf("ask: %s %+v, want a vague_qualifier clarification", r.Status, r.Clarification)
	}
	id := r.ConversationID
	v := get(t, other, "ana", id)
	if v.Status != store.StatusAwaiting || v.Question != severeWounds || v.Source != "clinic" || v.LastAnswer != nil {
		t.Errorf("after asking: %s %q %q %v, want awaiting_clarification", v.Status, v.Question, v.Source, v.LastAnswer)
	}
	if diff := cmp.Diff(r.Clarification, v.Pending); diff != "" {
		t.Errorf("pending clarification (-asked +stored):\n%s", diff)
	}
	if v.ExpiresAt == nil || !v.ExpiresAt.Equal(asked.Add(24*time.Hour)) {
		t.Errorf("expires at %v, want %v (the default TTL after asking)", v.ExpiresAt, asked.Add(24*time.Hour))
	}
	if got := e.stored(t, id); got != store.StatusAwaiting {
		t.Errorf("stored status %s after asking", got)
	}

	type outcome struct {
		r   *conversation.Result
		err error
	}
	done := make(chan outcome, 1)
	go func() {
		res, err := e.svc.Send(ctx, "ana", id, conversation.Message{Answer: &conversation.Answer{
			ClarificationID: r.Clarification.ID, OptionID: option(t, r.Clarification, "infect")}}, nil)
		done <- outcome{res, err}
	}()
	select {
	case <-entered:
	case o := <-done:
		t.Fatalf("the answer's turn never started: %+v %v", o.r, o.err)
	case <-time.After(waitLimit):
		t.Fatal("the answer's turn never started")
	}
	v = get(t, other, "ana", id)
	if v.Status != store.StatusActive || v.Pending != nil || len(v.Turns) != 3 || v.Turns[2].Kind != "answer" {
		t.Errorf("while the answer's turn runs: %s, pending %v, turns %+v; want active with the answer saved", v.Status, v.Pending, v.Turns)
	}
	close(release)
	o := <-done
	if o.err != nil {
		t.Fatal(o.err)
	}
	want := count(t, "SELECT COUNT(DISTINCT patient_id) FROM wounds WHERE infected = 1")
	if o.r.Status != "answered" || o.r.Answer == nil || o.r.Answer.RowCount != want {
		t.Fatalf("answer: %s %+v, want %d patients with an infected wound", o.r.Status, o.r.Answer, want)
	}
	if a := assumption(t, o.r, r.Clarification.Slot); a.Chosen != "infected" || a.Method != "user" {
		t.Errorf("assumption %+v, want infected chosen by the user", a)
	}

	v = get(t, other, "ana", id)
	if v.Status != store.StatusAnswered || v.Pending != nil || v.LastAnswer == nil || v.LastAnswer.RowCount != want {
		t.Errorf("after answering: %s, pending %v, last answer %+v", v.Status, v.Pending, v.LastAnswer)
	}
	wantTurns := []conversation.Turn{
		{Role: "user", Kind: "question", Text: severeWounds},
		{Role: "assistant", Kind: "clarification", Text: r.Clarification.Question},
		{Role: "user", Kind: "answer", Text: "Infected wounds"},
		{Role: "assistant", Kind: "answer", Text: o.r.Answer.Statement},
	}
	if diff := cmp.Diff(wantTurns, v.Turns, cmpopts.IgnoreFields(conversation.Turn{}, "At")); diff != "" {
		t.Errorf("turns (-want +got):\n%s", diff)
	}
	if got := e.stored(t, id); got != store.StatusAnswered {
		t.Errorf("stored status %s after answering", got)
	}
}

// reply is a message answering the last result: an option (by id or label
// part), a skip, or text.
type reply struct {
	option string
	skip   bool
	text   string
}

func (rp reply) message(t *testing.T, r *conversation.Result) conversation.Message {
	t.Helper()
	switch {
	case rp.text != "":
		return conversation.Message{Text: rp.text}
	case rp.skip:
		return conversation.Message{Answer: &conversation.Answer{ClarificationID: r.Clarification.ID, Skipped: true}}
	}
	if r.Clarification == nil {
		t.Fatalf("no clarification to answer with %q: %s %+v", rp.option, r.Status, r.Error)
	}
	return conversation.Message{Answer: &conversation.Answer{ClarificationID: r.Clarification.ID, OptionID: option(t, r.Clarification, rp.option)}}
}

// resultOf is the turn status that leaves a conversation in a stored status.
var resultOf = map[string]string{
	store.StatusAwaiting: "needs_clarification",
	store.StatusAnswered: "answered",
	store.StatusFailed:   "failed",
}

// TestStoredStatus checks the status the store holds after every message
// of several conversations, and that the turn reported the same.
func TestStoredStatus(t *testing.T) {
	t.Parallel()
	e := newEnv(t, conversation.Options{}, hooks{})
	cases := []struct {
		name    string
		ask     conversation.Ask
		replies []reply
		want    []string // after the question, then after each reply
		chosen  string   // when set, the answer's choice for slot
		slot    string
	}{
		{name: "answered option", ask: conversation.Ask{Question: severeWounds}, replies: []reply{{option: "infect"}},
			want: []string{store.StatusAwaiting, store.StatusAnswered}, slot: "vague:serious", chosen: "infected"},
		{name: "skipped", ask: conversation.Ask{Question: severeWounds}, replies: []reply{{skip: true}},
			want: []string{store.StatusAwaiting, store.StatusAnswered}, slot: "vague:serious", chosen: "full_thickness"},
		{name: "answered in words", ask: conversation.Ask{Question: severeWounds}, replies: []reply{{text: "infected wounds"}},
			want: []string{store.StatusAwaiting, store.StatusAnswered}, slot: "vague:serious", chosen: "infected"},
		{name: "not interactive", ask: notInteractive(bigWounds, "clinic"),
			want: []string{store.StatusAnswered}, slot: "vague:large", chosen: "area_gt_25"},
		{name: "clarification disabled", ask: conversation.Ask{Question: severeWounds, EnableClarification: new(bool)},
			want: []string{store.StatusAnswered}, slot: "vague:serious", chosen: "full_thickness"},
		{name: "follow-up", ask: notInteractive(bigWounds, "clinic"), replies: []reply{{text: "only the infected ones"}},
			want: []string{store.StatusAnswered, store.StatusAnswered}},
		{name: "two questions", ask: conversation.Ask{Question: myFerritin, Source: "labs"}, replies: []reply{{option: "Maria"}, {option: "table"}},
			want: []string{store.StatusAwaiting, store.StatusAwaiting, store.StatusAnswered}, slot: "scope", chosen: "L3"},
		{name: "scope required", ask: notInteractive(myFerritin, "labs"),
			want: []string{store.StatusFailed}},
		{name: "new question after a failure", ask: notInteractive(myFerritin, "labs"), replies: []reply{{text: "list Maria Rodriguez's ferritin values"}},
			want: []string{store.StatusFailed, store.StatusAnswered}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			user := "u-" + tc.name
			r := ask(t, e.svc, user, tc.ask)
			id := r.ConversationID
			for i, want := range tc.want {
				if i > 0 {
					r = send(t, e.svc, user, id, tc.replies[i-1].message(t, r))
				}
				if r.Status != resultOf[want] {
					t.Fatalf("step %d: turn %s (%+v), want %s", i, r.Status, r.Error, resultOf[want])
				}
				if got := e.stored(t, id); got != want {
					t.Fatalf("step %d: stored status %s, want %s", i, got, want)
				}
				if got := get(t, e.svc, user, id).Status; got != want {
					t.Fatalf("step %d: Get shows %s, want %s", i, got, want)
				}
			}
			if tc.slot != "" {
				if a := assumption(t, r, tc.slot); a.Chosen != tc.chosen {
					t.Errorf("%s = %s, want %s", tc.slot, a.Chosen, tc.chosen)
				}
			}
			if want := tc.want[len(tc.want)-1]; want == store.StatusFailed && (r.Error == nil || r.Error.Code != "SCOPE_REQUIRED") {
				t.Errorf("failure %+v, want SCOPE_REQUIRED", r.Error)
			}
		})
	}
}

// TestExpiry: a clarification unanswered past its TTL cannot be answered,
// and the conversation shows as abandoned, whether or not the janitor has
// swept it yet.
func TestExpiry(t *testing.T) {
	t.Parallel()
	const ttl = time.Hour
	cases := []struct {
		name   string
		wait   time.Duration
		sweep  bool // the janitor's sweep runs before the message
		text   bool // a text message instead of an answer
		code   apperr.Code
		status string // as Get shows it afterwards
	}{
		{name: "answered in time", wait: ttl - time.Minute, status: store.StatusAnswered},
		{name: "answer too late", wait: ttl + time.Minute, code: apperr.CodeClarificationExpired, status: store.StatusAbandoned},
		{name: "text too late", wait: ttl + time.Minute, text: true, code: apperr.CodeClarificationExpired, status: store.StatusAbandoned},
		{name: "swept", wait: ttl + time.Minute, sweep: true, code: apperr.CodeClarificationExpired, status: store.StatusAbandoned},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			e := newEnv(t, conversation.Options{TTL: ttl}, hooks{})
			ctx := context.Background()
			r := ask(t, e.svc, "ana", conversation.Ask{Question: severeWounds})
			e.clock.Add(tc.wait)
			if tc.sweep {
				if n, err := e.st.ExpireConversations(ctx, e.clock.Now()); err != nil || n != 1 {
					t.Fatalf("sweep: %d %v", n, err)
				}
			}
			m := conversation.Message{Answer: &conversation.Answer{ClarificationID: r.Clarification.ID, OptionID: "infected"}}
			if tc.text {
				m = conversation.Message{Text: "infected"}
			}
			res, err := e.svc.Send(ctx, "ana", r.ConversationID, m, nil)
			if tc.code == "" {
				if err != nil || res.Status != "answered" {
					t.Fatalf("answer in time: %+v %v", res, err)
				}
			} else {
				wantCode(t, err, tc.code)
			}
			v := get(t, e.svc, "ana", r.ConversationID)
			if v.Status != tc.status {
				t.Errorf("Get shows %s, want %s", v.Status, tc.status)
			}
			if tc.code != "" && v.Pending != nil {
				t.Errorf("an expired conversation shows its clarification as pending: %+v", v.Pending)
			}
		})
	}
}

// TestRefusedMessages: messages the service refuses carry the right code,
// change nothing and do not count towards the message limit.
func TestRefusedMessages(t *testing.T) {
	t.Parallel()
	e := newEnv(t, conversation.Options{MessageLimit: 3}, hooks{})
	ctx := context.Background()
	r := ask(t, e.svc, "ana", conversation.Ask{Question: severeWounds})
	id, q := r.ConversationID, r.Clarification.ID
	long := strings.Repeat("a", understand.MaxQuestionLen+1)
	cases := []struct {
		name string
		user string
		id   string
		m    conversation.Message
		code apperr.Code
	}{
		{"stale clarification", "ana", id, conversation.Message{Answer: &conversation.Answer{ClarificationID: "q_old", OptionID: "infected"}}, apperr.CodeStaleClarification},
		{"option not offered", "ana", id, conversation.Message{Answer: &conversation.Answer{ClarificationID: q, OptionID: "area_gt_10"}}, apperr.CodeBadRequest},
		{"empty answer", "ana", id, conversation.Message{Answer: &conversation.Answer{ClarificationID: q}}, apperr.CodeBadRequest},
		{"answer and text", "ana", id, conversation.Message{Answer: &conversation.Answer{ClarificationID: q, OptionID: "infected"}, Text: "infected"}, apperr.CodeBadRequest},
		{"nothing", "ana", id, conversation.Message{Text: "  "}, apperr.CodeBadRequest},
		{"too long", "ana", id, conversation.Message{Answer: &conversation.Answer{ClarificationID: q, FreeText: long}}, apperr.CodeBadRequest},
		{"another user", "bo", id, conversation.Message{Answer: &conversation.Answer{ClarificationID: q, OptionID: "infected"}}, apperr.CodeNotFound},
		{"no such conversation", "ana", "c_nope", conversation.Message{Text: "infected"}, apperr.CodeNotFound},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := e.svc.Send(ctx, tc.user, tc.id, tc.m, nil)
			wantCode(t, err, tc.code)
		})
	}
	v := get(t, e.svc, "ana", id)
	if v.Status != store.StatusAwaiting || v.Pending == nil || v.Pending.ID != q || len(v.Turns) != 2 {
		t.Fatalf("after refused messages: %s, pending %+v, %d turns; want it unchanged", v.Status, v.Pending, len(v.Turns))
	}
	// the second message of three: had the refused ones counted, it would be over the limit
	if a := choose(t, e.svc, "ana", r, "infect"); a.Status != "answered" {
		t.Fatalf("answer: %s", a.Status)
	}
	_, err := e.svc.Send(ctx, "ana", id, conversation.Message{Answer: &conversation.Answer{ClarificationID: q, OptionID: "infected"}}, nil)
	wantCode(t, err, apperr.CodeStaleClarification) // answered already

	// a scope question cannot be skipped
	rl := ask(t, e.svc, "ana", conversation.Ask{Question: myFerritin, Source: "labs"})
	_, err = e.svc.Send(ctx, "ana", rl.ConversationID, conversation.Message{Answer: &conversation.Answer{ClarificationID: rl.Clarification.ID, Skipped: true}}, nil)
	wantCode(t, err, apperr.CodeBadRequest)
}

func TestRefusedQuestions(t *testing.T) {
	t.Parallel()
	e := newEnv(t, conversation.Options{}, hooks{})
	cases := []struct {
		name string
		a    conversation.Ask
		code apperr.Code
	}{
		{"empty", conversation.Ask{Question: " \n"}, apperr.CodeBadRequest},
		{"too long", conversation.Ask{Question: strings.Repeat("wound ", understand.MaxQuestionLen)}, apperr.CodeBadRequest},
		{"unknown source", conversation.Ask{Question: bigWounds, Source: "nope"}, apperr.CodeUnknownSource},
		{"source down", conversation.Ask{Question: bigWounds, Source: "down"}, apperr.CodeSourceUnavailable},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := e.svc.Ask(context.Background(), "ana", tc.a, nil)
			wantCode(t, err, tc.code)
		})
	}
	// the default source is the engines' default
	if r := ask(t, e.svc, "ana", notInteractive(bigWounds, "")); get(t, e.svc, "ana", r.ConversationID).Source != "clinic" {
		t.Error("a question without a source did not go to the default source")
	}
}

// TestOtherUsers: a conversation is invisible to everyone but its user.
func TestOtherUsers(t *testing.T) {
	t.Parallel()
	e := newEnv(t, conversation.Options{}, hooks{})
	ctx := context.Background()
	r := ask(t, e.svc, "ana", notInteractive(bigWounds, "clinic"))
	stop := errors.New("stop")
	ops := []struct {
		name string
		call func(user, id string) error
	}{
		{"get", func(u, id string) error { _, err := e.svc.Get(ctx, u, id); return err }},
		{"send", func(u, id string) error {
			_, err := e.svc.Send(ctx, u, id, conversation.Message{Text: "only the infected ones"}, nil)
			return err
		}},
		{"change", func(u, id string) error {
			_, err := e.svc.ChangeAssumption(ctx, u, id, "vague:large", "area_gt_10", nil)
			return err
		}},
		{"events", func(u, id string) error { _, err := e.svc.Events(ctx, u, id, 0); return err }},
		{"follow", func(u, id string) error {
			return e.svc.Follow(ctx, u, id, 0, func(store.Event) error { return stop })
		}},
		{"delete", func(u, id string) error { return e.svc.Delete(ctx, u, id) }},
	}
	for _, op := range ops {
		t.Run(op.name, func(t *testing.T) {
			wantCode(t, op.call("bo", r.ConversationID), apperr.CodeNotFound)
			wantCode(t, op.call("ana", "c_nope"), apperr.CodeNotFound)
		})
	}
	v := get(t, e.svc, "ana", r.ConversationID)
	if v.Status != store.StatusAnswered || len(v.Turns) != 2 {
		t.Errorf("ana's conversation after bo's attempts: %s, %d turns", v.Status, len(v.Turns))
	}
	if err := e.svc.Follow(ctx, "ana", r.ConversationID, 0, func(store.Event) error { return stop }); !errors.Is(err, stop) {
		t.Errorf("ana follows her conversation: %v, want the sender's error", err)
	}
	if err := e.svc.Delete(ctx, "ana", r.ConversationID); err != nil {
		t.Fatal(err)
	}
	_, err := e.svc.Get(ctx, "ana", r.ConversationID)
	wantCode(t, err, apperr.CodeNotFound)
	_, err = e.svc.Events(ctx, "ana", r.ConversationID, 0)
	wantCode(t, err, apperr.CodeNotFound)
}

// TestMessageLimit: a conversation takes MessageLimit messages, its
// question included; the next is refused and changes nothing.
func TestMessageLimit(t *testing.T) {
	t.Parallel()
	for _, limit := range []int{1, 2, 4} {
		t.Run(fmt.Sprint("limit ", limit), func(t *testing.T) {
			t.Parallel()
			e := newEnv(t, conversation.Options{MessageLimit: limit}, hooks{})
			ctx := context.Background()
			r := ask(t, e.svc, "ana", notInteractive(bigWounds, "clinic"))
			id := r.ConversationID
			for i := 1; i < limit; i++ {
				send(t, e.svc, "ana", id, conversation.Message{Text: "only the infected ones"})
			}
			before := get(t, e.svc, "ana", id)
			_, err := e.svc.Send(ctx, "ana", id, conversation.Message{Text: "by clinic"}, nil)
			wantCode(t, err, apperr.CodeMessageLimit)
			_, err = e.svc.ChangeAssumption(ctx, "ana", id, "vague:large", "area_gt_10", nil)
			wantCode(t, err, apperr.CodeMessageLimit)
			after := get(t, e.svc, "ana", id)
			if diff := cmp.Diff(before, after); diff != "" {
				t.Errorf("a refused message changed the conversation (-before +after):\n%s", diff)
			}
		})
	}
}

// TestConcurrentAnswers: answers sent at once to one conversation run one
// at a time; exactly one is applied.
func TestConcurrentAnswers(t *testing.T) {
	t.Parallel()
	const n = 8
	cases := []struct {
		name string
		// hold keeps the first answer's turn (under the lease) until every
		// other answer has returned
		hold  bool
		codes []apperr.Code // the others' acceptable codes
	}{
		{"while the first runs", true, []apperr.Code{apperr.CodeSessionBusy}},
		{"free for all", false, []apperr.Code{apperr.CodeSessionBusy, apperr.CodeStaleClarification}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var refusedN atomic.Int32
			othersDone := make(chan struct{})
			var turns atomic.Int32
			h := hooks{}
			if tc.hold {
				h.neverAsk = func(context.Context) {
					if turns.Add(1) == 2 { // the first answer's turn
						select {
						case <-othersDone:
						case <-time.After(waitLimit): // the counts below fail
						}
					}
				}
			}
			e := newEnv(t, conversation.Options{}, h)
			ctx := context.Background()
			r := ask(t, e.svc, "ana", conversation.Ask{Question: severeWounds})
			m := conversation.Message{Answer: &conversation.Answer{ClarificationID: r.Clarification.ID, OptionID: "infected"}}
			var (
				mu       sync.Mutex
				answered int
				refused  []apperr.Code
				all      sync.WaitGroup
			)
			for range n {
				all.Add(1)
				go func() {
					defer all.Done()
					res, err := e.svc.Send(ctx, "ana", r.ConversationID, m, nil)
					mu.Lock()
					if err == nil && res.Status == "answered" {
						answered++
						mu.Unlock()
						return
					}
					refused = append(refused, apperr.CodeOf(err))
					mu.Unlock()
					if refusedN.Add(1) == n-1 {
						close(othersDone)
					}
				}()
			}
			all.Wait()
			if answered != 1 || len(refused) != n-1 {
				t.Fatalf("%d answered and %d refused (%v), want 1 and %d", answered, len(refused), refused, n-1)
			}
			for _, c := range refused {
				if !slices.Contains(tc.codes, c) {
					t.Errorf("an answer was refused with %q, want one of %v", c, tc.codes)
				}
			}
			evs, err := e.svc.Events(ctx, "ana", r.ConversationID, 0)
			if err != nil {
				t.Fatal(err)
			}
			if got := countType(evs, "answer"); got != 1 {
				t.Errorf("%d answer events, want 1", got)
			}
			prefs, err := e.svc.Preferences(ctx, "ana")
			if err != nil {
				t.Fatal(err)
			}
			if len(prefs) != 1 || prefs[0].Count != 1 {
				t.Errorf("preferences %+v, want the one answer counted once", prefs)
			}
		})
	}
}

func countType(evs []store.Event, typ string) int {
	n := 0
	for _, ev := range evs {
		if ev.Type == typ {
			n++
		}
	}
	return n
}

// TestCheckedUnderLease: a message that read the conversation before
// another message moved it on, and took the lease after, is judged by what
// the conversation is once it holds the lease: over the limit, or expired.
func TestCheckedUnderLease(t *testing.T) {
	t.Parallel()
	const ttl = time.Hour
	cases := []struct {
		name string
		// meanwhile runs while the message waits for the lease
		meanwhile func(t *testing.T, e *env, id string)
		code      apperr.Code
		turns     int // the conversation's turns afterwards
	}{
		{"message limit", func(t *testing.T, e *env, id string) {
			send(t, e.svc, "ana", id, conversation.Message{Text: "only the infected ones"})
		}, apperr.CodeMessageLimit, 4},
		{"expired and swept", func(t *testing.T, e *env, id string) {
			e.clock.Add(ttl + time.Minute)
			if n, err := e.st.ExpireConversations(context.Background(), e.clock.Now()); err != nil || n != 1 {
				t.Fatalf("sweep: %d %v", n, err)
			}
		}, apperr.CodeClarificationExpired, 2},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var armed atomic.Bool
			held, release := make(chan struct{}), make(chan struct{})
			e := newEnv(t, conversation.Options{MessageLimit: 2, TTL: ttl}, hooks{beforeLock: func(ctx context.Context, _ string) {
				if armed.CompareAndSwap(true, false) {
					close(held)
					select {
					case <-release:
					case <-time.After(waitLimit): // the test has failed
					}
				}
			}})
			q := conversation.Ask{Question: severeWounds}
			if tc.code == apperr.CodeMessageLimit {
				q = notInteractive(bigWounds, "clinic")
			}
			id := ask(t, e.svc, "ana", q).ConversationID
			armed.Store(true)
			sent := make(chan error, 1)
			go func() {
				_, err := e.svc.Send(context.Background(), "ana", id, conversation.Message{Text: "infected wounds"}, nil)
				sent <- err
			}()
			select {
			case <-held: // the message has read the conversation and waits for its lease
			case err := <-sent:
				t.Fatalf("the message never took the lease: %v", err)
			}
			tc.meanwhile(t, e, id)
			close(release)
			wantCode(t, <-sent, tc.code)
			if v := get(t, e.svc, "ana", id); len(v.Turns) != tc.turns {
				t.Errorf("%d turns, want %d: %+v", len(v.Turns), tc.turns, v.Turns)
			}
		})
	}
}

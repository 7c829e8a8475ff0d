package conversation_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/clarify-sql/clarify/internal/conversation"
	"github.com/clarify-sql/clarify/internal/store"
)

// callCounter is a store that counts the calls of the methods a
// conversation's rounds use: each is a transaction, or a read, of the
// store (and on PostgreSQL a round trip at least).
type callCounter struct {
	store.Store
	mu    sync.Mutex
	calls map[string]int
}

func (c *callCounter) count(name string) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.calls[name]++
}

// take returns the calls counted since the last take.
func (c *callCounter) take() map[string]int {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := c.calls
	c.calls = map[string]int{}
	return out
}

func (c *callCounter) CreateLocked(ctx context.Context, cv *store.Conversation, owner string, ttl time.Duration, events ...store.Event) ([]store.Event, error) {
	c.count("CreateLocked")
	return c.Store.CreateLocked(ctx, cv, owner, ttl, events...)
}

func (c *callCounter) SaveConversation(ctx context.Context, w store.Save) ([]store.Event, error) {
	c.count("SaveConversation")
	return c.Store.SaveConversation(ctx, w)
}

func (c *callCounter) Conversation(ctx context.Context, id string) (*store.Conversation, error) {
	c.count("Conversation")
	return c.Store.Conversation(ctx, id)
}

func (c *callCounter) Lock(ctx context.Context, id, owner string, ttl time.Duration) (bool, error) {
	c.count("Lock")
	return c.Store.Lock(ctx, id, owner, ttl)
}

func (c *callCounter) Unlock(ctx context.Context, id, owner string) error {
	c.count("Unlock")
	return c.Store.Unlock(ctx, id, owner)
}

func (c *callCounter) AppendAudit(ctx context.Context, r store.AuditRecord) error {
	c.count("AppendAudit")
	return c.Store.AppendAudit(ctx, r)
}

func (c *callCounter) Learned(ctx context.Context, user, source string) (store.Learned, error) {
	c.count("Learned")
	return c.Store.Learned(ctx, user, source)
}

func (c *callCounter) NeverAsk(ctx context.Context, user string) (bool, error) {
	c.count("NeverAsk")
	return c.Store.NeverAsk(ctx, user)
}

func (c *callCounter) Preferences(ctx context.Context, user, source string) ([]store.Preference, error) {
	c.count("Preferences")
	return c.Store.Preferences(ctx, user, source)
}

func (c *callCounter) Events(ctx context.Context, id string, after int64) ([]store.Event, error) {
	c.count("Events")
	return c.Store.Events(ctx, id, after)
}

// TestStoreCallsPerRound: what a conversation costs the store, round by
// round — each write is a commit (an fsync), each call a round trip on
// PostgreSQL. A question asked and its clarification answered write two
// transactions a turn: the question with its lease, then its outcome with
// its audit record; the answer with the lease its turn runs under, then
// the outcome. Each turn reads what it learned of its user once. Following
// it reads its row once.
func TestStoreCallsPerRound(t *testing.T) {
	t.Parallel()
	e := newEnv(t, conversation.Options{}, hooks{})
	st := &callCounter{Store: e.st, calls: map[string]int{}}
	svc := conversation.New(e.engines, st, conversation.Options{Clock: e.clock.Now, Log: testLog(t)})
	t.Cleanup(svc.Close)

	r := ask(t, svc, "ana", conversation.Ask{Question: severeWounds})
	if r.Clarification == nil {
		t.Fatalf("no clarification: %+v", r)
	}
	asked := st.take()
	answered := choose(t, svc, "ana", r, "infect")
	if answered.Answer == nil {
		t.Fatalf("no answer: %+v", answered)
	}
	sent := st.take()
	evs := follow(t, svc, "ana", r.ConversationID, 0).until(t, "done")
	evs = append(evs, follow(t, svc, "ana", r.ConversationID, evs[len(evs)-1].Seq).until(t, "done")...)
	followed := st.take()
	for _, tc := range []struct {
		name string
		got  map[string]int
		want map[string]int
	}{
		{"ask", asked, map[string]int{"CreateLocked": 1, "Learned": 1, "SaveConversation": 1}},
		{"answer", sent, map[string]int{"Conversation": 1, "Learned": 1, "SaveConversation": 2}},
		{"follow twice", followed, map[string]int{"Conversation": 2, "Events": 2}},
	} {
		if diff := cmp.Diff(tc.want, tc.got); diff != "" {
			t.Errorf("%s: store calls (-want +got):\n%s", tc.name, diff)
		}
	}
	wantConsecutive(t, evs, 0)
}

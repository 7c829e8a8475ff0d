package server_test

import (
	"context"
	"encoding/json"
	"sync/atomic"
	"testing"
	"time"

	"github.com/clarify-sql/clarify/internal/store"
)

// rowReads is a store that counts the reads of conversations' rows, each
// of which carries the conversation's whole state.
type rowReads struct {
	store.Store
	n *atomic.Int64
}

func (r rowReads) Conversation(ctx context.Context, id string) (*store.Conversation, error) {
	r.n.Add(1)
	return r.Store.Conversation(ctx, id)
}

// TestEventStreamReadsRowOnce: opening a conversation's event stream
// reads its row once — what a thousand clients reopening their streams
// cost — and still answers 404 for a conversation that is not there.
func TestEventStreamReadsRowOnce(t *testing.T) {
	var reads atomic.Int64
	h := startWith(t, func(s store.Store) store.Store { return rowReads{Store: s, n: &reads} })
	resp := h.stream("POST", "/v1/conversations", map[string]any{"question": "Show me the patients who have severe wounds"}, 0)
	evs := readSSE(t, resp.Body, "done")
	resp.Body.Close()
	var conv struct {
		ID string `json:"conversation_id"`
	}
	if err := json.Unmarshal([]byte(evs[0].data), &conv); err != nil || conv.ID == "" {
		t.Fatalf("first event %+v: %v", evs[0], err)
	}

	reads.Store(0)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	resp = h.streamCtx(ctx, "GET", "/v1/conversations/"+conv.ID+"/events", nil, evs[len(evs)-2].id)
	got := readSSE(t, resp.Body, "done")
	resp.Body.Close()
	if len(got) != 1 || got[0].event != "done" {
		t.Fatalf("events after the clarification: %v, want done", kinds(got))
	}
	if n := reads.Load(); n != 1 {
		t.Errorf("opening the event stream read the conversation %d times, want once", n)
	}
	if code := h.do("GET", "/v1/conversations/c_nothere/events", "", nil, nil); code != 404 {
		t.Errorf("events of an unknown conversation: %d, want 404", code)
	}
}

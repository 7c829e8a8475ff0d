package conversation

import (
	"sync"

	"github.com/clarify-sql/clarify/internal/store"
)

// hub fans the events of this instance out to its followers, as they
// happen; followers find events of other instances in the store.
type hub struct {
	mu   sync.Mutex
	subs map[string]map[chan store.Event]struct{}
}

func newHub() *hub { return &hub{subs: map[string]map[chan store.Event]struct{}{}} }

func (h *hub) subscribe(id string) chan store.Event {
	ch := make(chan store.Event, 16)
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.subs[id] == nil {
		h.subs[id] = map[chan store.Event]struct{}{}
	}
	h.subs[id][ch] = struct{}{}
	return ch
}

func (h *hub) unsubscribe(id string, ch chan store.Event) {
	h.mu.Lock()
	defer h.mu.Unlock()
	delete(h.subs[id], ch)
	if len(h.subs[id]) == 0 {
		delete(h.subs, id)
	}
}

// publish never blocks: a follower too slow to take an event catches up
// from the store.
func (h *hub) publish(ev store.Event) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for ch := range h.subs[ev.ConversationID] {
		select {
		case ch <- ev:
		default:
		}
	}
}

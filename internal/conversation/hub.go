package conversation

import (
	"context"
	"sync"
	"sync/atomic"
	"time"

	"github.com/clarify-sql/clarify/internal/store"
)

// hub fans the events of this instance out to the streams that follow
// their conversations, as they happen, and wakes a stream when the store
// has events it has not sent: written by another instance, or missed.
// One follower per Service (Service.follow) watches the store for all the
// streams: an idle stream costs no store read of its own.
type hub struct {
	mu   sync.Mutex
	subs map[string]map[*sub]struct{}
}

// sub is one stream's subscription to a conversation.
type sub struct {
	// events receives this instance's events of the conversation.
	events chan store.Event
	// wake is signalled (never blocking: it holds one signal) when the
	// stream should look at the store.
	wake chan struct{}
	// sent is the seq of the last event the stream sent; the follower
	// wakes it when the store has a newer one.
	sent atomic.Int64
	// changed is set when the store announced new events of the
	// conversation, whose seq is not known.
	changed atomic.Bool
	// active is the conversation's status at the follower's last look:
	// a turn runs, or should run, and may need resuming.
	active atomic.Bool
}

func newHub() *hub { return &hub{subs: map[string]map[*sub]struct{}{}} }

func (h *hub) subscribe(id string, sent int64) *sub {
	s := &sub{events: make(chan store.Event, 16), wake: make(chan struct{}, 1)}
	s.sent.Store(sent)
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.subs[id] == nil {
		h.subs[id] = map[*sub]struct{}{}
	}
	h.subs[id][s] = struct{}{}
	return s
}

func (h *hub) unsubscribe(id string, s *sub) {
	h.mu.Lock()
	defer h.mu.Unlock()
	delete(h.subs[id], s)
	if len(h.subs[id]) == 0 {
		delete(h.subs, id)
	}
}

// publish never blocks: a stream too slow to take an event catches up
// from the store.
func (h *hub) publish(ev store.Event) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for s := range h.subs[ev.ConversationID] {
		select {
		case s.events <- ev:
		default:
			s.changed.Store(true)
			s.signal()
		}
	}
}

func (s *sub) signal() {
	select {
	case s.wake <- struct{}{}:
	default:
	}
}

// ids returns the conversations followed.
func (h *hub) ids() []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	ids := make([]string, 0, len(h.subs))
	for id := range h.subs {
		ids = append(ids, id)
	}
	return ids
}

// changed wakes the streams of a conversation the store announced.
func (h *hub) changed(id string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for s := range h.subs[id] {
		s.changed.Store(true)
		s.signal()
	}
}

// update wakes the streams whose conversation has events they have not
// sent, or is gone (their read of the store says so), and those whose
// conversation is active, which may need its turn resumed.
func (h *hub) update(ids []string, heads map[string]store.Head) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, id := range ids {
		hd, ok := heads[id]
		for s := range h.subs[id] {
			active := ok && hd.Status == store.StatusActive
			s.active.Store(active)
			if !ok || hd.LastSeq > s.sent.Load() || active {
				if !ok || hd.LastSeq > s.sent.Load() {
					s.changed.Store(true)
				}
				s.signal()
			}
		}
	}
}

// follow is the instance's one follower: until ctx ends it polls the
// heads of the followed conversations every Options.PollInterval and
// wakes the streams they concern. On a store that announces new events
// (PostgreSQL) it listens for them too, and then polls only every
// LockTTL/4, for the turns to resume and what a lost connection missed.
func (s *Service) follow(ctx context.Context) {
	defer s.wg.Done()
	var listening atomic.Bool
	poll := make(chan struct{}, 1)
	if n, ok := s.st.(store.Notifier); ok {
		s.wg.Add(1)
		go func() {
			defer s.wg.Done()
			s.listen(ctx, n, &listening, poll)
		}()
	}
	t := time.NewTimer(s.opt.PollInterval)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		case <-poll:
		}
		if ids := s.hub.ids(); len(ids) > 0 {
			heads, err := s.st.Heads(ctx, ids)
			if err != nil && ctx.Err() == nil {
				s.opt.Log.Warn("follow conversations", "conversations", len(ids), "err", err)
			}
			if err == nil {
				s.hub.update(ids, heads)
			}
		}
		next := s.opt.PollInterval
		if listening.Load() {
			next = max(next, s.opt.LockTTL/4)
		}
		t.Reset(next)
	}
}

// listen listens for the store's announcements until ctx ends, listening
// again a second after a failure; each time it starts listening it asks
// the follower to poll, for what was announced while it did not listen.
func (s *Service) listen(ctx context.Context, n store.Notifier, listening *atomic.Bool, poll chan<- struct{}) {
	for {
		err := n.Listen(ctx, func() {
			listening.Store(true)
			select {
			case poll <- struct{}{}:
			default:
			}
		}, s.hub.changed)
		listening.Store(false)
		if ctx.Err() != nil {
			return
		}
		s.opt.Log.Warn("listen for new events; polling meanwhile", "err", err)
		select {
		case <-ctx.Done():
			return
		case <-time.After(time.Second):
		}
	}
}

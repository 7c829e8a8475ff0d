package storetest

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/clarify-sql/clarify/internal/store"
)

// Bench runs the benchmarks against the stores newDSN names:
//   - CreateUpdateEvents: one conversation's life in one goroutine: create
//     with 2 events, then 3 updates with 2 events each.
//   - CreateUpdateEventsParallel: the same from many goroutines at once
//     (b.SetParallelism(16) per GOMAXPROCS).
//   - EventsPoll: Events after the last seq (nothing new), the SSE poll.
//   - EventsReplay: Events after 0 of a 20-event conversation.
//   - Conversations1000: 1,000 goroutines each run a whole clarified
//     conversation at once (lock, 5 writes, 3 polls, answer, query log);
//     reports conversations/s and p50/p99 latency of one store call.
func Bench(b *testing.B, newDSN NewDSN) {
	b.Run("CreateUpdateEvents", func(b *testing.B) { benchLife(b, newDSN, false) })
	b.Run("CreateUpdateEventsParallel", func(b *testing.B) { benchLife(b, newDSN, true) })
	b.Run("EventsPoll", func(b *testing.B) { benchPoll(b, newDSN, 20) })
	b.Run("EventsReplay", func(b *testing.B) { benchPoll(b, newDSN, 0) })
	b.Run("Conversations1000", func(b *testing.B) { benchConversations(b, newDSN, 1000) })
}

var state = []byte(`{"answers":{"time_window":"last_month"},"rounds":1,"pending":{"slot":"severity","options":["serious","all"]}}`)

func benchEvents(types ...string) []store.Event {
	evs := make([]store.Event, len(types))
	for i, typ := range types {
		evs[i] = store.Event{Type: typ, Data: []byte(`{"step":"understand","ms":1.25,"text":"Looking at wounds in the clinic database"}`)}
	}
	return evs
}

// life runs one conversation: create, then three updates, 8 events in all.
func life(ctx context.Context, s store.Store, id string) error {
	c := &store.Conversation{ID: id, UserID: "u1", Source: "clinic", Question: "serious wounds",
		Status: store.StatusActive, Interactive: true, State: state, Messages: 1}
	if _, err := s.CreateConversation(ctx, c, benchEvents("conversation", "step")...); err != nil {
		return err
	}
	for _, st := range []string{store.StatusAwaiting, store.StatusActive, store.StatusAnswered} {
		c.Status = st
		if _, err := s.UpdateConversation(ctx, c, benchEvents("step", "done")...); err != nil {
			return err
		}
	}
	return nil
}

func benchLife(b *testing.B, newDSN NewDSN, parallel bool) {
	s := fresh(b, newDSN)
	ctx := context.Background()
	b.ReportAllocs()
	if !parallel {
		i := 0
		for b.Loop() {
			if err := life(ctx, s, fmt.Sprintf("c%d", i)); err != nil {
				b.Fatal(err)
			}
			i++
		}
		return
	}
	var n atomic.Int64
	b.SetParallelism(16)
	b.ResetTimer()
	b.RunParallel(func(pb *testing.PB) {
		for pb.Next() {
			if err := life(ctx, s, fmt.Sprintf("c%d", n.Add(1))); err != nil {
				b.Error(err)
				return
			}
		}
	})
}

func benchPoll(b *testing.B, newDSN NewDSN, after int64) {
	s := fresh(b, newDSN)
	ctx := context.Background()
	c := &store.Conversation{ID: "c1", UserID: "u1", Status: store.StatusActive, State: state}
	if _, err := s.CreateConversation(ctx, c, benchEvents("conversation", "step")...); err != nil {
		b.Fatal(err)
	}
	for range 9 {
		if _, err := s.UpdateConversation(ctx, c, benchEvents("step", "text")...); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportAllocs()
	for b.Loop() {
		evs, err := s.Events(ctx, "c1", after)
		if err != nil {
			b.Fatal(err)
		}
		if want := 20 - int(after); len(evs) != want {
			b.Fatalf("got %d events, want %d", len(evs), want)
		}
	}
}

// benchConversations runs n clarified conversations at once, each as the
// service would: create; lease; awaiting + clarification; release; the
// client polls; answer arrives: lease, active, answered; poll; record the
// answer and the query log.
func benchConversations(b *testing.B, newDSN NewDSN, n int) {
	s := fresh(b, newDSN)
	ctx := context.Background()
	var (
		mu  sync.Mutex
		lat []time.Duration
	)
	timed := func(local *[]time.Duration, f func() error) error {
		start := time.Now()
		err := f()
		*local = append(*local, time.Since(start))
		return err
	}
	round := 0
	b.ReportAllocs()
	start := time.Now()
	for b.Loop() {
		round++
		var wg sync.WaitGroup
		for i := range n {
			wg.Go(func() {
				var local []time.Duration
				if err := conversationFlow(ctx, s, fmt.Sprintf("r%dc%d", round, i), func(f func() error) error { return timed(&local, f) }); err != nil {
					b.Error(err)
				}
				mu.Lock()
				lat = append(lat, local...)
				mu.Unlock()
			})
		}
		wg.Wait()
	}
	elapsed := time.Since(start)
	slices.Sort(lat)
	if len(lat) > 0 {
		b.ReportMetric(float64(lat[(len(lat)*50+99)/100-1].Microseconds())/1000, "p50-call-ms")
		b.ReportMetric(float64(lat[(len(lat)*99+99)/100-1].Microseconds())/1000, "p99-call-ms")
	}
	b.ReportMetric(float64(n*round)/elapsed.Seconds(), "conversations/s")
}

func conversationFlow(ctx context.Context, s store.Store, id string, timed func(func() error) error) error {
	c := &store.Conversation{ID: id, UserID: "u1", Source: "clinic", Question: "serious wounds",
		Status: store.StatusActive, Interactive: true, State: state, Messages: 1}
	var last int64
	poll := func() error {
		evs, err := s.Events(ctx, id, last)
		if len(evs) > 0 {
			last = evs[len(evs)-1].Seq
		}
		return err
	}
	lock := func() error {
		ok, err := s.Lock(ctx, id, "server-a", time.Minute)
		if err == nil && !ok {
			err = fmt.Errorf("lease of %s refused", id)
		}
		return err
	}
	update := func(status string, types ...string) func() error {
		return func() error {
			c.Status = status
			_, err := s.UpdateConversation(ctx, c, benchEvents(types...)...)
			return err
		}
	}
	steps := []func() error{
		func() error {
			_, err := s.CreateConversation(ctx, c, benchEvents("conversation", "step")...)
			return err
		},
		lock,
		update(store.StatusAwaiting, "step", "clarification", "done"),
		func() error { return s.Unlock(ctx, id, "server-a") },
		poll,
		lock,
		update(store.StatusActive, "step"),
		update(store.StatusAnswered, "sql", "result", "done"),
		func() error { return s.Unlock(ctx, id, "server-a") },
		poll,
		func() error {
			return s.RecordAnswer(ctx, store.Answer{UserID: "u1", Source: "clinic", Slot: "severity", Value: "serious"})
		},
		func() error {
			return s.LogQuery(ctx, store.QueryRecord{ConversationID: id, UserID: "u1", Source: "clinic",
				Question: "serious wounds", SQL: "SELECT 1", Status: "answered", DurationMS: 3, Rows: 4, Turns: 2, Clarifications: 1})
		},
		poll,
	}
	for i, f := range steps {
		if err := timed(f); err != nil {
			return fmt.Errorf("%s step %d: %w", id, i, err)
		}
	}
	return nil
}

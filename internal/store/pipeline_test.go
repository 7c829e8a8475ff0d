package store_test

import (
	"context"
	"testing"
	"time"

	"github.com/clarify-sql/clarify/internal/store"
	"github.com/clarify-sql/clarify/internal/testdb"
)

// TestPostgresRoundTrips: on PostgreSQL a conversation's writes — its
// creation with its lease, a message saved under the lease, a turn's
// outcome with its query record, audit record and release — each cost one
// round trip (BEGIN, the statements and COMMIT sent together), not one per
// statement: on a busy server every round trip wakes both processes.
func TestPostgresRoundTrips(t *testing.T) {
	t.Parallel()
	testdb.Postgres(t)
	ctx := context.Background()
	rt := &store.RoundTrips{}
	s, err := store.OpenCounting(ctx, postgresDSN(t), rt)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	event := func(typ string) store.Event { return store.Event{Type: typ, Data: []byte(`{}`)} }
	// each write twice: the first prepares its statements (pgx caches them)
	for i, id := range []string{"warm", "c1"} {
		c := &store.Conversation{ID: id, UserID: "u1", Source: "clinic", Question: "q", Status: store.StatusActive}
		steps := []struct {
			name  string
			write func() error
		}{
			{"CreateLocked", func() error {
				_, err := s.CreateLocked(ctx, c, "A", time.Hour, event("conversation"))
				return err
			}},
			{"a turn's outcome", func() error {
				c.Status = store.StatusAwaiting
				_, err := s.SaveConversation(ctx, store.Save{Conversation: c, Events: []store.Event{event("step"), event("clarification")},
					Query:  &store.QueryRecord{UserID: "u1", Source: "clinic", Question: "q", Status: "ok"},
					Audit:  &store.AuditRecord{UserID: "u1", Source: "clinic", Question: "q", Outcome: store.AuditAsked},
					Unlock: "A"})
				return err
			}},
			{"a message under its lease", func() error {
				c.Status = store.StatusActive
				_, err := s.SaveConversation(ctx, store.Save{Conversation: c, Events: []store.Event{event("answer")},
					Answer: &store.Answer{UserID: "u1", Source: "clinic", Slot: "size", Value: "opt:large", Remember: true},
					Lock:   "A", LockTTL: time.Hour})
				return err
			}},
		}
		for _, st := range steps {
			before := rt.Count()
			if err := st.write(); err != nil {
				t.Fatalf("%s of %s: %v", st.name, id, err)
			}
			if n := rt.Count() - before; i > 0 && n != 1 {
				t.Errorf("%s: %d round trips; want 1", st.name, n)
			}
		}
	}
}

package conversation_test

import (
	"context"
	"errors"
	"sync/atomic"
	"testing"
	"time"

	"github.com/clarify-sql/clarify/internal/conversation"
	"github.com/clarify-sql/clarify/internal/store"
)

// sweepCounter counts the sweeps a service makes.
type sweepCounter struct {
	store.Store
	n atomic.Int64
}

func (s *sweepCounter) DeleteOlderThan(ctx context.Context, before time.Time) (int, error) {
	s.n.Add(1)
	return s.Store.DeleteOlderThan(ctx, before)
}

// TestRetention: with Keep set, a service deletes conversations older than
// Keep (by its clock) as it starts and then periodically, keeps recent
// ones, and stops sweeping once closed.
func TestRetention(t *testing.T) {
	e := newEnv(t, conversation.Options{}, hooks{})
	ctx := context.Background()
	const keep = 30 * 24 * time.Hour
	gone := func(id string) bool {
		_, err := e.st.Conversation(ctx, id)
		if err != nil && !errors.Is(err, store.ErrNotFound) {
			t.Fatal(err)
		}
		return errors.Is(err, store.ErrNotFound)
	}
	waitGone := func(id string) {
		t.Helper()
		for deadline := time.Now().Add(10 * time.Second); !gone(id); time.Sleep(5 * time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatalf("%s is still stored", id)
			}
		}
	}
	logged := func(id string) bool {
		recs, err := e.st.QueryLog(ctx, "", time.Time{})
		if err != nil {
			t.Fatal(err)
		}
		for _, r := range recs {
			if r.ConversationID == id {
				return true
			}
		}
		return false
	}

	t.Run("at start", func(t *testing.T) {
		old := ask(t, e.svc, "ana", notInteractive(bigWounds, "clinic")).ConversationID
		if !logged(old) {
			t.Fatalf("%s is not in the query log", old)
		}
		e.clock.Add(keep + time.Hour)
		recent := ask(t, e.svc, "ana", notInteractive(bigWounds, "clinic")).ConversationID
		// A sweep an hour away: only the one at start can delete.
		svc := conversation.New(e.engines, e.st, conversation.Options{Keep: keep, SweepEvery: time.Hour, Clock: e.clock.Now})
		defer svc.Close()
		waitGone(old)
		if logged(old) {
			t.Errorf("%s's query log rows survived it", old)
		}
		if gone(recent) || !logged(recent) {
			t.Errorf("the recent %s was deleted", recent)
		}
	})

	t.Run("periodically, until closed", func(t *testing.T) {
		counter := &sweepCounter{Store: e.st}
		svc := conversation.New(e.engines, counter, conversation.Options{Keep: keep, SweepEvery: time.Millisecond, Clock: e.clock.Now})
		id := ask(t, svc, "bo", notInteractive(bigWounds, "clinic")).ConversationID
		for counter.n.Load() < 3 {
			time.Sleep(time.Millisecond)
		}
		if gone(id) {
			t.Fatalf("%s was deleted before it was %s old", id, keep)
		}
		e.clock.Add(keep + time.Hour)
		waitGone(id)

		svc.Close()
		n := counter.n.Load()
		later := ask(t, e.svc, "bo", notInteractive(bigWounds, "clinic")).ConversationID
		e.clock.Add(keep + time.Hour)
		time.Sleep(20 * time.Millisecond)
		if got := counter.n.Load(); got != n {
			t.Errorf("%d sweeps after Close", got-n)
		}
		if gone(later) {
			t.Errorf("%s was deleted after Close", later)
		}
	})
}

// TestNoRetention: without Keep, nothing is ever deleted.
func TestNoRetention(t *testing.T) {
	e := newEnv(t, conversation.Options{SweepEvery: time.Millisecond}, hooks{})
	id := ask(t, e.svc, "ana", notInteractive(bigWounds, "clinic")).ConversationID
	e.clock.Add(10 * 365 * 24 * time.Hour)
	time.Sleep(20 * time.Millisecond)
	if _, err := e.st.Conversation(context.Background(), id); err != nil {
		t.Errorf("%s after ten years without keep: %v", id, err)
	}
}

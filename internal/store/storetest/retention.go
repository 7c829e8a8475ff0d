package storetest

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/clarify-sql/clarify/internal/store"
)

// testRetention: DeleteOlderThan removes old conversations with their
// events, leases and query log rows, in more than one batch, and keeps
// recent ones, active ones and leased ones.
func testRetention(t *testing.T, newDSN NewDSN) {
	ctx := context.Background()
	s := fresh(t, newDSN)
	// Leases are timed by the real clock (PostgreSQL's), so the
	// conversations are placed around it.
	now := time.Now()
	before := now.Add(-30 * 24 * time.Hour)
	old, recent := before.Add(-time.Hour), before.Add(time.Hour)
	mk := func(id, status string, updated time.Time) {
		t.Helper()
		c := conversation(id)
		c.Status = status
		c.CreatedAt, c.UpdatedAt = updated.Add(-time.Minute), updated
		mustCreate(t, s, c, events("conversation", "answer")...)
		r := store.QueryRecord{ConversationID: id, UserID: c.UserID, Source: c.Source, Question: c.Question,
			Status: "answered", At: updated}
		if err := s.LogQuery(ctx, r); err != nil {
			t.Fatal(err)
		}
	}
	lock := func(id, owner string, ttl time.Duration) {
		t.Helper()
		if ok, err := s.Lock(ctx, id, owner, ttl); err != nil || !ok {
			t.Fatalf("Lock %s = %v, %v", id, ok, err)
		}
	}

	// More old conversations than one batch deletes.
	const many = 230
	for i := range many {
		mk(fmt.Sprintf("old%03d", i), store.StatusAnswered, old.Add(-time.Duration(i)*time.Second))
	}
	mk("old-awaiting", store.StatusAwaiting, old)
	mk("old-expired-lease", store.StatusAbandoned, old)
	lock("old-expired-lease", "gone", time.Millisecond)
	time.Sleep(20 * time.Millisecond)
	mk("recent", store.StatusAnswered, recent)
	mk("old-active", store.StatusActive, old)
	mk("old-leased", store.StatusAwaiting, old)
	lock("old-leased", "turn", time.Hour)
	// A query log row of no stored conversation (one already deleted by
	// hand) is not retention's to remove.
	if err := s.LogQuery(ctx, store.QueryRecord{ConversationID: "elsewhere", UserID: "u1", Source: "clinic",
		Question: "q", Status: "answered", At: old}); err != nil {
		t.Fatal(err)
	}

	n, err := s.DeleteOlderThan(ctx, before)
	if err != nil || n != many+2 {
		t.Fatalf("DeleteOlderThan = %d, %v; want %d", n, err, many+2)
	}
	for _, id := range []string{"old000", "old229", "old-awaiting", "old-expired-lease"} {
		_, err := s.Conversation(ctx, id)
		wantErr(t, "Conversation "+id, err, store.ErrNotFound)
		_, err = s.Events(ctx, id, 0)
		wantErr(t, "Events "+id, err, store.ErrNotFound)
	}
	for _, id := range []string{"recent", "old-active", "old-leased"} {
		mustGet(t, s, id)
		if evs := mustEvents(t, s, id, 0); len(evs) != 2 {
			t.Errorf("%s: %d events, want 2", id, len(evs))
		}
	}
	// The lease of a deleted conversation is gone; a kept one still holds.
	if ok, err := s.Lock(ctx, "old-expired-lease", "other", time.Hour); err != nil || !ok {
		t.Errorf("Lock of a deleted conversation = %v, %v; want true", ok, err)
	}
	if ok, err := s.Lock(ctx, "old-leased", "other", time.Hour); err != nil || ok {
		t.Errorf("Lock of a leased conversation after the sweep = %v, %v; want false", ok, err)
	}

	log, err := s.QueryLog(ctx, "", time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]bool{}
	for _, r := range log {
		got[r.ConversationID] = true
	}
	want := map[string]bool{"recent": true, "old-active": true, "old-leased": true, "elsewhere": true}
	if len(got) != len(want) {
		t.Errorf("query log after the sweep holds %v, want %v", got, want)
	}
	for id := range want {
		if !got[id] {
			t.Errorf("query log after the sweep lost %s", id)
		}
	}

	if n, err := s.DeleteOlderThan(ctx, before); err != nil || n != 0 {
		t.Errorf("DeleteOlderThan again = %d, %v; want 0", n, err)
	}
}

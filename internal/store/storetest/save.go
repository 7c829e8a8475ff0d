package storetest

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/clarify-sql/clarify/internal/store"
)

// testCreateLocked: a conversation created with its lease is held by the
// owner from the moment it exists; an id under another owner's lease
// writes nothing.
func testCreateLocked(t *testing.T, newDSN NewDSN) {
	ctx := context.Background()
	s := fresh(t, newDSN)
	evs, err := s.CreateLocked(ctx, conversation("c1"), "A", time.Hour, events("conversation")...)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]int64{1}, seqs(evs)); diff != "" {
		t.Errorf("seqs (-want +got):\n%s", diff)
	}
	wantHeld(t, s, "c1", "A", "B", "since its creation")

	if ok, err := s.Lock(ctx, "c2", "B", time.Hour); err != nil || !ok {
		t.Fatalf("B locks c2 = %v, %v", ok, err)
	}
	_, err = s.CreateLocked(ctx, conversation("c2"), "A", time.Hour, events("conversation")...)
	wantErr(t, "CreateLocked under B's lease", err, store.ErrLocked)
	_, err = s.Conversation(ctx, "c2")
	wantErr(t, "Conversation after a refused CreateLocked", err, store.ErrNotFound)

	_, err = s.CreateLocked(ctx, conversation("c1"), "A", time.Hour)
	wantErr(t, "CreateLocked of an existing id", err, store.ErrExists)
}

// testSave: SaveConversation writes the conversation, its events, the
// answer, the query record and the release of the lease together, or
// nothing of them.
func testSave(t *testing.T, newDSN NewDSN) {
	ctx := context.Background()
	s := fresh(t, newDSN)
	c := conversation("c1")
	if _, err := s.CreateLocked(ctx, c, "A", time.Hour, events("conversation")...); err != nil {
		t.Fatal(err)
	}
	since := time.Now().Add(-time.Hour)
	stale := *c
	c.Status = store.StatusAnswered
	w := store.Save{Conversation: c, Events: events("result", "done"),
		Answer: &store.Answer{UserID: "u1", Source: "clinic", Slot: "size", Value: "opt:large", Remember: true},
		Query:  &store.QueryRecord{ConversationID: "c1", UserID: "u1", Source: "clinic", Question: "q", Status: "answered"},
		Audit:  &store.AuditRecord{UserID: "u1", Source: "clinic", ConversationID: "c1", Statement: "SELECT 1", Outcome: store.AuditAnswered},
		Unlock: "A"}
	evs, err := s.SaveConversation(ctx, w)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]int64{2, 3}, seqs(evs)); diff != "" {
		t.Errorf("seqs (-want +got):\n%s", diff)
	}
	if got := mustGet(t, s, "c1"); got.Status != store.StatusAnswered || got.Version != 2 {
		t.Errorf("saved conversation: status %s, version %d; want answered, 2", got.Status, got.Version)
	}
	if ok, err := s.Lock(ctx, "c1", "B", time.Hour); err != nil || !ok {
		t.Errorf("B locks c1 after the save released A's lease = %v, %v; want true", ok, err)
	}
	prefs, err := s.Preferences(ctx, "u1", "clinic")
	if err != nil || len(prefs) != 1 || prefs[0].Value != "opt:large" || !prefs[0].Remember {
		t.Errorf("preferences = %+v, %v; want the remembered answer", prefs, err)
	}
	log, err := s.QueryLog(ctx, "clinic", since)
	if err != nil || len(log) != 1 || log[0].Status != "answered" {
		t.Errorf("query log = %+v, %v; want the saved record", log, err)
	}
	audit, err := s.Audit(ctx, store.AuditFilter{})
	if err != nil || len(audit) != 1 || audit[0].Statement != "SELECT 1" || audit[0].ConversationID != "c1" {
		t.Errorf("audit log = %+v, %v; want the saved record", audit, err)
	}

	// a stale copy: nothing of the save is written, B keeps its lease
	w.Conversation, w.Unlock = &stale, "B"
	w.Answer = &store.Answer{UserID: "u1", Source: "clinic", Slot: "when", Value: "opt:week"}
	_, err = s.SaveConversation(ctx, w)
	wantErr(t, "SaveConversation of a stale copy", err, store.ErrConflict)
	if got := mustEvents(t, s, "c1", 0); len(got) != 3 {
		t.Errorf("events after a failed save: %v; want the 3 saved before", seqs(got))
	}
	if ok, err := s.Lock(ctx, "c1", "A", time.Hour); err != nil || ok {
		t.Errorf("A locks c1 after a failed save = %v, %v; want false: B still holds it", ok, err)
	}
	if prefs, _ := s.Preferences(ctx, "u1", "clinic"); len(prefs) != 1 {
		t.Errorf("preferences after a failed save = %+v; want only the first answer", prefs)
	}
	if log, _ := s.QueryLog(ctx, "clinic", since); len(log) != 1 {
		t.Errorf("query log after a failed save = %+v; want only the first record", log)
	}
	if audit, _ := s.Audit(ctx, store.AuditFilter{}); len(audit) != 1 {
		t.Errorf("audit log after a failed save = %+v; want only the first record", audit)
	}

	// an answer the store cannot keep fails the whole save
	c = mustGet(t, s, "c1")
	_, err = s.SaveConversation(ctx, store.Save{Conversation: c, Events: events("x"), Answer: &store.Answer{UserID: "u1"}})
	if err == nil {
		t.Fatal("SaveConversation with an answer without slot and value succeeded")
	}
	if got := mustGet(t, s, "c1"); got.Version != 2 {
		t.Errorf("version after a refused save = %d, want 2", got.Version)
	}
	// so does an audit record it cannot keep
	_, err = s.SaveConversation(ctx, store.Save{Conversation: c, Events: events("x"), Audit: &store.AuditRecord{UserID: "u1"}})
	wantErr(t, "SaveConversation with an audit record without outcome", err, store.ErrAuditRecord)
	if got := mustGet(t, s, "c1"); got.Version != 2 {
		t.Errorf("version after a refused save = %d, want 2", got.Version)
	}
}

// wantHeld checks that owner holds the lease on id (since when says
// since): other cannot take it, owner renews it.
func wantHeld(t *testing.T, s store.Store, id, owner, other, since string) {
	t.Helper()
	ctx := context.Background()
	if ok, err := s.Lock(ctx, id, other, time.Hour); err != nil || ok {
		t.Errorf("%s locks %s = %v, %v; want false: %s holds it %s", other, id, ok, err, owner, since)
	}
	if ok, err := s.Renew(ctx, id, owner, time.Hour); err != nil || !ok {
		t.Errorf("%s renews %s = %v, %v; want true", owner, id, ok, err)
	}
}

// testSaveLocked: a save that takes the lease writes nothing under
// another owner's unexpired lease, and leaves the conversation under its
// own lease when it succeeds.
func testSaveLocked(t *testing.T, newDSN NewDSN) {
	ctx := context.Background()
	s := fresh(t, newDSN)
	c := conversation("c1")
	if _, err := s.CreateConversation(ctx, c, events("conversation")...); err != nil {
		t.Fatal(err)
	}
	if ok, err := s.Lock(ctx, "c1", "B", time.Hour); err != nil || !ok {
		t.Fatalf("B locks c1 = %v, %v", ok, err)
	}
	c.Status = store.StatusActive
	w := store.Save{Conversation: c, Events: events("answer"), Lock: "A", LockTTL: time.Hour,
		Answer: &store.Answer{UserID: "u1", Source: "clinic", Slot: "size", Value: "opt:large"}}
	_, err := s.SaveConversation(ctx, w)
	wantErr(t, "SaveConversation locking under B's lease", err, store.ErrLocked)
	if got := mustGet(t, s, "c1"); got.Version != 1 || len(mustEvents(t, s, "c1", 0)) != 1 {
		t.Errorf("after a refused save: version %d; want 1, with one event: nothing written", got.Version)
	}
	if prefs, _ := s.Preferences(ctx, "u1", "clinic"); len(prefs) != 0 {
		t.Errorf("preferences after a refused save = %+v; want none", prefs)
	}
	if err := s.Unlock(ctx, "c1", "B"); err != nil {
		t.Fatal(err)
	}
	evs, err := s.SaveConversation(ctx, w)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]int64{2}, seqs(evs)); diff != "" {
		t.Errorf("seqs (-want +got):\n%s", diff)
	}
	wantHeld(t, s, "c1", "A", "B", "since its save")
	// a stale copy under a free lease: nothing written, the lease not taken
	if err := s.Unlock(ctx, "c1", "A"); err != nil {
		t.Fatal(err)
	}
	stale := *c
	stale.Version = 1
	w.Conversation = &stale
	_, err = s.SaveConversation(ctx, w)
	wantErr(t, "SaveConversation locking a stale copy", err, store.ErrConflict)
	if ok, err := s.Lock(ctx, "c1", "B", time.Hour); err != nil || !ok {
		t.Errorf("B locks c1 after a refused save = %v, %v; want true: the refused save took no lease", ok, err)
	}
}

// testHeads: Heads tells a follower the newest seq and status of the
// conversations it follows, and leaves out those that do not exist.
func testHeads(t *testing.T, newDSN NewDSN) {
	ctx := context.Background()
	s := fresh(t, newDSN)
	a, b := conversation("a"), conversation("b")
	mustCreate(t, s, a, events("conversation", "step")...)
	mustCreate(t, s, b, events("conversation")...)
	a.Status = store.StatusAwaiting
	mustUpdate(t, s, a, events("clarification", "done")...)
	got, err := s.Heads(ctx, []string{"a", "b", "gone"})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]store.Head{"a": {LastSeq: 4, Status: store.StatusAwaiting}, "b": {LastSeq: 1, Status: store.StatusActive}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Heads (-want +got):\n%s", diff)
	}
	if got, err := s.Heads(ctx, nil); err != nil || len(got) != 0 {
		t.Errorf("Heads(nil) = %v, %v; want none", got, err)
	}
	// more ids than one read takes
	ids := make([]string, 2500)
	for i := range ids {
		ids[i] = "x" + string(rune('a'+i%26)) + time.Duration(i).String()
	}
	ids[2499] = "b"
	if got, err := s.Heads(ctx, ids); err != nil || len(got) != 1 || got["b"].LastSeq != 1 {
		t.Errorf("Heads of 2500 ids = %v, %v; want b's", got, err)
	}
}

// testListen: a store that announces new events does so for every write
// that appends some, committed by any process, and for no other.
func testListen(t *testing.T, newDSN NewDSN) {
	dsn := newDSN(t)
	s, other := open(t, dsn), open(t, dsn)
	n, ok := s.(store.Notifier)
	if !ok {
		t.Skip("this store announces nothing: its followers poll Heads")
	}
	ctx, cancel := context.WithCancel(context.Background())
	var (
		mu  sync.Mutex
		ids []string
	)
	got := make(chan struct{}, 16)
	ready := make(chan struct{})
	done := make(chan error, 1)
	go func() {
		done <- n.Listen(ctx, func() { close(ready) }, func(id string) {
			mu.Lock()
			ids = append(ids, id)
			mu.Unlock()
			got <- struct{}{}
		})
	}()
	<-ready
	c := conversation("l1")
	mustCreate(t, other, c, events("conversation")...)
	mustUpdate(t, other, c) // no events: no announcement
	mustCreate(t, s, conversation("l2"), events("conversation")...)
	for range 2 {
		select {
		case <-got:
		case <-time.After(10 * time.Second):
			t.Fatal("no announcement within 10s")
		}
	}
	cancel()
	if err := <-done; err != nil {
		t.Errorf("Listen after its context ended = %v, want nil", err)
	}
	mu.Lock()
	defer mu.Unlock()
	// each process announces after its commits, on its own: announcements
	// of two processes may come in either order
	slices.Sort(ids)
	if !slices.Equal(ids, []string{"l1", "l2"}) {
		t.Errorf("announced %v, want l1 (its creation) and l2: an update without events announces nothing", ids)
	}
}

// testListenMany: the conversations that many concurrent writes give new
// events are all announced.
func testListenMany(t *testing.T, newDSN NewDSN) {
	dsn := newDSN(t)
	s, other := open(t, dsn), open(t, dsn)
	n, ok := s.(store.Notifier)
	if !ok {
		t.Skip("this store announces nothing: its followers poll Heads")
	}
	const writes = 200
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	got := make(chan string, 4*writes)
	ready := make(chan struct{})
	done := make(chan error, 1)
	go func() {
		done <- n.Listen(ctx, func() { close(ready) }, func(id string) { got <- id })
	}()
	<-ready
	var wg sync.WaitGroup
	for i := range writes {
		wg.Add(1)
		go func() {
			defer wg.Done()
			mustCreate(t, other, conversation(fmt.Sprintf("m%d", i)), events("conversation")...)
		}()
	}
	wg.Wait()
	seen := map[string]bool{}
	for len(seen) < writes {
		select {
		case id := <-got:
			seen[id] = true
		case <-time.After(10 * time.Second):
			t.Fatalf("%d of %d conversations announced within 10s", len(seen), writes)
		}
	}
	cancel()
	if err := <-done; err != nil {
		t.Errorf("Listen after its context ended = %v, want nil", err)
	}
}

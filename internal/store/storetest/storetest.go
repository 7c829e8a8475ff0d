package storetest

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/clarify-sql/clarify/internal/store"
)

// NewDSN returns the DSN of a fresh, empty store that only tb uses, and
// arranges for it to be removed when tb ends.
type NewDSN func(tb testing.TB) string

// Run runs the whole suite against the stores newDSN names.
func Run(t *testing.T, newDSN NewDSN) {
	tests := []struct {
		name string
		run  func(*testing.T, NewDSN)
	}{
		{"CreateAndRead", testCreateAndRead},
		{"CreateInvalid", testCreateInvalid},
		{"Update", testUpdate},
		{"UpdateConflict", testUpdateConflict},
		{"CreateLocked", testCreateLocked},
		{"Save", testSave},
		{"SaveLocked", testSaveLocked},
		{"Heads", testHeads},
		{"Listen", testListen},
		{"ListenMany", testListenMany},
		{"Events", testEvents},
		{"Delete", testDelete},
		{"Expire", testExpire},
		{"Retention", testRetention},
		{"Audit", testAudit},
		{"AuditKept", testAuditKept},
		{"Conversations", testConversations},
		{"ConcurrentAppends", testConcurrentAppends},
		{"ConcurrentConversations", testConcurrentConversations},
		{"Leases", testLeases},
		{"LeaseExpiry", testLeaseExpiry},
		{"Renew", testRenew},
		{"Preferences", testPreferences},
		{"PreferencesRemember", testPreferencesRemember},
		{"ForgetPreference", testForgetPreference},
		{"NeverAsk", testNeverAsk},
		{"Learned", testLearned},
		{"Stats", testStats},
		{"StatsEmpty", testStatsEmpty},
		{"QueryLog", testQueryLog},
		{"Answers", testAnswers},
		{"Reopen", testReopen},
		{"CloseDuringWrites", testCloseDuringWrites},
		{"ConcurrentOpen", testConcurrentOpen},
		{"Canceled", testCanceled},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			tc.run(t, newDSN)
		})
	}
}

// open opens a store on dsn, closed when tb ends.
func open(tb testing.TB, dsn string) store.Store {
	tb.Helper()
	return openConfig(tb, store.Config{DSN: dsn})
}

func openConfig(tb testing.TB, cfg store.Config) store.Store {
	tb.Helper()
	s, err := store.OpenConfig(context.Background(), cfg)
	if err != nil {
		tb.Fatalf("open store: %v", err)
	}
	tb.Cleanup(func() {
		if err := s.Close(); err != nil {
			tb.Errorf("close store: %v", err)
		}
	})
	return s
}

// fresh opens a new, empty store.
func fresh(tb testing.TB, newDSN NewDSN) store.Store {
	tb.Helper()
	return open(tb, newDSN(tb))
}

// clock is a settable clock for Config.Now.
type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.t
}

func (c *clock) Add(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// t0 is a time with nanoseconds and a zone, to check that the store keeps
// UTC and microseconds.
var t0 = time.Date(2026, 3, 14, 15, 9, 26, 535897932, time.FixedZone("X", 3*3600))

func conversation(id string) *store.Conversation {
	return &store.Conversation{
		ID:          id,
		UserID:      "u1",
		Source:      "clinic",
		Question:    "serious wounds last month",
		Status:      store.StatusActive,
		Interactive: true,
		State:       []byte(`{"rounds":0}`),
		Messages:    1,
	}
}

func events(types ...string) []store.Event {
	evs := make([]store.Event, len(types))
	for i, typ := range types {
		evs[i] = store.Event{Type: typ, Data: fmt.Appendf(nil, `{"n":%d}`, i)}
	}
	return evs
}

func mustCreate(tb testing.TB, s store.Store, c *store.Conversation, evs ...store.Event) []store.Event {
	tb.Helper()
	got, err := s.CreateConversation(context.Background(), c, evs...)
	if err != nil {
		tb.Fatalf("CreateConversation(%s): %v", c.ID, err)
	}
	return got
}

func mustUpdate(tb testing.TB, s store.Store, c *store.Conversation, evs ...store.Event) []store.Event {
	tb.Helper()
	got, err := s.UpdateConversation(context.Background(), c, evs...)
	if err != nil {
		tb.Fatalf("UpdateConversation(%s): %v", c.ID, err)
	}
	return got
}

func mustGet(tb testing.TB, s store.Store, id string) *store.Conversation {
	tb.Helper()
	c, err := s.Conversation(context.Background(), id)
	if err != nil {
		tb.Fatalf("Conversation(%s): %v", id, err)
	}
	return c
}

func mustEvents(tb testing.TB, s store.Store, id string, after int64) []store.Event {
	tb.Helper()
	evs, err := s.Events(context.Background(), id, after)
	if err != nil {
		tb.Fatalf("Events(%s, %d): %v", id, after, err)
	}
	return evs
}

func seqs(evs []store.Event) []int64 {
	out := make([]int64, len(evs))
	for i, e := range evs {
		out[i] = e.Seq
	}
	return out
}

func wantErr(tb testing.TB, what string, err, want error) {
	tb.Helper()
	if !errors.Is(err, want) {
		tb.Fatalf("%s: got error %v, want %v", what, err, want)
	}
}

func testCreateAndRead(t *testing.T, newDSN NewDSN) {
	ctx := context.Background()
	clk := &clock{t: t0}
	s := openConfig(t, store.Config{DSN: newDSN(t), Now: clk.Now})

	c := conversation("c1")
	c.Status = store.StatusAwaiting
	c.ExpiresAt = t0.Add(24 * time.Hour)
	in := events("conversation", "step", "clarification")
	in[1].At = t0.Add(-time.Second)
	got := mustCreate(t, s, c, in...)

	wantTime := t0.UTC().Truncate(time.Microsecond)
	want := []store.Event{
		{ConversationID: "c1", Seq: 1, Type: "conversation", Data: []byte(`{"n":0}`), At: wantTime},
		{ConversationID: "c1", Seq: 2, Type: "step", Data: []byte(`{"n":1}`), At: wantTime.Add(-time.Second)},
		{ConversationID: "c1", Seq: 3, Type: "clarification", Data: []byte(`{"n":2}`), At: wantTime},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("CreateConversation events (-want +got):\n%s", diff)
	}
	if in[0].Seq != 0 {
		t.Errorf("CreateConversation changed the caller's events: seq %d", in[0].Seq)
	}
	if c.Version != 1 {
		t.Errorf("Version after create = %d, want 1", c.Version)
	}
	if !c.CreatedAt.Equal(wantTime) || !c.UpdatedAt.Equal(wantTime) {
		t.Errorf("CreatedAt, UpdatedAt = %v, %v, want %v", c.CreatedAt, c.UpdatedAt, wantTime)
	}

	read := mustGet(t, s, "c1")
	if diff := cmp.Diff(c, read); diff != "" {
		t.Errorf("Conversation (-created +read):\n%s", diff)
	}
	for _, tm := range []time.Time{read.CreatedAt, read.UpdatedAt, read.ExpiresAt} {
		if tm.Location() != time.UTC {
			t.Errorf("time %v is not in UTC", tm)
		}
	}
	if diff := cmp.Diff(want, mustEvents(t, s, "c1", 0)); diff != "" {
		t.Errorf("Events (-want +got):\n%s", diff)
	}

	_, err := s.Conversation(ctx, "nope")
	wantErr(t, "Conversation(nope)", err, store.ErrNotFound)

	// Without events, explicit times, no expiry, empty state.
	c2 := conversation("c2")
	c2.State = nil
	c2.Interactive = false
	c2.CreatedAt = t0.Add(-time.Hour)
	if evs := mustCreate(t, s, c2); len(evs) != 0 {
		t.Errorf("CreateConversation without events returned %v", evs)
	}
	if diff := cmp.Diff(c2, mustGet(t, s, "c2")); diff != "" {
		t.Errorf("Conversation c2 (-created +read):\n%s", diff)
	}
	if evs := mustEvents(t, s, "c2", 0); len(evs) != 0 {
		t.Errorf("Events of a conversation without events = %v", evs)
	}

	_, err = s.CreateConversation(ctx, conversation("c1"))
	wantErr(t, "CreateConversation of an existing id", err, store.ErrExists)
	if got := mustGet(t, s, "c1"); got.Status != store.StatusAwaiting {
		t.Errorf("a failed create changed the conversation: status %q", got.Status)
	}
}

func testCreateInvalid(t *testing.T, newDSN NewDSN) {
	s := fresh(t, newDSN)
	tests := []struct {
		name   string
		mutate func(*store.Conversation)
		events []store.Event
	}{
		{"no id", func(c *store.Conversation) { c.ID = "" }, nil},
		{"no user", func(c *store.Conversation) { c.UserID = "" }, nil},
		{"unknown status", func(c *store.Conversation) { c.Status = "thinking" }, nil},
		{"event without type", func(*store.Conversation) {}, []store.Event{{Data: []byte(`{}`)}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := conversation("bad")
			tc.mutate(c)
			if _, err := s.CreateConversation(context.Background(), c, tc.events...); err == nil {
				t.Fatal("CreateConversation succeeded")
			}
			if _, err := s.Conversation(context.Background(), "bad"); !errors.Is(err, store.ErrNotFound) {
				t.Fatalf("a rejected conversation was stored (err %v)", err)
			}
		})
	}
}

func testUpdate(t *testing.T, newDSN NewDSN) {
	clk := &clock{t: t0}
	s := openConfig(t, store.Config{DSN: newDSN(t), Now: clk.Now})
	c := conversation("c1")
	mustCreate(t, s, c, events("conversation", "step")...)
	created := c.CreatedAt

	clk.Add(time.Minute)
	c.UpdatedAt = time.Time{} // zero: the store's clock
	c.Status = store.StatusAwaiting
	c.State = []byte(`{"pending":"time_window"}`)
	c.Messages = 1
	c.ExpiresAt = t0.Add(24 * time.Hour)
	c.Source = "lab"
	c.Question = "serious wounds"
	c.Interactive = false
	got := mustUpdate(t, s, c, events("clarification")...)
	if diff := cmp.Diff([]int64{3}, seqs(got)); diff != "" {
		t.Errorf("seqs of the appended events (-want +got):\n%s", diff)
	}
	if c.Version != 2 {
		t.Errorf("Version after one update = %d, want 2", c.Version)
	}
	wantUpdated := t0.Add(time.Minute).UTC().Truncate(time.Microsecond)
	if !c.UpdatedAt.Equal(wantUpdated) || !c.CreatedAt.Equal(created) {
		t.Errorf("CreatedAt, UpdatedAt = %v, %v, want %v, %v", c.CreatedAt, c.UpdatedAt, created, wantUpdated)
	}
	if diff := cmp.Diff(c, mustGet(t, s, "c1")); diff != "" {
		t.Errorf("Conversation after update (-updated +read):\n%s", diff)
	}

	// An update without events, clearing the expiry, with the caller's
	// UpdatedAt.
	c.Status = store.StatusAnswered
	c.ExpiresAt = time.Time{}
	c.UpdatedAt = t0.Add(time.Hour)
	if evs := mustUpdate(t, s, c); len(evs) != 0 {
		t.Errorf("an update without events returned %v", evs)
	}
	if want := t0.Add(time.Hour).UTC().Truncate(time.Microsecond); !c.UpdatedAt.Equal(want) {
		t.Errorf("UpdatedAt = %v, want the caller's %v", c.UpdatedAt, want)
	}
	if diff := cmp.Diff(c, mustGet(t, s, "c1")); diff != "" {
		t.Errorf("Conversation after second update (-updated +read):\n%s", diff)
	}
	// UserID and CreatedAt are not updated.
	c.UserID = "u2"
	c.CreatedAt = t0.Add(time.Hour)
	mustUpdate(t, s, c, events("done")...)
	read := mustGet(t, s, "c1")
	if read.UserID != "u1" || !read.CreatedAt.Equal(created) {
		t.Errorf("update changed UserID or CreatedAt: %q, %v", read.UserID, read.CreatedAt)
	}
	if diff := cmp.Diff([]int64{1, 2, 3, 4}, seqs(mustEvents(t, s, "c1", 0))); diff != "" {
		t.Errorf("seqs (-want +got):\n%s", diff)
	}

	_, err := s.UpdateConversation(context.Background(), conversation("nope"), events("x")...)
	wantErr(t, "UpdateConversation of a missing conversation", err, store.ErrNotFound)
	bad := *read
	bad.Status = "thinking"
	if _, err := s.UpdateConversation(context.Background(), &bad); err == nil {
		t.Error("UpdateConversation accepted an unknown status")
	}
}

func testUpdateConflict(t *testing.T, newDSN NewDSN) {
	ctx := context.Background()
	dsn := newDSN(t)
	a, b := open(t, dsn), open(t, dsn) // two processes
	c := conversation("c1")
	mustCreate(t, a, c, events("conversation")...)

	x, y := mustGet(t, a, "c1"), mustGet(t, b, "c1")
	x.Status = store.StatusAwaiting
	mustUpdate(t, a, x, events("clarification")...)

	y.Status = store.StatusFailed
	yBefore := *y
	_, err := b.UpdateConversation(ctx, y, events("error")...)
	wantErr(t, "UpdateConversation of a stale copy", err, store.ErrConflict)
	if diff := cmp.Diff(&yBefore, y); diff != "" {
		t.Errorf("a failed update changed the caller's copy (-before +after):\n%s", diff)
	}
	if diff := cmp.Diff([]int64{1, 2}, seqs(mustEvents(t, b, "c1", 0))); diff != "" {
		t.Errorf("a failed update appended events: seqs (-want +got):\n%s", diff)
	}
	if got := mustGet(t, b, "c1"); got.Status != store.StatusAwaiting || got.Version != 2 {
		t.Errorf("after a conflict: status %q version %d, want %q 2", got.Status, got.Version, store.StatusAwaiting)
	}
	// Reading again and retrying works.
	y = mustGet(t, b, "c1")
	y.Status = store.StatusAnswered
	if got := mustUpdate(t, b, y, events("result", "done")...); seqs(got)[0] != 3 {
		t.Errorf("retry got seqs %v, want 3, 4", seqs(got))
	}
}

func testEvents(t *testing.T, newDSN NewDSN) {
	ctx := context.Background()
	s := fresh(t, newDSN)
	c := conversation("c1")
	mustCreate(t, s, c, events("conversation", "step")...)
	mustUpdate(t, s, c, events("step", "sql", "result")...)
	mustUpdate(t, s, c, events("done")...)
	other := conversation("c2")
	mustCreate(t, s, other, events("conversation")...)

	tests := []struct {
		after int64
		want  []int64
	}{
		{-1, []int64{1, 2, 3, 4, 5, 6}},
		{0, []int64{1, 2, 3, 4, 5, 6}},
		{2, []int64{3, 4, 5, 6}},
		{5, []int64{6}},
		{6, []int64{}},
		{100, []int64{}},
	}
	for _, tc := range tests {
		t.Run(fmt.Sprintf("after %d", tc.after), func(t *testing.T) {
			got := mustEvents(t, s, "c1", tc.after)
			if diff := cmp.Diff(tc.want, seqs(got)); diff != "" {
				t.Errorf("seqs (-want +got):\n%s", diff)
			}
			for _, e := range got {
				if e.ConversationID != "c1" {
					t.Errorf("event %d of conversation %q", e.Seq, e.ConversationID)
				}
			}
		})
	}
	all := mustEvents(t, s, "c1", 0)
	wantTypes := []string{"conversation", "step", "step", "sql", "result", "done"}
	for i, e := range all {
		if e.Type != wantTypes[i] {
			t.Errorf("event %d type %q, want %q", e.Seq, e.Type, wantTypes[i])
		}
	}
	if string(all[3].Data) != `{"n":1}` {
		t.Errorf("event 4 data %s, want {\"n\":1}", all[3].Data)
	}
	_, err := s.Events(ctx, "nope", 0)
	wantErr(t, "Events of a missing conversation", err, store.ErrNotFound)
}

func testDelete(t *testing.T, newDSN NewDSN) {
	ctx := context.Background()
	s := fresh(t, newDSN)
	c := conversation("c1")
	mustCreate(t, s, c, events("conversation", "clarification")...)
	keep := conversation("c2")
	mustCreate(t, s, keep, events("conversation")...)
	if ok, err := s.Lock(ctx, "c1", "a", time.Hour); err != nil || !ok {
		t.Fatalf("Lock = %v, %v", ok, err)
	}

	if err := s.DeleteConversation(ctx, "c1"); err != nil {
		t.Fatalf("DeleteConversation: %v", err)
	}
	_, err := s.Conversation(ctx, "c1")
	wantErr(t, "Conversation after delete", err, store.ErrNotFound)
	_, err = s.Events(ctx, "c1", 0)
	wantErr(t, "Events after delete", err, store.ErrNotFound)
	if ok, err := s.Lock(ctx, "c1", "b", time.Hour); err != nil || !ok {
		t.Errorf("Lock by another owner after delete = %v, %v; want the lease gone", ok, err)
	}
	_, err = s.UpdateConversation(ctx, c, events("x")...)
	wantErr(t, "UpdateConversation after delete", err, store.ErrNotFound)
	err = s.DeleteConversation(ctx, "c1")
	wantErr(t, "DeleteConversation twice", err, store.ErrNotFound)

	if got := mustEvents(t, s, "c2", 0); len(got) != 1 {
		t.Errorf("delete touched another conversation's events: %v", got)
	}
	// The id can be used again, and its events start at 1.
	again := conversation("c1")
	if got := seqs(mustCreate(t, s, again, events("conversation")...)); got[0] != 1 {
		t.Errorf("recreated conversation's first seq = %d, want 1", got[0])
	}
}

func testExpire(t *testing.T, newDSN NewDSN) {
	ctx := context.Background()
	s := fresh(t, newDSN)
	now := t0
	mk := func(id, status string, expires time.Time) *store.Conversation {
		c := conversation(id)
		c.Status = status
		c.ExpiresAt = expires
		mustCreate(t, s, c)
		return c
	}
	past := mk("past", store.StatusAwaiting, now.Add(-time.Millisecond))
	mk("past2", store.StatusAwaiting, now.Add(-48*time.Hour))
	mk("future", store.StatusAwaiting, now.Add(time.Millisecond))
	mk("exact", store.StatusAwaiting, now)
	mk("never", store.StatusAwaiting, time.Time{})
	mk("active", store.StatusActive, now.Add(-time.Hour))
	mk("answered", store.StatusAnswered, now.Add(-time.Hour))

	n, err := s.ExpireConversations(ctx, now)
	if err != nil || n != 2 {
		t.Fatalf("ExpireConversations = %d, %v; want 2", n, err)
	}
	want := map[string]string{
		"past": store.StatusAbandoned, "past2": store.StatusAbandoned,
		"future": store.StatusAwaiting, "exact": store.StatusAwaiting, "never": store.StatusAwaiting,
		"active": store.StatusActive, "answered": store.StatusAnswered,
	}
	for id, status := range want {
		if got := mustGet(t, s, id); got.Status != status {
			t.Errorf("%s: status %q, want %q", id, got.Status, status)
		}
	}
	// Expiry changes the version: the stale copy cannot overwrite it.
	past.Status = store.StatusActive
	_, err = s.UpdateConversation(ctx, past)
	wantErr(t, "UpdateConversation of an expired conversation's stale copy", err, store.ErrConflict)

	if n, err := s.ExpireConversations(ctx, now); err != nil || n != 0 {
		t.Errorf("ExpireConversations again = %d, %v; want 0", n, err)
	}
	if n, err := s.ExpireConversations(ctx, now.Add(time.Second)); err != nil || n != 2 {
		t.Errorf("ExpireConversations a second later = %d, %v; want 2 (exact, future)", n, err)
	}
}

// testConcurrentAppends has many goroutines, through two store instances
// (two processes), append to one conversation with read–update–retry: every
// append lands exactly once, seqs have no gap and no duplicate.
func testConcurrentAppends(t *testing.T, newDSN NewDSN) {
	ctx := context.Background()
	dsn := newDSN(t)
	stores := []store.Store{open(t, dsn), open(t, dsn)}
	mustCreate(t, stores[0], conversation("c1"), events("conversation")...)

	const workers, perWorker = 12, 8
	var wg sync.WaitGroup
	errs := make(chan error, workers)
	for w := range workers {
		wg.Go(func() {
			s := stores[w%2]
			for i := range perWorker {
				ev := store.Event{Type: "step", Data: fmt.Appendf(nil, `{"w":%d,"i":%d}`, w, i)}
				for attempt := 0; ; attempt++ {
					c, err := s.Conversation(ctx, "c1")
					if err != nil {
						errs <- err
						return
					}
					c.Messages++
					_, err = s.UpdateConversation(ctx, c, ev)
					if err == nil {
						break
					}
					if !errors.Is(err, store.ErrConflict) || attempt > 10000 {
						errs <- fmt.Errorf("worker %d append %d: %w", w, i, err)
						return
					}
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	const total = 1 + workers*perWorker
	evs := mustEvents(t, stores[1], "c1", 0)
	if len(evs) != total {
		t.Fatalf("got %d events, want %d", len(evs), total)
	}
	seen := map[string]bool{}
	for i, e := range evs {
		if e.Seq != int64(i+1) {
			t.Fatalf("event %d has seq %d: a gap or a duplicate", i+1, e.Seq)
		}
		if seen[string(e.Data)] {
			t.Fatalf("event %s stored twice", e.Data)
		}
		seen[string(e.Data)] = true
	}
	c := mustGet(t, stores[0], "c1")
	if c.Version != 1+workers*perWorker || c.Messages != 1+workers*perWorker {
		t.Errorf("version %d, messages %d; want %d each", c.Version, c.Messages, 1+workers*perWorker)
	}
}

// testConcurrentConversations has many goroutines work on their own
// conversations at once: no write may fail for lack of a lock.
func testConcurrentConversations(t *testing.T, newDSN NewDSN) {
	ctx := context.Background()
	s := fresh(t, newDSN)
	const n = 64
	var wg sync.WaitGroup
	errs := make(chan error, n)
	for i := range n {
		wg.Go(func() {
			id := fmt.Sprintf("c%03d", i)
			c := conversation(id)
			if _, err := s.CreateConversation(ctx, c, events("conversation", "step")...); err != nil {
				errs <- err
				return
			}
			for _, status := range []string{store.StatusAwaiting, store.StatusActive, store.StatusAnswered} {
				if ok, err := s.Lock(ctx, id, "me", time.Minute); err != nil || !ok {
					errs <- fmt.Errorf("lock %s: %v %v", id, ok, err)
					return
				}
				c.Status = status
				if _, err := s.UpdateConversation(ctx, c, events("step", "done")...); err != nil {
					errs <- err
					return
				}
				if _, err := s.Events(ctx, id, 0); err != nil {
					errs <- err
					return
				}
				if err := s.Unlock(ctx, id, "me"); err != nil {
					errs <- err
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	for i := range n {
		id := fmt.Sprintf("c%03d", i)
		if got := seqs(mustEvents(t, s, id, 0)); len(got) != 8 || got[7] != 8 {
			t.Errorf("%s: seqs %v, want 1…8", id, got)
		}
	}
}

func testReopen(t *testing.T, newDSN NewDSN) {
	ctx := context.Background()
	dsn := newDSN(t)
	s, err := store.Open(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	c := conversation("c1")
	c.Status = store.StatusAwaiting
	c.ExpiresAt = t0
	mustCreate(t, s, c, events("conversation", "clarification")...)
	mustUpdate(t, s, c, events("step")...)
	if err := s.RecordAnswer(ctx, store.Answer{UserID: "u1", Source: "clinic", Slot: "window", Value: "last_month", Remember: true}); err != nil {
		t.Fatal(err)
	}
	if err := s.SetNeverAsk(ctx, "u1", true); err != nil {
		t.Fatal(err)
	}
	if err := s.LogQuery(ctx, store.QueryRecord{ConversationID: "c1", UserID: "u1", Status: "answered", DurationMS: 12}); err != nil {
		t.Fatal(err)
	}
	if ok, err := s.Lock(ctx, "c1", "a", time.Hour); err != nil || !ok {
		t.Fatalf("Lock = %v, %v", ok, err)
	}
	wantEvents := mustEvents(t, s, "c1", 0)
	if err := s.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}

	for round := range 2 { // the second reopen finds the schema up to date
		r := open(t, dsn)
		if diff := cmp.Diff(c, mustGet(t, r, "c1")); diff != "" {
			t.Errorf("round %d: conversation after reopen (-before +after):\n%s", round, diff)
		}
		if diff := cmp.Diff(wantEvents, mustEvents(t, r, "c1", 0)); diff != "" {
			t.Errorf("round %d: events after reopen (-before +after):\n%s", round, diff)
		}
		prefs, err := r.Preferences(ctx, "u1", "")
		if err != nil || len(prefs) != 1 || prefs[0].Value != "last_month" || !prefs[0].Remember {
			t.Errorf("round %d: preferences after reopen = %+v, %v", round, prefs, err)
		}
		if never, err := r.NeverAsk(ctx, "u1"); err != nil || !never {
			t.Errorf("round %d: NeverAsk after reopen = %v, %v", round, never, err)
		}
		if st, err := r.Stats(ctx, time.Time{}, ""); err != nil || st.Conversations != 1 || st.P50MS != 12 {
			t.Errorf("round %d: stats after reopen = %+v, %v", round, st, err)
		}
		if ok, err := r.Lock(ctx, "c1", "b", time.Hour); err != nil || ok {
			t.Errorf("round %d: another owner took a lease held across reopen: %v, %v", round, ok, err)
		}
		if err := r.Close(); err != nil {
			t.Errorf("Close: %v", err)
		}
	}
}

// testConcurrentOpen opens one fresh store from several goroutines at once,
// as processes starting together would: the migrations run once.
func testConcurrentOpen(t *testing.T, newDSN NewDSN) {
	dsn := newDSN(t)
	const n = 4
	stores := make([]store.Store, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() { stores[i], errs[i] = store.Open(context.Background(), dsn) })
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Errorf("Open %d: %v", i, err)
			continue
		}
		t.Cleanup(func() { stores[i].Close() })
	}
	if t.Failed() {
		return
	}
	mustCreate(t, stores[0], conversation("c1"), events("conversation")...)
	for i, s := range stores {
		if err := s.Ping(context.Background()); err != nil {
			t.Errorf("Ping %d: %v", i, err)
		}
		if got := mustGet(t, s, "c1"); got.ID != "c1" {
			t.Errorf("store %d reads %q", i, got.ID)
		}
	}
}

func testCanceled(t *testing.T, newDSN NewDSN) {
	s := fresh(t, newDSN)
	mustCreate(t, s, conversation("c1"), events("conversation")...)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := s.Conversation(ctx, "c1")
	wantErr(t, "Conversation with a canceled context", err, context.Canceled)
	c := conversation("c2")
	_, err = s.CreateConversation(ctx, c)
	wantErr(t, "CreateConversation with a canceled context", err, context.Canceled)
	if _, err := s.Conversation(context.Background(), "c2"); !errors.Is(err, store.ErrNotFound) {
		t.Errorf("a canceled create was stored (err %v)", err)
	}
	if err := s.Ping(context.Background()); err != nil {
		t.Errorf("Ping after a canceled call: %v", err)
	}
}

// testCloseDuringWrites closes a store while goroutines write: every write
// reported done is there after reopening, and nothing hangs.
func testCloseDuringWrites(t *testing.T, newDSN NewDSN) {
	ctx := context.Background()
	dsn := newDSN(t)
	s, err := store.Open(ctx, dsn)
	if err != nil {
		t.Fatal(err)
	}
	const n = 40
	acked := make([]bool, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			_, err := s.CreateConversation(ctx, conversation(fmt.Sprintf("c%02d", i)), events("conversation")...)
			acked[i] = err == nil
		})
	}
	if err := s.Close(); err != nil {
		t.Errorf("Close: %v", err)
	}
	wg.Wait()
	r := open(t, dsn)
	for i, ok := range acked {
		if !ok {
			continue
		}
		if _, err := r.Conversation(ctx, fmt.Sprintf("c%02d", i)); err != nil {
			t.Errorf("conversation c%02d was acknowledged but is lost: %v", i, err)
		}
	}
}

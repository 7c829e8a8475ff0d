package storetest

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/clarify-sql/clarify/internal/store"
)

// ids lists the ids of summaries, in order.
func ids(list []store.Summary) []string {
	out := make([]string, len(list))
	for i, c := range list {
		out[i] = c.ID
	}
	return out
}

func mustList(tb testing.TB, s store.Store, user string, after store.Cursor, limit int) []store.Summary {
	tb.Helper()
	list, err := s.Conversations(context.Background(), user, after, limit)
	if err != nil {
		tb.Fatalf("Conversations(%s, %+v, %d): %v", user, after, limit, err)
	}
	return list
}

// testConversations lists a user's conversations: only theirs, newest
// first, with what a list shows, and page by page without a gap or a
// repeat even when conversations are created and updated between pages.
func testConversations(t *testing.T, newDSN NewDSN) {
	s := fresh(t, newDSN)
	// u1's conversations a1…a5, a minute apart, and b1 and b2 created at
	// the same instant as a3; u2's x1 between them.
	for i, id := range []string{"a1", "a2", "a3", "a4", "a5"} {
		c := conversation(id)
		c.CreatedAt = t0.Add(time.Duration(i) * time.Minute)
		c.Question = "question " + id
		mustCreate(t, s, c)
	}
	for _, id := range []string{"b2", "b1"} {
		c := conversation(id)
		c.CreatedAt = t0.Add(2 * time.Minute)
		mustCreate(t, s, c)
	}
	other := conversation("x1")
	other.UserID = "u2"
	other.CreatedAt = t0.Add(150 * time.Second)
	mustCreate(t, s, other)

	// a2 is answered later: its statement and times are listed, its place
	// (by creation) is kept.
	a2 := mustGet(t, s, "a2")
	a2.Status = store.StatusAnswered
	a2.Statement = "12 wounds were serious last month."
	a2.UpdatedAt = t0.Add(time.Hour)
	mustUpdate(t, s, a2)
	a4 := mustGet(t, s, "a4")
	a4.Status = store.StatusAwaiting
	a4.ExpiresAt = t0.Add(24 * time.Hour)
	a4.Source = "labs"
	mustUpdate(t, s, a4)

	all := mustList(t, s, "u1", store.Cursor{}, 100)
	want := []string{"a5", "a4", "b2", "b1", "a3", "a2", "a1"}
	if diff := cmp.Diff(want, ids(all)); diff != "" {
		t.Fatalf("u1's conversations, newest first (-want +got):\n%s", diff)
	}
	byID := map[string]store.Summary{}
	for _, c := range all {
		byID[c.ID] = c
	}
	utc := func(tm time.Time) time.Time { return tm.UTC().Truncate(time.Microsecond) }
	for _, w := range []store.Summary{
		{ID: "a2", Source: "clinic", Question: "question a2", Status: store.StatusAnswered,
			Statement: "12 wounds were serious last month.", CreatedAt: utc(t0.Add(time.Minute)), UpdatedAt: utc(t0.Add(time.Hour))},
		{ID: "a4", Source: "labs", Question: "question a4", Status: store.StatusAwaiting,
			CreatedAt: utc(t0.Add(3 * time.Minute)), UpdatedAt: a4.UpdatedAt, ExpiresAt: utc(t0.Add(24 * time.Hour))},
		{ID: "a1", Source: "clinic", Question: "question a1", Status: store.StatusActive,
			CreatedAt: utc(t0), UpdatedAt: utc(t0)},
	} {
		if diff := cmp.Diff(w, byID[w.ID]); diff != "" {
			t.Errorf("summary of %s (-want +got):\n%s", w.ID, diff)
		}
	}
	if c := mustGet(t, s, "a2"); c.Statement != a2.Statement {
		t.Errorf("Conversation(a2).Statement = %q, want %q", c.Statement, a2.Statement)
	}

	if got := mustList(t, s, "u2", store.Cursor{}, 100); len(got) != 1 || got[0].ID != "x1" {
		t.Errorf("u2's conversations = %v, want [x1]", ids(got))
	}
	if got := mustList(t, s, "nobody", store.Cursor{}, 100); len(got) != 0 {
		t.Errorf("a user without conversations lists %v", ids(got))
	}
	if got := mustList(t, s, "u1", store.Cursor{}, 0); len(got) != 0 {
		t.Errorf("limit 0 lists %v", ids(got))
	}

	// Page by page, two at a time; between pages a conversation is created
	// (newer than every page: not listed in the pages after) and an
	// unlisted one is updated (listed once, in its place).
	var paged []string
	after := store.Cursor{}
	for page := 0; ; page++ {
		list := mustList(t, s, "u1", after, 2)
		if len(list) > 2 {
			t.Fatalf("page %d has %d conversations, limit 2", page, len(list))
		}
		paged = append(paged, ids(list)...)
		if len(list) < 2 {
			break
		}
		after = store.CursorOf(list[len(list)-1])
		if page == 0 {
			c := conversation("new")
			c.CreatedAt = t0.Add(time.Hour)
			mustCreate(t, s, c)
			a1 := mustGet(t, s, "a1")
			a1.Question = "question a1, refined"
			mustUpdate(t, s, a1)
		}
		if page > 10 {
			t.Fatal("paging does not end")
		}
	}
	if diff := cmp.Diff(want, paged); diff != "" {
		t.Errorf("u1's conversations page by page (-want +got):\n%s", diff)
	}
	if got := mustList(t, s, "u1", store.Cursor{}, 1); len(got) != 1 || got[0].ID != "new" {
		t.Errorf("the first page after a new conversation = %v, want [new]", ids(got))
	}
	// a cursor whose conversation is gone still places the page
	if err := s.DeleteConversation(context.Background(), "b1"); err != nil {
		t.Fatal(err)
	}
	if got := mustList(t, s, "u1", store.Cursor{CreatedAt: t0.Add(2 * time.Minute), ID: "b1"}, 100); fmt.Sprint(ids(got)) != "[a3 a2 a1]" {
		t.Errorf("after a deleted conversation's cursor: %v, want [a3 a2 a1]", ids(got))
	}
}

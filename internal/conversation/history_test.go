package conversation_test

import (
	"context"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/clarify-sql/clarify/internal/apperr"
	"github.com/clarify-sql/clarify/internal/conversation"
	"github.com/clarify-sql/clarify/internal/store"
)

func list(t *testing.T, svc *conversation.Service, user, before string, limit int) *conversation.List {
	t.Helper()
	l, err := svc.ListConversations(context.Background(), user, before, limit)
	if err != nil {
		t.Fatalf("list %s before %q: %v", user, before, err)
	}
	return l
}

func listed(l *conversation.List) []string {
	out := make([]string, len(l.Conversations))
	for i, c := range l.Conversations {
		out[i] = c.ConversationID
	}
	return out
}

// TestListConversations: a user's conversations, newest first, each with
// its status and its last answer's statement; paged with the token of the
// previous page; never another user's.
func TestListConversations(t *testing.T) {
	t.Parallel()
	e := newEnv(t, conversation.Options{TTL: time.Hour}, hooks{})

	asking := ask(t, e.svc, "ana", conversation.Ask{Question: severeWounds})
	e.clock.Add(time.Minute)
	answered := ask(t, e.svc, "ana", notInteractive(bigWounds, "clinic"))
	e.clock.Add(time.Minute)
	chosen := choose(t, e.svc, "ana", ask(t, e.svc, "ana", conversation.Ask{Question: severeWounds}), "infect")
	e.clock.Add(time.Minute)
	bos := ask(t, e.svc, "bo", notInteractive(bigWounds, "clinic"))

	l := list(t, e.svc, "ana", "", 0)
	want := []string{chosen.ConversationID, answered.ConversationID, asking.ConversationID}
	if diff := cmp.Diff(want, listed(l)); diff != "" {
		t.Fatalf("ana's conversations (-want +got):\n%s", diff)
	}
	if l.Next != "" {
		t.Errorf("one page of three has a next page %q", l.Next)
	}
	got := l.Conversations
	if got[0].Status != store.StatusAnswered || got[0].Statement != chosen.Answer.Statement || got[0].Statement == "" ||
		got[0].Question != severeWounds || got[0].Source != "clinic" {
		t.Errorf("the answered clarification is listed as %+v, want answered with %q", got[0], chosen.Answer.Statement)
	}
	if got[1].Statement != answered.Answer.Statement {
		t.Errorf("statement %q, want %q", got[1].Statement, answered.Answer.Statement)
	}
	if got[2].Status != store.StatusAwaiting || got[2].Statement != "" {
		t.Errorf("the pending question is listed as %+v, want awaiting with no statement", got[2])
	}
	if !got[0].UpdatedAt.After(got[0].CreatedAt) && !got[0].UpdatedAt.Equal(got[0].CreatedAt) {
		t.Errorf("updated %v before created %v", got[0].UpdatedAt, got[0].CreatedAt)
	}
	if b := list(t, e.svc, "bo", "", 0); len(b.Conversations) != 1 || b.Conversations[0].ConversationID != bos.ConversationID {
		t.Errorf("bo's conversations = %v, want only bo's", listed(b))
	}

	// two a page: the token of the first continues it
	first := list(t, e.svc, "ana", "", 2)
	if first.Next == "" || len(first.Conversations) != 2 {
		t.Fatalf("first page %v, next %q", listed(first), first.Next)
	}
	second := list(t, e.svc, "ana", first.Next, 2)
	if diff := cmp.Diff(want, append(listed(first), listed(second)...)); diff != "" {
		t.Errorf("two pages (-want +got):\n%s", diff)
	}
	if second.Next != "" {
		t.Errorf("the last page has a next page %q", second.Next)
	}
	// bo holding ana's token still sees only bo's (none: bo's one
	// conversation is newer than the token's place)
	if b := list(t, e.svc, "bo", first.Next, 2); len(b.Conversations) != 0 {
		t.Errorf("bo with ana's token lists %v", listed(b))
	}

	// an expired question is listed as abandoned, as Get shows it
	e.clock.Add(2 * time.Hour)
	l = list(t, e.svc, "ana", "", 0)
	if s := l.Conversations[2].Status; s != store.StatusAbandoned {
		t.Errorf("an expired question is listed as %s, want abandoned", s)
	}

	// a refined answer lists the new statement; a deleted one is gone
	refined := send(t, e.svc, "ana", answered.ConversationID, conversation.Message{Text: "at Harbor Health"})
	if err := e.svc.Delete(context.Background(), "ana", chosen.ConversationID); err != nil {
		t.Fatal(err)
	}
	l = list(t, e.svc, "ana", "", 0)
	if diff := cmp.Diff([]string{answered.ConversationID, asking.ConversationID}, listed(l)); diff != "" {
		t.Errorf("after a delete (-want +got):\n%s", diff)
	}
	if refined.Answer == nil || refined.Answer.Statement == answered.Answer.Statement {
		t.Fatalf("the follow-up gave %s, want a new answer", refined.Status)
	}
	if l.Conversations[0].Statement != refined.Answer.Statement {
		t.Errorf("after a follow-up the statement is %q, want %q", l.Conversations[0].Statement, refined.Answer.Statement)
	}
}

func TestListConversationsRefused(t *testing.T) {
	t.Parallel()
	e := newEnv(t, conversation.Options{}, hooks{})
	for _, tc := range []struct {
		name   string
		before string
		limit  int
	}{
		{"limit too large", "", conversation.MaxListLimit + 1},
		{"negative limit", "", -1},
		{"not base64", "!!!", 10},
		{"no id", "MTIz", 10}, // "123"
		{"not a time", "eDphYmM", 10},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := e.svc.ListConversations(context.Background(), "ana", tc.before, tc.limit)
			wantCode(t, err, apperr.CodeBadRequest)
		})
	}
}

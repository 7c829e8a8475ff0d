package server_test

import (
	"net/url"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/clarify-sql/clarify/internal/server"
)

type history struct {
	Conversations []struct {
		ConversationID string `json:"conversation_id"`
		Source         string `json:"source"`
		Question       string `json:"question"`
		Status         string `json:"status"`
		Statement      string `json:"statement"`
		CreatedAt      string `json:"created_at"`
		UpdatedAt      string `json:"updated_at"`
	} `json:"conversations"`
	Next  string `json:"next"`
	Error *struct {
		Code string `json:"code"`
	} `json:"error"`
}

func (l history) ids() []string {
	var out []string
	for _, c := range l.Conversations {
		out = append(out, c.ConversationID)
	}
	return out
}

// TestListConversations: GET /v1/conversations lists the caller's
// conversations, newest first, a page at a time, never another user's.
func TestListConversations(t *testing.T) {
	h := start(t, server.Key{User: "ana", SHA256: server.HashKey("ana-key")}, server.Key{User: "bo", SHA256: server.HashKey("bo-key")})
	askAs := func(key, q string, interactive bool) result {
		t.Helper()
		var r result
		if st := h.do("POST", "/v1/conversations", key, map[string]any{"question": q, "interactive": interactive}, &r); st != 200 && st != 202 {
			t.Fatalf("ask %q: %d", q, st)
		}
		return r
	}
	first := askAs("ana-key", "big wounds at Harbor Health", false)
	h.clock.Add(1e9)
	second := askAs("ana-key", "old wounds by clinic", true)
	h.clock.Add(1e9)
	third := askAs("ana-key", "big wounds", false)
	bos := askAs("bo-key", "big wounds", false)

	var l history
	if st := h.do("GET", "/v1/conversations", "ana-key", nil, &l); st != 200 {
		t.Fatalf("list: %d", st)
	}
	if diff := cmp.Diff([]string{third.ConversationID, second.ConversationID, first.ConversationID}, l.ids()); diff != "" {
		t.Fatalf("ana's conversations (-want +got):\n%s", diff)
	}
	c := l.Conversations[2]
	if c.Source != "clinic" || c.Question != "big wounds at Harbor Health" || c.Status != "answered" ||
		!strings.Contains(c.Statement, "Harbor Health") || c.CreatedAt == "" || c.UpdatedAt == "" {
		t.Errorf("the first conversation is listed as %+v", c)
	}
	if s := l.Conversations[1]; s.Status != "awaiting_clarification" || s.Statement != "" {
		t.Errorf("the pending question is listed as %+v", s)
	}

	// a page at a time
	var p1, p2 history
	h.do("GET", "/v1/conversations?limit=2", "ana-key", nil, &p1)
	if len(p1.Conversations) != 2 || p1.Next == "" {
		t.Fatalf("page 1: %v, next %q", p1.ids(), p1.Next)
	}
	h.do("GET", "/v1/conversations?limit=2&before="+url.QueryEscape(p1.Next), "ana-key", nil, &p2)
	if diff := cmp.Diff(l.ids(), append(p1.ids(), p2.ids()...)); diff != "" || p2.Next != "" {
		t.Errorf("two pages (-want +got):\n%s\nnext %q", diff, p2.Next)
	}

	// bo sees only bo's
	var lb history
	h.do("GET", "/v1/conversations", "bo-key", nil, &lb)
	if diff := cmp.Diff([]string{bos.ConversationID}, lb.ids()); diff != "" {
		t.Errorf("bo's conversations (-want +got):\n%s", diff)
	}

	for _, tc := range []struct {
		method, path, key string
		status            int
		code              string
	}{
		{"GET", "/v1/conversations", "", 401, "UNAUTHORIZED"},
		{"GET", "/v1/conversations?limit=0", "ana-key", 400, "BAD_REQUEST"},
		{"GET", "/v1/conversations?limit=101", "ana-key", 400, "BAD_REQUEST"},
		{"GET", "/v1/conversations?limit=ten", "ana-key", 400, "BAD_REQUEST"},
		{"GET", "/v1/conversations?before=not-a-token", "ana-key", 400, "BAD_REQUEST"},
		{"PUT", "/v1/conversations", "ana-key", 405, "METHOD_NOT_ALLOWED"},
		{"DELETE", "/v1/conversations", "ana-key", 405, "METHOD_NOT_ALLOWED"},
		{"DELETE", "/v1/conversations/" + first.ConversationID, "bo-key", 404, "NOT_FOUND"},
	} {
		var e history
		if st := h.do(tc.method, tc.path, tc.key, nil, &e); st != tc.status || e.Error == nil || e.Error.Code != tc.code {
			t.Errorf("%s %s: %d %+v, want %d %s", tc.method, tc.path, st, e.Error, tc.status, tc.code)
		}
	}

	// deleting one takes it off the list
	if st := h.do("DELETE", "/v1/conversations/"+first.ConversationID, "ana-key", nil, nil); st != 204 {
		t.Fatalf("delete: %d", st)
	}
	var after history
	h.do("GET", "/v1/conversations", "ana-key", nil, &after)
	if diff := cmp.Diff([]string{third.ConversationID, second.ConversationID}, after.ids()); diff != "" {
		t.Errorf("after a delete (-want +got):\n%s", diff)
	}
	if st := h.do("DELETE", "/v1/conversations/"+first.ConversationID, "ana-key", nil, nil); st != 404 {
		t.Errorf("a second delete: %d, want 404", st)
	}
}

package server_test

import (
	"bytes"
	"net/http"
	"testing"

	"github.com/clarify-sql/clarify/internal/server"
)

type auditPage struct {
	Records []struct {
		ID             int64  `json:"id"`
		User           string `json:"user"`
		Source         string `json:"source"`
		ConversationID string `json:"conversation_id"`
		RequestID      string `json:"request_id"`
		Statement      string `json:"statement"`
		Params         []any  `json:"params"`
		Rows           int    `json:"rows"`
		Outcome        string `json:"outcome"`
	} `json:"records"`
	Next  string `json:"next"`
	Error *struct {
		Code string `json:"code"`
	} `json:"error"`
}

// TestAuditAdminOnly: GET /v1/audit answers keys with admin: true only
// (403 for another key, 401 without one), with the turns' records, the
// request id of the request that ran each, filters and pages.
func TestAuditAdminOnly(t *testing.T) {
	h := start(t, server.Key{User: "ana", SHA256: server.HashKey("ana-key")},
		server.Key{User: "root", SHA256: server.HashKey("root-key"), Admin: true})

	// a turn whose request carries its own id
	req, _ := http.NewRequest("POST", h.url+"/v1/conversations",
		bytes.NewReader([]byte(`{"question": "big wounds at Harbor Health", "interactive": false}`)))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer ana-key")
	req.Header.Set("X-Request-Id", "req-audit-1")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Fatalf("ask: %d", resp.StatusCode)
	}
	var r result
	if st := h.do("POST", "/v1/conversations", "ana-key", map[string]any{"question": "big wounds", "interactive": false}, &r); st != 200 {
		t.Fatalf("ask: %d", st)
	}

	for _, tc := range []struct{ name, key, code string }{
		{"a user's key", "ana-key", "FORBIDDEN"},
		{"no key", "", "UNAUTHORIZED"},
	} {
		var p auditPage
		st := h.do("GET", "/v1/audit", tc.key, nil, &p)
		if want := map[string]int{"FORBIDDEN": 403, "UNAUTHORIZED": 401}[tc.code]; st != want || p.Error == nil || p.Error.Code != tc.code || len(p.Records) != 0 {
			t.Errorf("%s: GET /v1/audit = %d %+v; want %d %s", tc.name, st, p, want, tc.code)
		}
	}

	var all auditPage
	if st := h.do("GET", "/v1/audit", "root-key", nil, &all); st != 200 {
		t.Fatalf("admin: GET /v1/audit = %d %+v", st, all.Error)
	}
	if len(all.Records) != 2 {
		t.Fatalf("admin reads %d records, want 2: %+v", len(all.Records), all.Records)
	}
	newest, first := all.Records[0], all.Records[1]
	if newest.ConversationID != r.ConversationID || newest.User != "ana" || newest.Outcome != "answered" ||
		newest.Statement == "" || newest.Params == nil || newest.RequestID == "" {
		t.Errorf("newest record %+v; want ana's answer of %s with its statement and request id", newest, r.ConversationID)
	}
	if first.RequestID != "req-audit-1" || first.Source != "clinic" || len(first.Params) == 0 {
		t.Errorf("first record %+v; want request id req-audit-1 and the bound values", first)
	}

	var page1, page2, nobody auditPage
	h.do("GET", "/v1/audit?limit=1", "root-key", nil, &page1)
	if len(page1.Records) != 1 || page1.Next == "" {
		t.Fatalf("page 1: %+v", page1)
	}
	h.do("GET", "/v1/audit?limit=1&cursor="+page1.Next, "root-key", nil, &page2)
	if len(page2.Records) != 1 || page2.Records[0].ID != first.ID {
		t.Errorf("page 2: %+v; want the first record", page2)
	}
	h.do("GET", "/v1/audit?user=root&source=clinic", "root-key", nil, &nobody)
	if len(nobody.Records) != 0 || nobody.Records == nil {
		t.Errorf("root's records: %+v; want an empty list", nobody)
	}
	for _, q := range []string{"limit=0", "limit=5000", "since=yesterday", "cursor=abc",
		"since=2026-01-02T00:00:00Z&until=2026-01-01T00:00:00Z"} {
		var p auditPage
		if st := h.do("GET", "/v1/audit?"+q, "root-key", nil, &p); st != 400 || p.Error == nil || p.Error.Code != "BAD_REQUEST" {
			t.Errorf("GET /v1/audit?%s = %d %+v; want 400 BAD_REQUEST", q, st, p.Error)
		}
	}
}

// TestAuditWithoutKeys: without keys the one local user reads the audit
// log, as it reads every user's statistics.
func TestAuditWithoutKeys(t *testing.T) {
	h := start(t)
	var p auditPage
	if st := h.do("GET", "/v1/audit", "", nil, &p); st != 200 || p.Records == nil {
		t.Errorf("GET /v1/audit without keys = %d %+v; want 200 and a list", st, p)
	}
}

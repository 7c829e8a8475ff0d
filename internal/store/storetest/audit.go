package storetest

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/sync/errgroup"

	"github.com/clarify-sql/clarify/internal/store"
)

// auditRec is a record of the audit log for the tests: user u, source src,
// at t0 + minutes.
func auditRec(u, src string, minutes int) store.AuditRecord {
	return store.AuditRecord{
		At: t0.Add(time.Duration(minutes) * time.Minute), UserID: u, Source: src,
		ConversationID: fmt.Sprintf("c_%s_%d", u, minutes), RequestID: fmt.Sprintf("r%d", minutes),
		Question: "ferritin of patient 17", Scope: "17",
		Statement: `SELECT "value" FROM "results" WHERE "patient_id" = $1 AND "test" = $2`,
		// the bytes are kept as given: spacing, key order, big numbers
		Params: json.RawMessage(`["17", "ferritin", 12345678901234567890, {"b":1,"a":2}]`),
		Rows:   3, Outcome: store.AuditAnswered,
	}
}

func mustAppendAudit(tb testing.TB, s store.Store, rs ...store.AuditRecord) {
	tb.Helper()
	for _, r := range rs {
		if err := s.AppendAudit(context.Background(), r); err != nil {
			tb.Fatalf("AppendAudit: %v", err)
		}
	}
}

func mustAudit(tb testing.TB, s store.Store, f store.AuditFilter) []store.AuditRecord {
	tb.Helper()
	rs, err := s.Audit(context.Background(), f)
	if err != nil {
		tb.Fatalf("Audit(%+v): %v", f, err)
	}
	return rs
}

// auditKeys names records by conversation id, in the order read.
func auditKeys(rs []store.AuditRecord) []string {
	out := make([]string, 0, len(rs))
	for _, r := range rs {
		out = append(out, r.ConversationID)
	}
	return out
}

// testAudit: records read back as written (UTC, microseconds, params byte
// for byte), newest first, with increasing ids; the filters and the cursor
// select what they say; records that cannot be stored are refused.
func testAudit(t *testing.T, newDSN NewDSN) {
	ctx := context.Background()
	s := fresh(t, newDSN)
	if got := mustAudit(t, s, store.AuditFilter{}); len(got) != 0 {
		t.Fatalf("a new store's audit log holds %d records", len(got))
	}
	failed := auditRec("bo", "clinic", 1)
	failed.Statement, failed.Params, failed.Rows, failed.Scope = "", nil, 0, ""
	failed.Outcome, failed.ErrorCode = store.AuditFailed, "SCOPE_REQUIRED"
	recs := []store.AuditRecord{auditRec("ana", "labs", 0), failed, auditRec("ana", "clinic", 2), auditRec("ana", "labs", 3)}
	mustAppendAudit(t, s, recs...)

	got := mustAudit(t, s, store.AuditFilter{})
	if len(got) != len(recs) {
		t.Fatalf("Audit returned %d records, want %d", len(got), len(recs))
	}
	var want []store.AuditRecord
	for i := len(recs) - 1; i >= 0; i-- {
		r := recs[i]
		r.At = r.At.UTC().Truncate(time.Microsecond)
		r.ID = got[len(recs)-1-i].ID
		if r.Params == nil {
			r.Params = json.RawMessage(`[]`)
		}
		want = append(want, r)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Audit (-want +got):\n%s", diff)
	}
	for i := 1; i < len(got); i++ {
		if got[i].ID >= got[i-1].ID {
			t.Errorf("ids not decreasing newest first: %d then %d", got[i-1].ID, got[i].ID)
		}
	}

	tests := []struct {
		name string
		f    store.AuditFilter
		want []string
	}{
		{"user", store.AuditFilter{User: "ana"}, []string{"c_ana_3", "c_ana_2", "c_ana_0"}},
		{"user and source", store.AuditFilter{User: "ana", Source: "labs"}, []string{"c_ana_3", "c_ana_0"}},
		{"source", store.AuditFilter{Source: "clinic"}, []string{"c_ana_2", "c_bo_1"}},
		{"since inclusive", store.AuditFilter{Since: t0.Add(2 * time.Minute)}, []string{"c_ana_3", "c_ana_2"}},
		{"until exclusive", store.AuditFilter{Until: t0.Add(2 * time.Minute)}, []string{"c_bo_1", "c_ana_0"}},
		{"between", store.AuditFilter{Since: t0.Add(time.Minute), Until: t0.Add(3 * time.Minute)}, []string{"c_ana_2", "c_bo_1"}},
		{"limit", store.AuditFilter{Limit: 2}, []string{"c_ana_3", "c_ana_2"}},
		{"before a cursor", store.AuditFilter{Before: got[1].ID}, []string{"c_bo_1", "c_ana_0"}},
		{"nobody", store.AuditFilter{User: "cy"}, []string{}},
	}
	for _, tc := range tests {
		if diff := cmp.Diff(tc.want, auditKeys(mustAudit(t, s, tc.f))); diff != "" {
			t.Errorf("%s: Audit(%+v) (-want +got):\n%s", tc.name, tc.f, diff)
		}
	}

	// Pages of one record each cover the log once, newest first.
	var pages []string
	for f := (store.AuditFilter{Limit: 1}); ; {
		page := mustAudit(t, s, f)
		if len(page) == 0 {
			break
		}
		pages = append(pages, auditKeys(page)...)
		f.Before = page[len(page)-1].ID
		if len(pages) > len(recs) {
			t.Fatalf("paging does not end: %v", pages)
		}
	}
	if diff := cmp.Diff(auditKeys(got), pages); diff != "" {
		t.Errorf("paged audit log (-want +got):\n%s", diff)
	}

	for name, r := range map[string]store.AuditRecord{
		"params not JSON":   {UserID: "ana", Outcome: store.AuditAnswered, Params: json.RawMessage(`["17"`)},
		"params not a list": {UserID: "ana", Outcome: store.AuditAnswered, Params: json.RawMessage(`{"p":"17"}`)},
		"params null":       {UserID: "ana", Outcome: store.AuditAnswered, Params: json.RawMessage(`null`)},
		"no user":           {Outcome: store.AuditAnswered},
		"no outcome":        {UserID: "ana"},
	} {
		wantErr(t, "AppendAudit with "+name, s.AppendAudit(ctx, r), store.ErrAuditRecord)
	}
	if n := len(mustAudit(t, s, store.AuditFilter{})); n != len(recs) {
		t.Errorf("after refused appends the log holds %d records, want %d", n, len(recs))
	}
}

// testAuditKept: deleting a conversation and the conversations' retention
// sweep leave its audit records alone; only DeleteAuditBefore removes
// records, those before its time, in more than one batch.
func testAuditKept(t *testing.T, newDSN NewDSN) {
	ctx := context.Background()
	s := fresh(t, newDSN)
	now := time.Now()
	for _, id := range []string{"deleted", "swept"} {
		c := conversation(id)
		c.Status = store.StatusAnswered
		c.CreatedAt, c.UpdatedAt = now.Add(-100*24*time.Hour), now.Add(-100*24*time.Hour)
		mustCreate(t, s, c, events("conversation", "result")...)
		r := auditRec("u1", "clinic", 0)
		r.ConversationID, r.At = id, c.UpdatedAt
		mustAppendAudit(t, s, r)
	}
	if err := s.DeleteConversation(ctx, "deleted"); err != nil {
		t.Fatal(err)
	}
	if n, err := s.DeleteOlderThan(ctx, now.Add(-30*24*time.Hour)); err != nil || n != 1 {
		t.Fatalf("DeleteOlderThan = %d, %v; want 1", n, err)
	}
	if diff := cmp.Diff([]string{"swept", "deleted"}, auditKeys(mustAudit(t, s, store.AuditFilter{}))); diff != "" {
		t.Errorf("audit log after the conversations were deleted (-want +got):\n%s", diff)
	}

	// More old records than one batch of the sweep, and a few recent ones.
	const old, recent = 1030, 3
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(16)
	for i := range old + recent {
		g.Go(func() error {
			r := auditRec("u2", "labs", i)
			r.At = now.Add(-2 * 365 * 24 * time.Hour)
			if i >= old {
				r.At = now
			}
			return s.AppendAudit(gctx, r)
		})
	}
	if err := g.Wait(); err != nil {
		t.Fatal(err)
	}
	before := now.Add(-365 * 24 * time.Hour)
	if n, err := s.DeleteAuditBefore(ctx, before); err != nil || n != old {
		t.Fatalf("DeleteAuditBefore = %d, %v; want %d", n, err, old)
	}
	left := mustAudit(t, s, store.AuditFilter{Limit: store.MaxAuditLimit})
	if len(left) != recent+2 {
		t.Errorf("after the sweep %d records are left, want the %d recent ones", len(left), recent+2)
	}
	for _, r := range left {
		if r.At.Before(before) {
			t.Errorf("record %d at %s survived the sweep", r.ID, r.At)
		}
	}
	if n, err := s.DeleteAuditBefore(ctx, before); err != nil || n != 0 {
		t.Errorf("DeleteAuditBefore again = %d, %v; want 0", n, err)
	}
	// Ids are not reused after a sweep.
	mustAppendAudit(t, s, auditRec("u3", "labs", 9))
	if got := mustAudit(t, s, store.AuditFilter{Limit: 1}); len(got) != 1 || got[0].UserID != "u3" || got[0].ID <= left[0].ID {
		t.Errorf("newest record after the sweep = %+v; want u3's, with an id above %d", got, left[0].ID)
	}
}

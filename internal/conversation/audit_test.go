package conversation_test

import (
	"context"
	"encoding/json"
	"errors"
	"log/slog"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/clarify-sql/clarify/internal/apperr"
	"github.com/clarify-sql/clarify/internal/conversation"
	"github.com/clarify-sql/clarify/internal/store"
)

// auditOf reads every audit record of a user, newest first.
func auditOf(t *testing.T, svc *conversation.Service, user string) []store.AuditRecord {
	t.Helper()
	p, err := svc.Audit(context.Background(), conversation.AuditQuery{User: user, Limit: 1000})
	if err != nil {
		t.Fatal(err)
	}
	return p.Records
}

// TestAuditScopedTurn: each turn of a labs conversation limited to one
// patient is recorded with the patient's key, and the answer with the
// statement, bound values and row count it was given; the records stay
// when the user deletes the conversation.
func TestAuditScopedTurn(t *testing.T) {
	t.Parallel()
	e := newEnv(t, conversation.Options{}, hooks{})
	ctx := conversation.WithRequestID(context.Background(), "req-7")
	r, err := e.svc.Ask(ctx, "ana", conversation.Ask{Question: myFerritin, Source: "labs"}, nil)
	if err != nil || r.Status != "needs_clarification" {
		t.Fatalf("ask = %+v, %v; want the patient asked", r, err)
	}
	id := r.ConversationID
	r = choose(t, e.svc, "ana", r, "L3")
	if r = choose(t, e.svc, "ana", r, "table"); r.Status != "answered" {
		t.Fatalf("after the patient and the format: %s", r.Status)
	}
	params, err := json.Marshal(r.Answer.Params)
	if err != nil {
		t.Fatal(err)
	}
	var vals []any
	if err := json.Unmarshal(params, &vals); err != nil || !slices.Contains(vals, any("L3")) {
		t.Fatalf("the answer's bound values %s do not hold the patient L3 (%v)", params, err)
	}
	base := store.AuditRecord{UserID: "ana", Source: "labs", ConversationID: id, Question: myFerritin,
		Params: json.RawMessage(`[]`)}
	asked, scoped, answered := base, base, base
	asked.RequestID, asked.Outcome = "req-7", store.AuditAsked
	scoped.Scope, scoped.Outcome = "L3", store.AuditAsked
	answered.Scope, answered.Outcome = "L3", store.AuditAnswered
	// the record holds what the database was given: the guard's copy, with
	// the patient written into every scoped table, and its bound values
	ran, err := json.Marshal(r.Answer.Ran.Args)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(r.Answer.Ran.SQL, "'L3'") || r.Answer.Ran.SQL == r.Answer.SQL {
		t.Fatalf("the statement that ran is %q", r.Answer.Ran.SQL)
	}
	answered.Statement, answered.Params, answered.Rows = r.Answer.Ran.SQL, ran, r.Answer.RowCount
	want := []store.AuditRecord{answered, scoped, asked}
	ignore := cmpopts.IgnoreFields(store.AuditRecord{}, "ID", "At")

	got := auditOf(t, e.svc, "ana")
	if diff := cmp.Diff(want, got, ignore); diff != "" {
		t.Fatalf("audit records of the conversation (-want +got):\n%s", diff)
	}
	if answered.Rows == 0 || answered.Statement == "" {
		t.Fatalf("the answer ran no statement: %+v", answered)
	}

	if err := e.svc.Delete(context.Background(), "ana", id); err != nil {
		t.Fatal(err)
	}
	if _, err := e.svc.Get(context.Background(), "ana", id); apperr.CodeOf(err) != apperr.CodeNotFound {
		t.Fatalf("Get after Delete = %v; want NOT_FOUND", err)
	}
	if diff := cmp.Diff(got, auditOf(t, e.svc, "ana")); diff != "" {
		t.Errorf("audit records after the conversation was deleted (-before +after):\n%s", diff)
	}
}

// TestAuditFailedTurn: a turn that fails is recorded with its code.
func TestAuditFailedTurn(t *testing.T) {
	t.Parallel()
	e := newEnv(t, conversation.Options{}, hooks{})
	r, err := e.svc.Ask(context.Background(), "bo", notInteractive(myFerritin, "labs"), nil)
	if err != nil || r.Status != "failed" {
		t.Fatalf("ask = %+v, %v; want SCOPE_REQUIRED", r, err)
	}
	got := auditOf(t, e.svc, "bo")
	if len(got) != 1 || got[0].Outcome != store.AuditFailed || got[0].ErrorCode != string(r.Error.Code) ||
		got[0].ConversationID != r.ConversationID || got[0].Statement != "" {
		t.Errorf("audit records = %+v; want one failed with %s", got, r.Error.Code)
	}
}

// unauditedStore cannot write the audit log: AppendAudit fails, and so
// does a save that carries an audit record.
type unauditedStore struct{ store.Store }

var errAuditDown = errors.New("audit log unavailable")

func (unauditedStore) AppendAudit(context.Context, store.AuditRecord) error { return errAuditDown }

func (s unauditedStore) SaveConversation(ctx context.Context, w store.Save) ([]store.Event, error) {
	if w.Audit != nil {
		return nil, errAuditDown
	}
	return s.Store.SaveConversation(ctx, w)
}

// TestAuditFailsClosed: an answer the audit log cannot record is not
// shown, not even its events.
func TestAuditFailsClosed(t *testing.T) {
	t.Parallel()
	e := newEnv(t, conversation.Options{}, hooks{})
	svc := conversation.New(e.engines, unauditedStore{e.st}, conversation.Options{Clock: e.clock.Now, Log: testLog(t)})
	defer svc.Close()
	var types []string
	r, err := svc.Ask(context.Background(), "cy", notInteractive(bigWounds, "clinic"), eachEvent(func(ev store.Event) {
		types = append(types, ev.Type)
	}))
	if err != nil {
		t.Fatal(err)
	}
	if r.Status != "failed" || r.Answer != nil || r.Error == nil || r.Error.Code != apperr.CodeInternal {
		t.Fatalf("result = %s %+v; want INTERNAL and no answer", r.Status, r.Error)
	}
	for _, typ := range types {
		if typ == "result" || typ == "sql" {
			t.Errorf("event %q was sent for an answer the audit log did not record", typ)
		}
	}
}

// TestAuditRetention: with AuditKeep set, the service deletes the audit
// records older than AuditKeep and keeps the others; Keep alone never
// deletes them.
func TestAuditRetention(t *testing.T) {
	t.Parallel()
	e := newEnv(t, conversation.Options{}, hooks{})
	const keep = 30 * 24 * time.Hour
	ask(t, e.svc, "dee", notInteractive(bigWounds, "clinic"))
	e.clock.Add(keep + time.Hour)
	ask(t, e.svc, "dee", notInteractive(bigWounds, "clinic"))

	// conversations' retention only: the audit log stays whole
	convs := conversation.New(e.engines, e.st, conversation.Options{Keep: keep, Clock: e.clock.Now, Log: testLog(t)})
	waitFor(t, func() bool {
		p, err := e.st.Conversations(context.Background(), "dee", store.Cursor{}, 10)
		return err == nil && len(p) == 1
	})
	convs.Close()
	if n := len(auditOf(t, e.svc, "dee")); n != 2 {
		t.Fatalf("after the conversations' sweep %d audit records, want 2", n)
	}

	audits := conversation.New(e.engines, e.st, conversation.Options{AuditKeep: keep, Clock: e.clock.Now, Log: testLog(t)})
	defer audits.Close()
	waitFor(t, func() bool { return len(auditOf(t, e.svc, "dee")) == 1 })
	if got := auditOf(t, e.svc, "dee")[0]; !got.At.Equal(e.clock.Now().UTC().Truncate(time.Microsecond)) {
		t.Errorf("the audit sweep kept the record of %s, want the recent one", got.At)
	}
}

// testLog logs to the test's output.
func testLog(t *testing.T) *slog.Logger { return slog.New(slog.NewTextHandler(t.Output(), nil)) }

// waitFor waits up to waitLimit for ok.
func waitFor(t *testing.T, ok func() bool) {
	t.Helper()
	for deadline := time.Now().Add(waitLimit); !ok(); time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("timed out waiting")
		}
	}
}

// TestAuditOutcomeNotSaved: a turn whose outcome cannot be saved still
// records the statement that ran, and shows none of its answer.
func TestAuditOutcomeNotSaved(t *testing.T) {
	t.Parallel()
	errDown := errors.New("store went away")
	e := newEnv(t, conversation.Options{}, hooks{saveOutcome: func(context.Context) error { return errDown }})
	var shown []string
	_, err := e.svc.Ask(context.Background(), "flo", notInteractive(bigWounds, "clinic"), eachEvent(func(ev store.Event) {
		shown = append(shown, ev.Type)
	}))
	wantCode(t, err, apperr.CodeInternal)
	got := auditOf(t, e.svc, "flo")
	if len(got) != 1 || got[0].Outcome != store.AuditAnswered || got[0].Statement == "" {
		t.Fatalf("audit records = %+v; want the answer's statement", got)
	}
	for _, typ := range shown {
		if typ == "result" || typ == "sql" {
			t.Errorf("event %q was sent for an answer that was not saved", typ)
		}
	}
}

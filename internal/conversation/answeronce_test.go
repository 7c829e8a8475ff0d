package conversation_test

import (
	"bytes"
	"context"
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/clarify-sql/clarify/internal/conversation"
	"github.com/clarify-sql/clarify/internal/store"
)

// TestAnswerStoredOnce: an answer with its rows is kept once, in its
// "result" event, not again in the conversation's state, which every
// message writes and reads; the conversation still shows it as its last
// answer, and a state written before (with the answer in it) still does.
func TestAnswerStoredOnce(t *testing.T) {
	t.Parallel()
	e := newEnv(t, conversation.Options{}, hooks{})
	ctx := context.Background()
	r := ask(t, e.svc, "ana", notInteractive(bigWounds, "clinic"))
	if r.Answer == nil || len(r.Answer.Rows) == 0 {
		t.Fatalf("ask: %s %+v, want an answer with rows", r.Status, r.Answer)
	}
	id := r.ConversationID
	evs, err := e.svc.Events(ctx, "ana", id, 0)
	if err != nil {
		t.Fatal(err)
	}
	var result []byte
	for _, ev := range evs {
		if ev.Type == "result" {
			result = ev.Data
		}
	}
	rows, err := json.Marshal(r.Answer.Rows)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(result, rows) {
		t.Fatalf("the result event does not hold the answer's rows")
	}
	c, err := e.st.Conversation(ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(c.State, rows) {
		t.Errorf("the conversation's state (%d bytes) holds the answer's rows again", len(c.State))
	}
	if c.Statement != r.Answer.Statement {
		t.Errorf("stored statement %q, want %q", c.Statement, r.Answer.Statement)
	}
	// as shown: the answer's JSON (what it does not encode, such as the
	// statement the guard ran, is not kept)
	shown := func(what string) {
		t.Helper()
		v := get(t, e.svc, "ana", id)
		got, err := json.Marshal(v.LastAnswer)
		if err != nil {
			t.Fatal(err)
		}
		want, err := json.Marshal(r.Answer)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(string(want), string(got)); diff != "" {
			t.Errorf("last answer %s (-answered +shown):\n%s", what, diff)
		}
	}
	shown("")

	// a state as written before: the answer in "last", no reference
	var st map[string]json.RawMessage
	if err := json.Unmarshal(c.State, &st); err != nil {
		t.Fatal(err)
	}
	var last map[string]json.RawMessage
	if err := json.Unmarshal(st["last"], &last); err != nil {
		t.Fatal(err)
	}
	last["answer"] = result
	delete(st, "last_answer")
	if st["last"], err = json.Marshal(last); err != nil {
		t.Fatal(err)
	}
	if c.State, err = json.Marshal(st); err != nil {
		t.Fatal(err)
	}
	if _, err := e.st.SaveConversation(ctx, store.Save{Conversation: c}); err != nil {
		t.Fatal(err)
	}
	shown("of a state written before")
	ch, err := e.svc.ChangeAssumption(ctx, "ana", id, "vague:large", "area_gt_10", nil)
	if err != nil || ch.Answer == nil {
		t.Fatalf("change an assumption of a state written before: %v %+v", err, ch)
	}
}

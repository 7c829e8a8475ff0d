package conversation_test

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/clarify-sql/clarify/internal/apperr"
	"github.com/clarify-sql/clarify/internal/conversation"
	"github.com/clarify-sql/clarify/internal/demo/demotest"
	"github.com/clarify-sql/clarify/internal/engine"
	"github.com/clarify-sql/clarify/internal/llm"
	"github.com/clarify-sql/clarify/internal/llm/llmtest"
	"github.com/clarify-sql/clarify/internal/source"
	"github.com/clarify-sql/clarify/internal/store"
)

// TestEngineChoicePersists: the engine asked for when a conversation starts
// answers its later turns too — here the model's question, answered, is
// followed by the model's SQL, with the choice in the second call.
func TestEngineChoicePersists(t *testing.T) {
	t.Parallel()
	srv := llmtest.Start(t, filepath.Join("..", "engine", "testdata", "llm", "clarification.yaml"), "")
	cl, err := llm.New(llm.Config{BaseURL: srv.URL, Model: "test-model"})
	if err != nil {
		t.Fatal(err)
	}
	// the source's own engine is rules: only the request chooses hybrid
	withModel := engine.New(demotest.Source(t, "clinic", source.Options{}), engine.Options{Now: func() time.Time { return demotest.AsOf }, LLM: cl})
	e := newEnv(t, conversation.Options{}, hooks{})
	st, err := store.OpenConfig(context.Background(), store.Config{DSN: "sqlite:" + filepath.Join(t.TempDir(), "store.db"), Now: e.clock.Now})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	svc := conversation.New(engines{"clinic": withModel, "labs": e.engines["labs"]}, st, conversation.Options{Clock: e.clock.Now})
	t.Cleanup(svc.Close)

	r := ask(t, svc, "ana", conversation.Ask{Question: "how many wounds healed faster than the median", Engine: engine.EngineHybrid})
	c := r.Clarification
	if r.Status != engine.StatusNeedsQuestion || c == nil || c.Kind != engine.KindLLM {
		t.Fatalf("ask: %s %+v, want the model's question", r.Status, c)
	}
	r = send(t, svc, "ana", r.ConversationID, conversation.Message{Answer: &conversation.Answer{ClarificationID: c.ID, OptionID: c.Options[1].ID}})
	if r.Status != engine.StatusAnswered || r.Answer.Engine != engine.EngineLLM {
		t.Fatalf("after the answer: %s %+v, want answered by the model", r.Status, r.Error)
	}
	bodies := srv.Bodies()
	if len(bodies) != 2 || !strings.Contains(fmt.Sprint(bodies[1]["messages"]), c.Options[1].Label) {
		t.Errorf("%d calls; the second should carry %q", len(bodies), c.Options[1].Label)
	}

	// without an endpoint, asking for the model is a bad request
	_, err = e.svc.Ask(context.Background(), "ana", conversation.Ask{Question: "how many wounds", Source: "clinic", Engine: engine.EngineLLM}, nil)
	wantCode(t, err, apperr.CodeBadRequest)
}

// TestModelWordsStream: engine llm's words reach the turn's stream as text
// events carrying deltas, before the result, and are kept with the
// conversation's events; the conversation says which engine it asked for.
func TestModelWordsStream(t *testing.T) {
	t.Parallel()
	srv := llmtest.Start(t, filepath.Join("..", "engine", "testdata", "llm", "tools_stream.yaml"), "")
	cl, err := llm.New(llm.Config{BaseURL: srv.URL, Model: "test-model"})
	if err != nil {
		t.Fatal(err)
	}
	withModel := engine.New(demotest.Source(t, "labs", source.Options{}), engine.Options{Now: func() time.Time { return demotest.AsOf }, LLM: cl})
	e := newEnv(t, conversation.Options{}, hooks{})
	svc := conversation.New(engines{"clinic": e.engines["clinic"], "labs": withModel}, e.st, conversation.Options{Clock: e.clock.Now})
	t.Cleanup(svc.Close)

	var emitted []store.Event
	r, err := svc.Ask(context.Background(), "ana", conversation.Ask{Question: "how many vitamin D results for Ivan Petrov", Source: "labs", Engine: engine.EngineLLM},
		eachEvent(func(ev store.Event) { emitted = append(emitted, ev) }))
	if err != nil || r.Status != engine.StatusAnswered {
		t.Fatalf("ask: %v %+v", err, r)
	}
	var words strings.Builder
	result := -1
	for i, ev := range emitted {
		switch ev.Type {
		case "text":
			var d struct {
				Delta string `json:"delta"`
			}
			if err := json.Unmarshal(ev.Data, &d); err != nil {
				t.Fatal(err)
			}
			if d.Delta != "" && result >= 0 {
				t.Errorf("event %d: the model's words after the result", i)
			}
			words.WriteString(d.Delta)
		case "result":
			result = i
		}
	}
	if got := words.String(); !strings.HasPrefix(got, "Let me find how vitamin D is written") || strings.Contains(got, "SELECT") {
		t.Errorf("streamed words %q: want the model's prose without its statement", got)
	}
	stored, err := svc.Events(context.Background(), "ana", r.ConversationID, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(stored) != len(emitted) {
		t.Errorf("%d events stored, %d emitted", len(stored), len(emitted))
	}
	v, err := svc.Get(context.Background(), "ana", r.ConversationID)
	if err != nil || v.Engine != engine.EngineLLM {
		t.Errorf("view engine %q (%v), want %q", v.Engine, err, engine.EngineLLM)
	}
}

package conversation_test

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

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
	wantCode(t, err, conversation.CodeBadRequest)
}

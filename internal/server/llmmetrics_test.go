package server_test

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"path/filepath"
	"testing"
	"time"

	"github.com/clarify-sql/clarify/internal/demo/demotest"
	"github.com/clarify-sql/clarify/internal/engine"
	"github.com/clarify-sql/clarify/internal/llm"
	"github.com/clarify-sql/clarify/internal/llm/llmtest"
	"github.com/clarify-sql/clarify/internal/server"
	"github.com/clarify-sql/clarify/internal/source"
)

// TestModelMetrics: the language model's calls and tokens, counted by its
// client, reach /metrics per source.
func TestModelMetrics(t *testing.T) {
	srv := llmtest.Start(t, filepath.Join("..", "engine", "testdata", "llm", "sql_answer.yaml"), "")
	cl, err := llm.New(llm.Config{BaseURL: srv.URL, Model: "test-model"})
	if err != nil {
		t.Fatal(err)
	}
	e := engine.New(demotest.Source(t, "clinic", source.Options{}), engine.Options{Now: func() time.Time { return demotest.AsOf }, Engine: engine.EngineHybrid, LLM: cl})
	if _, err := e.Turn(context.Background(), engine.Request{Question: "how many wounds healed faster than the median", Interactive: true}); err != nil {
		t.Fatal(err)
	}
	h := startConfig(t, nil, func(c *server.Config) {
		c.ModelStats = func() map[string]llm.Snapshot {
			s, _ := e.ModelStats()
			return map[string]llm.Snapshot{"clinic": s}
		}
	})
	resp, err := http.Get(h.url + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	data, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	for _, want := range []string{
		`clarify_llm_calls_total{source="clinic"} 1`,
		`clarify_llm_tokens_total{kind="prompt",source="clinic"}`,
		`clarify_llm_latency_seconds_total{source="clinic"}`,
	} {
		if !bytes.Contains(data, []byte(want)) {
			t.Errorf("metrics lack %s", want)
		}
	}
	s, _ := e.ModelStats()
	if s.PromptTokens == 0 {
		t.Errorf("the client counted no prompt tokens: %+v", s)
	}
}

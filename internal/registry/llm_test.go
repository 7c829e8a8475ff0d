package registry_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/clarify-sql/clarify/internal/apperr"
	"github.com/clarify-sql/clarify/internal/config"
	"github.com/clarify-sql/clarify/internal/demo/demotest"
	"github.com/clarify-sql/clarify/internal/engine"
	"github.com/clarify-sql/clarify/internal/llm"
	"github.com/clarify-sql/clarify/internal/llm/llmtest"
	"github.com/clarify-sql/clarify/internal/registry"
)

// TestSourceEngine: a source's engine and endpoint come from its config,
// its key from the variable api_key_env names, and the CLARIFY_LLM_*
// environment overrides the endpoint.
func TestSourceEngine(t *testing.T) {
	t.Parallel()
	transcript := filepath.Join("..", "engine", "testdata", "llm", "null.yaml")
	for _, tc := range []struct {
		name string
		llm  *config.LLM
		env  llm.Config
	}{
		{name: "from the config", llm: &config.LLM{Model: "test-model", APIKeyEnv: "MY_KEY"}},
		{name: "the environment overrides", llm: &config.LLM{BaseURL: "http://127.0.0.1:1/v1", Model: "other"},
			env: llm.Config{Model: "test-model", APIKey: "k1"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			srv := llmtest.Start(t, transcript, "k1")
			if tc.llm.BaseURL == "" {
				tc.llm.BaseURL = srv.URL
			} else {
				tc.env.BaseURL = srv.URL
			}
			src := config.Source{Name: "clinic", DSN: "sqlite:" + demotest.Path(t, "clinic"), Model: "builtin:clinic", Engine: "hybrid", LLM: tc.llm}
			opt := registry.Options{LLM: tc.env, Getenv: func(k string) string { return map[string]string{"MY_KEY": "k1"}[k] }}
			eng, info, err := registry.Open(context.Background(), src, opt)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { eng.Source().Close() })
			// what GET /v1/sources tells a client it may choose
			if d := cmp.Diff([]string{"rules", "llm", "hybrid"}, info.Engines); info.Engine != "hybrid" || d != "" {
				t.Errorf("info.Engine = %q, want hybrid; engines (-want +got):\n%s", info.Engine, d)
			}
			// words the rules cannot link: the hybrid engine asks the model
			if _, err := eng.Turn(context.Background(), engine.Request{Question: "how many wounds healed faster than the median", Interactive: true}); err != nil {
				t.Fatal(err)
			}
			if srv.Requests() != 1 {
				t.Errorf("%d model calls, want 1 (the source's engine is hybrid)", srv.Requests())
			}
		})
	}
}

// TestSourceWithoutEndpoint: llm without an endpoint is refused per turn,
// with the variables to set, not at open.
func TestSourceWithoutEndpoint(t *testing.T) {
	t.Parallel()
	src := config.Source{Name: "clinic", DSN: "sqlite:" + demotest.Path(t, "clinic"), Model: "builtin:clinic", Engine: "llm"}
	eng, info, err := registry.Open(context.Background(), src, registry.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { eng.Source().Close() })
	// configured llm, but with no endpoint only rules can be chosen
	if d := cmp.Diff([]string{"rules"}, info.Engines); info.Engine != "llm" || d != "" {
		t.Errorf("info.Engine = %q, want llm; engines (-want +got):\n%s", info.Engine, d)
	}
	if _, err := eng.Turn(context.Background(), engine.Request{Question: "how many wounds"}); apperr.CodeOf(err) != apperr.CodeBadRequest {
		t.Errorf("got %v, want BAD_REQUEST", err)
	}
}

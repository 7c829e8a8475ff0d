package config_test

import (
	"testing"

	"github.com/clarify-sql/clarify/internal/config"
)

func TestSourceEngine(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name, yaml, wantErr string
		want                config.Source
	}{
		{name: "default", yaml: "sources: [{name: a, dsn: 'sqlite:a.db'}]\n"},
		{name: "hybrid with an endpoint", yaml: "sources:\n  - name: a\n    dsn: 'sqlite:a.db'\n    engine: hybrid\n    llm: {base_url: 'http://localhost:11434/v1', model: qwen, api_key_env: MY_KEY}\n",
			want: config.Source{Engine: "hybrid", LLM: &config.LLM{BaseURL: "http://localhost:11434/v1", Model: "qwen", APIKeyEnv: "MY_KEY"}}},
		{name: "unknown engine", yaml: "sources: [{name: a, dsn: 'sqlite:a.db', engine: magic}]\n", wantErr: "engine must be one of rules, llm, hybrid"},
		{name: "a key in the config is not a field", yaml: "sources: [{name: a, dsn: 'sqlite:a.db', llm: {api_key: sk-1}}]\n", wantErr: "api_key"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			c := loadWant(t, tc.yaml, tc.wantErr)
			if c == nil {
				return
			}
			s := c.Sources[0]
			if s.Engine != tc.want.Engine || (s.LLM == nil) != (tc.want.LLM == nil) || s.LLM != nil && *s.LLM != *tc.want.LLM {
				t.Errorf("engine %q llm %+v, want %q %+v", s.Engine, s.LLM, tc.want.Engine, tc.want.LLM)
			}
		})
	}
}

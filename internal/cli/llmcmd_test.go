package cli_test

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/clarify-sql/clarify/internal/cli"
	"github.com/clarify-sql/clarify/internal/llm"
	"github.com/clarify-sql/clarify/internal/llm/llmtest"
)

// TestLLMCheck: `clarify llm check` prints what the endpoint supports and
// exits 0 only when the model answers. (Not parallel: it sets the
// environment the command reads.)
func TestLLMCheck(t *testing.T) {
	const key = "sk-test-0123456789abcdef"
	tests := []struct {
		name       string
		transcript string // "" for no endpoint at all
		args       []string
		code       int
		stdout     []string
		stderr     []string
	}{
		{name: "no endpoint set", code: 1, stderr: []string{"CLARIFY_LLM_BASE_URL is not set", "http://localhost:11434/v1", "docs/llm.md"}},
		{name: "a full endpoint", transcript: "probe_full.yaml", code: 0,
			stdout: []string{"Model:       test-model", "Answers:     yes", "Tools:       yes", "JSON schema: yes", "JSON mode:   yes", "Streaming:   yes", "API key set"}},
		{name: "the model from the flag", transcript: "probe_no_model.yaml", args: []string{"--model", "test-model"}, code: 1,
			stdout: []string{"Answers:     no", "try pulling it first"}, stderr: []string{"does not answer"}},
		{name: "a usage mistake", args: []string{"--bogus"}, code: 2},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv(llm.EnvBaseURL, "")
			t.Setenv(llm.EnvModel, "test-model")
			t.Setenv(llm.EnvAPIKey, key)
			if tc.transcript != "" {
				srv := llmtest.Start(t, "../llm/testdata/"+tc.transcript, key)
				t.Setenv(llm.EnvBaseURL, srv.URL)
				if len(tc.args) > 0 {
					t.Setenv(llm.EnvModel, "")
				}
			}
			var stdout, stderr bytes.Buffer
			code := cli.Run(context.Background(), append([]string{"llm", "check"}, tc.args...), strings.NewReader(""), &stdout, &stderr)
			if code != tc.code {
				t.Errorf("exit code %d, want %d\nstdout:\n%s\nstderr:\n%s", code, tc.code, stdout.String(), stderr.String())
			}
			for _, s := range tc.stdout {
				if !strings.Contains(stdout.String(), s) {
					t.Errorf("stdout does not say %q:\n%s", s, stdout.String())
				}
			}
			for _, s := range tc.stderr {
				if !strings.Contains(stderr.String(), s) {
					t.Errorf("stderr does not say %q:\n%s", s, stderr.String())
				}
			}
			if strings.Contains(stdout.String()+stderr.String(), key) {
				t.Error("the output shows the API key")
			}
		})
	}
}

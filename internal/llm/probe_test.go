package llm_test

import (
	"context"
	"strings"
	"testing"
)

// TestProbe: each capability is found by a real call and reported in words.
func TestProbe(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name                                     string
		file                                     string
		answers, tools, schema, jsonMode, stream bool
		listed                                   bool
		says                                     []string
	}{
		{name: "everything", file: "probe_full.yaml", answers: true, tools: true, schema: true, jsonMode: true, stream: true, listed: true,
			says: []string{"2 listed, test-model among them", `called count_rows with {"table":"patients"}`, "2 pieces", "supports structured output"}},
		{name: "an older server", file: "probe_limited.yaml", answers: true, jsonMode: true, stream: true,
			says: []string{"but not test-model: llama-3.2-3b-instruct.gguf", "answered in prose instead of calling one", "refused response_format json_schema", "asked for in JSON mode"}},
		{name: "a model the server lacks", file: "probe_no_model.yaml",
			says: []string{"not found", "try pulling it first", "unknown — not checked", "does not answer"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			c, srv := newClient(t, tc.file, nil)
			r := c.Probe(context.Background())
			got := []bool{r.Answers.OK, r.Tools.OK, r.JSONSchema.OK, r.JSONMode.OK, r.Streaming.OK, r.Listed, r.OK()}
			want := []bool{tc.answers, tc.tools, tc.schema, tc.jsonMode, tc.stream, tc.listed, tc.answers}
			for i := range want {
				if got[i] != want[i] {
					t.Errorf("answers, tools, schema, JSON mode, stream, listed, OK = %v, want %v", got, want)
					break
				}
			}
			var b strings.Builder
			r.Write(&b)
			for _, s := range tc.says {
				if !strings.Contains(b.String(), s) {
					t.Errorf("the report does not say %q:\n%s", s, b.String())
				}
			}
			if !srv.Exhausted() {
				t.Errorf("the probe made %d requests, fewer than the transcript's", srv.Requests())
			}
			if strings.Contains(b.String(), testKey) {
				t.Errorf("the report shows the key")
			}
		})
	}
}

package llm_test

import (
	"context"
	"encoding/json"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/clarify-sql/clarify/internal/llm"
	"github.com/clarify-sql/clarify/internal/llm/llmtest"
)

// testKey is the API key the replaying server expects.
const testKey = "sk-test-0123456789abcdef"

// newClient returns a client for a server replaying the transcript file,
// with fast backoffs; mod adjusts the config.
func newClient(t *testing.T, file string, mod func(*llm.Config)) (*llm.Client, *llmtest.Server) {
	t.Helper()
	srv := llmtest.Start(t, filepath.Join("testdata", file), testKey)
	cfg := llm.Config{BaseURL: srv.URL, Model: "test-model", APIKey: testKey,
		Backoff: time.Millisecond, MaxBackoff: 4 * time.Millisecond}
	if mod != nil {
		mod(&cfg)
	}
	c, err := llm.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return c, srv
}

func user(text string) []llm.Message { return []llm.Message{{Role: llm.RoleUser, Content: text}} }

// ignoreTimes leaves out what depends on the clock.
var ignoreTimes = cmpopts.IgnoreFields(llm.Response{}, "Latency", "TimeToFirstToken")

var replySchema = json.RawMessage(`{"type":"object","properties":{"kind":{"type":"string","enum":["sql","clarification"]},"sql":{"type":"string"}},"required":["kind","sql"],"additionalProperties":false}`)

var searchTool = llm.Tool{Name: "search_values", Description: "Fuzzy search of a column's values.",
	Parameters: json.RawMessage(`{"type":"object","properties":{"column":{"type":"string"},"query":{"type":"string"}},"required":["column","query"]}`)}

// TestChat: plain calls send the protocol's request and read its replies.
func TestChat(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		file string
		req  llm.Request
		want llm.Response
	}{
		{name: "prose with SQL in a code block", file: "chat_sql_in_code_block.yaml",
			req: llm.Request{Messages: []llm.Message{{Role: llm.RoleSystem, Content: "You write SQL for a clinic database."}, {Role: llm.RoleUser, Content: "How many patients are there?"}}},
			want: llm.Response{Model: "test-model-2026", Content: "Here is the query:\n\n```sql\nSELECT count(*) FROM patients;\n```", FinishReason: "stop",
				Usage: llm.Usage{PromptTokens: 31, CompletionTokens: 14, TotalTokens: 45}, Attempts: 1}},
		{name: "a question in words, no usage", file: "chat_question_in_words.yaml",
			req:  llm.Request{Messages: user("Show me the vitamin D results")},
			want: llm.Response{Model: "test-model", Content: "Which patient do you mean? There are three named Ivan Petrov.", FinishReason: "stop", Attempts: 1}},
		{name: "a refusal", file: "chat_refusal.yaml",
			req: llm.Request{Messages: user("What will the weather be?"), Format: llm.Format{Type: llm.FormatJSONSchema, Name: "answer", Schema: replySchema, Strict: true}},
			want: llm.Response{Model: "test-model", Refusal: "I cannot answer this from the data available.", FinishReason: "stop",
				Usage: llm.Usage{PromptTokens: 20, CompletionTokens: 10, TotalTokens: 30}, Attempts: 1}},
		{name: "JSON schema", file: "chat_json_schema.yaml",
			req: llm.Request{Messages: user("How many patients?"), Format: llm.Format{Type: llm.FormatJSONSchema, Name: "reply", Schema: replySchema, Strict: true}},
			want: llm.Response{Model: "test-model", Content: `{"kind":"sql","sql":"SELECT count(*) FROM patients"}`, FinishReason: "stop",
				Usage: llm.Usage{PromptTokens: 50, CompletionTokens: 12, TotalTokens: 62}, Attempts: 1}},
		{name: "JSON mode", file: "chat_json_mode.yaml",
			req: llm.Request{Messages: user("Patients by year, as JSON"), Format: llm.Format{Type: llm.FormatJSONObject}},
			want: llm.Response{Model: "test-model", Content: `{"kind":"clarification","question":"Which year?"}`, FinishReason: "stop",
				Usage: llm.Usage{PromptTokens: 40, CompletionTokens: 9, TotalTokens: 49}, Attempts: 1}},
		{name: "429 with Retry-After, then success", file: "retry_429.yaml",
			req:  llm.Request{Messages: user("hi")},
			want: llm.Response{Model: "test-model", Content: "ok", FinishReason: "stop", Usage: llm.Usage{PromptTokens: 5, CompletionTokens: 1, TotalTokens: 6}, Attempts: 2}},
		{name: "500, then success", file: "retry_500.yaml",
			req:  llm.Request{Messages: user("hi")},
			want: llm.Response{Model: "test-model", Content: "ok", FinishReason: "stop", Usage: llm.Usage{PromptTokens: 5, CompletionTokens: 1, TotalTokens: 6}, Attempts: 2}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			c, srv := newClient(t, tc.file, nil)
			got, err := c.Chat(context.Background(), tc.req)
			if err != nil {
				t.Fatalf("Chat: %v", err)
			}
			if diff := cmp.Diff(tc.want, got, ignoreTimes); diff != "" {
				t.Errorf("reply (-want +got):\n%s", diff)
			}
			if got.Latency <= 0 || got.TimeToFirstToken != got.Latency {
				t.Errorf("latency %v, time to first token %v: want both set and equal for a plain call", got.Latency, got.TimeToFirstToken)
			}
			if !srv.Exhausted() {
				t.Errorf("the client made %d requests, fewer than the transcript's exchanges", srv.Requests())
			}
		})
	}
}

// TestToolRoundTrip: a tool call, its result sent back, the final answer.
func TestToolRoundTrip(t *testing.T) {
	t.Parallel()
	c, _ := newClient(t, "chat_tool_call.yaml", nil)
	ctx := context.Background()
	msgs := user("Show me Ivan Petrov's vitamin D")
	req := llm.Request{Messages: msgs, Tools: []llm.Tool{searchTool}, ToolChoice: llm.ToolChoice{Mode: "auto"}}
	first, err := c.Chat(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	wantCalls := []llm.ToolCall{{ID: "call_a1", Name: "search_values", Arguments: `{"column":"patients.name","query":"Ivan Petrov"}`}}
	if diff := cmp.Diff(wantCalls, first.ToolCalls); diff != "" || first.FinishReason != "tool_calls" {
		t.Fatalf("tool calls (-want +got):\n%s (finish %q)", diff, first.FinishReason)
	}
	req.Messages = append(msgs,
		llm.Message{Role: llm.RoleAssistant, ToolCalls: first.ToolCalls},
		llm.Message{Role: llm.RoleTool, ToolCallID: "call_a1", Content: `["Ivan Petrov (1961)","Ivan Petrov (1988)"]`})
	second, err := c.Chat(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	if want := "Two patients are named Ivan Petrov: born 1961 or 1988?"; second.Content != want {
		t.Errorf("final answer %q, want %q", second.Content, want)
	}
}

// TestStream: streamed replies arrive piece by piece and assemble whole.
func TestStream(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		file   string
		req    llm.Request
		want   llm.Response
		deltas []llm.Delta
	}{
		{name: "text in pieces with usage", file: "stream_text.yaml",
			req:    llm.Request{Messages: user("Which year do you mean?")},
			want:   llm.Response{Model: "test-model", Content: "Do you mean 2025 or 2026?", FinishReason: "stop", Usage: llm.Usage{PromptTokens: 12, CompletionTokens: 7, TotalTokens: 19}, Attempts: 1},
			deltas: []llm.Delta{{Content: "Do you mean"}, {Content: " 2025 or"}, {Content: " 2026?"}}},
		{name: "two tool calls by index", file: "stream_tool_calls.yaml",
			req: llm.Request{Messages: user("Find Ivan"), Tools: []llm.Tool{searchTool, {Name: "run_sql", Parameters: json.RawMessage(`{"type":"object"}`)}}, ToolChoice: llm.ToolChoice{Mode: "required"}},
			want: llm.Response{Model: "test-model", FinishReason: "tool_calls", Usage: llm.Usage{PromptTokens: 90, CompletionTokens: 30, TotalTokens: 120}, Attempts: 1,
				ToolCalls: []llm.ToolCall{{ID: "call_1", Name: "search_values", Arguments: `{"column":"patients.name"}`}, {ID: "call_2", Name: "run_sql", Arguments: `{"sql":"SELECT 1"}`}}},
			deltas: []llm.Delta{
				{ToolCall: &llm.ToolCallDelta{Index: 0, ID: "call_1", Name: "search_values"}},
				{ToolCall: &llm.ToolCallDelta{Index: 0, Arguments: `{"column":`}},
				{ToolCall: &llm.ToolCallDelta{Index: 0, Arguments: `"patients.name"}`}},
				{ToolCall: &llm.ToolCallDelta{Index: 1, ID: "call_2", Name: "run_sql", Arguments: `{"sql":`}},
				{ToolCall: &llm.ToolCallDelta{Index: 1, Arguments: `"SELECT 1"}`}},
			}},
		{name: "tool calls without index (Ollama)", file: "stream_tool_calls_no_index.yaml",
			req: llm.Request{Messages: user("Find Ivan"), Tools: []llm.Tool{searchTool}},
			want: llm.Response{Model: "test-model", FinishReason: "stop", Attempts: 1,
				ToolCalls: []llm.ToolCall{{ID: "call_x", Name: "search_values", Arguments: `{"column":"patients.name"}`}, {ID: "call_y", Name: "run_sql", Arguments: `{"sql":"SELECT 1"}`}}},
			deltas: []llm.Delta{
				{ToolCall: &llm.ToolCallDelta{Index: 0, ID: "call_x", Name: "search_values", Arguments: `{"column":"patients.name"}`}},
				{ToolCall: &llm.ToolCallDelta{Index: 1, ID: "call_y", Name: "run_sql", Arguments: `{"sql":"SELECT 1"}`}},
			}},
		{name: "a server that answers a stream with JSON", file: "stream_as_json.yaml",
			req:    llm.Request{Messages: user("hi")},
			want:   llm.Response{Model: "test-model", Content: "whole reply", FinishReason: "stop", Usage: llm.Usage{PromptTokens: 4, CompletionTokens: 2, TotalTokens: 6}, Attempts: 1},
			deltas: []llm.Delta{{Content: "whole reply"}}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			c, _ := newClient(t, tc.file, nil)
			var deltas []llm.Delta
			got, err := c.Stream(context.Background(), tc.req, func(d llm.Delta) error {
				deltas = append(deltas, d)
				return nil
			})
			if err != nil {
				t.Fatalf("Stream: %v", err)
			}
			if diff := cmp.Diff(tc.want, got, ignoreTimes); diff != "" {
				t.Errorf("reply (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tc.deltas, deltas); diff != "" {
				t.Errorf("deltas (-want +got):\n%s", diff)
			}
			if got.TimeToFirstToken <= 0 || got.TimeToFirstToken > got.Latency {
				t.Errorf("time to first token %v, latency %v", got.TimeToFirstToken, got.Latency)
			}
		})
	}
}

// TestErrors: each failure is a typed error, retried only when worth it,
// and its message never holds the key.
func TestErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		file     string
		stream   bool
		mod      func(*llm.Config)
		want     error
		requests int    // how many requests the server must have seen
		detail   string // a part of the message
	}{
		{name: "500 forever gives up after max retries", file: "server_down.yaml", mod: func(c *llm.Config) { c.MaxRetries = 2 },
			want: llm.ErrServer, requests: 3, detail: "502 Bad Gateway"},
		{name: "a stream with 500 forever gives up too", file: "server_down.yaml", stream: true, mod: func(c *llm.Config) { c.MaxRetries = 1 },
			want: llm.ErrServer, requests: 2},
		{name: "no retries when told", file: "server_down.yaml", mod: func(c *llm.Config) { c.MaxRetries = -1 },
			want: llm.ErrServer, requests: 1},
		{name: "401 is not retried", file: "auth_error.yaml", want: llm.ErrAuth, requests: 1, detail: "Incorrect API key provided: [redacted]"},
		{name: "400 json_schema unsupported", file: "unsupported_schema.yaml", want: llm.ErrUnsupported, requests: 1, detail: "json_schema is not supported"},
		{name: "malformed JSON body", file: "malformed_body.yaml", want: llm.ErrBadResponse, requests: 1, detail: "not JSON"},
		{name: "malformed JSON chunk", file: "malformed_chunk.yaml", stream: true, want: llm.ErrBadResponse, requests: 1, detail: "BROKEN"},
		{name: "a stream cut mid-way", file: "stream_cut.yaml", stream: true, want: llm.ErrTruncated, requests: 1},
		{name: "a stream whose connection breaks", file: "stream_reset.yaml", stream: true, want: llm.ErrTruncated, requests: 1},
		{name: "an error event in the stream", file: "stream_error_event.yaml", stream: true, mod: func(c *llm.Config) { c.MaxRetries = -1 },
			want: llm.ErrServer, requests: 1, detail: "context window is full"},
		{name: "a slow first token", file: "stream_slow_first_token.yaml", stream: true,
			mod: func(c *llm.Config) { c.FirstTokenTimeout = 200 * time.Millisecond }, want: llm.ErrFirstToken, requests: 1},
		{name: "a call that outlives its timeout", file: "stream_slow_first_token.yaml",
			mod: func(c *llm.Config) { c.Timeout = 200 * time.Millisecond }, want: llm.ErrTimeout, requests: 1},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			c, srv := newClient(t, tc.file, tc.mod)
			req := llm.Request{Messages: user("hi")}
			var err error
			var got llm.Response
			if tc.stream {
				got, err = c.Stream(context.Background(), req, nil)
			} else {
				got, err = c.Chat(context.Background(), req)
			}
			if !errors.Is(err, tc.want) {
				t.Fatalf("error %v (reply %+v), want %v", err, got, tc.want)
			}
			var e *llm.Error
			if !errors.As(err, &e) {
				t.Fatalf("error %T is not an *llm.Error", err)
			}
			if srv.Requests() != tc.requests {
				t.Errorf("the server saw %d requests, want %d", srv.Requests(), tc.requests)
			}
			if !strings.Contains(err.Error(), tc.detail) {
				t.Errorf("message %q does not say %q", err, tc.detail)
			}
			if strings.Contains(err.Error(), testKey) || len(err.Error()) > 400 {
				t.Errorf("message holds the key or too much of the body: %q", err)
			}
			if got.Content != "" || got.ToolCalls != nil {
				t.Errorf("a failed call returned a partial reply: %+v", got)
			}
		})
	}
}

// TestRetryAfter: the wait the server asks for is the wait the client makes,
// in seconds or as a date, and a wait longer than the caller's deadline is
// not started.
func TestRetryAfter(t *testing.T) {
	t.Parallel()
	t.Run("seconds", func(t *testing.T) {
		t.Parallel()
		var waits []time.Duration
		c, _ := newClient(t, "retry_429.yaml", func(c *llm.Config) {
			c.OnRetry = func(r llm.Retry) { waits = append(waits, r.Wait) }
		})
		if _, err := c.Chat(context.Background(), llm.Request{Messages: user("hi")}); err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff([]time.Duration{time.Second}, waits); diff != "" {
			t.Errorf("waits (-want +got):\n%s", diff)
		}
	})
	t.Run("an HTTP date", func(t *testing.T) {
		t.Parallel()
		now := time.Date(2026, 11, 25, 10, 0, 0, 0, time.UTC)
		c, srv := newClient(t, "retry_429_date.yaml", func(c *llm.Config) {
			c.MaxRetries = -1
			c.Now = func() time.Time { return now }
		})
		_, err := c.Chat(context.Background(), llm.Request{Messages: user("hi")})
		var e *llm.Error
		if !errors.As(err, &e) || !errors.Is(err, llm.ErrRateLimited) {
			t.Fatalf("error %v, want ErrRateLimited", err)
		}
		if e.RetryAfter != 30*time.Second || srv.Requests() != 1 {
			t.Errorf("RetryAfter %v after %d requests, want 30s after 1", e.RetryAfter, srv.Requests())
		}
	})
	t.Run("longer than the deadline", func(t *testing.T) {
		t.Parallel()
		c, srv := newClient(t, "retry_429_long.yaml", nil)
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_, err := c.Chat(ctx, llm.Request{Messages: user("hi")})
		var e *llm.Error
		if !errors.As(err, &e) || !errors.Is(err, llm.ErrRateLimited) || e.RetryAfter != 30*time.Second {
			t.Fatalf("error %v, want ErrRateLimited with a 30s wait", err)
		}
		if srv.Requests() != 1 || ctx.Err() != nil {
			t.Errorf("the client made %d requests and waited out the deadline (%v); want 1 and no wait", srv.Requests(), ctx.Err())
		}
	})
}

// TestCancelMidStream: cancelling stops the request at once; the server sees
// the connection close.
func TestCancelMidStream(t *testing.T) {
	t.Parallel()
	// The call's own timeout only bounds a client that fails to cancel.
	c, srv := newClient(t, "stream_hang.yaml", func(c *llm.Config) { c.Timeout = 20 * time.Second })
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	_, err := c.Stream(ctx, llm.Request{Messages: user("think hard")}, func(d llm.Delta) error {
		if d.Content != "Thinking" {
			t.Errorf("delta %+v, want the first chunk", d)
		}
		cancel()
		return nil
	})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("error %v, want one that unwraps to context.Canceled", err)
	}
	select {
	case <-srv.Gone():
	case <-time.After(10 * time.Second):
		t.Fatal("the server never saw the connection close")
	}
	if srv.Requests() != 1 {
		t.Errorf("the server saw %d requests, want 1 (no retry after a cancel)", srv.Requests())
	}
}

// TestStats: calls, errors by kind and tokens are counted, and OnCall sees
// each call.
func TestStats(t *testing.T) {
	t.Parallel()
	var calls []llm.Call
	c, _ := newClient(t, "retry_429.yaml", func(c *llm.Config) { c.OnCall = func(call llm.Call) { calls = append(calls, call) } })
	ctx := context.Background()
	if _, err := c.Chat(ctx, llm.Request{Messages: user("hi")}); err != nil {
		t.Fatal(err)
	}
	if _, err := c.Chat(ctx, llm.Request{}); !errors.Is(err, llm.ErrBadRequest) {
		t.Fatalf("an empty request: %v, want ErrBadRequest", err)
	}
	s := c.Stats()
	if s.Calls != 2 || s.Retries != 1 || s.PromptTokens != 5 || s.CompletionTokens != 1 || s.Errors["bad_request"] != 1 || s.Latency <= 0 {
		t.Errorf("stats %+v", s)
	}
	if len(calls) != 2 || calls[0].Attempts != 2 || calls[0].Err != nil || llm.KindName(calls[1].Err) != "bad_request" {
		t.Errorf("OnCall saw %+v", calls)
	}
}

// TestConfig: the key never shows, FromEnv reads the environment, Validate
// says what is missing.
func TestConfig(t *testing.T) {
	t.Setenv(llm.EnvBaseURL, " http://localhost:11434/v1/ ")
	t.Setenv(llm.EnvModel, "qwen2.5-coder:7b")
	t.Setenv(llm.EnvAPIKey, testKey)
	cfg := llm.FromEnv()
	if cfg.BaseURL != "http://localhost:11434/v1/" || cfg.Model != "qwen2.5-coder:7b" || cfg.APIKey != testKey {
		t.Errorf("FromEnv = %v", cfg)
	}
	if err := cfg.Validate(); err != nil {
		t.Errorf("Validate: %v", err)
	}
	if s := cfg.String(); strings.Contains(s, testKey) {
		t.Errorf("String shows the key: %s", s)
	}
	if err := (llm.Config{BaseURL: "localhost:11434"}).Validate(); err == nil || !strings.Contains(err.Error(), "not an http(s) URL") || !strings.Contains(err.Error(), llm.EnvModel) {
		t.Errorf("Validate of a bad config: %v", err)
	}
}

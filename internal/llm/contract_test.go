package llm_test

import (
	"context"
	"encoding/json"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/clarify-sql/clarify/internal/llm"
)

// EnvRequireLLM, when "1", makes the contract test fail instead of skip
// when no endpoint is configured. It is deliberately not
// CLARIFY_TEST_REQUIRE_SERVERS: CI provides the database servers and a
// browser, but no language model, so a missing endpoint must not fail CI.
const EnvRequireLLM = "CLARIFY_TEST_REQUIRE_LLM"

// contractClient returns a client for the real endpoint in the environment,
// or skips the test saying how to enable it.
func contractClient(t *testing.T) *llm.Client {
	t.Helper()
	cfg := llm.FromEnv()
	if cfg.BaseURL == "" || cfg.Model == "" {
		why := "contract test needs a real OpenAI-compatible endpoint: set " + llm.EnvBaseURL + " and " + llm.EnvModel +
			" (and " + llm.EnvAPIKey + " if it needs a key), e.g. " + llm.EnvBaseURL + "=http://localhost:11434/v1 " +
			llm.EnvModel + "=qwen2.5-coder:7b for Ollama; see docs/llm.md"
		if os.Getenv(EnvRequireLLM) == "1" {
			t.Fatalf("%s (and %s=1 forbids skipping)", why, EnvRequireLLM)
		}
		t.Skip(why)
	}
	cfg.Timeout = 3 * time.Minute
	c, err := llm.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestContract runs the calls the LLM engine relies on against the endpoint
// configured in the environment: a plain chat, a JSON-schema reply, a tool
// call and a stream.
func TestContract(t *testing.T) {
	c := contractClient(t)
	ctx := context.Background()

	t.Run("plain chat", func(t *testing.T) {
		resp, err := c.Chat(ctx, llm.Request{Messages: user("What is 2+2? Reply with the number only.")})
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(resp.Content, "4") {
			t.Errorf("reply %q does not hold 4", resp.Content)
		}
		t.Logf("%s: %q, %d tokens, %v", resp.Model, resp.Content, resp.Usage.TotalTokens, resp.Latency)
	})

	t.Run("JSON schema", func(t *testing.T) {
		resp, err := c.Chat(ctx, llm.Request{
			Messages: user(`How many legs does a cat have? Reply as JSON with the key "legs".`),
			Format: llm.Format{Type: llm.FormatJSONSchema, Name: "legs", Strict: true,
				Schema: json.RawMessage(`{"type":"object","properties":{"legs":{"type":"integer"}},"required":["legs"],"additionalProperties":false}`)},
		})
		if err != nil {
			t.Fatal(err)
		}
		var v struct{ Legs int }
		if err := json.Unmarshal([]byte(resp.Content), &v); err != nil || v.Legs != 4 {
			t.Errorf("reply %q: want {\"legs\": 4} (%v)", resp.Content, err)
		}
	})

	t.Run("tool call", func(t *testing.T) {
		resp, err := c.Chat(ctx, llm.Request{
			Messages:   user("How many rows does the table patients have? Use the tool."),
			Tools:      []llm.Tool{{Name: "count_rows", Description: "Count the rows of a table.", Parameters: json.RawMessage(`{"type":"object","properties":{"table":{"type":"string"}},"required":["table"]}`)}},
			ToolChoice: llm.ToolChoice{Mode: "required"},
		})
		if err != nil {
			t.Fatal(err)
		}
		if len(resp.ToolCalls) == 0 || resp.ToolCalls[0].Name != "count_rows" || !json.Valid([]byte(resp.ToolCalls[0].Arguments)) {
			t.Fatalf("tool calls %+v, content %q: want a call of count_rows with JSON arguments", resp.ToolCalls, resp.Content)
		}
	})

	t.Run("stream", func(t *testing.T) {
		var pieces []string
		resp, err := c.Stream(ctx, llm.Request{Messages: user("Count from 1 to 10, separated by spaces.")}, func(d llm.Delta) error {
			pieces = append(pieces, d.Content)
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if strings.Join(pieces, "") != resp.Content || !strings.Contains(resp.Content, "10") {
			t.Errorf("pieces %q do not make the reply %q, or it does not reach 10", pieces, resp.Content)
		}
		t.Logf("%d pieces, first after %v, whole in %v", len(pieces), resp.TimeToFirstToken, resp.Latency)
	})
}

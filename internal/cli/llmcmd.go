package cli

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/clarify-sql/clarify/internal/llm"
)

// llmCheck runs `clarify llm check`: it probes the configured OpenAI-compatible
// endpoint and prints what it supports. It exits 0 when the model answers.
func (e *env) llmCheck(ctx context.Context, args []string) error {
	fs := newFlagSet("llm check", e)
	base := fs.String("base-url", "", "the endpoint's API root (env "+llm.EnvBaseURL+")")
	model := fs.String("model", "", "the model name (env "+llm.EnvModel+")")
	timeout := fs.Duration("timeout", time.Minute, "bound for each probe call")
	pos, err := parse(fs, args)
	if err != nil {
		return err
	}
	if len(pos) > 0 {
		return &usageError{msg: fmt.Sprintf("llm check: unexpected argument %q", pos[0]), help: commandHelp(fs)}
	}
	cfg := llm.FromEnv()
	if *base != "" {
		cfg.BaseURL = *base
	}
	if *model != "" {
		cfg.Model = *model
	}
	if cfg.BaseURL == "" {
		return errors.New(llm.EnvBaseURL + " is not set: point it at an OpenAI-compatible endpoint, e.g.\n" +
			"  export " + llm.EnvBaseURL + "=http://localhost:11434/v1 " + llm.EnvModel + "=qwen2.5-coder:7b   # Ollama\n" +
			"(and " + llm.EnvAPIKey + " when the endpoint needs a key); docs/llm.md lists OpenAI, vLLM and llama.cpp")
	}
	cfg.Timeout = *timeout
	cfg.MaxRetries = 1 // a check should not sit out long outages
	c, err := llm.New(cfg)
	if err != nil {
		return err
	}
	r := c.Probe(ctx)
	r.Write(e.stdout)
	if !r.OK() {
		return &failure{fmt.Sprintf("llm check: model %s at %s does not answer", r.Model, r.Endpoint)}
	}
	return nil
}

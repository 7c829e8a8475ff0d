package engine_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/clarify-sql/clarify/internal/demo/demotest"
	"github.com/clarify-sql/clarify/internal/engine"
	"github.com/clarify-sql/clarify/internal/llm"
	"github.com/clarify-sql/clarify/internal/llm/llmtest"
	"github.com/clarify-sql/clarify/internal/source"
)

// benchEngine is the clinic demo's engine answering with the named engine,
// its model a replaying server on loopback that answers every call with the
// first reply of transcript after delay.
func benchEngine(b *testing.B, transcript, name string, delay time.Duration) (*engine.Engine, *llmtest.Server) {
	b.Helper()
	tr := llmtest.Load(b, filepath.Join("testdata", "llm", transcript))
	ex := tr.Exchanges[0]
	ex.Reply.Delay = delay
	ex.Repeat = true
	raw, err := yaml.Marshal(llmtest.Transcript{Exchanges: []llmtest.Exchange{ex}})
	if err != nil {
		b.Fatal(err)
	}
	path := filepath.Join(b.TempDir(), transcript)
	if err := os.WriteFile(path, raw, 0o644); err != nil {
		b.Fatal(err)
	}
	srv := llmtest.Start(b, path, "")
	cl, err := llm.New(llm.Config{BaseURL: srv.URL, Model: "test-model", MaxRetries: -1})
	if err != nil {
		b.Fatal(err)
	}
	src := demotest.Source(b, "clinic", source.Options{RowCap: 100_000})
	return engine.New(src, engine.Options{Now: func() time.Time { return demotest.AsOf }, Engine: name, LLM: cl,
		PreviewBudget: time.Minute, SuggestBudget: time.Minute}), srv
}

// BenchmarkLLMTurn measures the llm engine's turn end to end: understanding,
// the prompt, the HTTP call to a replaying server on loopback that answers
// with SQL after a fixed delay, parsing, the guard and execution on SQLite.
// overhead-ms/op is the turn's time less that delay: what the model path
// adds over the model's own latency (issue 11's target: < 20 ms p50).
func BenchmarkLLMTurn(b *testing.B) {
	ctx := context.Background()
	const q = "how many wounds healed faster than the median"
	for _, delay := range []time.Duration{0, 50 * time.Millisecond} {
		b.Run(fmt.Sprintf("delay=%s", delay), func(b *testing.B) {
			e, srv := benchEngine(b, "sql_answer.yaml", engine.EngineLLM, delay)
			b.ReportAllocs()
			for b.Loop() {
				out, err := e.Turn(ctx, engine.Request{Question: q, Interactive: true})
				if err != nil {
					b.Fatal(err)
				}
				if out.Status != engine.StatusAnswered || out.Engine != engine.EngineLLM {
					b.Fatalf("status %s by %s, want answered by the model", out.Status, out.Engine)
				}
			}
			if srv.Requests() != b.N {
				b.Fatalf("%d model calls for %d turns, want one each", srv.Requests(), b.N)
			}
			per := b.Elapsed() / time.Duration(b.N)
			b.ReportMetric(float64(per-delay)/float64(time.Millisecond), "overhead-ms/op")
		})
	}
}

// BenchmarkHybridRulesAnswered measures hybrid turns on questions the rules
// answer with every word linked, beside the rules engine alone: the model
// is never called, so hybrid costs what rules cost.
func BenchmarkHybridRulesAnswered(b *testing.B) {
	ctx := context.Background()
	questions := []string{"how many wounds per clinic", "how many infected wounds per clinic"}
	for _, name := range []string{engine.EngineRules, engine.EngineHybrid} {
		b.Run(name, func(b *testing.B) {
			e, srv := benchEngine(b, "null.yaml", name, 0)
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				out, err := e.Turn(ctx, engine.Request{Question: questions[i%len(questions)], Interactive: true})
				if err != nil {
					b.Fatal(err)
				}
				if out.Engine != engine.EngineRules {
					b.Fatalf("%q answered by %s, want the rules", questions[i%len(questions)], out.Engine)
				}
				i++
			}
			if n := srv.Requests(); n != 0 {
				b.Fatalf("the model was called %d times in %d turns, want 0", n, b.N)
			}
		})
	}
}

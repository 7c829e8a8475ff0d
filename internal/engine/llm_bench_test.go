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
	return benchEngineOn(b, "clinic", transcript, name, delay)
}

// benchEngineOn is benchEngine on the named demo.
func benchEngineOn(b *testing.B, demo, transcript, name string, delay time.Duration) (*engine.Engine, *llmtest.Server) {
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
	src := demotest.Source(b, demo, source.Options{RowCap: 100_000})
	return engine.New(src, engine.Options{Now: func() time.Time { return demotest.AsOf }, Engine: name, LLM: cl,
		PreviewBudget: time.Minute, SuggestBudget: time.Minute}), srv
}

// BenchmarkLLMTurn measures the llm engine's turn end to end: understanding,
// the prompt, the HTTP call to a replaying server on loopback that answers
// after a fixed delay, reading the reply, the guard and execution on
// SQLite — for each path a reply can take: SQL in dual mode, a plan in dual
// mode (compiled by the rules' compiler), and the tool loop's final answer,
// plain and streamed to a text sink. overhead-ms/op is the turn's time less
// that delay: what the model path adds over the model's own latency
// (issue 11's target: < 20 ms p50).
func BenchmarkLLMTurn(b *testing.B) {
	ctx := context.Background()
	paths := []struct {
		name, demo, transcript, question string
		dual, stream                     bool
	}{
		{name: "sql", demo: "clinic", transcript: "sql_answer.yaml", question: "how many wounds healed faster than the median", dual: true},
		{name: "plan", demo: "labs", transcript: "plan.yaml", question: "average glucose of Ivan Petrov by month", dual: true},
		{name: "tools", demo: "clinic", transcript: "tools_final.yaml", question: "how many wounds healed faster than the median"},
		{name: "tools-streamed", demo: "clinic", transcript: "tools_final_stream.yaml", question: "how many wounds healed faster than the median", stream: true},
	}
	for _, p := range paths {
		for _, delay := range []time.Duration{0, 50 * time.Millisecond} {
			b.Run(fmt.Sprintf("%s/delay=%s", p.name, delay), func(b *testing.B) {
				e, srv := benchEngineOn(b, p.demo, p.transcript, engine.EngineLLM, delay)
				if p.dual {
					engine.DualMode(e)
				}
				req := engine.Request{Question: p.question, Interactive: true}
				words := 0
				if p.stream {
					req.Text = func(s string) { words += len(s) }
				}
				b.ReportAllocs()
				for b.Loop() {
					out, err := e.Turn(ctx, req)
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
				if p.stream && words == 0 {
					b.Fatal("no words reached the text sink")
				}
				per := b.Elapsed() / time.Duration(b.N)
				b.ReportMetric(float64(per-delay)/float64(time.Millisecond), "overhead-ms/op")
			})
		}
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

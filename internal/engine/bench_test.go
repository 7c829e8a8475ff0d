package engine_test

import (
	"context"
	"testing"

	"github.com/clarify-sql/clarify/internal/demo/demotest"
	"github.com/clarify-sql/clarify/internal/engine"
)

// BenchmarkTurn measures whole turns on the demo data: understanding,
// routing, and either the answer (plan, guard, execution) or a
// clarification with the previews of its options.
func BenchmarkTurn(b *testing.B) {
	ctx := context.Background()
	engines := map[string]*engine.Engine{}
	for _, tc := range []struct{ name, src, q string }{
		{"vague-list", "clinic", "list the large wounds"},
		{"vague-patients", "clinic", "patients with serious wounds"},
		{"trend-window", "clinic", "wounds per month"},
		{"answer-grouped", "clinic", "how many infected wounds per clinic"},
		{"answer-trend", "retail", "revenue by month over the last year"},
	} {
		e := engines[tc.src]
		if e == nil {
			e = demotest.Engine(b, tc.src)
			engines[tc.src] = e
		}
		b.Run(tc.name, func(b *testing.B) {
			for b.Loop() {
				if _, err := e.Turn(ctx, engine.Request{Question: tc.q, Interactive: true}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

package engine

import (
	"context"

	"github.com/clarify-sql/clarify/internal/query"
	"github.com/clarify-sql/clarify/internal/source"
	"github.com/clarify-sql/clarify/internal/understand"
)

// SetBeforeTurn makes e run f first in every turn (tests of what a turn
// does when something inside it fails).
func SetBeforeTurn(e *Engine, f func(Request)) { e.beforeTurn = f }

// Run exposes the guarded execution every statement of a turn goes
// through, so tests can hand it statements understanding never produces.
func Run(ctx context.Context, e *Engine, lim *understand.ScopeLimit, scopeKey, sql string) (*source.Result, error) {
	var q *query.Query
	if scopeKey != "" {
		q = &query.Query{Scope: &query.ScopeFilter{Key: scopeKey}}
	}
	return e.run(ctx, lim, q, sql, nil, 0)
}

// Consult exposes the hybrid engine's decision to ask the model.
var Consult = consult

// DualMode puts e where an endpoint that refused tools leaves it: engine
// llm answers in one dual-mode call (tests of the replies themselves).
func DualMode(e *Engine) { e.noTools.Store(true) }

// Prose feeds deltas through the stream of the model's words and returns
// the chunks it would show.
func Prose(deltas []string) []string {
	var out []string
	p := newProseStream(func(s string) { out = append(out, s) })
	for _, d := range deltas {
		p.Write(d)
	}
	p.Close()
	return out
}

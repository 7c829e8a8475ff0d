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

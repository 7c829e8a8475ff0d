package engine

import (
	"context"
	"strings"
	"time"

	"github.com/clarify-sql/clarify/internal/plan"
	"github.com/clarify-sql/clarify/internal/present"
	"github.com/clarify-sql/clarify/internal/query"
	"github.com/clarify-sql/clarify/internal/understand"
)

// group writes a count as the answer would: 12,345.
func group(n int64) string {
	return present.For(plan.Column{Type: "integer", Kind: plan.KindCount}, nil).Cell(n)
}

// preview computes what the answer to q will show, from the statement that
// answer runs: the rows of a list (capped as the answer caps them), the
// value of a single aggregate, the groups of a grouped answer and the base
// rows behind them. It reports false when the figure cannot be had
// exactly.
func (e *Engine) preview(ctx context.Context, lim *understand.ScopeLimit, q *query.Query, now time.Time) (*Preview, bool) {
	pl, err := plan.Compile(e.src.Model, q, e.src.Dialect(), plan.Options{RowCap: e.src.RowCap(), Now: now})
	if err != nil {
		return nil, false
	}
	noun := func(n int64) string {
		if n == 1 {
			return q.Base.Singular()
		}
		return q.Base.PluralLabel()
	}
	single := q.Agg != nil && len(q.Group) == 0 && q.Rank == nil
	switch {
	case single:
		r, err := e.run(ctx, lim, q, pl.SQL, pl.Args, 2)
		if err != nil || len(r.Rows) != 1 || len(r.Rows[0]) != len(pl.Columns) {
			return nil, false
		}
		v := r.Rows[0][len(pl.Columns)-1]
		if n, ok := v.(int64); ok && (q.Agg.Func == "count" || q.Agg.Func == "count_distinct") {
			return &Preview{Rows: 1, Text: group(n) + " " + noun(n)}, true
		}
		col := pl.Columns[len(pl.Columns)-1]
		return &Preview{Rows: 1, Text: strings.TrimSpace(strings.ToLower(col.Label) + " " + present.For(col, []any{v}).Cell(v))}, true
	case pl.CountSQL != "" && pl.Ties == nil:
		n, ok := e.count(ctx, lim, q, pl.CountSQL, pl.CountArgs)
		if !ok {
			return nil, false
		}
		rows := min(n, int64(e.src.RowCap()))
		text := group(n) + " " + noun(n)
		if rows < n {
			text = "the first " + group(rows) + " of " + text
		}
		return &Preview{Rows: rows, Text: text}, true
	}
	// grouped, ranked and top-N answers: count the rows the answer's own
	// statement returns, cut as the answer cuts them
	k, ok := e.count(ctx, lim, q, "SELECT COUNT(*) FROM ("+pl.SQL+") AS clarify_preview", pl.Args)
	if !ok {
		return nil, false
	}
	if pl.Ties != nil && k > int64(pl.Ties.Limit) {
		k = int64(pl.Ties.Limit)
	}
	k = min(k, int64(e.src.RowCap()))
	if q.Rank != nil || len(q.Group) == 0 {
		return &Preview{Rows: k, Text: group(k) + " " + noun(k)}, true
	}
	sql, args, err := plan.CompileCount(e.src.Model, q, e.src.Dialect(), plan.Options{Now: now})
	if err != nil {
		return nil, false
	}
	n, ok := e.count(ctx, lim, q, sql, args)
	if !ok {
		return nil, false
	}
	return &Preview{Rows: k, From: n, Text: group(k) + " " + groupNoun(q.Group[0], k) + " from " + group(n) + " " + noun(n)}, true
}

// count runs a COUNT statement.
func (e *Engine) count(ctx context.Context, lim *understand.ScopeLimit, q *query.Query, sql string, args []any) (int64, bool) {
	r, err := e.run(ctx, lim, q, sql, args, 1)
	if err != nil || len(r.Rows) != 1 || len(r.Rows[0]) != 1 {
		return 0, false
	}
	n, ok := r.Rows[0][0].(int64)
	return n, ok
}

// groupNoun names the groups of a grouped answer: "monthly points",
// "clinics", "status groups".
func groupNoun(g query.Group, n int64) string {
	switch {
	case g.Bucket != "":
		adj := map[string]string{"day": "daily", "week": "weekly", "month": "monthly", "quarter": "quarterly", "year": "yearly"}[g.Bucket]
		if n == 1 {
			return adj + " point"
		}
		return adj + " points"
	case g.Entity != nil:
		if n == 1 {
			return g.Entity.Singular()
		}
		return g.Entity.PluralLabel()
	case g.Column != nil:
		if n == 1 {
			return strings.ToLower(g.Column.Title()) + " group"
		}
		return strings.ToLower(g.Column.Title()) + " groups"
	}
	return "groups"
}

package engine

import (
	"context"
	"strings"
	"sync"
	"time"

	"golang.org/x/sync/errgroup"

	"github.com/clarify-sql/clarify/internal/plan"
	"github.com/clarify-sql/clarify/internal/present"
	"github.com/clarify-sql/clarify/internal/query"
	"github.com/clarify-sql/clarify/internal/understand"
)

// notCounted is the preview of an option whose count did not finish
// within the budget: said so, never shown as a figure.
var notCounted = Preview{NotCounted: true, Text: "not counted in time"}

// previews counts, within the budget, the rows each option would give.
// Each option is understood once; the options whose answers read the same
// rows (a list or a single aggregate over one FROM, the same scope) are
// counted together in one statement of conditional aggregates, the rest
// each in its own, all in parallel. An option whose count misses the
// budget is marked not counted; one that cannot be counted exactly has no
// preview.
func (e *Engine) previews(ctx context.Context, req Request, s *understand.Slot, c *Clarification, now time.Time) {
	ctx, cancel := context.WithTimeout(ctx, e.opt.PreviewBudget)
	defer cancel()
	n := len(c.Options)
	qs := make([]*query.Query, n)
	got := make([]*Preview, n)
	late := make([]bool, n)
	e.each(req.Question, n, func(i int) {
		res := make(map[string]understand.Resolution, len(req.Resolved)+1)
		for k, v := range req.Resolved {
			res[k] = v
		}
		res[s.Key] = understand.Resolution{OptionID: c.Options[i].ID}
		// the turn's own reading looked the words up in the database
		in, err := e.an.Analyze(ctx, req.Question, understand.Settings{Now: now, Resolved: res, Scope: req.Scope, Probed: true})
		switch {
		case err == nil && in.Query != nil && in.Query.Base != nil:
			qs[i] = in.Query
		case ctx.Err() != nil:
			late[i] = true
		}
	})
	together, alone := e.figureGroup(qs, now)
	var mu sync.Mutex
	set := func(idx []int, ps []*Preview) {
		mu.Lock()
		defer mu.Unlock()
		for k, i := range idx {
			got[i] = ps[k]
			// a count cut short by the budget is late, not impossible
			late[i] = ps[k] == nil && ctx.Err() != nil
		}
	}
	jobs := make([]func(), 0, len(alone)+1)
	if len(together) > 0 {
		jobs = append(jobs, func() { set(together, e.figures(ctx, req.Scope, qs, together, now)) })
	}
	for _, i := range alone {
		if qs[i] == nil {
			continue
		}
		jobs = append(jobs, func() {
			p, _ := e.preview(ctx, req.Scope, qs[i], now)
			set([]int{i}, []*Preview{p})
		})
	}
	e.each(req.Question, len(jobs), func(i int) { jobs[i]() })
	for i := range c.Options {
		switch {
		case got[i] != nil:
			c.Options[i].Preview = got[i]
		case late[i]:
			p := notCounted
			c.Options[i].Preview = &p
		}
	}
}

// each runs f(0) … f(n-1) in parallel and waits for them all; a call that
// panics is logged and left out, the turn goes on.
func (e *Engine) each(question string, n int, f func(i int)) {
	var g errgroup.Group
	for i := range n {
		g.Go(func() error {
			defer func() {
				if r := recover(); r != nil {
					e.logPanic(r, question)
				}
			}()
			f(i)
			return nil
		})
	}
	_ = g.Wait()
}

// figureGroup splits the options into those counted together in one
// statement (two or more lists or single aggregates with the same scope
// whose statements share a base) and those counted alone.
func (e *Engine) figureGroup(qs []*query.Query, now time.Time) (together, alone []int) {
	var scope *query.ScopeFilter
	for i, q := range qs {
		if q == nil || !ownFigure(q) || (len(together) > 0 && !sameScope(scope, q.Scope)) {
			alone = append(alone, i)
			continue
		}
		scope = q.Scope
		together = append(together, i)
	}
	if len(together) < 2 {
		return nil, append(alone, together...)
	}
	batch := make([]*query.Query, len(together))
	for k, i := range together {
		batch[k] = qs[i]
	}
	if _, err := plan.CompileFigures(e.src.Model, batch, e.src.Dialect(), plan.Options{Now: now}); err != nil {
		return nil, append(alone, together...)
	}
	return together, alone
}

// ownFigure reports whether a query's preview is one figure of its base
// rows: a single aggregate, or the length of a plain list (not a top-N
// list, which may stop inside a tie, nor the latest rows).
func ownFigure(q *query.Query) bool {
	if q.Rank != nil || len(q.Group) > 0 || q.Latest != nil {
		return false
	}
	return q.Agg != nil || !(q.Intent == query.IntentTop && q.Limit > 0 && len(q.Order) > 0)
}

func sameScope(a, b *query.ScopeFilter) bool {
	if a == nil || b == nil {
		return a == b
	}
	return a.Key == b.Key
}

// figures computes the previews of the options idx in one statement: the
// guard checks it once, the database reads the shared rows once. It
// returns nil previews when the statement fails.
func (e *Engine) figures(ctx context.Context, lim *understand.ScopeLimit, qs []*query.Query, idx []int, now time.Time) []*Preview {
	out := make([]*Preview, len(idx))
	batch := make([]*query.Query, len(idx))
	plans := make([]*plan.Plan, len(idx))
	for k, i := range idx {
		batch[k] = qs[i]
		pl, err := plan.Compile(e.src.Model, qs[i], e.src.Dialect(), plan.Options{RowCap: e.src.RowCap(), Now: now})
		if err != nil {
			return out
		}
		plans[k] = pl
	}
	f, err := plan.CompileFigures(e.src.Model, batch, e.src.Dialect(), plan.Options{Now: now})
	if err != nil {
		return out
	}
	r, err := e.run(ctx, lim, batch[0], f.SQL, f.Args, 1)
	if err != nil || len(r.Rows) != 1 || len(r.Rows[0]) != len(idx) {
		return out
	}
	for k, q := range batch {
		v := r.Rows[0][k]
		if q.Agg != nil {
			out[k], _ = e.valuePreview(q, plans[k], v)
			continue
		}
		n, ok := v.(int64)
		if !ok {
			continue
		}
		if q.Limit > 0 {
			n = min(n, int64(q.Limit))
		}
		out[k] = e.listPreview(q, n)
	}
	return out
}

// group writes a count as the answer would: 12,345.
func group(n int64) string {
	return present.For(plan.Column{Type: "integer", Kind: plan.KindCount}, nil).Cell(n)
}

// noun names n base rows of q: "1 trade", "12 trades".
func noun(q *query.Query, n int64) string {
	if n == 1 {
		return q.Base.Singular()
	}
	return q.Base.PluralLabel()
}

// valuePreview words a single aggregate's value v, the last column of pl.
func (e *Engine) valuePreview(q *query.Query, pl *plan.Plan, v any) (*Preview, bool) {
	if len(pl.Columns) == 0 {
		return nil, false
	}
	if n, ok := v.(int64); ok && (q.Agg.Func == "count" || q.Agg.Func == "count_distinct") {
		return &Preview{Rows: 1, Text: group(n) + " " + noun(q, n)}, true
	}
	col := pl.Columns[len(pl.Columns)-1]
	return &Preview{Rows: 1, Text: strings.TrimSpace(strings.ToLower(col.Label) + " " + present.For(col, []any{v}).Cell(v))}, true
}

// listPreview words a list of n rows, capped as the answer caps it.
func (e *Engine) listPreview(q *query.Query, n int64) *Preview {
	rows := min(n, int64(e.src.RowCap()))
	text := group(n) + " " + noun(q, n)
	if rows < n {
		text = "the first " + group(rows) + " of " + text
	}
	return &Preview{Rows: rows, Text: text}
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
	single := q.Agg != nil && len(q.Group) == 0 && q.Rank == nil
	switch {
	case single:
		r, err := e.run(ctx, lim, q, pl.SQL, pl.Args, 2)
		if err != nil || len(r.Rows) != 1 || len(r.Rows[0]) != len(pl.Columns) {
			return nil, false
		}
		return e.valuePreview(q, pl, r.Rows[0][len(pl.Columns)-1])
	case pl.CountSQL != "" && pl.Ties == nil:
		n, ok := e.count(ctx, lim, q, pl.CountSQL, pl.CountArgs)
		if !ok {
			return nil, false
		}
		return e.listPreview(q, n), true
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
		return &Preview{Rows: k, Text: group(k) + " " + noun(q, k)}, true
	}
	sql, args, err := plan.CompileCount(e.src.Model, q, e.src.Dialect(), plan.Options{Now: now})
	if err != nil {
		return nil, false
	}
	n, ok := e.count(ctx, lim, q, sql, args)
	if !ok {
		return nil, false
	}
	return &Preview{Rows: k, From: n, Text: group(k) + " " + groupNoun(q.Group[0], k) + " from " + group(n) + " " + noun(q, n)}, true
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

package engine

// A model's plan reply (preferred to SQL, docs/llm.md): its names already
// checked against the semantic model by llmreply, it becomes a query the
// rules' own compiler turns into SQL with bound values, so the answer has
// the same statement, columns, chart and guard as a rules answer.

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/clarify-sql/clarify/internal/apperr"
	"github.com/clarify-sql/clarify/internal/clarify"
	"github.com/clarify-sql/clarify/internal/llmreply"
	"github.com/clarify-sql/clarify/internal/model"
	"github.com/clarify-sql/clarify/internal/plan"
	"github.com/clarify-sql/clarify/internal/query"
	"github.com/clarify-sql/clarify/internal/sqlfmt"
)

// errPlan marks a plan the compiler could not express.
var errPlan = errors.New("the model's plan cannot be compiled")

// planQuery turns a checked plan into a query, limited to the turn's scope
// (nil: none named).
func planQuery(p *llmreply.Plan, scope *query.ScopeFilter) *query.Query {
	q := &query.Query{Subject: p.Table, Base: p.Table, Columns: p.Columns, Limit: p.Limit, Scope: scope}
	for _, f := range p.Filters {
		ent := f.Column.Entity()
		cmp := model.Compare{Left: model.Operand{Column: &model.ColumnRef{Entity: ent.Name, Column: f.Column.Name}}, Op: f.Op}
		var words []string
		for _, v := range f.Values {
			cmp.Right = append(cmp.Right, model.Operand{Literal: v})
			words = append(words, fmt.Sprint(v))
		}
		label := strings.TrimSpace(fmt.Sprintf("%s %s %s", f.Column.Title(), f.Op, strings.Join(words, ", ")))
		q.Filters = append(q.Filters, query.Filter{Entity: ent, Cond: cmp, Label: label, Slot: "llm_plan"})
	}
	for _, g := range p.Group {
		q.Group = append(q.Group, query.Group{Column: g.Column, Bucket: g.Bucket})
	}
	for _, o := range p.Order {
		q.Order = append(q.Order, query.Order{Column: o.Column, Desc: o.Desc})
	}
	switch {
	case p.Agg == nil:
		q.Intent = query.IntentList
		return q
	case len(q.Group) > 0 && q.Group[len(q.Group)-1].Bucket != "":
		q.Intent = query.IntentTrend
	case len(q.Group) > 0:
		q.Intent = query.IntentGroup
	case p.Agg.Func == "count":
		q.Intent = query.IntentCount
	default:
		q.Intent = query.IntentAggregate
	}
	q.Agg = &query.Agg{Func: p.Agg.Func, Column: p.Agg.Column}
	if c := p.Agg.Column; c != nil {
		q.Base = c.Entity() // rows are read from the measured column's entity
	}
	return q
}

// answerPlan compiles a plan reply, runs it through the guard with the
// turn's scope and rights, and answers as the rules would.
func (e *Engine) answerPlan(ctx context.Context, req Request, scope *query.Query, reply llmreply.Reply, as []clarify.Assumption) (*Answer, error) {
	now := e.opt.Now()
	var sf *query.ScopeFilter
	if scope != nil {
		sf = scope.Scope
	}
	q := planQuery(reply.Plan, sf)
	t1 := time.Now()
	pl, err := plan.Compile(e.src.Model, q, e.src.Dialect(), plan.Options{RowCap: e.src.RowCap(), Now: now})
	if err != nil {
		return nil, &apperr.Error{Code: apperr.CodeUnanswerable, Message: "the model's plan cannot be expressed in SQL", Err: fmt.Errorf("%w: %w", errPlan, err)}
	}
	req.progress("plan", time.Since(t1))
	if err := e.scopedEnough(scope, req.Scope, pl.SQL, pl.Args); err != nil {
		return nil, err
	}
	t2 := time.Now()
	res, ran, err := e.runChecked(ctx, req.Scope, q, pl.SQL, pl.Args, 0)
	if err != nil {
		return nil, dbError(err)
	}
	tExec := time.Since(t2)
	req.progress("execute", tExec)
	ans := &Answer{
		Statement: pl.Statement, SQL: pl.SQL, SQLFormatted: sqlfmt.Format(pl.SQL), Params: nonNilAny(pl.Args), Dialect: string(e.src.Dialect()),
		Columns: pl.Columns, Rows: res.Rows, RowCount: len(res.Rows), Truncated: res.Truncated, Chart: pl.Chart,
		Assumptions: nonNil(as), OpenQuestions: []clarify.Assumption{}, Suggestions: []model.Suggestion{}, Engine: EngineLLM,
	}
	ans.Ran = *ran
	if ans.Rows == nil {
		ans.Rows = [][]any{}
	}
	ans.Chart.Partial = plan.Partial(q, pl.Chart, pl.Columns, ans.Rows, now)
	if note := cutTies(res, pl.Ties); note != "" {
		ans.Notes = append(ans.Notes, note)
	}
	ans.TimingsMS = map[string]float64{"execute": ms(tExec)}
	return ans, nil
}

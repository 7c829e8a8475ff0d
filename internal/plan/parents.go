package plan

import (
	"strings"

	"github.com/clarify-sql/clarify/internal/model"
	"github.com/clarify-sql/clarify/internal/query"
)

// Ranking or grouping a parent entity by an aggregate of its children
// ("the customer with the fewest orders", "number of orders per customer")
// reads the children and joins their parents, which leaves out the parents
// with no children: the customer with no orders, the right answer to
// "fewest", never showed up. A count or a sum over no rows is 0, so those
// statements read the parents and join the children's aggregate left,
// zero where a parent has none. An average, minimum or maximum of no rows
// has no value: those rank only the parents that have children, and the
// statement says so.

// zeroWhenEmpty reports whether an aggregate of no rows is 0 (a count or
// a sum) rather than no value at all (an average, a minimum).
func zeroWhenEmpty(a query.Agg) bool {
	switch a.Func {
	case "count", "count_distinct", "sum":
		return true
	}
	return false
}

// parentQuery returns the query over parent entity e that keeps the
// parents a per-parent aggregate of q's base rows is about: q's
// restrictions on e and on what e leads to (its own filters, a period on
// its own dates, the scope). ok is false when e is the base, is not a
// parent of the base rows, or when a restriction cannot be told to be
// about the parents or about the children alone (a scope reached only
// through the children): then only parents with children can be told.
func parentQuery(m *model.Model, q *query.Query, e *model.Entity) (*query.Query, bool) {
	if e == q.Base || e.KeyColumn() == nil {
		return nil, false
	}
	path, ok := m.Path(q.Base, e)
	if !ok || len(path) == 0 || !model.ToOnePath(path) {
		return nil, false
	}
	// about reports whether rows of x are the parents' (e itself or what
	// e leads to on the way from the base)
	about := func(x *model.Entity) bool { return x == e || onPath(m, q.Base, e, x) }
	out := &query.Query{Intent: query.IntentList, Subject: e, Base: e, Current: q.Current}
	for _, f := range q.Filters {
		rows := f.Entity
		if f.Via != nil {
			rows = f.Via.Entity()
		}
		if f.Count != nil || f.LatestOf != nil {
			// counted or dated among the base rows: about the children
			if about(rows) {
				return nil, false
			}
			continue
		}
		if about(rows) {
			out.Filters = append(out.Filters, f)
		}
	}
	if tw := q.Window; tw != nil && about(tw.Column.Entity()) {
		out.Window = tw
	}
	if s := q.Scope; s != nil {
		if !about(s.Entity) {
			return nil, false
		}
		out.Scope = s
	}
	return out, true
}

// childRestricted reports whether q restricts its base rows by something
// that is not about parent e: a filter or period on the children, or a
// count or latest-date condition among them.
func childRestricted(m *model.Model, q *query.Query, e *model.Entity) bool {
	about := func(x *model.Entity) bool { return x == e || onPath(m, q.Base, e, x) }
	for _, f := range q.Filters {
		rows := f.Entity
		if f.Via != nil {
			rows = f.Via.Entity()
		}
		if f.Count != nil || f.LatestOf != nil || !about(rows) {
			return true
		}
	}
	return q.Window != nil && !about(q.Window.Column.Entity())
}

// emptyParents says which parents an aggregate per parent e of q's base
// rows (a breakdown when group, else a ranking) leaves out: "" when it keeps those with no base rows (at 0), else
// "among customers with at least one order".
func emptyParents(m *model.Model, q *query.Query, e *model.Entity, a query.Agg, group bool) string {
	if e == q.Base {
		return ""
	}
	if _, ok := parentQuery(m, q, e); ok && zeroWhenEmpty(a) && !(group && childRestricted(m, q, e)) {
		return ""
	}
	return "among " + e.PluralLabel() + " with at least one " + q.Base.Singular()
}

// perParent compiles an aggregate of the base rows per row of parent e,
// keeping parents with no base rows at 0. cols adds the parent's columns
// to the outer select and returns the expressions to group by. It returns
// the outer compiler (its select list and columns make the answer), the
// FROM … WHERE body and the output name of the aggregate; ok is false
// when the parents cannot be read on their own (see parentQuery) or a
// parent with no rows has no value, and the caller compiles as before.
func (c *compiler) perParent(e *model.Entity, a query.Agg, meta Column, cols func(o *compiler)) (o *compiler, body, name string, ok bool, err error) {
	pq, ok := parentQuery(c.m, c.q, e)
	if !ok || !zeroWhenEmpty(a) {
		return nil, "", "", false, nil
	}
	// the aggregate per parent key over the filtered base rows, as before
	if !c.reach(e) {
		return nil, "", "", false, nil
	}
	if err := c.restrict(); err != nil {
		return nil, "", "", false, err
	}
	expr, err := c.aggExpr(a)
	if err != nil {
		return nil, "", "", false, err
	}
	inner := "SELECT " + c.w.col(e.KeyColumn()) + " AS clarify_key, " + expr + " AS clarify_value" + c.from() + c.whereSQL() +
		" GROUP BY " + c.w.col(e.KeyColumn())
	// the parents, with the restrictions about them, and the aggregate
	// joined left: a parent without base rows has no row there
	o = &compiler{m: c.m, q: pq, w: c.w, opt: c.opt, base: e, joined: map[*model.Entity]bool{e: true}, names: map[string]int{}, colOf: map[*model.Column]int{}}
	if err := o.restrict(); err != nil {
		return nil, "", "", false, err
	}
	cols(o)
	name = o.addMeta("COALESCE(clarify_agg.clarify_value, 0)", aggName(a), meta)
	body = o.from() + " LEFT JOIN (" + inner + ") AS clarify_agg ON clarify_agg.clarify_key = " + o.w.col(e.KeyColumn()) + o.whereSQL()
	return o, body, name, true, nil
}

// rankParents compiles the top or bottom N parents by an aggregate of
// their children, parents without children at 0 (see perParent).
func (c *compiler) rankParents() (*Plan, bool, error) {
	r := c.q.Rank
	k, d := r.Entity.KeyColumn(), r.Entity.DisplayColumn()
	o, body, name, ok, err := c.perParent(r.Entity, r.Metric, aggMeta(r.Metric), func(o *compiler) {
		o.addColumn(k)
		if d != nil && d != k {
			o.addColumn(d)
		}
	})
	if err != nil || !ok {
		return nil, ok, err
	}
	sql := "SELECT " + strings.Join(o.sel, ", ") + body + " ORDER BY " + c.w.quote(name) + dir(r.Desc) + ", " + c.w.col(k) +
		" ASC LIMIT " + c.w.param(c.topLimit(r.Limit))
	p := o.finish(sql, false)
	p.Ties = newTies(r.Limit, len(o.cols)-1, r.Metric.Label, r.Entity)
	return p, true, nil
}

// groupParents compiles an aggregate per parent entity, parents without
// children at 0 (see perParent).
//
// Only a breakdown of all the parents lists those without children: when
// the question restricts the rows counted (a filter or a period on the
// children), it is about the parents that have such rows, and a parent
// without any is left out as before — listing it at 0 would show rows the
// question's condition excludes ("per continent, for countries with life
// expectancy under 72"). A ranking keeps them (see rankParents): "the
// customer with the fewest delivered orders" may be one with none.
func (c *compiler) groupParents() (*Plan, bool, error) {
	g := c.q.Group[0]
	e := g.Entity
	if childRestricted(c.m, c.q, e) {
		return nil, false, nil
	}
	k, d := e.KeyColumn(), e.DisplayColumn()
	o, body, name, ok, err := c.perParent(e, *c.q.Agg, aggMeta(*c.q.Agg), func(o *compiler) {
		if d != nil && d != k {
			o.addMeta(o.w.col(k), strings.ReplaceAll(e.Singular(), " ", "_")+"_"+k.Name, columnMeta(k))
			o.addMeta(o.w.col(d), d.Name, columnMeta(d))
			return
		}
		o.addMeta(o.w.col(k), k.Name, columnMeta(k))
	})
	if err != nil || !ok {
		return nil, ok, err
	}
	groups := []string{c.w.col(k)}
	if d != nil && d != k {
		groups = append(groups, c.w.col(d))
	}
	limit := c.opt.RowCap + 1
	if c.q.Limit > 0 && c.q.Limit < limit {
		limit = c.q.Limit
	}
	sql := "SELECT " + strings.Join(o.sel, ", ") + body + " ORDER BY " + c.w.quote(name) + dir(!c.q.SortAsc) + ", " +
		strings.Join(groups, ", ") + " LIMIT " + c.w.param(int64(limit))
	return o.finish(sql, false), true, nil
}

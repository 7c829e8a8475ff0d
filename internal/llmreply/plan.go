package llmreply

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/clarify-sql/clarify/internal/model"
)

// Bounds of a plan reply.
const (
	maxPlanItems = 16
	maxPlanLimit = 10_000
)

// Plan is a model's reply as a query plan (the preferred reply):
// what to read, how to filter, aggregate, group and order, in names of the
// semantic model. Parse checks every name against the model, so each
// pointer here is the model's own; the engine compiles the plan with the
// same compiler as the rules, and nothing of the model's text becomes SQL
// text — its values are bound parameters.
type Plan struct {
	// Table is the entity the answer is about.
	Table *model.Entity
	// Agg is the aggregate; nil for a list of rows.
	Agg *PlanAgg
	// Filters keep the rows matching every one.
	Filters []PlanFilter
	// Group are the group-by columns, each with a time bucket or "".
	Group []PlanGroup
	// Columns are the columns a list shows.
	Columns []*model.Column
	// Order sorts a list.
	Order []PlanOrder
	// Limit caps the rows (0: none asked).
	Limit int
}

// PlanAgg is a plan's aggregate: Func over Column (nil for count).
type PlanAgg struct {
	Func   string
	Column *model.Column
}

// PlanFilter is one condition: Column Op Values (no values for is null).
type PlanFilter struct {
	Column *model.Column
	Op     string
	// Values are typed for the column: string, float64, int64 or bool.
	Values []any
}

// PlanGroup is one group-by column and its time bucket.
type PlanGroup struct {
	Column *model.Column
	Bucket string
}

// PlanOrder is one sort key.
type PlanOrder struct {
	Column *model.Column
	Desc   bool
}

// Aggregate functions and filter operators a plan may use.
var (
	planFuncs   = []string{"count", "count_distinct", "sum", "avg", "min", "max"}
	planOps     = []string{"=", "!=", "<", "<=", ">", ">=", "in", "not in", "is null", "is not null", "like"}
	planBuckets = []string{"", "day", "week", "month", "year"}
)

// wirePlan is a plan as the model writes it.
type wirePlan struct {
	Table     string `json:"table"`
	Aggregate *struct {
		Function string  `json:"function"`
		Column   *string `json:"column"`
	} `json:"aggregate"`
	Filters []struct {
		Column string            `json:"column"`
		Op     string            `json:"op"`
		Values []json.RawMessage `json:"values"`
	} `json:"filters"`
	GroupBy []struct {
		Column string  `json:"column"`
		Bucket *string `json:"bucket"`
	} `json:"group_by"`
	Columns []string `json:"columns"`
	OrderBy []struct {
		Column string `json:"column"`
		Desc   bool   `json:"desc"`
	} `json:"order_by"`
	Limit *int `json:"limit"`
}

// readPlan decodes and checks a plan against m: every table and column
// must be the model's (a column named without its table is looked up in
// the plan's table, then in the whole model when only one entity has it),
// every function, operator and bucket one of the listed, values typed for
// their column. The literals compared with columns that have allowed
// values are returned for the value check.
func readPlan(raw json.RawMessage, m *model.Model, vals Values) (*Plan, []Value, error) {
	if m == nil {
		return nil, nil, fail(ErrMalformed, "a plan needs the model to check it against")
	}
	var w wirePlan
	if err := json.Unmarshal(raw, &w); err != nil {
		return nil, nil, fail(ErrMalformed, "plan: %v", err)
	}
	p := &Plan{Table: m.EntityByTable(strings.TrimSpace(w.Table))}
	if p.Table == nil {
		p.Table = m.Entity(strings.TrimSpace(w.Table))
	}
	if p.Table == nil {
		return nil, nil, planError("plan: unknown table %q", bound(w.Table, 60))
	}
	if len(w.Filters) > maxPlanItems || len(w.GroupBy) > 4 || len(w.Columns) > maxPlanItems || len(w.OrderBy) > 4 {
		return nil, nil, fail(ErrTooLarge, "plan: too many items")
	}
	col := func(name string) (*model.Column, error) {
		c := planColumn(m, p.Table, strings.TrimSpace(name))
		if c == nil {
			return nil, planError("plan: unknown column %q", bound(name, 60))
		}
		return c, nil
	}
	if a := w.Aggregate; a != nil {
		f := strings.ToLower(strings.TrimSpace(a.Function))
		if !slices.Contains(planFuncs, f) {
			return nil, nil, planError("plan: unknown aggregate function %q", bound(a.Function, 30))
		}
		p.Agg = &PlanAgg{Func: f}
		if a.Column != nil && strings.TrimSpace(*a.Column) != "" {
			c, err := col(*a.Column)
			if err != nil {
				return nil, nil, err
			}
			if f != "count" && f != "count_distinct" && f != "min" && f != "max" && !c.Numeric() {
				return nil, nil, planError("plan: %s of %s, which does not hold numbers", f, c.Name)
			}
			p.Agg.Column = c
		} else if f != "count" {
			return nil, nil, planError("plan: %s needs a column", f)
		}
	}
	var values []Value
	for _, f := range w.Filters {
		c, err := col(f.Column)
		if err != nil {
			return nil, nil, err
		}
		op := strings.ToLower(strings.Join(strings.Fields(f.Op), " "))
		if op == "<>" {
			op = "!="
		}
		if !slices.Contains(planOps, op) {
			return nil, nil, planError("plan: unknown operator %q", bound(f.Op, 20))
		}
		pf := PlanFilter{Column: c, Op: op}
		want := 1
		switch op {
		case "is null", "is not null":
			want = 0
		case "in", "not in":
			want = -1
		}
		if (want >= 0 && len(f.Values) != want) || (want < 0 && (len(f.Values) == 0 || len(f.Values) > maxPlanItems)) {
			return nil, nil, planError("plan: %s %s takes %s", c.Name, op, map[int]string{0: "no value", 1: "one value", -1: "1 to 16 values"}[want])
		}
		for _, raw := range f.Values {
			v, err := typedValue(c, raw, op)
			if err != nil {
				return nil, nil, err
			}
			pf.Values = append(pf.Values, v)
			if s, ok := v.(string); ok && op != "like" {
				if vv, ok := checkValue(c, s, vals); ok {
					values = append(values, vv)
				}
			}
		}
		p.Filters = append(p.Filters, pf)
	}
	for _, g := range w.GroupBy {
		c, err := col(g.Column)
		if err != nil {
			return nil, nil, err
		}
		b := ""
		if g.Bucket != nil {
			b = strings.ToLower(strings.TrimSpace(*g.Bucket))
		}
		if !slices.Contains(planBuckets, b) {
			return nil, nil, planError("plan: unknown time bucket %q", bound(b, 20))
		}
		if b != "" && !c.Temporal() {
			return nil, nil, planError("plan: a %s bucket of %s, which holds no dates", b, c.Name)
		}
		p.Group = append(p.Group, PlanGroup{Column: c, Bucket: b})
	}
	for _, name := range w.Columns {
		c, err := col(name)
		if err != nil {
			return nil, nil, err
		}
		p.Columns = append(p.Columns, c)
	}
	for _, o := range w.OrderBy {
		c, err := col(o.Column)
		if err != nil {
			return nil, nil, err
		}
		p.Order = append(p.Order, PlanOrder{Column: c, Desc: o.Desc})
	}
	if w.Limit != nil {
		if *w.Limit < 0 || *w.Limit > maxPlanLimit {
			return nil, nil, planError("plan: limit %d out of range", *w.Limit)
		}
		p.Limit = *w.Limit
	}
	return p, values, nil
}

// planColumn finds a column named "table.column" or "column" (in the
// plan's table first, then in the one entity of m that has it). Computed
// columns are the model's and allowed; a name that is not the model's is
// nil.
func planColumn(m *model.Model, table *model.Entity, name string) *model.Column {
	if name == "" {
		return nil
	}
	if t, c, ok := strings.Cut(name, "."); ok {
		e := m.EntityByTable(t)
		if e == nil {
			e = m.Entity(t)
		}
		if e == nil {
			return nil
		}
		return e.Column(c)
	}
	if c := table.Column(name); c != nil {
		return c
	}
	var hit *model.Column
	for _, e := range m.Entities {
		if c := e.Column(name); c != nil {
			if hit != nil {
				return nil // several tables have it: the table must be named
			}
			hit = c
		}
	}
	return hit
}

// typedValue reads a filter's value as the column's type: a number for a
// numeric column, a boolean for a boolean one, text otherwise (dates are
// compared as the text the database stores).
func typedValue(c *model.Column, raw json.RawMessage, op string) (any, error) {
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		return nil, planError("plan: a value of %s is not JSON", c.Name)
	}
	switch x := v.(type) {
	case string:
		if len(x) > maxDataText*2 {
			return nil, fail(ErrTooLarge, "plan: a value of %s is too long", c.Name)
		}
		if c.Numeric() && op != "like" {
			if n, err := strconv.ParseFloat(strings.TrimSpace(x), 64); err == nil {
				return number(n), nil
			}
			return nil, planError("plan: %s holds numbers, not %q", c.Name, bound(x, 40))
		}
		return x, nil
	case float64:
		if !c.Numeric() && c.Type != "boolean" {
			return strconv.FormatFloat(x, 'f', -1, 64), nil
		}
		return number(x), nil
	case bool:
		return x, nil
	}
	return nil, planError("plan: a value of %s must be text, a number or true/false", c.Name)
}

// number keeps whole numbers integers, so they bind as the database's.
func number(f float64) any {
	if f == float64(int64(f)) && f < 1<<53 && f > -(1<<53) {
		return int64(f)
	}
	return f
}

// checkValue checks one literal against a column's allowed values.
func checkValue(c *model.Column, lit string, vals Values) (Value, bool) {
	allowed, items, ok := allowedOf(c, vals)
	if !ok {
		return Value{}, false
	}
	v := Value{Column: c.Entity().Name + "." + c.Name, Literal: lit, Valid: slices.Contains(allowed, lit), Confidence: InvalidValue}
	if v.Valid {
		v.Confidence = ValidValue
	} else {
		v.Alternatives = closest(lit, allowed, items)
	}
	return v, true
}

// planError is a plan that names what the model does not have: the model
// is asked once more, told what was wrong.
func planError(format string, args ...any) *Error {
	return &Error{Err: ErrPlan, Detail: fmt.Sprintf(format, args...)}
}

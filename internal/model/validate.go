package model

import (
	"fmt"
	"strconv"
	"strings"
	"unicode"
)

// Span is a length of time such as 30 days, counted back from now.
type Span struct {
	N    int
	Unit string // day, week, month, year
}

// ParseSpan parses "30 days", "1 month", "12 months", "2 weeks", "1 year".
func ParseSpan(s string) (Span, error) {
	f := strings.Fields(strings.ToLower(s))
	if len(f) != 2 {
		return Span{}, fmt.Errorf("want a span like \"30 days\", got %q", s)
	}
	n, err := strconv.Atoi(f[0])
	if err != nil || n <= 0 {
		return Span{}, fmt.Errorf("want a positive number of units, got %q", s)
	}
	u := strings.TrimSuffix(f[1], "s")
	switch u {
	case "day", "week", "month", "year":
		return Span{N: n, Unit: u}, nil
	}
	return Span{}, fmt.Errorf("unknown unit %q (want days, weeks, months or years)", f[1])
}

type validator struct {
	m     *Model
	probs []Problem
}

func (v *validator) add(field, format string, args ...any) {
	v.probs = append(v.probs, Problem{Field: field, Msg: fmt.Sprintf(format, args...)})
}

func (m *Model) validate() []Problem {
	v := &validator{m: m}
	if strings.TrimSpace(m.Source) == "" {
		v.add("source", "the source name is required")
	}
	if len(m.Entities) == 0 {
		v.add("entities", "a model needs at least one entity")
	}
	v.entities()
	v.measures()
	v.terms()
	v.vague()
	v.rankings()
	v.scope()
	v.policies()
	v.areas()
	return v.probs
}

func (v *validator) entities() {
	m := v.m
	seen := map[string]bool{}
	for i, e := range m.Entities {
		p := fmt.Sprintf("entities[%d]", i)
		if e == nil {
			v.add(p, "empty entity")
			continue
		}
		if e.Name == "" {
			v.add(p+".name", "an entity needs a name")
		}
		v.printable(p+".name", e.Name)
		v.printable(p+".table", e.Table)
		if seen[e.Name] {
			v.add(p+".name", "duplicate entity %q", e.Name)
		}
		seen[e.Name] = true
		if len(e.Columns) == 0 {
			v.add(p+".columns", "entity %q has no columns", e.Name)
		}
		cols := map[string]bool{}
		for j, c := range e.Columns {
			v.column(fmt.Sprintf("%s.columns[%d]", p, j), e, c, cols)
		}
		// a table without a key is still an entity: its rows can be
		// listed, counted, filtered and aggregated, but not told apart
		if e.Key != "" && e.columns[e.Key] == nil {
			v.add(p+".key", "key %q is not a column of %s", e.Key, e.Name)
		}
		if e.Display != "" && e.columns[e.Display] == nil {
			v.add(p+".display", "display %q is not a column of %s", e.Display, e.Name)
		}
		if e.TimeColumn != "" && m.TimeColumn(e) == nil {
			v.add(p+".time_column", "time column %q does not resolve", e.TimeColumn)
		} else if tc := m.TimeColumn(e); tc != nil && tc.entity != e {
			if path, ok := m.Path(e, tc.entity); !ok || !ToOnePath(path) {
				v.add(p+".time_column", "time column %q must be reachable through many-to-one joins", e.TimeColumn)
			}
		}
		if vd := e.Validity; vd != nil {
			for _, f := range [][2]string{{"from", vd.From}, {"to", vd.To}} {
				field, name := f[0], f[1]
				switch c := e.columns[name]; {
				case name == "" && field == "from":
				case name == "":
					v.add(p+".validity.to", "validity needs the column that ends a row's period")
				case c == nil:
					v.add(p+".validity."+field, "%q is not a column of %s", name, e.Name)
				case !c.Temporal():
					v.add(p+".validity."+field, "%s.%s is not a date or timestamp column", e.Name, name)
				}
			}
		}
		switch e.TimeWindow {
		case "", "optional":
		case "required":
			if e.TimeColumn == "" {
				v.add(p+".time_window", "time_window: required needs a time_column")
			}
		default:
			v.add(p+".time_window", "want required or optional, got %q", e.TimeWindow)
		}
		for j, lc := range e.ListColumns {
			if e.columns[lc] == nil {
				v.add(fmt.Sprintf("%s.list_columns[%d]", p, j), "%q is not a column of %s", lc, e.Name)
			}
		}
	}
}

var roles = map[string]bool{RoleID: true, RoleName: true, RoleDimension: true, RoleMeasure: true, RoleTime: true, RoleFlag: true, RoleText: true}

func (v *validator) column(p string, e *Entity, c *Column, seen map[string]bool) {
	if c == nil {
		v.add(p, "empty column")
		return
	}
	if c.Name == "" {
		v.add(p+".name", "a column needs a name")
	}
	v.printable(p+".name", c.Name)
	if seen[c.Name] {
		v.add(p+".name", "duplicate column %q in %s", c.Name, e.Name)
	}
	seen[c.Name] = true
	if !roles[c.Role] {
		v.add(p+".role", "role %q is not one of id, name, dimension, measure, time, flag, text", c.Role)
	}
	switch c.Type {
	case "", "text", "integer", "real", "numeric", "date", "timestamp", "boolean":
	default:
		v.add(p+".type", "type %q is not one of text, integer, real, numeric, date, timestamp, boolean", c.Type)
	}
	switch {
	case c.Grain == "":
	case c.Grain != GrainYear:
		v.add(p+".grain", "grain %q is not year", c.Grain)
	case c.Temporal():
		v.add(p+".grain", "grain year is for a number or text column of years; %s holds dates", c.Name)
	}
	if c.References != "" {
		i := strings.IndexByte(c.References, '.')
		if i < 0 {
			v.add(p+".references", "want entity.column, got %q", c.References)
		} else if to := v.m.entities[c.References[:i]]; to == nil {
			v.add(p+".references", "unknown entity %q", c.References[:i])
		} else if to.columns[c.References[i+1:]] == nil {
			v.add(p+".references", "unknown column %q in %s", c.References[i+1:], to.Name)
		}
	}
	if r := c.Range; r != nil {
		if c.Role != RoleMeasure {
			v.add(p+".range", "only a measure has a reference range")
		}
		if r.Low == "" && r.High == "" {
			v.add(p+".range", "a range names its low or high column")
		}
		for field, name := range map[string]string{"low": r.Low, "high": r.High} {
			if name != "" && e.columns[name] == nil {
				v.add(p+".range."+field, "%q is not a column of %s", name, e.Name)
			}
		}
	}
	switch c.Aggregate {
	case "", "sum", "avg", "min", "max":
	default:
		v.add(p+".aggregate", "want sum, avg, min or max, got %q", c.Aggregate)
	}
	for field, ref := range map[string]string{"same_as": c.SameAs, "precomputes": c.Precomputes} {
		if ref == "" {
			continue
		}
		if _, err := v.m.ResolveColumn(nil, splitRef(ref)); err != nil || !strings.Contains(ref, ".") {
			v.add(p+"."+field, "want entity.column of the model, got %q", ref)
		}
	}
	if c.Precomputes != "" && c.Aggregate == "" {
		v.add(p+".aggregate", "a precomputed column says which aggregate it holds")
	}
	if c.Computed() {
		if c.References != "" || c.Role == RoleID || c.Name == e.Key {
			v.add(p+".expr", "a computed column cannot be a key or a reference")
		}
		for _, d := range Dialects() {
			if strings.Contains(c.Expr.For(d), "{{") {
				v.add(p+".expr", "a computed column's expression takes no date placeholders")
				break
			}
		}
	}
	if (c.TrueValue != "" || c.FalseValue != "") && (c.Role != RoleFlag || c.TrueValue == "" || c.FalseValue == "" || c.TrueValue == c.FalseValue) {
		v.add(p+".true_value", "a flag's true_value and false_value are set together, differ, and only on role flag")
	}
	if c.ConfidenceWeight < 0 || c.ConfidenceWeight > 1 {
		v.add(p+".confidence_weight", "must be between 0 and 1")
	}
	if c.Values == nil {
		return
	}
	switch c.Values.Source {
	case "", "static", "database":
	default:
		v.add(p+".values.source", "want static or database, got %q", c.Values.Source)
	}
	if c.Values.Limit < 0 {
		v.add(p+".values.limit", "must not be negative")
	}
	static := map[string]bool{}
	for j, it := range c.Values.Items {
		if it == nil || it.Value == "" {
			v.add(fmt.Sprintf("%s.values.items[%d]", p, j), "a value is required")
			continue
		}
		static[it.Value] = true
	}
	for j, g := range c.Values.Groups {
		gp := fmt.Sprintf("%s.values.groups[%d]", p, j)
		if g == nil || g.Name == "" {
			v.add(gp, "a value group needs a name")
			continue
		}
		if len(g.Values) < 2 {
			v.add(gp+".values", "a group needs at least two values")
		}
		if c.Values.Source != "database" {
			for k, val := range g.Values {
				if !static[val] {
					v.add(fmt.Sprintf("%s.values[%d]", gp, k), "%q is not one of the column's values", val)
				}
			}
		}
	}
}

var aggregates = map[string]bool{"avg": true, "sum": true, "min": true, "max": true, "count": true, "count_distinct": true}

func (v *validator) measures() {
	seen := map[string]bool{}
	for i, ms := range v.m.Measures {
		p := fmt.Sprintf("measures[%d]", i)
		if ms == nil {
			v.add(p, "empty measure")
			continue
		}
		if ms.Name == "" {
			v.add(p+".name", "a measure needs a name")
		}
		if seen[ms.Name] {
			v.add(p+".name", "duplicate measure %q", ms.Name)
		}
		seen[ms.Name] = true
		if v.m.entities[ms.Entity] == nil {
			v.add(p+".entity", "unknown entity %q", ms.Entity)
		}
		if !aggregates[ms.Aggregate] {
			v.add(p+".aggregate", "want avg, sum, min, max, count or count_distinct, got %q", ms.Aggregate)
		}
		if ms.Expr.IsZero() && ms.Aggregate != "count" {
			v.add(p+".expr", "measure %q needs an expression", ms.Name)
		}
		v.fragment(p+".expr", ms.Expr)
		v.fragment(p+".filter", ms.Filter)
	}
}

// printable rejects control characters in text that becomes SQL text
// (identifiers, fragments): they have no business there, and the compiler
// uses one to mark bound parameters.
func (v *validator) printable(p, s string) {
	for _, r := range s {
		if unicode.IsControl(r) && r != '\t' && r != '\n' && r != '\r' {
			v.add(p, "contains the control character %U", r)
			return
		}
	}
}

func (v *validator) fragment(p string, f Fragment) {
	for _, d := range Dialects() {
		t := f.For(d)
		if t == "" {
			continue
		}
		v.printable(p, t)
		if strings.Contains(t, ";") {
			v.add(p, "a SQL fragment must not contain ';'")
			return
		}
		if _, err := Expand(t, fixedNow); err != nil {
			v.add(p, "%v", err)
			return
		}
	}
}

func (v *validator) cond(p string, e *Entity, text string) {
	c, err := ParseCond(text)
	if err != nil {
		v.add(p, "%v", err)
		return
	}
	for _, ref := range CondColumns(c) {
		if _, err := v.m.ResolveColumn(e, ref); err != nil {
			v.add(p, "%v", err)
		}
	}
}

func (v *validator) terms() {
	for i, t := range v.m.Terms {
		p := fmt.Sprintf("terms[%d]", i)
		if t == nil {
			v.add(p, "empty term")
			continue
		}
		if len(t.Phrases) == 0 {
			v.add(p+".phrases", "a term needs at least one phrase")
		}
		e := v.m.entities[t.Entity]
		if e == nil {
			v.add(p+".entity", "unknown entity %q", t.Entity)
			continue
		}
		switch {
		case t.Condition != "" && !t.Predicate.IsZero():
			v.add(p, "set condition or predicate, not both")
		case t.Condition != "":
			v.cond(p+".condition", e, t.Condition)
		case !t.Predicate.IsZero():
			v.fragment(p+".predicate", t.Predicate)
		default:
			v.add(p, "a term needs a condition or a predicate")
		}
		if t.Confidence < 0 || t.Confidence > 1 {
			v.add(p+".confidence", "must be between 0 and 1")
		}
	}
}

func (v *validator) vague() {
	for i, vt := range v.m.Vague {
		p := fmt.Sprintf("vague_terms[%d]", i)
		if vt == nil {
			v.add(p, "empty vague term")
			continue
		}
		if len(vt.Words) == 0 {
			v.add(p+".words", "a vague term needs words")
		}
		if len(vt.AppliesTo) == 0 {
			v.add(p+".applies_to", "a vague term needs the entities it applies to")
		}
		for j, n := range vt.AppliesTo {
			if v.m.entities[n] == nil {
				v.add(fmt.Sprintf("%s.applies_to[%d]", p, j), "unknown entity %q", n)
			}
		}
		if len(vt.Options) < 2 || len(vt.Options) > 4 {
			v.add(p+".options", "a vague term needs 2 to 4 options, has %d", len(vt.Options))
		}
		if vt.Order != "" && len(vt.AppliesTo) > 0 {
			if e := v.m.entities[vt.AppliesTo[0]]; e != nil {
				col, _, _ := strings.Cut(vt.Order, " ")
				if e.columns[col] == nil {
					v.add(p+".order", "unknown column %q in %s", col, e.Name)
				}
			}
		}
		ids := map[string]bool{}
		best := 0
		for j, o := range vt.Options {
			op := fmt.Sprintf("%s.options[%d]", p, j)
			if o == nil {
				v.add(op, "empty option")
				continue
			}
			if o.ID == "" || o.Label == "" {
				v.add(op, "an option needs an id and a label")
			}
			if ids[o.ID] {
				v.add(op+".id", "duplicate option id %q", o.ID)
			}
			ids[o.ID] = true
			if o.BestGuess {
				best++
			}
			en := o.Entity
			if en == "" && len(vt.AppliesTo) > 0 {
				en = vt.AppliesTo[0]
			}
			e := v.m.entities[en]
			if e == nil {
				v.add(op+".entity", "unknown entity %q", en)
				continue
			}
			n := 0
			if o.Condition != "" {
				n++
				v.cond(op+".condition", e, o.Condition)
			}
			if !o.Predicate.IsZero() {
				n++
				v.fragment(op+".predicate", o.Predicate)
			}
			if o.Last != "" {
				n++
				if _, err := ParseSpan(o.Last); err != nil && o.Last != "today" {
					v.add(op+".last", "%v", err)
				}
				if v.m.TimeColumn(e) == nil {
					v.add(op+".last", "entity %s has no time_column", e.Name)
				}
			}
			if n != 1 {
				v.add(op, "an option needs exactly one of condition, predicate or last")
			}
		}
		if best > 1 {
			v.add(p+".options", "at most one option can be the best guess")
		}
	}
}

func (v *validator) rankings() {
	for i, r := range v.m.Rankings {
		p := fmt.Sprintf("rankings[%d]", i)
		if r == nil {
			v.add(p, "empty ranking")
			continue
		}
		e := v.m.entities[r.Entity]
		if e == nil {
			v.add(p+".entity", "unknown entity %q", r.Entity)
			continue
		}
		if len(r.Metrics) == 0 {
			v.add(p+".metrics", "a ranking needs metrics")
		}
		defaults := 0
		for j, mt := range r.Metrics {
			mp := fmt.Sprintf("%s.metrics[%d]", p, j)
			if mt == nil {
				v.add(mp, "empty metric")
				continue
			}
			if mt.Default {
				defaults++
			}
			set := 0
			for _, x := range []string{mt.Measure, mt.Count, mt.Column} {
				if x != "" {
					set++
				}
			}
			if set != 1 {
				v.add(mp, "a metric names one of measure, count or column")
				continue
			}
			var me *Entity
			field := mp + ".measure"
			switch {
			case mt.Measure != "":
				ms := v.m.measures[mt.Measure]
				if ms == nil {
					v.add(field, "unknown measure %q", mt.Measure)
					continue
				}
				me = v.m.entities[ms.Entity]
			case mt.Count != "":
				field = mp + ".count"
				if me = v.m.entities[mt.Count]; me == nil {
					v.add(field, "unknown entity %q", mt.Count)
					continue
				}
			default:
				field = mp + ".column"
				c, err := v.m.ResolveColumn(nil, splitRef(mt.Column))
				if err != nil {
					v.add(field, "%v", err)
					continue
				}
				if mt.Aggregate != "sum" && mt.Aggregate != "avg" && mt.Aggregate != "min" && mt.Aggregate != "max" {
					v.add(mp+".aggregate", "want sum, avg, min or max, got %q", mt.Aggregate)
				}
				me = c.entity
			}
			if me == nil {
				continue
			}
			if path, ok := v.m.Path(me, e); !ok || !ToOnePath(path) {
				v.add(field, "%s (on %s) does not reach %s through many-to-one joins", mt.ID, me.Name, e.Name)
			}
		}
		if defaults > 1 {
			v.add(p+".metrics", "at most one default metric")
		}
	}
}

func (v *validator) scope() {
	s := v.m.Scope
	if s == nil {
		return
	}
	e := v.m.entities[s.Entity]
	if e == nil {
		v.add("scope.entity", "unknown entity %q", s.Entity)
		return
	}
	if e.Key == "" {
		v.add("scope.entity", "the scope entity %s needs a key: a scope is one of its rows", e.Name)
	}
	switch s.Required {
	case "", "always", "when_multiple":
	default:
		v.add("scope.required", "want always or when_multiple, got %q", s.Required)
	}
	for j, n := range s.AppliesTo {
		ae := v.m.entities[n]
		if ae == nil {
			v.add(fmt.Sprintf("scope.applies_to[%d]", j), "unknown entity %q", n)
			continue
		}
		if path, ok := v.m.Path(ae, e); !ok || !ToOnePath(path) {
			v.add(fmt.Sprintf("scope.applies_to[%d]", j), "%s does not reach %s through many-to-one joins", n, e.Name)
		}
	}
	for j, c := range s.OptionColumns {
		if e.columns[c] == nil {
			v.add(fmt.Sprintf("scope.option_columns[%d]", j), "%q is not a column of %s", c, e.Name)
		}
	}
}

func (v *validator) policies() {
	pol := v.m.Policies
	if f := pol.Format; f != nil {
		if f.Mode != "ask" && f.Mode != "auto" {
			v.add("policies.format.mode", "want ask or auto, got %q", f.Mode)
		}
		v.entityList("policies.format.applies_to", f.AppliesTo)
	}
	if h := pol.History; h != nil {
		switch h.Default {
		case "latest", "history", "ask":
		default:
			v.add("policies.latest_or_history.default", "want latest, history or ask, got %q", h.Default)
		}
		v.entityList("policies.latest_or_history.applies_to", h.AppliesTo)
		if h.Per != "" {
			for _, n := range h.AppliesTo {
				if e := v.m.entities[n]; e != nil && e.columns[h.Per] == nil {
					v.add("policies.latest_or_history.per", "%q is not a column of %s", h.Per, n)
				}
			}
		}
	}
	for k, val := range map[string]string{"aggregate": pol.MissingTimeWindow.Aggregate, "trend": pol.MissingTimeWindow.Trend} {
		if val != "" && val != "ask" && val != "all" {
			v.add("policies.missing_time_window."+k, "want ask or all, got %q", val)
		}
	}
	for j, o := range pol.TimeWindowOptions {
		p := fmt.Sprintf("policies.time_window_options[%d]", j)
		if o == nil || o.ID == "" || o.Label == "" {
			v.add(p, "an option needs an id and a label")
			continue
		}
		if o.Last != "" && o.Last != "today" {
			if _, err := ParseSpan(o.Last); err != nil {
				v.add(p+".last", "%v", err)
			}
		}
	}
	if pol.QuestionsPerTurn < 0 || pol.MaxRounds < 0 || pol.TopLimit < 0 {
		v.add("policies", "counts must not be negative")
	}
}

func (v *validator) entityList(p string, names []string) {
	for j, n := range names {
		if v.m.entities[n] == nil {
			v.add(fmt.Sprintf("%s[%d]", p, j), "unknown entity %q", n)
		}
	}
}

func (v *validator) areas() {
	if len(v.m.Areas) == 0 {
		return
	}
	names := map[string]bool{}
	for i, a := range v.m.Areas {
		if a == nil || a.Name == "" {
			v.add(fmt.Sprintf("areas[%d]", i), "an area needs a name")
			continue
		}
		names[a.Name] = true
	}
	for i, e := range v.m.Entities {
		if e != nil && e.Area != "" && !names[e.Area] {
			v.add(fmt.Sprintf("entities[%d].area", i), "area %q is not declared in areas", e.Area)
		}
	}
}

// splitRef reads "entity.column" (or a bare column) as a reference.
func splitRef(s string) ColumnRef {
	if i := strings.IndexByte(s, '.'); i > 0 {
		return ColumnRef{Entity: s[:i], Column: s[i+1:]}
	}
	return ColumnRef{Column: s}
}

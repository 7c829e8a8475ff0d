// Vague words and superlatives: "large wounds", "recent orders", "the
// largest wounds". The model defines a vague word's meanings; one is
// chosen (or asked) and applied as a filter or a period in the filter
// pass. A superlative orders by its term's column, or, before a numeric
// column, is read as its maximum in the first pass.

package understand

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/clarify-sql/clarify/internal/model"
	"github.com/clarify-sql/clarify/internal/query"
	"github.com/clarify-sql/clarify/internal/understand/timeexpr"
)

// superlativeColumns reads "the largest wound area" as the maximum of a
// column: a superlative followed by a numeric column is an aggregate word.
// aggregateColumns reads a column named like an aggregate ("Average",
// "Total") as the aggregate word when a number column follows it: "the
// average and the maximum capacity" averages the capacity, not the
// column called Average.
func (b *builder) aggregateColumns() {
	for i, m := range b.ms {
		if m.kind != kColumn || m.end-m.start != 1 {
			continue
		}
		op := ""
		for fn, ws := range aggWords {
			if slices.Contains(ws, b.l.texts[m.start]) {
				op = fn
			}
		}
		if op == "" {
			continue
		}
		for j := i + 1; j < len(b.ms) && j <= i+4; j++ {
			n := b.ms[j]
			if n.kind == kColumn && n.entry().column.Numeric() {
				m.kind, m.entries = kAgg, []entry{{kind: kAgg, op: op}}
				break
			}
			if n.kind != kStop && n.kind != kAgg && n.kind != kList {
				break
			}
		}
	}
}

func (b *builder) superlativeColumns() {
	for i, m := range b.ms {
		if m.kind != kSuperlative {
			continue
		}
		for j := i + 1; j < len(b.ms) && j <= i+3; j++ {
			n := b.ms[j]
			if n.kind == kColumn && n.entry().column.Numeric() && n.entry().column.Role == model.RoleMeasure {
				_, d, _ := strings.Cut(m.entry().vague.Order, " ")
				op := "max"
				if strings.EqualFold(d, "asc") {
					op = "min"
				}
				m.kind = kAgg
				m.entries = []entry{{kind: kAgg, op: op}}
				break
			}
			if n.kind != kEntity && n.kind != kStop {
				break
			}
		}
	}
}

// vagueEntity picks the entity a vague word qualifies: the nearest entity
// mention it applies to, else the subject, else its first entity.
func (b *builder) vagueEntity(vt *model.VagueTerm, i int) *model.Entity {
	m := b.a.model
	applies := map[string]bool{}
	for _, n := range vt.AppliesTo {
		applies[n] = true
	}
	best, dist := (*model.Entity)(nil), 1<<30
	for j, x := range b.ms {
		if x.kind != kEntity {
			continue
		}
		for _, e := range distinctEntities(x.entries) {
			d := j - i
			if d < 0 {
				d = -d*2 + 1 // prefer the noun after the adjective
			}
			if applies[e.Name] && d < dist {
				best, dist = e, d
			}
		}
	}
	if best != nil {
		return best
	}
	if s := b.q.Subject; s != nil && applies[s.Name] {
		return s
	}
	return m.Entity(vt.AppliesTo[0])
}

func (b *builder) vagueFilter(i int, m *mention) {
	vt := m.entry().vague
	// "new patients registered in the last 6 months": the period says it
	if isTimeVague(vt) && b.namesPeriod() {
		m.used = true
		return
	}
	target := b.vagueEntity(vt, i)
	words := b.words(m)
	sl := &Slot{Key: "vague:" + vt.Name, Kind: KindVague, Priority: Important, Text: words, Ask: true, Confidence: 0.5,
		Question: vt.Question, Context: vt.Context}
	for _, o := range vt.Options {
		sl.Options = append(sl.Options, &Option{ID: o.ID, Label: o.Label, Description: o.Description, BestGuess: o.BestGuess, vopt: o, vague: vt})
	}
	if best := sl.Best(); best >= 0 {
		if sl.Question == "" {
			sl.Question = fmt.Sprintf("By %q, do you mean %s? Or one of the other definitions?", words, lowerFirst(sl.Options[best].Label))
		}
	}
	if sl.Context == "" {
		sl.Context = fmt.Sprintf("%q is not a field in the data; it can be defined in several ways.", words)
	}
	sl.Context = strings.ReplaceAll(sl.Context, "{word}", words)
	sl.Question = strings.ReplaceAll(sl.Question, "{word}", words)
	o := b.settle(sl, b.parseVagueAnswer(vt, target))
	if o == nil {
		return
	}
	b.applyVague(o, target, m, sl.Key)
}

// isTimeVague reports whether a vague term's options are periods.
func isTimeVague(vt *model.VagueTerm) bool {
	for _, o := range vt.Options {
		if o.Last == "" {
			return false
		}
	}
	return len(vt.Options) > 0
}

// applyVague turns the chosen meaning of a vague word into a filter or a
// time window.
func (b *builder) applyVague(o *Option, target *model.Entity, m *mention, key string) {
	// conditions and predicates are written for the option's entity
	e := target
	if o.vopt != nil && o.vopt.Last == "" {
		e = b.a.model.Entity(o.vague.AppliesTo[0])
		if o.vopt.Entity != "" {
			e = b.a.model.Entity(o.vopt.Entity)
		}
	}
	f := query.Filter{Entity: e, Label: o.Label, Slot: key}
	switch {
	case o.window != nil:
		b.setWindow(e, *o.window, m)
		m.used = true
		return
	case o.vopt != nil && o.vopt.Last != "":
		w, ok := optionWindow(o.vopt.Last, b.s.Now)
		if !ok {
			return
		}
		b.setWindow(target, w, m)
		m.used = true
		return
	case o.cond != nil:
		f.Cond = o.cond
	case o.vopt != nil && o.vopt.Condition != "":
		c, err := model.ParseCond(o.vopt.Condition)
		if err != nil {
			return
		}
		f.Cond = qualify(c, e)
	case o.vopt != nil:
		f.Predicate = o.vopt.Predicate
	}
	b.addFilter(f, m)
}

// parseVagueAnswer reads a typed definition: a condition ("area > 15"), a
// bare threshold ("15") when every option compares one column, or a period.
func (b *builder) parseVagueAnswer(vt *model.VagueTerm, target *model.Entity) func(string) (*Option, string) {
	return func(answer string) (*Option, string) {
		timeKind := false
		for _, o := range vt.Options {
			if o.Last != "" {
				timeKind = true
			}
		}
		if timeKind {
			if w, ok := timeexpr.ParseWindow(answer, b.s.Now); ok {
				return &Option{ID: "custom:" + optionID(w.Label), Label: capitalize(w.Label), window: &w}, ""
			}
		}
		if col, op, ok := commonThreshold(b.a.model, vt, target); ok {
			if v, err := strconv.ParseFloat(strings.TrimSpace(strings.ReplaceAll(answer, ",", "")), 64); err == nil {
				c := model.Compare{Left: model.Operand{Column: &model.ColumnRef{Entity: target.Name, Column: col.Name}}, Op: op, Right: []model.Operand{{Literal: v}}}
				return b.condOption(c, target)
			}
		}
		// "more than 500 pages", "under $50", "hired before 1990"
		def, fractions := optionColumn(b.a.model, vt, target)
		if c, ok := b.readThreshold(answer, target, def, fractions); ok {
			return b.condOption(c, target)
		}
		c, reason := b.parseCondition(answer, target)
		if c == nil {
			return nil, reason
		}
		return b.condOption(c, target)
	}
}

func (b *builder) condOption(c model.Cond, e *model.Entity) (*Option, string) {
	label := model.CondString(b.a.model, e, c)
	return &Option{ID: "custom:" + optionID(label), Label: capitalize(label), cond: c}, ""
}

// optionColumn returns the column the best-guess option of a vague term
// compares (else the first option's), and whether every threshold of its
// options is a fraction (a rate stored as 0.3 for 30%).
func optionColumn(m *model.Model, vt *model.VagueTerm, e *model.Entity) (*model.Column, bool) {
	var col *model.Column
	fractions, any := true, false
	for _, o := range vt.Options {
		if o.Condition == "" {
			continue
		}
		c, err := model.ParseCond(o.Condition)
		if err != nil {
			continue
		}
		cmp, ok := c.(model.Compare)
		if !ok || cmp.Left.Column == nil || len(cmp.Right) != 1 {
			continue
		}
		cc, err := m.ResolveColumn(e, *cmp.Left.Column)
		if err != nil {
			continue
		}
		if col == nil || o.BestGuess {
			col = cc
		}
		switch v := cmp.Right[0].Literal.(type) {
		case float64:
			any = true
			fractions = fractions && math.Abs(v) <= 1
		case int64:
			any = true
			fractions = fractions && (v == 0 || v == 1 || v == -1)
		}
	}
	return col, any && fractions
}

// commonThreshold reports the column and operator every option of a vague
// term compares against a number ("area_cm2 >"), if there is one.
func commonThreshold(m *model.Model, vt *model.VagueTerm, e *model.Entity) (*model.Column, string, bool) {
	var col *model.Column
	op := ""
	for _, o := range vt.Options {
		if o.Condition == "" {
			continue
		}
		c, err := model.ParseCond(o.Condition)
		if err != nil {
			return nil, "", false
		}
		cmp, ok := c.(model.Compare)
		if !ok || cmp.Left.Column == nil || len(cmp.Right) != 1 || cmp.Right[0].Column != nil {
			continue
		}
		cc, err := m.ResolveColumn(e, *cmp.Left.Column)
		if err != nil || !cc.Numeric() {
			continue
		}
		if col != nil && (cc != col || cmp.Op != op) {
			return nil, "", false
		}
		col, op = cc, cmp.Op
	}
	return col, op, col != nil
}

// superlative reads "the largest wounds": order by the vague term's column.
func (b *builder) superlative(i int, m *mention) {
	vt := m.entry().vague
	col, dir, _ := strings.Cut(vt.Order, " ")
	e := b.vagueEntity(vt, i)
	c := e.Column(col)
	if by := b.superlativeBy; by != nil && b.a.model.Reachable(b.q.Base, by.Entity()) {
		c = by
	}
	if c == nil {
		return
	}
	m.used = true
	desc := !strings.EqualFold(dir, "asc")
	b.q.Order = append(b.q.Order, query.Order{Column: c, Desc: desc})
	limit := 0
	if _, p := b.prev(i); p != nil && p.kind == kNumber && !p.used {
		limit = int(p.num)
		p.used = true
	} else if _, n := b.next(i); n != nil && n.kind == kNumber && !n.used {
		limit = int(n.num)
		n.used = true
	}
	if limit == 0 {
		limit = 10
		if _, n := b.next(i); n != nil && n.kind == kEntity && b.singular(n) {
			limit = 1
		} else if s := b.subjectM; s != nil && b.idx(s) < i && b.singular(s) || b.isBefore(i) {
			limit = 1 // "which bike is the most expensive"
		}
	}
	b.q.Limit = limit
	if b.q.Intent == query.IntentList {
		b.q.Intent = query.IntentTop
	}
	// a column of rows that belong to the base ("the best paid employees"
	// by their salaries): the base rows ranked by its largest value
	if base := b.q.Base; base != nil && !b.a.model.ToOne(base, c.Entity()) && b.q.Intent == query.IntentTop && b.q.Rank == nil {
		b.q.Order = b.q.Order[:len(b.q.Order)-1]
		fn := map[bool]string{true: "max", false: "min"}[desc]
		b.q.Rank = &query.Rank{Entity: base, Metric: query.Agg{Func: fn, Column: c, Label: strings.ToLower(c.Title())}, Desc: desc, Limit: limit}
		b.q.Limit = 0
		b.baseForMetric(&b.q.Rank.Metric)
	}
}

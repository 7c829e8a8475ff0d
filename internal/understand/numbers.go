package understand

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/clarify-sql/clarify/internal/model"
	"github.com/clarify-sql/clarify/internal/query"
	"github.com/clarify-sql/clarify/internal/understand/text"
	"github.com/clarify-sql/clarify/internal/understand/timeexpr"
)

// numbers turns "over 30 cm²", "> 25", "between 10 and 20", "pain score 7"
// into conditions on the column they are about.
func (b *builder) numbers() {
	for i, m := range b.ms {
		if m.kind != kNumber || m.used {
			continue
		}
		op := ""
		pi, p := b.prev(i)
		currency := ""
		// "over $5,000": a currency sign between the comparator and the number
		if p != nil && p.kind == kUnit && (b.words(p) == "$" || b.words(p) == "€" || b.words(p) == "£") {
			currency = b.words(p)
			p.used = true
			pi, p = b.prev(pi)
		}
		if p != nil && (p.kind == kCmp || p.kind == kOp) {
			op = p.op
			if p.kind == kCmp {
				op = p.entry().op
			}
		}
		var hi *mention
		if op == "between" {
			if j, n := b.next(i); n != nil && n.kind == kNumber && j > i {
				hi = n
			} else {
				continue
			}
		}
		unit := currency
		last := i
		if hi != nil {
			last = b.idx(hi)
		}
		if _, n := b.next(last); n != nil && n.kind == kUnit {
			unit = b.words(n)
			n.used = true
		}
		// "30 or more": the comparator after the number
		if op == "" {
			if _, n := b.next(last); n != nil && n.kind == kCmp && (n.entry().op == ">=" || n.entry().op == "<=") {
				op = n.entry().op
				n.used = true
			}
		}
		if op == "" {
			_, n := b.next(last)
			switch {
			case p != nil && p.kind == kColumn && p.entry().column.Numeric():
				op = "="
			case n != nil && n.kind == kColumn && !n.used && n.start == b.ms[last].end && n.entry().column.Numeric() && n.entry().column.Role == model.RoleMeasure:
				// "courses with 4 credits": the number of the column after it
				op = "="
			default:
				continue
			}
		}
		// "more than 3 wounds": a count of related rows
		if _, n := b.next(last); n != nil && n.kind == kEntity && op != "" && m.num == float64(int64(m.num)) {
			if e := b.entityOf(n); e != nil && e != b.q.Base {
				if b.a.model.Reachable(b.q.Base, e) && !b.a.model.ToOne(b.q.Base, e) {
					m.used, n.used = true, true
					if p != nil {
						p.used = true
					}
					f := query.Filter{Entity: e, Count: &query.CountCond{Op: op, N: int64(m.num)}, Slot: "count:" + e.Name,
						Label: fmt.Sprintf("%s %s %s", opWord(op), strconv.FormatInt(int64(m.num), 10), e.PluralLabel())}
					b.addFilter(f, m)
					continue
				}
			}
		}
		cols := b.numberColumns(pi, last, unit)
		if len(cols) == 0 {
			// "patients over 65" with no number to compare: asked about
			// (unknownWords), never dropped
			continue
		}
		words := b.l.words(&mention{start: m.start, end: m.end})
		if p != nil && pi >= 0 {
			words = strings.TrimSpace(b.words(p) + " " + words)
		}
		if unit != "" {
			words += " " + unit
		}
		m.used = true
		if p != nil {
			p.used = true
		}
		if hi != nil {
			hi.used = true
		}
		if len(cols) > 1 && p != nil && p.kind == kCmp {
			cols = byComparatorKind(b.words(p), cols)
		}
		var col *model.Column
		switch {
		case len(cols) == 1:
			col = cols[0]
		case len(cols) > 1:
			col = b.numberColumnSlot(words, cols)
		}
		if col == nil {
			continue
		}
		b.addNumberFilter(col, op, m, hi, words)
	}
}

func opWord(op string) string {
	switch op {
	case ">":
		return "more than"
	case ">=":
		return "at least"
	case "<":
		return "fewer than"
	case "<=":
		return "at most"
	}
	return "exactly"
}

func (b *builder) addNumberFilter(col *model.Column, op string, m, hi *mention, words string) {
	lit := func(v float64) model.Operand {
		if v == math.Trunc(v) && col.Type != "real" {
			return model.Operand{Literal: int64(v)}
		}
		return model.Operand{Literal: v}
	}
	ref := &model.ColumnRef{Entity: col.Entity().Name, Column: col.Name}
	var c model.Cond
	if hi != nil {
		c = model.And{Items: []model.Cond{
			model.Compare{Left: model.Operand{Column: ref}, Op: ">=", Right: []model.Operand{lit(m.num)}},
			model.Compare{Left: model.Operand{Column: ref}, Op: "<=", Right: []model.Operand{lit(hi.num)}},
		}}
	} else {
		c = model.Compare{Left: model.Operand{Column: ref}, Op: op, Right: []model.Operand{lit(m.num)}}
	}
	label := model.CondString(b.a.model, col.Entity(), c)
	f := query.Filter{Entity: col.Entity(), Cond: c, Label: label, Slot: "number:" + words}
	end := m
	if hi != nil {
		end = hi
	}
	f.Start, f.End = b.l.toks[m.start].Start, b.l.toks[end.end-1].End
	b.q.Filters = append(b.q.Filters, f)
}

// numberColumns finds the numeric columns a number may be about: a column
// named just before it, one named right after, one whose unit was used,
// or else the numeric measures of the subject.
func (b *builder) numberColumns(cmpIdx, last int, unit string) []*model.Column {
	numeric := func(m *mention) []*model.Column {
		if m == nil || m.kind != kColumn {
			return nil
		}
		var out []*model.Column
		for _, e := range m.entries {
			if e.kind == kColumn && e.column.Numeric() && !e.column.Temporal() {
				out = append(out, e.column)
			}
		}
		return preferCols(b, out)
	}
	if cmpIdx >= 0 {
		// the comparator's column ("area over 30"), or a column right before
		// the number ("pain score of 9 or more")
		if cs := numeric(b.ms[cmpIdx]); len(cs) > 0 {
			b.ms[cmpIdx].used = true
			return cs
		}
		if _, p := b.prev(cmpIdx); p != nil {
			if cs := numeric(p); len(cs) > 0 {
				p.used = true
				return cs
			}
		}
	}
	if _, n := b.next(last); n != nil {
		if cs := numeric(n); len(cs) > 0 {
			n.used = true
			return cs
		}
	}
	var cands []*model.Column
	for _, e := range b.entitiesInPlay() {
		for _, c := range e.Columns {
			if c.Role != model.RoleMeasure || !c.Numeric() {
				continue
			}
			if unit != "" {
				if unitMatches(c, unit) {
					cands = append(cands, c)
				}
				continue
			}
			if e == b.q.Base || e == b.q.Subject {
				cands = append(cands, c)
			}
		}
		if len(cands) > 0 && unit != "" {
			break
		}
	}
	if len(cands) == 0 && unit != "" {
		// a unit no column declares ("140 mg/dL"): the subject's numbers
		return b.numberColumns(-1, last, "")
	}
	return cands
}

func preferCols(b *builder, cs []*model.Column) []*model.Column {
	if len(cs) <= 1 {
		return cs
	}
	return preferByContext(b, cs, func(c *model.Column) *model.Entity { return c.Entity() })
}

var currencies = map[string]string{"$": "usd", "dollar": "usd", "dollars": "usd", "€": "eur", "euro": "eur", "euros": "eur", "£": "gbp"}

func unitMatches(c *model.Column, unit string) bool {
	u := text.StemPhrase(unit)
	if cur, ok := currencies[text.Normalize(unit)]; ok {
		if strings.EqualFold(c.Unit, cur) || text.Normalize(c.Unit) == text.Normalize(unit) {
			return true
		}
		u = cur
	}
	if c.Unit != "" && text.StemPhrase(c.Unit) == u {
		return true
	}
	for _, w := range c.UnitWords {
		if text.StemPhrase(w) == u {
			return true
		}
	}
	return false
}

// entitiesInPlay lists the base, the subject and the other named entities.
func (b *builder) entitiesInPlay() []*model.Entity {
	var out []*model.Entity
	seen := map[*model.Entity]bool{}
	for _, e := range append([]*model.Entity{b.q.Base, b.q.Subject}, b.context...) {
		if e != nil && !seen[e] {
			seen[e] = true
			out = append(out, e)
		}
	}
	return out
}

// numberColumnSlot asks which column a number is about.
func (b *builder) numberColumnSlot(words string, cols []*model.Column) *model.Column {
	sl := &Slot{Key: "number:" + words, Kind: KindColumn, Priority: Important, Text: words, Ask: true, Confidence: 0.5,
		Context: fmt.Sprintf("%q could be about %d different numbers.", words, len(cols))}
	for i, c := range cols {
		if i == 4 {
			break
		}
		sl.Options = append(sl.Options, &Option{ID: c.Entity().Name + "." + c.Name, Label: columnLabel(c), column: c})
	}
	sl.Options[0].BestGuess = true
	sl.Question = fmt.Sprintf("Does %q refer to the %s, or another number?", words, strings.ToLower(sl.Options[0].Label))
	var entries []entry
	for _, c := range cols {
		entries = append(entries, entry{kind: kColumn, column: c, entity: c.Entity()})
	}
	if o := b.settle(sl, func(t string) (*Option, string) { return b.parseColumnAnswer(t, entries) }); o != nil {
		return o.column
	}
	return nil
}

// window applies the question's time expression to the date it is about:
// a date column the question names ("recorded", "registered"), the date
// of an event named by a value ("healed in 2025" → healed_date), the
// measure's rows for an aggregate, a child entity named just before, else
// the base's own date.
func (b *builder) window() {
	for i, m := range b.ms {
		if m.kind != kTime || m.used {
			continue
		}
		m.used = true
		if m.window.All {
			b.allTime = true
			continue
		}
		if b.q.Window != nil {
			continue
		}
		if tc := b.namedDate(i); tc != nil {
			b.q.Window = &query.TimeFilter{Column: tc, Window: *m.window}
			continue
		}
		// a period after today dates what is planned: "purchase orders
		// next week" are expected then, not ordered then
		if tc := b.plannedDate(*m.window); tc != nil {
			b.q.Window = &query.TimeFilter{Column: tc, Window: *m.window}
			continue
		}
		// an aggregate over a measure is dated by the measure's rows
		// ("revenue of computer store customers in the past 6 months")
		if a := b.q.Agg; a != nil && (a.Measure != nil || a.Column != nil) && b.a.model.TimeColumn(b.q.Base) != nil {
			b.setWindow(b.q.Base, *m.window, m)
			continue
		}
		if r := b.q.Rank; r != nil && b.a.model.TimeColumn(b.q.Base) != nil {
			b.setWindow(b.q.Base, *m.window, m)
			continue
		}
		var e *model.Entity
		for j := i - 1; j >= 0; j-- {
			if x := b.ms[j]; x.kind == kEntity {
				if ents := distinctEntities(x.entries); len(ents) == 1 && b.a.model.TimeColumn(ents[0]) != nil {
					e = ents[0]
					break
				}
			}
		}
		// a parent named before the period qualifies the rows, it is not what
		// the period dates ("wounds of Riverside patients this year")
		if e != nil && e != b.q.Base && b.a.model.ToOne(b.q.Base, e) && b.a.model.TimeColumn(b.q.Base) != nil {
			e = b.q.Base
		}
		if e == nil {
			e = b.q.Base
		}
		b.setWindow(e, *m.window, m)
	}
}

// comparatorKinds are comparatives that say what kind of number they
// compare, and the words of such columns' names: "cheaper than 10" is a
// price, "longer than 45" a duration or a length.
var comparatorKinds = map[string][]string{
	"cheaper": {"price", "cost", "amount", "fee", "salary", "total", "value", "revenue", "usd", "eur", "gbp"},
	"pricier": {"price", "cost", "amount", "fee"}, "costlier": {"price", "cost", "amount", "fee"},
	"longer":  {"duration", "length", "minutes", "hours", "days", "seconds", "km", "miles", "distance", "pages"},
	"shorter": {"duration", "length", "minutes", "hours", "days", "seconds", "km", "miles", "distance", "pages"},
	"heavier": {"weight", "kg", "lb", "mass"}, "lighter": {"weight", "kg", "lb", "mass"},
}

// byComparatorKind keeps the columns a comparative's kind names, when
// some do.
func byComparatorKind(words string, cols []*model.Column) []*model.Column {
	first, _, _ := strings.Cut(words, " ")
	kinds, ok := comparatorKinds[first]
	if !ok {
		return cols
	}
	var out []*model.Column
	for _, c := range cols {
		if nameHasWord(c, kinds) {
			out = append(out, c)
		}
	}
	if len(out) == 0 {
		return cols
	}
	return out
}

// plannedWords name the dates of what is still to come.
var plannedWords = []string{"expected", "due", "planned", "scheduled", "deadline", "eta", "estimated", "target"}

// plannedDate returns the base's one planned-date column when the window
// starts after today, else nil.
func (b *builder) plannedDate(w timeexpr.Window) *model.Column {
	if w.From == "" || b.s.Now.IsZero() || w.From <= b.s.Now.Format("2006-01-02") || b.q.Base == nil {
		return nil
	}
	var found *model.Column
	for _, c := range b.q.Base.Columns {
		if c.Temporal() && nameHasWord(c, plannedWords) {
			if found != nil {
				return nil
			}
			found = c
		}
	}
	return found
}

// namedDate finds the date column the question names for the period at
// mention i: a date column word anywhere ("registered", "recorded"), or a
// value naming an event right before the period whose entity has a date
// column named after it ("healed in 2025" → healed_date).
func (b *builder) namedDate(i int) *model.Column {
	if _, p := b.prev(i); p != nil && (p.kind == kValue || p.kind == kGroup) && len(p.vals) == 1 {
		v := p.vals[0]
		stem := text.ValueStem(text.Normalize(v.label))
		if len(stem) >= 4 {
			for _, c := range v.col.Entity().Columns {
				if c.Temporal() && strings.HasPrefix(strings.ToLower(c.Name), strings.TrimSuffix(stem, "e")) {
					return c
				}
			}
		}
	}
	for _, x := range b.ms {
		if x.kind != kColumn || x.used || b.grouped[x] {
			continue
		}
		c := x.entry().column
		if !c.Temporal() || !b.a.model.Reachable(b.q.Base, c.Entity()) {
			continue
		}
		// a parent's date named with a generic word ("recorded") does not
		// date the base's rows when they have a date of their own ("the
		// highest pain score recorded this week": the assessments' date)
		if c.Entity() != b.q.Base && b.a.model.ToOne(b.q.Base, c.Entity()) && b.a.model.TimeColumn(b.q.Base) != nil && !b.namedWith(x, c.Entity()) {
			continue
		}
		x.used = true
		return c
	}
	return nil
}

// namedWith reports whether the entity is named right before the column
// word ("assessments of wounds recorded this week").
func (b *builder) namedWith(x *mention, e *model.Entity) bool {
	_, p := b.prev(b.idx(x))
	if p == nil || p.kind != kEntity {
		return false
	}
	for _, pe := range distinctEntities(p.entries) {
		if pe == e {
			return true
		}
	}
	return false
}

// setWindow limits the time column of e (or of the base) to w.
func (b *builder) setWindow(e *model.Entity, w timeexpr.Window, m *mention) {
	m2 := b.a.model
	tc := m2.TimeColumn(e)
	if tc == nil {
		tc = m2.TimeColumn(b.q.Base)
	}
	if tc == nil {
		for _, x := range b.entitiesInPlay() {
			if tc = m2.TimeColumn(x); tc != nil {
				break
			}
		}
	}
	if tc == nil {
		b.in.Warnings = append(b.in.Warnings, fmt.Sprintf("nothing in the question has a date to apply %q to", w.Label))
		return
	}
	if b.q.Window != nil {
		return // the first period named wins
	}
	b.q.Window = &query.TimeFilter{Column: tc, Window: w}
	_ = m
}

// optionWindow turns a model's "last" value ("30 days", "today") into a window.
func optionWindow(last string, now time.Time) (timeexpr.Window, bool) {
	if last == "today" {
		return timeexpr.ParseWindow("today", now)
	}
	sp, err := model.ParseSpan(last)
	if err != nil {
		return timeexpr.Window{}, false
	}
	return timeexpr.Last(sp.N, sp.Unit, now), true
}

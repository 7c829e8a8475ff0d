// Comparisons, after the filter pass: numbers with comparators and units
// ("over 30 cm²", "between 10 and 20", "more than 3 wounds"), a column
// against a column ("received fewer outers than ordered", "below the
// reference low"), and null checks ("without a credit limit"). A
// comparison that compares nothing is asked about, never dropped.

package understand

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/clarify-sql/clarify/internal/model"
	"github.com/clarify-sql/clarify/internal/query"
	"github.com/clarify-sql/clarify/internal/understand/text"
	"github.com/clarify-sql/clarify/internal/units"
)

// numbers turns "over 30 cm²", "> 25", "between 10 and 20", "pain score 7"
// into conditions on the column they are about.
func (b *builder) numbers() {
	for i, m := range b.ms {
		if m.kind != kNumber || m.used {
			continue
		}
		nc, ok := b.numberComparison(i, m)
		if !ok {
			continue
		}
		if b.relatedCount(nc) {
			continue
		}
		b.numberFilter(nc)
	}
}

// numberComparison is a number as a question compares it.
type numberComparison struct {
	m    *mention // the number
	hi   *mention // the upper bound of "between", or nil
	p    *mention // what stands before the number (its comparator), or nil
	pi   int      // the index of p
	last int      // the index of the last number (hi, else m)
	op   string   // the comparison operator, or "between"
	unit string   // "cm2", "$": the unit after the number or the currency before it
}

// numberComparison reads the comparator and the unit around the number m
// at index i: "over $5,000", "between 10 and 20 cm²", "30 or more", "pain
// score 7" (=). ok is false when nothing compares the number.
func (b *builder) numberComparison(i int, m *mention) (nc numberComparison, ok bool) {
	nc.m = m
	nc.pi, nc.p = b.prev(i)
	p := nc.p
	currency := ""
	// "over $5,000": a currency sign between the comparator and the number
	if p != nil && p.kind == kUnit && (b.words(p) == "$" || b.words(p) == "€" || b.words(p) == "£") {
		currency = b.words(p)
		p.used = true
		nc.pi, nc.p = b.prev(nc.pi)
		p = nc.p
	}
	if p != nil && (p.kind == kCmp || p.kind == kOp) {
		nc.op = p.op
		if p.kind == kCmp {
			nc.op = p.entry().op
		}
		// "not higher than 4": the comparison turned around
		if j, n := b.prev(nc.pi); n != nil && n.kind == kNot && n.end == p.start {
			if inv, ok := inverseOps[nc.op]; ok {
				nc.op = inv
				n.used = true
				nc.pi = j // the column is named before the "not"
			}
		}
	}
	// "1 to 2 paragraphs", "5-10 items": a range written with "to"
	if nc.op == "" {
		if j, n := b.next(i); n != nil && n.kind == kNumber && j == i+2 && b.words(b.ms[i+1]) == "to" && n.num > m.num {
			nc.op = "between"
		}
	}
	if nc.op == "between" {
		j, n := b.next(i)
		if n == nil || n.kind != kNumber || j <= i {
			return nc, false
		}
		nc.hi = n
	}
	nc.unit = currency
	nc.last = i
	if nc.hi != nil {
		nc.last = b.idx(nc.hi)
	}
	after := nc.last // the number, or its unit
	if j, n := b.next(nc.last); n != nil && n.kind == kUnit {
		nc.unit = b.words(n)
		n.used = true
		after = j
	}
	// "30 or more", "30% or more": the comparator after the number
	if nc.op == "" {
		if _, n := b.next(after); n != nil && n.kind == kCmp && (n.entry().op == ">=" || n.entry().op == "<=") {
			nc.op = n.entry().op
			n.used = true
		}
	}
	// "over the age of 20", "under age 30": the comparator before the
	// column the number is of
	if nc.op == "" && p != nil && p.kind == kColumn && p.entry().column.Numeric() {
		if _, pp := b.prev(nc.pi); pp != nil && pp.kind == kCmp && !pp.used && pp.end <= p.start {
			nc.op = pp.entry().op
			pp.used = true
		}
	}
	if nc.op == "" {
		_, n := b.next(nc.last)
		switch {
		case p != nil && p.kind == kColumn && p.entry().column.Numeric():
			nc.op = "="
		case n != nil && n.kind == kColumn && !n.used && n.start == b.ms[nc.last].end && n.entry().column.Numeric() && n.entry().column.Role == model.RoleMeasure:
			// "courses with 4 credits": the number of the column after it
			nc.op = "="
		default:
			return nc, false
		}
	}
	return nc, true
}

// relatedCount reads "more than 3 wounds": a whole number before an
// entity related to the base by one-to-many steps compares how many of
// them each row has. It reports whether it applied.
func (b *builder) relatedCount(nc numberComparison) bool {
	m, p, op := nc.m, nc.p, nc.op
	j, n := b.next(nc.last)
	// "two or more courses": past the comparator after the number
	if n != nil && n.kind == kCmp && n.used {
		_, n = b.next(j)
	}
	if n == nil || n.kind != kEntity || op == "" || m.num != float64(int64(m.num)) {
		return false
	}
	e := b.entityOf(n)
	if e == nil || e == b.q.Base || !b.a.model.Reachable(b.q.Base, e) {
		return false
	}
	// the rows of e that belong to the base's rows ("departments with more
	// than 5 employees"), though e also has a row the base refers to (the
	// department's manager)
	if _, ok := b.a.model.ChildPath(b.q.Base, e); !ok {
		return false
	}
	m.used, n.used = true, true
	if p != nil && p.kind != kNumber {
		p.used = true
	}
	if nc.hi != nil {
		// "1 to 2 paragraphs", "between 3 and 5 orders": both bounds
		nc.hi.used = true
		lo := query.Filter{Entity: e, Count: &query.CountCond{Op: ">=", N: int64(m.num)}, Slot: "count:" + e.Name,
			Label: fmt.Sprintf("at least %d %s", int64(m.num), e.PluralLabel())}
		hi := query.Filter{Entity: e, Count: &query.CountCond{Op: "<=", N: int64(nc.hi.num)}, Slot: "count:" + e.Name,
			Label: fmt.Sprintf("at most %d %s", int64(nc.hi.num), e.PluralLabel())}
		b.addFilter(lo, m)
		b.addFilter(hi, nc.hi)
		return true
	}
	f := query.Filter{Entity: e, Count: &query.CountCond{Op: op, N: int64(m.num)}, Slot: "count:" + e.Name,
		Label: fmt.Sprintf("%s %s %s", opWord(op), strconv.FormatInt(int64(m.num), 10), e.PluralLabel())}
	b.addFilter(f, m)
	return true
}

// numberFilter compares the column the number is about with it: the one
// column a comparator or a unit names, else a column asked about.
func (b *builder) numberFilter(nc numberComparison) {
	m, p := nc.m, nc.p
	// "more than one employee" when employees are the rows themselves: a
	// count of rows, not a value of a column (asked, never guessed)
	if _, n := b.next(nc.last); n != nil && n.kind == kEntity && nc.unit == "" {
		return
	}
	cols := b.numberColumns(nc.pi, nc.last, nc.unit)
	if len(cols) == 0 {
		// "patients over 65" with no number to compare: asked about
		// (unknownWords), never dropped
		return
	}
	words := b.l.words(&mention{start: m.start, end: m.end})
	if p != nil && nc.pi >= 0 {
		words = strings.TrimSpace(b.words(p) + " " + words)
	}
	if nc.unit != "" {
		words += " " + nc.unit
	}
	m.used = true
	if p != nil {
		p.used = true
	}
	if nc.hi != nil {
		nc.hi.used = true
	}
	var col *model.Column
	switch {
	case len(cols) == 1:
		col = cols[0]
	case len(cols) > 1:
		col = b.numberColumnSlot(words, cols)
	}
	if col == nil {
		return
	}
	b.addNumberFilter(col, nc.op, m, nc.hi, words, nc.unit)
}

// inverseOps are the comparisons a "not" turns around.
var inverseOps = map[string]string{">": "<=", ">=": "<", "<": ">=", "<=": ">", "=": "!="}

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

// addNumberFilter compares col with the number m (to hi for "between"),
// said in unit: "3 hours" against a runtime in minutes is 180.
func (b *builder) addNumberFilter(col *model.Column, op string, m, hi *mention, words, unit string) {
	lit := func(v float64) model.Operand {
		if unit != "" && col.Unit != "" {
			if x, ok := units.Convert(v, unit, col.Unit); ok {
				v = math.Round(x*1e9) / 1e9
			}
		}
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
	if cmpIdx >= 0 && b.ms[cmpIdx].kind == kCmp {
		return b.byComparatorKind(b.words(b.ms[cmpIdx]), cands)
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

// unitMatches reports whether a number said in unit can be compared with
// column c: the same unit, one of its words, or a unit of the same kind
// ("hours" against minutes, "30%" against a fraction).
func unitMatches(c *model.Column, unit string) bool {
	if c.Unit != "" && units.Convertible(unit, c.Unit) {
		return true
	}
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

// byComparatorKind narrows the columns a number may be about, none named,
// to those of a dimension comparative's kind ("lighter than 3500" →
// weight), looking at related rows when none of cols has it. No column
// of the kind leaves nothing to compare (the number is then asked
// about), except for size words, which say "a bigger number" as well.
func (b *builder) byComparatorKind(words string, cols []*model.Column) []*model.Column {
	first, _, _ := strings.Cut(words, " ")
	d, ok := dimensionWords[first]
	if !ok || superlativeForm(first) {
		return cols
	}
	var out []*model.Column
	for _, c := range cols {
		if ofKind(c, d) {
			out = append(out, c)
		}
	}
	if len(out) == 0 {
		out = b.comparativeColumns(first)
	}
	if len(out) == 0 && d.generic {
		return cols
	}
	return out
}

// comparatives are the words that compare two quantities with "than".
var comparatives = map[string]string{
	"fewer": "<", "less": "<", "lower": "<", "smaller": "<",
	"more": ">", "greater": ">", "higher": ">", "larger": ">", "bigger": ">",
}

// columnComparisons reads "lines where we received fewer outers than we
// ordered" as received_outers < ordered_outers: a comparative with "than"
// whose two sides each name one numeric column of the same entity, told
// apart by a word only that column has. Anything less certain is left
// alone (and its words are then asked about), never guessed.
func (b *builder) columnComparisons() {
	toks := b.l.toks
	for k := range toks {
		op, ok := comparatives[toks[k].Text]
		if !ok {
			continue
		}
		than := -1
		for j := k + 1; j < len(toks) && j <= k+3; j++ {
			if toks[j].Text == "than" {
				than = j
				break
			}
		}
		if than < 0 || than+1 >= len(toks) || toks[than+1].Kind == text.Number {
			continue // "more than 3" is a number comparison
		}
		left := b.stemsIn(max(0, k-3), than) // the words before, and between ("fewer outers than")
		right := b.stemsIn(than+1, min(len(toks), than+4))
		for _, e := range b.entitiesInPlay() {
			cols := numericColumns(e)
			// the entity's name before the comparative is not a side
			// ("purchase order lines received fewer outers than were ordered")
			l, r := withoutEntityWords(left, e), right
			a, c := sideColumn(cols, l, r), sideColumn(cols, r, l)
			if a == nil || c == nil || a == c || !comparable(a, c) {
				continue
			}
			ref := func(col *model.Column) *model.ColumnRef {
				return &model.ColumnRef{Entity: e.Name, Column: col.Name}
			}
			cond := model.Compare{Left: model.Operand{Column: ref(a)}, Op: op, Right: []model.Operand{{Column: ref(c)}}}
			f := query.Filter{Entity: e, Cond: cond, Slot: "compare:" + a.Name + op + c.Name,
				Label: fmt.Sprintf("%s %s %s", a.Title(), opWord(op), c.Title())}
			f.Start, f.End = toks[max(0, k-3)].Start, toks[min(len(toks), than+4)-1].End
			b.q.Filters = append(b.q.Filters, f)
			b.markUsed(max(0, k-3), min(len(toks), than+4), a, c)
			break
		}
	}
}

// withoutEntityWords returns the stems less those that name entity e.
func withoutEntityWords(stems map[string]bool, e *model.Entity) map[string]bool {
	out := map[string]bool{}
	names := map[string]bool{}
	for _, w := range entityWords(e) {
		for _, s := range strings.Fields(text.StemPhrase(w)) {
			names[s] = true
		}
	}
	for s := range stems {
		if !names[s] {
			out[s] = true
		}
	}
	return out
}

// columnAgainstColumn reads "results below the reference low": a
// comparator followed by a numeric column compares that column with the
// one named just before the comparator, else with the entity's only
// other measure. Without either it is left alone.
func (b *builder) columnAgainstColumn() {
	for i, m := range b.ms {
		if m.kind != kCmp || m.used {
			continue
		}
		op := m.entry().op
		switch op {
		case "<", ">", "<=", ">=":
		default:
			continue
		}
		_, n := b.next(i)
		if n == nil || n.kind != kColumn || n.used || len(columnEntities(n.entries)) != 1 {
			continue
		}
		c := n.entry().column
		e := c.Entity()
		if !c.Numeric() || (e != b.q.Base && !b.a.model.ToOne(b.q.Base, e)) {
			continue
		}
		var a *model.Column
		if _, p := b.prev(i); p != nil && p.kind == kColumn && !p.used && p.entry().column.Numeric() && p.entry().column.Entity() == e && p.entry().column != c {
			a = p.entry().column
			p.used = true
		} else {
			for _, x := range e.Columns {
				if x != c && x.Role == model.RoleMeasure && x.Numeric() {
					if a != nil {
						a = nil
						break
					}
					a = x
				}
			}
		}
		if a == nil {
			continue
		}
		ref := func(col *model.Column) *model.ColumnRef { return &model.ColumnRef{Entity: e.Name, Column: col.Name} }
		cond := model.Compare{Left: model.Operand{Column: ref(a)}, Op: op, Right: []model.Operand{{Column: ref(c)}}}
		f := query.Filter{Entity: e, Cond: cond, Slot: "compare:" + a.Name + op + c.Name, Label: fmt.Sprintf("%s %s %s", a.Title(), map[string]string{"<": "below", "<=": "at most", ">": "above", ">=": "at least"}[op], c.Title())}
		f.Start, f.End = b.l.toks[m.start].Start, b.l.toks[n.end-1].End
		b.q.Filters = append(b.q.Filters, f)
		m.used, n.used = true, true
	}
}

// comparable reports whether two columns measure the same kind of thing:
// the same unit, and without units a word in common ("outers ordered",
// "outers received") — never a quantity against a price.
func comparable(a, c *model.Column) bool {
	if a.Unit != c.Unit {
		return false
	}
	if a.Unit != "" {
		return true
	}
	sa := columnStems(a)
	for s := range columnStems(c) {
		if sa[s] {
			return true
		}
	}
	return false
}

// stemsIn returns the stems of the tokens in [from, to).
func (b *builder) stemsIn(from, to int) map[string]bool {
	out := map[string]bool{}
	for i := from; i < to; i++ {
		out[b.l.stems[i]] = true
	}
	return out
}

// markUsed marks the mentions in a token range that name nothing but the
// compared columns (or nothing at all) as used.
func (b *builder) markUsed(from, to int, cols ...*model.Column) {
	for _, m := range b.ms {
		if m.start < from || m.end > to || m.used {
			continue
		}
		switch m.kind {
		case kUnknown, kStop, kCmp:
			m.used = true
		case kColumn, kMeasure:
			for _, c := range cols {
				if m.entry().column == c {
					m.used = true
				}
			}
		}
	}
}

func numericColumns(e *model.Entity) []*model.Column {
	var out []*model.Column
	for _, c := range e.Columns {
		if c.Numeric() && c.Role != model.RoleID {
			out = append(out, c)
		}
	}
	return out
}

// columnStems are the stems of the words that name a column.
func columnStems(c *model.Column) map[string]bool {
	out := map[string]bool{}
	for _, p := range append([]string{humanizeName(c.Name), c.Label}, c.Synonyms...) {
		for _, w := range strings.Fields(strings.ToLower(p)) {
			out[text.Stem(w)] = true
		}
	}
	return out
}

// sideColumn is the one column named on a side of a comparison: it has a
// word on this side that no other column has, and no other column has
// such a word there.
func sideColumn(cols []*model.Column, side, other map[string]bool) *model.Column {
	var found *model.Column
	for _, c := range cols {
		own := columnStems(c)
		distinct := false
		for s := range side {
			if !own[s] || other[s] {
				continue
			}
			shared := false
			for _, d := range cols {
				if d != c && columnStems(d)[s] {
					shared = true
				}
			}
			distinct = distinct || !shared
		}
		if distinct {
			if found != nil {
				return nil // two columns named on one side: not certain
			}
			found = c
		}
	}
	return found
}

// nullFilters reads "customers that don't have a credit limit" (IS NULL)
// and "customers with a credit limit" (IS NOT NULL): a column named after a
// negation or "with", and compared with nothing.
func (b *builder) nullFilters() {
	for i, m := range b.ms {
		if m.kind != kColumn || m.used || b.grouped[m] || b.comparedLater(i) {
			continue
		}
		if _, n := b.next(i); n != nil && n.kind == kTime {
			continue // "an expected delivery date after today": the period's date
		}
		c := m.entry().column
		if c.Role == model.RoleID || c.Role == model.RoleFlag {
			continue
		}
		op := ""
		switch {
		case b.negated(i):
			op = "is null"
		case b.withBefore(i) && c.Role != model.RoleName:
			op = "is not null"
		default:
			continue
		}
		if !b.a.model.Reachable(b.q.Base, c.Entity()) {
			continue
		}
		ref := &model.ColumnRef{Entity: c.Entity().Name, Column: c.Name}
		label := "no " + c.Title()
		if op == "is not null" {
			label = "a " + c.Title()
		}
		b.addFilter(query.Filter{Entity: c.Entity(), Cond: model.Compare{Left: model.Operand{Column: ref}, Op: op}, Label: label, Slot: "null:" + c.Name}, m)
	}
}

// comparedLater reports whether mention j is followed by a comparison.
func (b *builder) comparedLater(j int) bool {
	_, n := b.next(j)
	return n != nil && (n.kind == kCmp || n.kind == kOp || n.kind == kNumber)
}

// danglingComparisons asks about a comparison that compared nothing
// ("received fewer than expected" when no two columns could be told
// apart): answering without it would drop a condition the user stated.
func (b *builder) danglingComparisons() {
	if b.q.Subject == nil {
		return
	}
	for i, m := range b.ms {
		if m.kind != kCmp || m.used || !strings.Contains(b.words(m), "than") {
			continue
		}
		end := m.end
		if _, n := b.next(i); n != nil && n.kind != kStop {
			end = n.end
		}
		words := b.l.words(&mention{start: m.start, end: end})
		// keyed like an unknown phrase, so that an answer rewrites the words
		sl := &Slot{Key: "unknown:" + words, Kind: KindUnknown, Priority: Important, Text: words, Ask: true, Confidence: 0.4,
			Context:  fmt.Sprintf("I could not tell which two quantities %q compares.", words),
			Question: fmt.Sprintf("What does %q compare? Say it again naming both quantities, or should I leave it out?", words),
			Options:  []*Option{{ID: "ignore", Label: fmt.Sprintf("Leave %q out", words), ignore: true, BestGuess: true}}}
		m.used = true
		b.settle(sl, func(answer string) (*Option, string) {
			return &Option{ID: "use:" + answer, Label: answer, rewrite: answer}, ""
		})
	}
}

// dateComparisons reads "orders shipped after their required date" and
// "managers who started before their hire date": two date columns of the
// rows, one named before "after"/"before"/"later than"/"earlier than" and
// one after it.
func (b *builder) dateComparisons() {
	for i, m := range b.ms {
		op := ""
		switch b.words(m) {
		case "after", "later than", "since":
			op = ">"
		case "before", "earlier than", "prior to", "until":
			op = "<"
		}
		if op == "" || m.used {
			continue
		}
		pi, p := b.prev(i)
		ni, n := b.next(i)
		if p == nil || n == nil || pi < 0 || ni < 0 {
			continue
		}
		a, c := b.dateColumn(p), b.dateColumn(n)
		if a == nil || c == nil || a == c || !b.a.model.ToOne(b.q.Base, a.Entity()) || !b.a.model.ToOne(b.q.Base, c.Entity()) {
			continue
		}
		ref := func(col *model.Column) *model.ColumnRef {
			return &model.ColumnRef{Entity: col.Entity().Name, Column: col.Name}
		}
		cond := model.Compare{Left: model.Operand{Column: ref(a)}, Op: op, Right: []model.Operand{{Column: ref(c)}}}
		f := query.Filter{Entity: a.Entity(), Cond: cond, Slot: "compare:" + a.Name + op + c.Name,
			Label: fmt.Sprintf("%s %s %s", a.Title(), map[string]string{">": "after", "<": "before"}[op], c.Title())}
		if a.Entity() != c.Entity() {
			continue // a condition between two tables' dates is not one row's
		}
		f.Start, f.End = b.l.toks[p.start].Start, b.l.toks[n.end-1].End
		b.q.Filters = append(b.q.Filters, f)
		p.used, m.used, n.used = true, true, true
		// a stored value the date's word also spelled is not a condition
		p.kind, n.kind = kColumn, kColumn
	}
}

// dateColumn is the date column a mention's words name, or nil; the
// words may have been read as a stored value too ("shipped": a status
// and the shipped date).
func (b *builder) dateColumn(m *mention) *model.Column {
	entries := m.entries
	for _, mt := range b.l.matches(m.start) {
		if mt.end == m.end {
			entries = append(entries, mt.entries...)
		}
	}
	for _, e := range entries {
		if e.kind == kColumn && e.column.Temporal() && b.a.model.Reachable(b.q.Base, e.entity) {
			return e.column
		}
	}
	return nil
}

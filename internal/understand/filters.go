package understand

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/clarify-sql/clarify/internal/model"
	"github.com/clarify-sql/clarify/internal/query"
	"github.com/clarify-sql/clarify/internal/understand/text"
	"github.com/clarify-sql/clarify/internal/understand/timeexpr"
)

// negated reports whether the mention at index i is negated ("not
// infected", "without infected wounds", "no open wounds").
func (b *builder) negated(i int) bool {
	for j := i - 1; j >= 0 && j >= i-3; j-- {
		switch b.ms[j].kind {
		case kNot:
			return true
		case kStop, kList, kEntity:
			continue
		}
		return false
	}
	return false
}

func (b *builder) isScopeVal(m *mention) bool {
	for _, s := range b.scopeVals {
		if s == m {
			return true
		}
	}
	return false
}

func (b *builder) addFilter(f query.Filter, m *mention) {
	if m != nil {
		f.Start, f.End = b.l.toks[m.start].Start, b.l.toks[m.end-1].End
		m.used = true
	}
	b.q.Filters = append(b.q.Filters, f)
}

// filters turns values, flags, terms and vague words into filters.
func (b *builder) filters() {
	for i, m := range b.ms {
		if m.used {
			continue
		}
		switch m.kind {
		case kValue, kGroup:
			if b.isScopeVal(m) || len(m.vals) == 0 || b.grouped[m] {
				continue
			}
			b.valueFilter(i, m)
		case kFlag:
			b.flagFilter(i, m)
		case kTerm:
			b.termFilter(i, m)
		case kVague:
			b.vagueFilter(i, m)
		case kSuperlative:
			b.superlative(i, m)
		}
	}
	b.keyFilters()
	b.nullFilters()
	b.q.Filters = append(b.q.Filters, b.latestFilters...)
	b.childEntities()
	b.mergeValueFilters()
}

// negatedMeasures reads "stock items that had no sales": a measure named
// after a negation is the absence of the rows it adds up (their dated
// parent when the measure is dated by one, so a period applies to it),
// not a total. It runs before the intent, which would take the measure.
func (b *builder) negatedMeasures() {
	q := b.q
	for i, m := range b.ms {
		if m.kind != kMeasure || m.used || b.grouped[m] || !b.negated(i) || q.Subject == nil {
			continue
		}
		e := b.a.model.Entity(m.entry().measure.Entity)
		if e == nil || e == q.Subject || !b.a.model.Reachable(q.Subject, e) || b.a.model.ToOne(q.Subject, e) {
			continue
		}
		if tc := b.a.model.TimeColumn(e); tc != nil && tc.Entity() != e && !b.a.model.ToOne(q.Subject, tc.Entity()) {
			e = tc.Entity()
		}
		m.used = true
		b.addFilter(query.Filter{Entity: e, Exclude: true, Label: "no " + e.PluralLabel(), Slot: "entity:" + e.Name}, m)
	}
}

// mergeValueFilters joins equality filters on one column into one IN: a row
// cannot hold two values of a column, so "HDL and LDL" and "left or right
// heel" both mean either value.
func (b *builder) mergeValueFilters() {
	q := b.q
	first := map[string]int{}
	var out []query.Filter
	for _, f := range q.Filters {
		col, vals, ok := valueCond(f)
		if !ok {
			out = append(out, f)
			continue
		}
		key := f.Entity.Name + "." + col
		i, seen := first[key]
		if !seen {
			first[key] = len(out)
			out = append(out, f)
			continue
		}
		_, have, _ := valueCond(out[i])
		all := append(append([]model.Operand{}, have...), vals...)
		ref := &model.ColumnRef{Entity: f.Entity.Name, Column: col}
		out[i].Cond = model.Compare{Left: model.Operand{Column: ref}, Op: "in", Right: all}
		out[i].Label += " or " + strings.TrimPrefix(f.Label, f.Entity.Column(col).Title()+" is ")
		if f.End > out[i].End {
			out[i].End = f.End
		}
	}
	q.Filters = out
}

// valueCond returns the column and values of an equality or IN filter.
func valueCond(f query.Filter) (string, []model.Operand, bool) {
	c, ok := f.Cond.(model.Compare)
	if !ok || f.Exclude || c.Left.Column == nil || (c.Op != "=" && c.Op != "in") {
		return "", nil, false
	}
	for _, r := range c.Right {
		if _, isStr := r.Literal.(string); !isStr {
			return "", nil, false
		}
	}
	return c.Left.Column.Column, c.Right, true
}

// childEntities reads a named entity related to the base by one-to-many
// steps: "customers who never placed an order" keeps customers with no
// order; "patients with wounds" those with at least one.
func (b *builder) childEntities() {
	q := b.q
	for i, m := range b.ms {
		if m.kind != kEntity || m.used || m == b.subjectM || b.grouped[m] {
			continue
		}
		e := b.entityOf(m)
		if e == nil || e == q.Base {
			continue
		}
		if !b.a.model.Reachable(q.Base, e) || b.a.model.ToOne(q.Base, e) {
			continue
		}
		has := false
		for _, f := range q.Filters {
			if f.Entity == e {
				has = true
			}
		}
		switch {
		case b.negated(i):
			m.used = true
			b.addFilter(query.Filter{Entity: e, Exclude: true, Label: "no " + e.PluralLabel(), Slot: "entity:" + e.Name}, m)
		case !has && b.withBefore(i):
			m.used = true
			b.addFilter(query.Filter{Entity: e, Label: "at least one " + e.Singular(), Slot: "entity:" + e.Name}, m)
		}
	}
}

// withBefore reports whether "with", "have" or "has" comes just before
// mention i.
func (b *builder) withBefore(i int) bool {
	for j := i - 1; j >= 0 && j >= i-3; j-- {
		switch b.words(b.ms[j]) {
		case "with", "have", "has", "having", "had", "с", "есть":
			return true
		}
		if b.ms[j].kind != kStop {
			return false
		}
	}
	return false
}

func (b *builder) valueFilter(i int, m *mention) {
	v := m.vals[0]
	words := b.words(m)
	ref := &model.ColumnRef{Entity: v.col.Entity().Name, Column: v.col.Name}
	var c model.Cond
	label := fmt.Sprintf("%s is %s", v.col.Title(), v.label)
	if len(v.values) == 1 {
		c = model.Compare{Left: model.Operand{Column: ref}, Op: "=", Right: []model.Operand{{Literal: v.values[0]}}}
	} else {
		ops := make([]model.Operand, len(v.values))
		for k, x := range v.values {
			ops[k] = model.Operand{Literal: x}
		}
		c = model.Compare{Left: model.Operand{Column: ref}, Op: "in", Right: ops}
		label = fmt.Sprintf("%s is %s (%s)", v.col.Title(), v.label, strings.Join(v.values, ", "))
		if m.kind == kValue && v.label == "" {
			label = fmt.Sprintf("%s is one of %s", v.col.Title(), strings.Join(v.values, ", "))
		}
	}
	key := "value:" + words
	if m.conf < 0.85 {
		// a link by part of a name or despite a typo is shown as an assumption
		sl := &Slot{Key: key, Kind: KindValue, Priority: Important, Text: words, Method: MethodFuzzy, Confidence: m.conf,
			Why: "the closest value in the data", Options: []*Option{{ID: optionID(v.col.Name + ":" + v.label), Label: v.label, column: v.col, values: v.values}}}
		b.settle(sl, nil)
	}
	f := query.Filter{Entity: v.col.Entity(), Cond: c, Label: label, Slot: key}
	if b.negated(i) {
		f = b.negate(f)
	}
	b.addFilter(f, m)
}

// negate turns a filter around: NOT on the base entity, "has no such row"
// on another ("patients without infected wounds").
func (b *builder) negate(f query.Filter) query.Filter {
	if f.Entity == b.q.Base {
		f.Cond = model.Not{Item: f.Cond}
		f.Label = "not " + f.Label
		return f
	}
	f.Exclude = true
	f.Label = "no " + f.Entity.Singular() + " where " + f.Label
	return f
}

func (b *builder) flagFilter(i int, m *mention) {
	e := m.entry()
	col := e.column
	if len(m.vals) > 0 && m.vals[0].col != nil {
		col = m.vals[0].col
	}
	// several tables may share a flag; prefer the one in context
	val := !e.neg
	ref := &model.ColumnRef{Entity: col.Entity().Name, Column: col.Name}
	c := model.Compare{Left: model.Operand{Column: ref}, Op: "=", Right: []model.Operand{{Literal: val}}}
	label := col.Title()
	if !val {
		label = "not " + label
	}
	f := query.Filter{Entity: col.Entity(), Cond: c, Label: label, Slot: "flag:" + col.Name}
	if b.negated(i) {
		f = b.negate(f)
	}
	b.addFilter(f, m)
}

func (b *builder) termFilter(_ int, m *mention) {
	t := m.entry().term
	words := b.words(m)
	conf := t.Confidence
	if conf == 0 {
		conf = 1
	}
	sl := &Slot{Key: "term:" + t.Name, Kind: KindTerm, Priority: Helpful, Text: words, Method: MethodDefault, Confidence: conf,
		Why:     "the model's definition of " + strconvQuote(words),
		Options: []*Option{{ID: t.Name, Label: t.Description, Description: t.Description}}}
	b.settle(sl, nil)
	e := b.a.model.Entity(t.Entity)
	f := query.Filter{Entity: e, Label: t.Description, Slot: sl.Key}
	if t.Condition != "" {
		c, err := model.ParseCond(t.Condition)
		if err != nil {
			return // validated at load; unreachable
		}
		f.Cond = qualify(c, e)
	} else {
		f.Predicate = t.Predicate
	}
	b.addFilter(f, m)
}

func strconvQuote(s string) string { return strconv.Quote(s) }

// qualify gives every column of a condition an entity.
func qualify(c model.Cond, e *model.Entity) model.Cond {
	switch c := c.(type) {
	case model.And:
		out := model.And{}
		for _, it := range c.Items {
			out.Items = append(out.Items, qualify(it, e))
		}
		return out
	case model.Or:
		out := model.Or{}
		for _, it := range c.Items {
			out.Items = append(out.Items, qualify(it, e))
		}
		return out
	case model.Not:
		return model.Not{Item: qualify(c.Item, e)}
	case model.Compare:
		q := func(o model.Operand) model.Operand {
			if o.Column != nil && o.Column.Entity == "" {
				return model.Operand{Column: &model.ColumnRef{Entity: e.Name, Column: o.Column.Column}}
			}
			return o
		}
		out := model.Compare{Left: q(c.Left), Op: c.Op}
		for _, r := range c.Right {
			out.Right = append(out.Right, q(r))
		}
		return out
	}
	return c
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

// namesPeriod reports whether the question names a period of its own.
func (b *builder) namesPeriod() bool {
	for _, m := range b.ms {
		if m.kind == kTime && !m.window.All {
			return true
		}
	}
	return false
}

func lowerFirst(s string) string {
	if s == "" {
		return s
	}
	r := []rune(s)
	if len(r) > 1 && r[1] >= 'A' && r[1] <= 'Z' {
		return s // an acronym
	}
	return strings.ToLower(string(r[0])) + string(r[1:])
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
		c, reason := b.ParseCondition(answer, target)
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

// ParseCondition reads a condition typed by a user against entity e: column
// words may be names, labels or synonyms ("area > 15"). Values stay values:
// the condition compiles to bound parameters.
func (b *builder) ParseCondition(answer string, e *model.Entity) (model.Cond, string) {
	c, err := model.ParseCond(b.columnWordsToNames(answer, e))
	if err != nil {
		return nil, fmt.Sprintf("I could not read %q as a condition (for example \"area > 15\")", answer)
	}
	c = qualify(c, e)
	for _, ref := range model.CondColumns(c) {
		if _, err := b.a.model.ResolveColumn(e, ref); err != nil {
			return nil, fmt.Sprintf("%s: %v", answer, err)
		}
	}
	if why := checkTypes(b.a.model, e, c); why != "" {
		return nil, why
	}
	return c, ""
}

// columnWordsToNames replaces column words of entity e ("reorder level")
// with column names so the condition parser can read them.
func (b *builder) columnWordsToNames(answer string, e *model.Entity) string {
	norm := text.Normalize(answer)
	type rep struct{ from, to string }
	var reps []rep
	for _, c := range e.Columns {
		for _, w := range append([]string{c.Title(), c.Label}, c.Synonyms...) {
			if w != "" && w != c.Name {
				reps = append(reps, rep{text.Normalize(w), c.Name})
			}
		}
	}
	// longest words first
	for i := 1; i < len(reps); i++ {
		for j := i; j > 0 && len(reps[j].from) > len(reps[j-1].from); j-- {
			reps[j], reps[j-1] = reps[j-1], reps[j]
		}
	}
	for _, r := range reps {
		norm = text.ReplaceWords(norm, r.from, r.to)
	}
	return norm
}

// checkTypes rejects comparisons of a column with a value of the wrong kind.
func checkTypes(m *model.Model, e *model.Entity, c model.Cond) string {
	switch c := c.(type) {
	case model.And:
		for _, it := range c.Items {
			if w := checkTypes(m, e, it); w != "" {
				return w
			}
		}
	case model.Or:
		for _, it := range c.Items {
			if w := checkTypes(m, e, it); w != "" {
				return w
			}
		}
	case model.Not:
		return checkTypes(m, e, c.Item)
	case model.Compare:
		if c.Left.Column == nil {
			return "a condition must start with a column"
		}
		col, err := m.ResolveColumn(e, *c.Left.Column)
		if err != nil {
			return err.Error()
		}
		for _, r := range c.Right {
			if r.Column != nil {
				continue
			}
			switch r.Literal.(type) {
			case float64, int64:
				if !col.Numeric() && col.Role != model.RoleID {
					return fmt.Sprintf("%s is not a number column", col.Title())
				}
			case string:
				if col.Numeric() && col.Role != model.RoleID {
					return fmt.Sprintf("%s holds numbers, not text", col.Title())
				}
			}
		}
	}
	return ""
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
	b.q.Order = append(b.q.Order, query.Order{Column: c, Desc: !strings.EqualFold(dir, "asc")})
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
		}
	}
	b.q.Limit = limit
	if b.q.Intent == query.IntentList {
		b.q.Intent = query.IntentTop
	}
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

// keyFilters reads "order 12345" / "patient P0003": an entity followed by
// its key.
func (b *builder) keyFilters() {
	for i, m := range b.ms {
		if m.kind != kEntity {
			continue
		}
		_, n := b.next(i)
		if n == nil || n.used {
			continue
		}
		e := b.entityOf(m)
		if e == nil || e.KeyColumn() == nil {
			continue
		}
		// "books with 352 pages": the number of a column, not a key
		if _, after := b.next(b.idx(n)); n.kind == kNumber && after != nil && after.start == n.end && after.kind == kColumn && after.entry().column.Numeric() {
			continue
		}
		var lit any
		switch {
		case n.kind == kNumber && e.KeyColumn().Numeric() && n.num == math.Trunc(n.num):
			lit = int64(n.num)
		case n.kind == kUnknown && hasDigit(b.words(n)):
			lit = strings.ToUpper(b.words(n))
		default:
			continue
		}
		ref := &model.ColumnRef{Entity: e.Name, Column: e.Key}
		c := model.Compare{Left: model.Operand{Column: ref}, Op: "=", Right: []model.Operand{{Literal: lit}}}
		b.addFilter(query.Filter{Entity: e, Cond: c, Label: fmt.Sprintf("%s is %v", e.KeyColumn().Title(), lit), Slot: "key:" + e.Name}, n)
	}
}

func hasDigit(s string) bool { return strings.ContainsAny(s, "0123456789") }

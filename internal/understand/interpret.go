package understand

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/clarify-sql/clarify/internal/model"
	"github.com/clarify-sql/clarify/internal/query"
	"github.com/clarify-sql/clarify/internal/understand/text"
	"github.com/clarify-sql/clarify/internal/understand/valueindex"
)

// builder builds one Interpretation from linked mentions.
type builder struct {
	// superlativeBy is the column named after a superlative ("the largest
	// wounds by area"), which it orders by instead of the term's own
	superlativeBy *model.Column
	a             *Analyzer
	l             *linker
	ms            []*mention
	s             Settings
	ctx           context.Context
	q             *query.Query
	in            *Interpretation

	context   []*model.Entity // entities the question names
	grouped   map[*mention]bool
	subjectM  *mention // the entity mention chosen as subject
	rankM     *mention
	scopeVals []*mention
	// "when was the most recent test": the aggregate of a time column
	whenAgg *query.Agg
	// "which sector has the most symbols": group by a column, keep the top
	mostBy, mostM *mention
	// "the first patient registered": order by a date, keep the first rows
	firstBy *query.Order
	// "on the latest trading day": filters waiting for the base to be known
	latestFilters  []query.Filter
	explicitLatest bool
	bucket         string // "by month": the trend bucket
	allTime        bool   // "all time" was said
}

func (b *builder) build() {
	b.grouped = map[*mention]bool{}
	b.superlativeColumns()
	b.markGroupTargets()
	b.contextEntities()
	b.resolveColumns()
	b.resolveValues()
	b.latestPeriods()
	b.chooseSubject()
	if b.q.Subject == nil {
		b.unknownWords()
		b.finish()
		return
	}
	b.negatedMeasures()
	b.intent()
	b.filters()
	b.columnComparisons()
	b.numbers()
	b.columnAgainstColumn()
	b.window()
	b.ordering()
	b.policies()
	b.finish()
}

// ordering reads how a list is to be sorted: "sorted by date of birth",
// "oldest first", "alphabetically". Other intents order by what they
// compute.
func (b *builder) ordering() {
	q := b.q
	if q.Intent != query.IntentList || len(q.Order) > 0 || q.Base == nil {
		return
	}
	var col *model.Column
	desc, dirSaid := false, false
	for i, m := range b.ms {
		switch m.kind {
		case kOrder:
			if _, n := b.next(i); n != nil && n.kind == kColumn && col == nil {
				if c := n.entry().column; b.a.model.Reachable(q.Base, c.Entity()) {
					col = c
					n.used = true
				}
			}
			m.used = true
		case kDesc:
			desc, dirSaid = true, true
			m.used = true
		case kAsc:
			if m.entry().op == "alpha" && col == nil {
				col = q.Base.DisplayColumn()
			}
			desc, dirSaid = false, true
			m.used = true
		}
	}
	if col == nil && dirSaid {
		// "oldest first": by the rows' own date
		if tc := b.a.model.TimeColumn(q.Base); tc != nil && tc.Entity() == q.Base {
			col = tc
		}
	}
	if col != nil {
		q.Order = []query.Order{{Column: col, Desc: desc}}
	}
}

// latestPeriods reads "on the latest trading day" (a filter to the newest
// date of a time column) and "when was the most recent test" (the newest
// date itself).
func (b *builder) latestPeriods() {
	when := len(b.ms) > 0 && (b.words(b.ms[0]) == "when" || b.words(b.ms[0]) == "когда")
	for i, m := range b.ms {
		if m.kind != kLatest && m.kind != kEarliest {
			continue
		}
		j, n := b.next(i)
		if n == nil || j != i+1 && b.ms[i+1].kind != kStop {
			continue
		}
		// "when was the first NVDA trade": values may stand between
		for when && n != nil && (n.kind == kValue || n.kind == kGroup) {
			j, n = b.next(j)
		}
		if n == nil {
			continue
		}
		var tc *model.Column
		switch n.kind {
		case kColumn:
			if c := n.entry().column; c.Temporal() {
				tc = c
			}
		case kEntity:
			if ents := distinctEntities(n.entries); len(ents) == 1 {
				tc = b.a.model.TimeColumn(ents[0])
			}
		}
		if tc == nil {
			continue
		}
		op := "max"
		if m.kind == kEarliest {
			op = "min"
		}
		switch {
		case !when && !b.prepBefore(i) && n.kind == kEntity && m.kind == kEarliest:
			// "the first patient registered at AML Clinic": oldest first
			if _, after := b.next(b.idx(n)); after != nil && after.kind == kColumn && after.entry().column.Temporal() {
				tc = after.entry().column
				after.used = true
			}
			m.used = true
			b.firstBy = &query.Order{Column: tc}
		case when:
			m.used = true
			if n.kind == kColumn {
				n.used = true
			}
			b.whenAgg = &query.Agg{Func: op, Column: tc, Label: map[string]string{"max": "latest ", "min": "earliest "}[op] + tc.Title()}
		case b.prepBefore(i) && op == "max":
			m.used = true
			if n.kind == kColumn {
				n.used = true
			} else {
				b.grouped[n] = true // not the subject
			}
			b.latestFilters = append(b.latestFilters, query.Filter{Entity: tc.Entity(), LatestOf: tc, Label: "on the latest " + tc.Title(), Slot: "latest:" + tc.Name,
				Start: b.l.toks[m.start].Start, End: b.l.toks[n.end-1].End})
		}
	}
}

// prepBefore reports whether a preposition of place in time comes just
// before mention i ("on", "from", "at", "in", "for", "as of").
func (b *builder) prepBefore(i int) bool {
	for j := i - 1; j >= 0 && j >= i-2; j-- {
		switch b.words(b.ms[j]) {
		case "on", "from", "at", "in", "for", "of", "as", "during":
			return true
		case "the", "her", "his", "their", "its", "my", "our":
			continue
		}
		return false
	}
	return false
}

// superlativeColumns reads "the largest wound area" as the maximum of a
// column: a superlative followed by a numeric column is an aggregate word.
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

// settle applies a stored resolution to a slot and records the slot. parse
// turns free text into an option; it returns a reason when it cannot.
func (b *builder) settle(sl *Slot, parse func(string) (*Option, string)) *Option {
	if sl.Method == "" || sl.Chosen < 0 || sl.Chosen >= len(sl.Options) {
		sl.Chosen = sl.Best() // slots that chose nothing start from the best guess
	}
	if r, ok := b.s.Resolved[sl.Key]; ok {
		method := r.Method
		if method == "" {
			method = MethodUser
		}
		conf := r.Confidence
		if conf == 0 {
			conf = 1
			if method == MethodPreference {
				conf = 0.9
			}
		}
		switch {
		case r.Skipped:
			sl.Chosen, sl.Method, sl.Ask = sl.Best(), MethodSkip, false
			sl.Confidence = 0.7
			sl.Why = "you left it to my best judgment"
		case r.OptionID != "":
			for i, o := range sl.Options {
				if o.ID == r.OptionID {
					sl.Chosen, sl.Method, sl.Confidence, sl.Ask = i, method, conf, false
					if method == MethodPreference {
						sl.Why = "your usual choice"
					}
					break
				}
			}
		case r.FreeText != "" && parse != nil:
			o, why := parse(r.FreeText)
			if o == nil {
				sl.Invalid = why
				break
			}
			idx := -1
			for i, have := range sl.Options {
				if have.ID == o.ID {
					idx = i
				}
			}
			if idx < 0 {
				sl.Options = append(sl.Options, o)
				idx = len(sl.Options) - 1
			}
			sl.Chosen, sl.Method, sl.Confidence, sl.Ask, sl.FreeText = idx, method, conf, false, r.FreeText
		}
	}
	b.in.Slots = append(b.in.Slots, sl)
	return sl.Choice()
}

// next returns the first mention after index i that is not a filler.
func (b *builder) next(i int) (int, *mention) {
	for j := i + 1; j < len(b.ms); j++ {
		if k := b.ms[j].kind; k != kStop && k != kList {
			return j, b.ms[j]
		}
	}
	return -1, nil
}

// prev returns the last mention before index i that is not a filler.
func (b *builder) prev(i int) (int, *mention) {
	for j := i - 1; j >= 0; j-- {
		if k := b.ms[j].kind; k != kStop && k != kList {
			return j, b.ms[j]
		}
	}
	return -1, nil
}

func (b *builder) idx(m *mention) int {
	for i, x := range b.ms {
		if x == m {
			return i
		}
	}
	return -1
}

func (b *builder) words(m *mention) string { return b.l.words(m) }

// markGroupTargets marks what follows "by"/"per": grouped, not a subject.
func (b *builder) markGroupTargets() {
	for i, m := range b.ms {
		if m.kind != kBy && m.kind != kPer {
			continue
		}
		// "for each Consumer Staples stock": values may qualify the group
		for j := i + 1; j < len(b.ms); j++ {
			n := b.ms[j]
			if n.kind == kStop || n.kind == kList || n.kind == kValue || n.kind == kGroup {
				continue
			}
			switch n.kind {
			case kEntity, kColumn, kMeasure, kUnknown, kFlag:
				b.grouped[n] = true
			}
			break
		}
	}
}

// contextEntities collects entities the question names unambiguously.
func (b *builder) contextEntities() {
	seen := map[*model.Entity]bool{}
	add := func(e *model.Entity) {
		if e != nil && !seen[e] {
			seen[e] = true
			b.context = append(b.context, e)
		}
	}
	for _, m := range b.ms {
		switch m.kind {
		case kEntity:
			if len(distinctEntities(m.entries)) == 1 {
				add(m.entry().entity)
			}
		case kMeasure, kTerm:
			add(m.entry().entity)
		case kColumn:
			// a column only one entity has names that entity ("which day …")
			if ents := columnEntities(m.entries); len(ents) == 1 && m.entry().column.Role != model.RoleID {
				add(ents[0])
			}
		}
	}
}

func columnEntities(es []entry) []*model.Entity {
	var out []*model.Entity
	seen := map[*model.Entity]bool{}
	for _, e := range es {
		if e.kind == kColumn && e.entity != nil && !seen[e.entity] {
			seen[e.entity] = true
			out = append(out, e.entity)
		}
	}
	return out
}

func distinctEntities(es []entry) []*model.Entity {
	var out []*model.Entity
	seen := map[*model.Entity]bool{}
	for _, e := range es {
		if e.entity != nil && !seen[e.entity] && e.kind == kEntity {
			seen[e.entity] = true
			out = append(out, e.entity)
		}
	}
	return out
}

// related reports how close entity e is to the question's context: 0 named,
// 1 a many-to-one neighbour of a named entity, 2 connected otherwise, 3
// not connected to anything named.
func (b *builder) related(e *model.Entity) int {
	for _, c := range b.context {
		if c == e {
			return 0
		}
	}
	m := b.a.model
	for _, c := range b.context {
		if m.ToOne(c, e) {
			return 1
		}
	}
	for _, c := range b.context {
		if m.Reachable(c, e) {
			return 2
		}
	}
	if len(b.context) == 0 {
		return 2
	}
	return 3
}

// preferByContext keeps the candidates closest to the question's context.
func preferByContext[T any](b *builder, items []T, ent func(T) *model.Entity) []T {
	best := 4
	for _, it := range items {
		best = min(best, b.related(ent(it)))
	}
	var out []T
	for _, it := range items {
		if b.related(ent(it)) == best {
			out = append(out, it)
		}
	}
	return out
}

// resolveColumns settles which column an ambiguous column word means
// ("price": bid, ask, last, close or trade price).
func (b *builder) resolveColumns() {
	for _, m := range b.ms {
		if m.kind != kColumn && m.kind != kFlag {
			continue
		}
		var cols []entry
		for _, e := range m.entries {
			if e.kind == m.kind {
				cols = append(cols, e)
			}
		}
		if len(cols) <= 1 {
			continue
		}
		narrowed := preferByContext(b, cols, func(e entry) *model.Entity { return e.entity })
		if len(narrowed) == 1 || m.kind == kFlag {
			m.entries = []entry{narrowed[0]}
			if m.kind == kFlag {
				m.vals = []valCand{{col: narrowed[0].column, label: narrowed[0].label, score: 1}}
			}
			continue
		}
		words := b.words(m)
		sl := &Slot{Key: "column:" + words, Kind: KindColumn, Priority: Important, Text: words, Ask: true, Confidence: 0.5,
			Question: fmt.Sprintf("Which %q do you mean?", words),
			Context:  fmt.Sprintf("%q matches %d columns in the data.", words, len(narrowed))}
		for i, e := range narrowed {
			if i == 5 {
				break
			}
			sl.Options = append(sl.Options, &Option{ID: e.entity.Name + "." + e.column.Name, Label: columnLabel(e.column),
				Description: fmt.Sprintf("%s of %s", e.column.Title(), e.entity.PluralLabel()), column: e.column, entity: e.entity})
		}
		sl.Options[0].BestGuess = true
		sl.Question = fmt.Sprintf("By %q, do you mean the %s, or another one?", words, strings.ToLower(sl.Options[0].Label))
		o := b.settle(sl, func(answer string) (*Option, string) { return b.parseColumnAnswer(answer, narrowed) })
		if o != nil {
			for _, e := range narrowed {
				if e.column == o.column {
					m.entries = []entry{e}
				}
			}
		}
	}
}

func columnLabel(c *model.Column) string {
	t := c.Title()
	return strings.ToUpper(t[:1]) + t[1:] + " (" + c.Entity().PluralLabel() + ")"
}

func (b *builder) parseColumnAnswer(answer string, cols []entry) (*Option, string) {
	key := text.StemPhrase(answer)
	for _, e := range cols {
		for _, w := range append([]string{e.column.Name, e.column.Title(), e.entity.Name + " " + e.column.Name}, e.column.Synonyms...) {
			if text.StemPhrase(w) == key || strings.Contains(text.StemPhrase(e.column.Title()+" "+e.entity.PluralLabel()), key) {
				return &Option{ID: e.entity.Name + "." + e.column.Name, Label: columnLabel(e.column), column: e.column, entity: e.entity}, ""
			}
		}
	}
	return nil, fmt.Sprintf("%q is not one of the columns that match", answer)
}

// scopeEntity returns the model's scope entity, or nil.
func (b *builder) scopeEntity() *model.Entity {
	if s := b.a.model.Scope; s != nil {
		return b.a.model.Entity(s.Entity)
	}
	return nil
}

// resolveValues settles which value a value mention means; mentions that
// name the scope (a patient) are set aside for the scope slot.
func (b *builder) resolveValues() {
	se := b.scopeEntity()
	for _, m := range b.ms {
		if m.kind != kValue && m.kind != kGroup {
			continue
		}
		if se != nil {
			var onScope []valCand
			for _, v := range m.vals {
				if v.col.Entity() == se {
					onScope = append(onScope, v)
				}
			}
			if len(onScope) > 0 && (len(onScope) == len(m.vals) || !m.partial) {
				m.vals = onScope
				b.scopeVals = append(b.scopeVals, m)
				continue
			}
		}
		if len(m.vals) <= 1 {
			continue
		}
		narrowed := b.byDirection(m, b.byAdjacentEntity(m, m.vals))
		narrowed = preferByContext(b, narrowed, func(v valCand) *model.Entity { return v.col.Entity() })
		if !m.partial {
			// exact in several columns: context decides, else the first column
			if len(narrowed) > 1 && sameColumn(narrowed) {
				m.vals = narrowed
				continue
			}
			if len(narrowed) >= 1 {
				m.vals = narrowed
				if len(narrowed) == 1 {
					continue
				}
			}
		} else {
			m.vals = b.bySiblings(m, narrowed)
			// a value named completely beats values named in part
			if len(m.vals) > 1 && m.vals[0].score > m.vals[1].score+0.1 && m.vals[0].score >= partialScore(1) {
				m.vals = m.vals[:1]
			}
			if len(m.vals) == 1 {
				continue
			}
		}
		b.valueSlot(m)
	}
}

// byAdjacentEntity keeps the values of the entity named right next to the
// value ("NYSE stocks": the exchange of symbols, not the trades' venue).
func (b *builder) byAdjacentEntity(m *mention, cands []valCand) []valCand {
	if len(cands) < 2 || sameColumn(cands) {
		return cands
	}
	i := b.idx(m)
	for _, step := range []int{1, -1} {
		// fillers after the value do not separate it from the noun it
		// qualifies ("NASDAQ-listed stocks"); before it they may ("symbols
		// trade on the NYSE" is asked: listing or venue)
		j := i + step
		for step > 0 && j < len(b.ms) && (b.ms[j].kind == kStop || b.ms[j].kind == kList) {
			j += step
		}
		if j < 0 || j >= len(b.ms) || b.ms[j].kind != kEntity {
			continue
		}
		ents := distinctEntities(b.ms[j].entries)
		var out []valCand
		for _, c := range cands {
			for _, e := range ents {
				if c.col.Entity() == e {
					out = append(out, c)
				}
			}
		}
		if len(out) > 0 {
			return out
		}
	}
	return cands
}

// directionWords name the start and the end of a movement, in column
// names: "trips from Lyon to Nice" are by origin and destination.
var directionWords = map[string][]string{
	"from": {"origin", "from", "source", "start", "departure", "pickup", "sender", "src"},
	"to":   {"destination", "dest", "to", "target", "end", "arrival", "dropoff", "recipient", "dst"},
}

// byDirection keeps, of a value found in several columns, the column that
// the preposition before it names: "from Lyon" the origin, "to Nice" the
// destination.
func (b *builder) byDirection(m *mention, cands []valCand) []valCand {
	if len(cands) < 2 || sameColumn(cands) || m.start == 0 {
		return cands
	}
	prep := b.l.texts[m.start-1]
	switch prep {
	case "into", "towards", "toward":
		prep = "to"
	}
	words, ok := directionWords[prep]
	if !ok {
		return cands
	}
	var out []valCand
	for _, c := range cands {
		if nameHasWord(c.col, words) {
			out = append(out, c)
		}
	}
	if len(out) == 0 {
		return cands
	}
	return out
}

// nameHasWord reports whether one of the words of a column's name or unit
// is among words ("origin_city" has "origin", "duration_minutes" has
// "minutes").
func nameHasWord(c *model.Column, words []string) bool {
	name := strings.ToLower(c.Name + "_" + c.Unit)
	for _, part := range strings.FieldsFunc(name, func(r rune) bool { return r == '_' || r == ' ' }) {
		if slices.Contains(words, part) {
			return true
		}
	}
	return false
}

// bySiblings narrows values named in part using another value of the same
// column named in full: in "left or right heel", "left" is the Left Heel.
func (b *builder) bySiblings(m *mention, cands []valCand) []valCand {
	if len(cands) < 2 {
		return cands
	}
	var out []valCand
	for _, c := range cands {
		for _, o := range b.ms {
			if o == m || (o.kind != kValue && o.kind != kGroup) || o.partial || len(o.vals) == 0 || o.vals[0].col != c.col {
				continue
			}
			if sharesWord(c.label, o.vals[0].label) {
				out = append(out, c)
				break
			}
		}
	}
	if len(out) == 1 {
		return out
	}
	return cands
}

func sharesWord(a, b string) bool {
	aw := strings.Fields(text.StemPhrase(a))
	for _, w := range strings.Fields(text.StemPhrase(b)) {
		for _, x := range aw {
			if x == w && !valueindex.IsNoise(w) {
				return true
			}
		}
	}
	return false
}

func sameColumn(vs []valCand) bool {
	for _, v := range vs[1:] {
		if v.col != vs[0].col {
			return false
		}
	}
	return true
}

// wholeWordsFirst orders near-tie values so that those containing every
// word asked for, as whole words, come first: for "vitamin D" the best
// guess is "25-OH Vitamin D", not "Vitamin D2 (Ergocalciferol)", whose
// "D2" only begins with "d". The order is otherwise kept.
func wholeWordsFirst(words string, vs []valCand) []valCand {
	want := strings.Fields(text.StemPhrase(words))
	whole := func(label string) bool {
		have := map[string]bool{}
		for _, w := range strings.Fields(text.StemPhrase(label)) {
			have[w] = true
		}
		for _, w := range want {
			if !have[w] {
				return false
			}
		}
		return true
	}
	out := make([]valCand, 0, len(vs))
	for _, v := range vs {
		if whole(v.label) {
			out = append(out, v)
		}
	}
	for _, v := range vs {
		if !whole(v.label) {
			out = append(out, v)
		}
	}
	return out
}

// valueSlot asks which of several values a word means ("vitamin D": D2, D3
// or 25-OH).
func (b *builder) valueSlot(m *mention) {
	words := b.words(m)
	sl := &Slot{Key: "value:" + words, Kind: KindValue, Priority: Important, Text: words, Ask: true, Confidence: 0.5}
	cands := wholeWordsFirst(words, m.vals)
	single := sameColumn(cands)
	// columns of one title in several tables ("first name" of doctors and
	// of patients) are told apart by their table, in label and id
	titled := map[string]map[*model.Entity]bool{}
	for _, v := range cands {
		if titled[v.col.Title()] == nil {
			titled[v.col.Title()] = map[*model.Entity]bool{}
		}
		titled[v.col.Title()][v.col.Entity()] = true
	}
	for i, v := range cands {
		if i == 3 && len(cands) > 4 {
			break
		}
		label, id := v.label, v.col.Name+":"+v.label
		if !single {
			label = fmt.Sprintf("%s (%s)", v.label, v.col.Title())
			if len(titled[v.col.Title()]) > 1 {
				label = fmt.Sprintf("%s (%s of %s)", v.label, v.col.Title(), withArticle(v.col.Entity().Singular()))
				id = v.col.Entity().Name + "." + id
			}
		}
		sl.Options = append(sl.Options, &Option{ID: optionID(id), Label: label,
			Description: fmt.Sprintf("%s is %s", v.col.Title(), v.label), column: v.col, values: v.values})
	}
	if single && len(cands) > 1 {
		var all []string
		for _, v := range cands {
			all = append(all, v.values...)
		}
		label := fmt.Sprintf("All %d of them", len(cands))
		if len(cands) > 4 {
			label = fmt.Sprintf("All %d that match %q", len(cands), words)
		}
		if len(sl.Options) == 4 {
			sl.Options = sl.Options[:3]
		}
		sl.Options = append(sl.Options, &Option{ID: "all", Label: label, Description: strings.Join(all, ", "), column: cands[0].col, values: all})
	}
	sl.Options[0].BestGuess = true
	sl.Question = fmt.Sprintf("By %q, do you mean %s, or something else?", words, sl.Options[0].Label)
	sl.Context = fmt.Sprintf("%q matches %d values in the data.", words, len(cands))
	o := b.settle(sl, func(answer string) (*Option, string) { return b.parseValueAnswer(answer, cands) })
	if o != nil {
		m.vals = []valCand{{col: o.column, values: o.values, label: o.Label, score: 1}}
		m.conf = 1
	}
}

func optionID(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9':
			b.WriteRune(r)
		case r > 127:
			b.WriteRune(r)
		default:
			if b.Len() > 0 && !strings.HasSuffix(b.String(), "_") {
				b.WriteByte('_')
			}
		}
	}
	return strings.TrimSuffix(b.String(), "_")
}

func (b *builder) parseValueAnswer(answer string, cands []valCand) (*Option, string) {
	key := text.StemPhrase(answer)
	var hits []valCand
	for _, v := range cands {
		if s := text.StemPhrase(v.label); s == key || strings.Contains(s, key) {
			hits = append(hits, v)
		}
	}
	if len(hits) == 1 {
		v := hits[0]
		return &Option{ID: optionID(v.col.Name + ":" + v.label), Label: v.label, column: v.col, values: v.values}, ""
	}
	return nil, fmt.Sprintf("%q does not pick one of the values", answer)
}

// chooseSubject decides what the question is about.
func (b *builder) chooseSubject() {
	for _, m := range b.ms {
		if m.kind == kTop || m.kind == kBottom {
			b.rankM = m
			break
		}
	}
	var pick *mention
	if b.rankM == nil {
		// "which clinic has the most patients": rank the entity named before "most"
		for i, m := range b.ms {
			if m.kind != kMost {
				continue
			}
			for j := i - 1; j >= 0; j-- {
				if x := b.ms[j]; (x.kind == kEntity || x.kind == kFlag) && !b.grouped[x] {
					pick = x
					break
				}
				// "which sector has the most symbols": rank the column's values
				if x := b.ms[j]; x.kind == kColumn && !x.entry().column.Numeric() && b.whichBefore(x) {
					b.mostBy, b.mostM = x, m
					x.used = true
					break
				}
			}
			if b.mostBy != nil {
				break
			}
			if pick != nil {
				b.rankM = m
			}
			if pick != nil && pick.kind == kFlag {
				// "which salesperson …": the flag's entity, still filtered by the flag
				b.subjectM = pick
				b.q.Subject = pick.entry().entity
				if len(pick.vals) > 0 && pick.vals[0].col != nil {
					b.q.Subject = pick.vals[0].col.Entity()
				}
				b.in.Subject = b.q.Subject
				b.addContext(b.q.Subject)
				return
			}
			break
		}
	}
	if pick == nil && b.rankM != nil {
		for i := b.idx(b.rankM) + 1; i < len(b.ms); i++ {
			if m := b.ms[i]; m.kind == kEntity && !b.grouped[m] {
				pick = m
				break
			}
		}
	}
	if pick == nil {
		for i, m := range b.ms {
			if m.kind == kEntity && !b.grouped[m] {
				pick = m
				// "wound assessments": in two nouns side by side the
				// second is the head, when the first is its parent and
				// singular, as a noun used as a modifier is ("symbols
				// trade on" is a verb)
				if i+1 < len(b.ms) && b.singular(m) && b.adjacent(m, b.ms[i+1]) && b.ms[i+1].kind == kEntity && !b.grouped[b.ms[i+1]] {
					if h, p := b.entityOfQuiet(b.ms[i+1]), b.entityOfQuiet(m); h != nil && p != nil && h != p {
						if path, ok := b.a.model.Path(h, p); ok && model.ToOnePath(path) {
							pick = b.ms[i+1]
							m.used = true
						}
					}
				}
				break
			}
			// "how many infected wounds … among Riverside patients": a flag
			// phrase that names its entity is the subject, still a filter
			if m.kind == kFlag && !b.grouped[m] && b.namesOwnEntity(m) {
				b.subjectM = m
				b.q.Subject = m.entry().entity
				b.in.Subject = b.q.Subject
				b.addContext(b.q.Subject)
				return
			}
		}
	}
	if pick != nil {
		b.subjectM = pick
		b.q.Subject = b.entityOf(pick)
		pick.used = true
	}
	if b.q.Subject == nil {
		b.q.Subject = b.impliedSubject()
	}
	if b.q.Subject == nil && len(b.scopeVals) > 0 {
		b.q.Subject = b.scopeEntity()
	}
	if b.q.Subject == nil {
		b.subjectSlot()
	}
	b.in.Subject = b.q.Subject
	if b.q.Subject != nil {
		b.addContext(b.q.Subject)
	}
}

// withArticle puts "a" or "an" before a noun.
func withArticle(noun string) string {
	if noun != "" && strings.ContainsRune("aeiouAEIOU", rune(noun[0])) {
		return "an " + noun
	}
	return "a " + noun
}

// adjacent reports whether mention b starts right where a ends.
func (b *builder) adjacent(x, y *mention) bool { return x.end == y.start }

// entityOfQuiet returns a mention's entity when it names just one.
func (b *builder) entityOfQuiet(m *mention) *model.Entity {
	if ents := distinctEntities(m.entries); len(ents) == 1 {
		return ents[0]
	}
	return nil
}

// namesOwnEntity reports whether a mention's words include a word that
// names its entity ("infected wounds" for a flag of wounds).
func (b *builder) namesOwnEntity(m *mention) bool {
	e := m.entry().entity
	if e == nil {
		return false
	}
	said := " " + text.StemPhrase(b.words(m)) + " "
	for _, w := range entityWords(e) {
		if k := text.StemPhrase(w); k != "" && strings.Contains(said, " "+k+" ") {
			return true
		}
	}
	return false
}

func (b *builder) addContext(e *model.Entity) {
	for _, c := range b.context {
		if c == e {
			return
		}
	}
	b.context = append(b.context, e)
}

// entityOf settles an entity mention; several entities make a slot.
func (b *builder) entityOf(m *mention) *model.Entity {
	ents := distinctEntities(m.entries)
	if len(ents) == 1 {
		return ents[0]
	}
	words := b.words(m)
	sl := &Slot{Key: "entity:" + words, Kind: KindTable, Priority: Critical, Text: words, Ask: true, Confidence: 0.5,
		Context: fmt.Sprintf("%q names %d kinds of records.", words, len(ents))}
	for i, e := range ents {
		if i == 4 {
			break
		}
		sl.Options = append(sl.Options, &Option{ID: e.Name, Label: capitalize(e.PluralLabel()), entity: e})
	}
	sl.Options[0].BestGuess = true
	sl.Question = fmt.Sprintf("By %q, do you mean %s, or something else?", words, ents[0].PluralLabel())
	if o := b.settle(sl, b.parseEntityAnswer); o != nil {
		return o.entity
	}
	return nil
}

// impliedSubject finds the subject of a question that names no entity:
// from its measure, columns, terms, vague words or values.
func (b *builder) impliedSubject() *model.Entity {
	for _, k := range []kind{kMeasure, kColumn, kTerm, kVague, kSuperlative, kFlag, kValue} {
		for _, m := range b.ms {
			mk := m.kind
			if mk == kGroup {
				mk = kValue
			}
			if mk != k || b.grouped[m] || b.isScopeVal(m) {
				continue
			}
			switch k {
			case kValue:
				if len(m.vals) > 0 {
					return b.childmostValueEntity(m.vals[0].col.Entity())
				}
			case kFlag:
				if len(m.vals) > 0 && m.vals[0].col != nil {
					return m.vals[0].col.Entity()
				}
				return m.entry().entity
			case kVague, kSuperlative:
				return b.a.model.Entity(m.entry().vague.AppliesTo[0])
			default:
				return m.entry().entity
			}
		}
	}
	return nil
}

// childmostValueEntity picks, among the entities the question's values
// belong to, the one every other is a parent of: "MSFT buys" are trades
// (side BUY, of the symbol MSFT), not symbols. With no such entity, first.
func (b *builder) childmostValueEntity(first *model.Entity) *model.Entity {
	var ents []*model.Entity
	seen := map[*model.Entity]bool{}
	for _, m := range b.ms {
		if (m.kind != kValue && m.kind != kGroup) || len(m.vals) == 0 || b.grouped[m] || b.isScopeVal(m) {
			continue
		}
		if e := m.vals[0].col.Entity(); !seen[e] {
			seen[e] = true
			ents = append(ents, e)
		}
	}
	for _, e := range ents {
		all := true
		for _, o := range ents {
			if o == e {
				continue
			}
			if path, ok := b.a.model.Path(e, o); !ok || !model.ToOnePath(path) {
				all = false
				break
			}
		}
		if all {
			return e
		}
	}
	return first
}

// subjectSlot asks what the question is about when nothing names it.
func (b *builder) subjectSlot() {
	if b.hasUnknown() {
		return // the unknown words are asked about first
	}
	sl := &Slot{Key: "subject", Kind: KindTable, Priority: Critical, Text: b.in.Question, Ask: true, Confidence: 0.3,
		Context: "The question does not name anything I know in this data."}
	for i, e := range b.a.model.Entities {
		if i == 4 {
			break
		}
		sl.Options = append(sl.Options, &Option{ID: e.Name, Label: capitalize(e.PluralLabel()), Description: e.Area, entity: e})
	}
	if len(sl.Options) == 0 {
		return
	}
	sl.Options[0].BestGuess = true
	sl.Question = fmt.Sprintf("What would you like to see: %s, or something else?", strings.ToLower(sl.Options[0].Label))
	if o := b.settle(sl, b.parseEntityAnswer); o != nil {
		b.q.Subject = o.entity
	}
}

func (b *builder) parseEntityAnswer(answer string) (*Option, string) {
	key := text.StemPhrase(answer)
	for _, e := range b.a.model.Entities {
		for _, w := range entityWords(e) {
			if text.StemPhrase(w) == key {
				return &Option{ID: e.Name, Label: capitalize(e.PluralLabel()), entity: e}, ""
			}
		}
	}
	return nil, fmt.Sprintf("%q is not something I know in this data", answer)
}

func (b *builder) hasUnknown() bool {
	for _, m := range b.ms {
		if m.kind == kUnknown && contentWord(b.l.toks[m.start]) {
			return true
		}
	}
	return false
}

// contentWord reports whether an unlinked token is a word that means
// something (not a stray letter or number).
func contentWord(t text.Token) bool {
	if t.Kind != text.Word || len([]rune(t.Text)) < 2 {
		return false
	}
	for _, r := range t.Text {
		if r >= '0' && r <= '9' {
			return false
		}
	}
	return true
}

func capitalize(s string) string {
	if s == "" {
		return s
	}
	r := []rune(s)
	return strings.ToUpper(string(r[0])) + string(r[1:])
}

// spelling records each word read despite a typo as an assumption.
func (b *builder) spelling() {
	for _, m := range b.ms {
		if len(m.fuzzy) == 0 || m.kind == kUnknown {
			continue
		}
		label := m.entry().label
		if len(m.vals) > 0 && m.vals[0].label != "" {
			label = m.vals[0].label
		}
		if label == "" {
			label = strings.Join(b.l.texts[m.start:m.end], " ")
		}
		for _, typed := range m.fuzzy {
			sl := &Slot{Key: "spelling:" + typed, Kind: KindSpelling, Priority: Helpful, Text: typed, Method: MethodFuzzy,
				Confidence: m.conf, Why: "the closest known word",
				Options: []*Option{{ID: optionID(label), Label: label}}}
			b.settle(sl, nil)
		}
	}
}

// finish fills the interpretation's summary fields.
func (b *builder) finish() {
	b.spelling()
	b.in.Query = b.q
	b.in.Intent = b.q.Intent
	for _, m := range b.ms {
		switch m.kind {
		case kStop, kList, kUnknown, kNumber, kOp, kUnit:
		default:
			b.in.Linked = append(b.in.Linked, b.words(m))
		}
		if m.kind == kUnknown && !m.used && contentWord(b.l.toks[m.start]) {
			b.in.Unknown = append(b.in.Unknown, b.words(m))
		}
	}
	sort.Strings(b.in.Warnings)
}

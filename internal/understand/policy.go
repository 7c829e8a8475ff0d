package understand

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/clarify-sql/clarify/internal/model"
	"github.com/clarify-sql/clarify/internal/query"
	"github.com/clarify-sql/clarify/internal/understand/text"
	"github.com/clarify-sql/clarify/internal/understand/timeexpr"
)

// policies adds the slots the model's policies call for: scope, a missing
// time window, plot or table, latest or history, and words nobody knows.
func (b *builder) policies() {
	b.projection()
	b.scope()
	b.formatWords()
	b.history()
	b.format()
	b.requireWindow()
	b.unknownWords()
}

// projection keeps the columns the question asked to see.
func (b *builder) projection() {
	for _, m := range b.ms {
		if m.kind != kColumn || m.used || b.grouped[m] {
			continue
		}
		c := m.entry().column
		if b.a.model.ToOne(b.q.Base, c.Entity()) {
			m.used = true
			b.q.Columns = append(b.q.Columns, c)
		}
	}
}

// touched lists every entity the query reads.
func (b *builder) touched() []*model.Entity {
	q := b.q
	es := []*model.Entity{q.Base, q.Subject}
	for _, f := range q.Filters {
		es = append(es, f.Entity)
	}
	for _, g := range q.Group {
		if g.Entity != nil {
			es = append(es, g.Entity)
		}
		if g.Column != nil {
			es = append(es, g.Column.Entity())
		}
	}
	for _, c := range q.Columns {
		es = append(es, c.Entity())
	}
	if q.Rank != nil {
		es = append(es, q.Rank.Entity)
	}
	return es
}

// scope limits the question to one scope value (one patient): named in the
// question, or asked. It is never assumed.
func (b *builder) scope() {
	m := b.a.model
	se := b.scopeEntity()
	if se == nil {
		return
	}
	need := m.Scope.Required == "always"
	for _, x := range b.ms {
		if x.kind == kFirstPerson {
			need = true
			x.used = true
		}
	}
	scoped := map[*model.Entity]bool{}
	for _, e := range m.ScopeEntities() {
		scoped[e] = true
	}
	for _, e := range b.touched() {
		if scoped[e] {
			need = true
		}
	}
	if !need && len(b.scopeVals) == 0 {
		return
	}
	cols := m.Scope.OptionColumns
	if len(cols) == 0 {
		cols = []string{se.DisplayColumn().Name}
	}
	rows, err := b.scopeRows(se, cols)
	if err != nil {
		b.in.Warnings = append(b.in.Warnings, fmt.Sprintf("could not list %s: %v", se.PluralLabel(), err))
	}
	sl := &Slot{Key: "scope", Kind: KindScope, Priority: Critical, NeverAssume: true, Confidence: 0}
	sl.Text = "which " + se.Singular()
	for _, r := range rows {
		sl.Options = append(sl.Options, &Option{ID: r[0], Label: scopeLabel(r), key: r[0]})
	}
	// named in the question ("for John Doe")
	for _, sv := range b.scopeVals {
		sv.used = true
		keys := b.scopeKeys(sv, rows)
		if len(keys) == 1 {
			sl.Chosen, sl.Method, sl.Confidence = indexOfKey(sl.Options, keys[0]), MethodExact, sv.conf
			if sl.Chosen < 0 {
				sl.Options = append(sl.Options, &Option{ID: keys[0], Label: keys[0], key: keys[0]})
				sl.Chosen = len(sl.Options) - 1
			}
			sl.Text = b.words(sv)
			break
		}
		if len(keys) > 1 {
			var narrowed []*Option
			for _, k := range keys {
				if i := indexOfKey(sl.Options, k); i >= 0 {
					narrowed = append(narrowed, sl.Options[i])
				}
			}
			sl.Options = narrowed
			sl.Text = b.words(sv)
		}
	}
	if sl.Method == "" {
		sl.Chosen = -1
		switch {
		case len(rows) == 1 && m.Scope.Required != "always":
			sl.Chosen, sl.Method, sl.Confidence = 0, MethodExact, 1
			sl.Why = "the only " + se.Singular() + " in the data"
		default:
			sl.Ask = true
			sl.Question = fmt.Sprintf("Which %s do you mean? I found %d:", se.Singular(), len(sl.Options))
			if m.Scope.Question != "" {
				sl.Question = m.Scope.Question
			}
			sl.Context = fmt.Sprintf("Answers are limited to one %s, and the question does not say which.", se.Singular())
			if len(sl.Options) > 4 {
				sl.Context += " Type a name or id if yours is not listed."
			}
		}
	}
	all := sl.Options
	if len(sl.Options) > 4 && sl.Ask {
		sl.Options = sl.Options[:4]
	}
	o := b.settle(sl, func(answer string) (*Option, string) { return parseScopeAnswer(answer, all) })
	if sl.Ask || o == nil {
		// unresolved: the query carries no scope; the turn must ask or fail
		return
	}
	b.q.Scope = &query.ScopeFilter{Entity: se, Key: o.key, Label: o.Label}
	b.dropScopeFilters(se)
}

func (b *builder) scopeRows(se *model.Entity, cols []string) ([][]string, error) {
	if b.a.cat == nil {
		return nil, nil
	}
	return b.a.cat.Rows(b.ctx, se, cols, 200)
}

// dropScopeFilters removes filters on the scope entity that the scope
// already expresses.
func (b *builder) dropScopeFilters(se *model.Entity) {
	out := b.q.Filters[:0]
	for _, f := range b.q.Filters {
		if f.Entity != se {
			out = append(out, f)
		}
	}
	b.q.Filters = out
}

func scopeLabel(r []string) string {
	if len(r) <= 2 {
		return r[len(r)-1]
	}
	return r[1] + " (" + strings.Join(r[2:], ", ") + ")"
}

func indexOfKey(opts []*Option, key string) int {
	for i, o := range opts {
		if o.key == key {
			return i
		}
	}
	return -1
}

// scopeKeys maps a scope value mention to row keys.
func (b *builder) scopeKeys(sv *mention, rows [][]string) []string {
	se := b.scopeEntity()
	var keys []string
	for _, v := range sv.vals {
		for _, val := range v.values {
			if v.col.Name == se.Key {
				keys = append(keys, val)
				continue
			}
			ci := -1
			for i, c := range append([]string{se.Key}, b.a.model.Scope.OptionColumns...) {
				if c == v.col.Name {
					ci = i
				}
			}
			for _, r := range rows {
				if ci >= 0 && ci < len(r) && r[ci] == val {
					keys = append(keys, r[0])
				}
			}
		}
	}
	return keys
}

// parseScopeAnswer reads a typed scope: a number from the list, an id or a
// name (in part or with a typo).
func parseScopeAnswer(answer string, opts []*Option) (*Option, string) {
	t := strings.TrimSpace(answer)
	if n, err := strconv.Atoi(t); err == nil {
		if n >= 1 && n <= len(opts) {
			return opts[n-1], ""
		}
	}
	for _, o := range opts {
		if strings.EqualFold(o.key, t) {
			return o, ""
		}
	}
	key := text.StemPhrase(t)
	var hits []*Option
	for _, o := range opts {
		name := text.StemPhrase(strings.SplitN(o.Label, " (", 2)[0])
		if name == key || strings.Contains(" "+name+" ", " "+key+" ") {
			hits = append(hits, o)
		}
	}
	if len(hits) == 0 {
		for _, o := range opts {
			name := text.StemPhrase(strings.SplitN(o.Label, " (", 2)[0])
			if text.Similarity(name, key) >= 0.8 {
				hits = append(hits, o)
			}
		}
	}
	if len(hits) == 1 {
		return hits[0], ""
	}
	if len(hits) > 1 {
		return nil, fmt.Sprintf("%q matches more than one; pick a number", answer)
	}
	return nil, fmt.Sprintf("%q is not one of the listed; pick a number or type a name", answer)
}

func (b *builder) inList(names []string, e *model.Entity) bool {
	for _, n := range names {
		if e != nil && n == e.Name {
			return true
		}
	}
	return false
}

func (b *builder) has(k kind) *mention {
	for _, m := range b.ms {
		if m.kind == k {
			return m
		}
	}
	return nil
}

// formatWords reads plot or table words.
func (b *builder) formatWords() {
	if m := b.has(kPlot); m != nil {
		b.q.Format, m.used = "plot", true
	} else if m := b.has(kTable); m != nil {
		b.q.Format, m.used = "table", true
	}
}

func (b *builder) unused(k kind) *mention {
	for _, m := range b.ms {
		if m.kind == k && !m.used {
			return m
		}
	}
	return nil
}

// format asks between a plot and a table when the model says to and the
// answer is a series — not for one latest value.
func (b *builder) format() {
	q := b.q
	f := b.a.model.Policies.Format
	if q.Format != "" || f == nil || f.Mode != "ask" || !b.inList(f.AppliesTo, q.Base) || (q.Intent != query.IntentList && q.Intent != query.IntentLatest) {
		return
	}
	// one latest value asked for in so many words is not a series
	if q.Latest != nil && b.explicitLatest && b.singleValueOf(q.Latest.Per) {
		return
	}
	sl := &Slot{Key: "format", Kind: KindFormat, Priority: Helpful, Text: b.in.Question, Ask: true, Confidence: 0.5,
		Question: "Would you like to see this as a table, or as a plot over time?",
		Context:  "The question does not say how to show the results.",
		Options: []*Option{
			{ID: "table", Label: "Table", Description: "Rows with dates and values", BestGuess: true, format: "table"},
			{ID: "plot", Label: "Plot (chart over time)", Description: "A line chart of the values over time", format: "plot"},
		}}
	if o := b.settle(sl, parseFormatAnswer); o != nil {
		q.Format = o.format
	}
}

func parseFormatAnswer(answer string) (*Option, string) {
	for _, t := range text.Tokenize(text.Normalize(answer)) {
		for _, w := range plotWords {
			if text.StemPhrase(w) == t.Stem {
				return &Option{ID: "plot", Label: "Plot (chart over time)", format: "plot"}, ""
			}
		}
		for _, w := range tableWords {
			if text.StemPhrase(w) == t.Stem {
				return &Option{ID: "table", Label: "Table", format: "table"}, ""
			}
		}
	}
	return nil, "answer table or plot"
}

// singleValueOf reports whether the filters pin column c to one value.
func (b *builder) singleValueOf(c *model.Column) bool {
	if c == nil {
		return false
	}
	for _, f := range b.q.Filters {
		cmp, ok := f.Cond.(model.Compare)
		if ok && cmp.Left.Column != nil && cmp.Left.Column.Column == c.Name && f.Entity == c.Entity() && cmp.Op == "=" {
			return true
		}
	}
	return false
}

func (b *builder) historyPolicyApplies() bool {
	h := b.a.model.Policies.History
	return h != nil && b.inList(h.AppliesTo, b.q.Base) && (b.q.Intent == query.IntentList || b.q.Intent == query.IntentLatest)
}

// history decides between the latest result and all of them.
func (b *builder) history() {
	if !b.historyPolicyApplies() {
		return
	}
	q := b.q
	h := b.a.model.Policies.History
	sl := &Slot{Key: "history", Kind: KindHistory, Priority: Helpful, Text: b.in.Question,
		Question: "Just the latest result, or all historical results?",
		Context:  "The question does not say whether to show only the latest results.",
		Options: []*Option{
			{ID: "latest", Label: "Latest result only", history: "latest"},
			{ID: "history", Label: "All results (history)", history: "history"},
		}}
	switch {
	case b.has(kHistory) != nil || q.Window != nil || q.Format == "plot" || b.has(kTrend) != nil || len(b.latestFilters) > 0:
		sl.Chosen, sl.Method, sl.Confidence = 1, MethodExact, 1
		if m := b.has(kHistory); m != nil {
			m.used = true
			sl.Text = b.words(m)
		}
	case b.unused(kLatest) != nil:
		m := b.unused(kLatest)
		m.used = true
		b.explicitLatest = true
		sl.Chosen, sl.Method, sl.Confidence, sl.Text = 0, MethodExact, 1, b.words(m)
	case h.Default == "ask":
		sl.Ask, sl.Confidence = true, 0.5
		sl.Options[0].BestGuess = true
	default:
		i := 0
		if h.Default == "history" {
			i = 1
		}
		sl.Options[i].BestGuess = true
		sl.Chosen, sl.Method, sl.Confidence = i, MethodDefault, 0.7
		if h.Confidence > 0 {
			sl.Confidence = h.Confidence
		}
		sl.Why = "no history words (all, history, over time) in the question"
	}
	o := b.settle(sl, func(answer string) (*Option, string) {
		key := text.StemPhrase(answer)
		for _, w := range append(append([]string{}, historyWords...), h.HistoryWords...) {
			if strings.Contains(key, text.StemPhrase(w)) {
				return sl.Options[1], ""
			}
		}
		if strings.Contains(key, "latest") || strings.Contains(key, "last") || strings.Contains(key, "recent") {
			return sl.Options[0], ""
		}
		return nil, "answer latest or history"
	})
	if o != nil && o.history == "latest" {
		var per *model.Column
		if h.Per != "" {
			per = q.Base.Column(h.Per)
		}
		q.Latest = &query.Latest{Per: per, Time: b.a.model.TimeColumn(q.Base)}
	}
}

// requireWindow asks for a period when the entity requires one or the
// policy asks for one for averages and trends.
func (b *builder) requireWindow() {
	q := b.q
	if q.Window != nil || b.allTime || q.Latest != nil || q.Intent == query.IntentLatest {
		return
	}
	for _, s := range b.in.Slots {
		if s.Kind == KindVague && s.Choice() != nil && s.Choice().vopt != nil && s.Choice().vopt.Last != "" {
			return // "recent" is a period once chosen
		}
	}
	m := b.a.model
	pol := m.Policies.MissingTimeWindow
	need := q.Base.TimeWindow == "required"
	why := fmt.Sprintf("%s are many; a period keeps the answer meaningful", q.Base.PluralLabel())
	// averages and totals depend on the period; a maximum or a date does not
	if (q.Intent == query.IntentAggregate || q.Intent == query.IntentGroup) && pol.Aggregate == "ask" && q.Agg != nil && (q.Agg.Func == "avg" || q.Agg.Func == "sum") {
		need, why = true, "an average or total depends on the period"
	}
	if q.Intent == query.IntentTrend && pol.Trend == "ask" {
		need, why = true, "a trend depends on the period"
	}
	if !need {
		return
	}
	tc := m.TimeColumn(q.Base)
	if tc == nil {
		return
	}
	sl := &Slot{Key: "time_window", Kind: KindTimeWindow, Priority: Important, Text: b.in.Question, Ask: true, Confidence: 0.5,
		Context: "The question does not name a period: " + why + "."}
	opts := m.Policies.TimeWindowOptions
	if len(opts) == 0 {
		opts = []*model.TimeOption{
			{ID: "last_7_days", Label: "Last 7 days", Last: "7 days"},
			{ID: "last_30_days", Label: "Last 30 days", Last: "30 days", BestGuess: true},
			{ID: "last_12_months", Label: "Last 12 months", Last: "12 months"},
			{ID: "all", Label: "All time"},
		}
	}
	for _, o := range opts {
		w := timeexpr.Window{All: true, Label: "all time"}
		if o.Last != "" {
			if ow, ok := optionWindow(o.Last, b.s.Now); ok {
				w = ow
			}
		} else if o.ID == "today" {
			w, _ = timeexpr.ParseWindow("today", b.s.Now)
		}
		sl.Options = append(sl.Options, &Option{ID: o.ID, Label: o.Label, BestGuess: o.BestGuess, window: &w})
	}
	best := sl.Best()
	sl.Question = fmt.Sprintf("Which period should I use for %s (%s)? %s is my best guess.", q.Base.PluralLabel(), tc.Title(), sl.Options[best].Label)
	o := b.settle(sl, func(answer string) (*Option, string) {
		if w, ok := timeexpr.ParseWindow(answer, b.s.Now); ok {
			return &Option{ID: "custom:" + optionID(w.Label), Label: capitalize(w.Label), window: &w}, ""
		}
		return nil, fmt.Sprintf("I could not read %q as a period (for example \"last 14 days\" or \"since March\")", answer)
	})
	if o != nil && o.window != nil && !o.window.All {
		q.Window = &query.TimeFilter{Column: tc, Window: *o.window}
	}
}

// unknownWords asks about content words that link to nothing.
// partOfValue reports whether the number at mention i is written into a
// value named right after it ("25-OH vitamin D").
func (b *builder) partOfValue(i int) bool {
	if i+1 >= len(b.ms) {
		return false
	}
	n := b.ms[i+1]
	if n.start != b.ms[i].end || (n.kind != kValue && n.kind != kGroup) {
		return false
	}
	num := b.l.texts[b.ms[i].start]
	for _, v := range n.vals {
		if strings.Contains(v.label, num) {
			return true
		}
	}
	return false
}

func (b *builder) unknownWords() {
	var phrases [][2]int
	for i := 0; i < len(b.ms); i++ {
		m := b.ms[i]
		// a comparative left over ("fewer … than" that named no columns)
		// is a condition that would be dropped: always asked about
		_, cmp := comparatives[b.l.toks[m.start].Text]
		// a number nothing used would be a condition silently dropped
		// ("students in grade 12"): asked about like an unknown word
		if m.kind == kNumber && !m.used && b.l.toks[m.start].Kind == text.Number && !b.partOfValue(i) {
			phrases = append(phrases, [2]int{m.start, m.end})
			continue
		}
		if m.kind != kUnknown || m.used || !contentWord(b.l.toks[m.start]) || b.relatedWord(m) && !cmp {
			continue
		}
		j := i
		for j+1 < len(b.ms) && b.ms[j+1].kind == kUnknown && contentWord(b.l.toks[b.ms[j+1].start]) {
			j++
		}
		phrases = append(phrases, [2]int{b.ms[i].start, b.ms[j].end})
		i = j
	}
	b.danglingComparisons()
	for _, p := range phrases {
		words := b.l.words(&mention{start: p[0], end: p[1]})
		prio := Important
		if b.q.Subject == nil {
			prio = Critical
		}
		sl := &Slot{Key: "unknown:" + words, Kind: KindUnknown, Priority: prio, Text: words, Ask: true, Confidence: 0.4,
			Context: fmt.Sprintf("I don't know what %q means in this data.", words)}
		for _, s := range b.suggest(words) {
			sl.Options = append(sl.Options, &Option{ID: "use:" + s, Label: capitalize(s), rewrite: s})
		}
		if b.q.Subject != nil {
			sl.Options = append(sl.Options, &Option{ID: "ignore", Label: fmt.Sprintf("Ignore %q", words), ignore: true})
		}
		if len(sl.Options) == 0 {
			continue
		}
		sl.Options[0].BestGuess = true
		if sl.Options[0].ignore {
			sl.Question = fmt.Sprintf("I don't know %q. Should I ignore it, or can you say it another way?", words)
		} else {
			sl.Question = fmt.Sprintf("I don't know %q. Did you mean %s, or something else?", words, strings.ToLower(sl.Options[0].Label))
		}
		b.settle(sl, func(answer string) (*Option, string) {
			return &Option{ID: "use:" + answer, Label: answer, rewrite: answer}, ""
		})
	}
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

// relatedWord reports whether an unknown word is a form of a word the
// model knows ("supplied" beside "supplier"): it links two known things
// and carries no condition of its own.
func (b *builder) relatedWord(m *mention) bool {
	s := b.l.stems[m.start]
	if len([]rune(s)) < 5 {
		return false
	}
	for v := range b.a.lex.vocab {
		if len(v) >= len(s) && strings.HasPrefix(v, s) {
			return true
		}
	}
	return false
}

// suggest returns up to three things of the model whose names resemble
// words, or the main entities when nothing does.
func (b *builder) suggest(words string) []string {
	type cand struct {
		s   string
		sim float64
	}
	var cs []cand
	seen := map[string]bool{}
	add := func(s string, sim float64) {
		if !seen[s] {
			seen[s] = true
			cs = append(cs, cand{s, sim})
		}
	}
	w := text.Normalize(words)
	m := b.a.model
	for _, e := range m.Entities {
		for _, x := range entityWords(e) {
			if sim := text.Similarity(w, text.Normalize(x)); sim >= 0.6 {
				add(e.PluralLabel(), sim)
			}
		}
		for _, c := range e.Columns {
			if sim := text.Similarity(w, text.Normalize(c.Title())); sim >= 0.6 {
				add(c.Title(), sim)
			}
		}
	}
	for _, ms := range m.Measures {
		if sim := text.Similarity(w, text.Normalize(measureLabel(ms))); sim >= 0.6 {
			add(measureLabel(ms), sim)
		}
	}
	for i := 1; i < len(cs); i++ {
		for j := i; j > 0 && cs[j].sim > cs[j-1].sim; j-- {
			cs[j], cs[j-1] = cs[j-1], cs[j]
		}
	}
	if len(cs) == 0 && b.q.Subject == nil {
		for _, e := range m.Entities {
			add(e.PluralLabel(), 0)
		}
	}
	var out []string
	for _, c := range cs {
		if len(out) == 3 {
			break
		}
		out = append(out, c.s)
	}
	return out
}

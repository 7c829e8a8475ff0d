package understand

import (
	"slices"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/clarify-sql/clarify/internal/model"
	"github.com/clarify-sql/clarify/internal/understand/gazetteer"
	"github.com/clarify-sql/clarify/internal/understand/text"
	"github.com/clarify-sql/clarify/internal/understand/timeexpr"
	"github.com/clarify-sql/clarify/internal/understand/valueindex"
)

// mention is a span of the question linked to a meaning.
type mention struct {
	start, end int // token span [start, end)
	kind       kind
	entries    []entry // meanings of the span, best first (same kind family)
	vals       []valCand
	partial    bool    // values found by part of their name
	conf       float64 // 1 exact; lower for fuzzy or partial links
	fuzzy      []string
	num        float64
	op         string
	window     *timeexpr.Window
	used       bool // consumed by a slot
}

// valCand is a value a mention may mean.
type valCand struct {
	col    *model.Column
	values []string
	label  string
	score  float64
	rows   int64 // how many rows hold the value (0: unknown)
	// words are label's stems as text.StemPhrase gives them, when the
	// value index already holds them (nil: stem label when needed)
	words []string
}

// storedCand is the candidate for a value of the value index.
func storedCand(v valueindex.Entry, score float64) valCand {
	return valCand{col: v.Column, values: []string{v.Value}, label: v.Value, score: score, rows: v.Rows, words: v.Words()}
}

// labelWords returns the stems of the candidate's label.
func (v *valCand) labelWords() []string {
	if v.words != nil {
		return v.words
	}
	return strings.Fields(text.StemPhrase(v.label))
}

// entry is the mention's first meaning; a zero entry for mentions that
// have none (numbers, periods, unknown words).
func (m *mention) entry() entry {
	if len(m.entries) == 0 {
		return entry{}
	}
	return m.entries[0]
}

// kNumber and kTime extend the lexicon kinds for linked numbers and periods.
const (
	kNumber kind = 100 + iota
	kTime
	kOp
	kUnknown
)

// linker links the tokens of one question.
type linker struct {
	a      *Analyzer
	vx     *valueindex.Index
	toks   []text.Token
	stems  []string // snowball stems, for the lexicon
	vstems []string // inflection-only stems, for values
	texts  []string
	fuzzy  map[int]string // token → the word as typed, when corrected
	tp     *timeexpr.Parser
	// caps says which tokens were capitalized, when the writer's case says
	// something (nil otherwise)
	caps []bool
}

var skippable = map[string]bool{"the": true, "a": true, "an": true, "their": true, "its": true, "our": true, "my": true, "of": true, "this": true, "that": true}

// match is one phrase of the lexicon found at a position.
type match struct {
	end     int
	entries []entry
}

// matches finds every trie phrase starting at token i; filler words inside
// a phrase may be skipped ("below their reorder level"), but a phrase never
// ends on a skipped filler.
func (l *linker) matches(i int) []match {
	var out []match
	var walk func(n *trie, j, skips, depth int)
	walk = func(n *trie, j, skips, depth int) {
		if j >= len(l.stems) || l.toks[j].Kind == text.Number && depth == 0 {
			return
		}
		if c := n.children[l.stems[j]]; c != nil {
			if len(c.entries) > 0 {
				out = append(out, match{end: j + 1, entries: c.entries})
			}
			walk(c, j+1, skips, depth+1)
		}
		if depth > 0 && skips < 2 && skippable[l.toks[j].Text] {
			walk(n, j+1, skips+1, depth)
		}
	}
	walk(&l.a.lex.root, i, 0, 0)
	return out
}

func (l *linker) known(i int) bool {
	return l.a.lex.vocab[l.stems[i]] || l.vx.HasStem(l.vstems[i]) || l.a.lex.words[l.texts[i]] || l.vx.HasWord(l.texts[i])
}

// correctTypos replaces words no vocabulary knows by the one word of the
// model or of the data within one edit ("pateints" → "patients"). Only
// words of five letters or more are corrected, and only into the model's
// own words and values: built-in function words are never targets. A long
// word a schema shortened ("independence" for indep) is read as the
// shortened name word.
//
// Words a time expression reads ("march 2005") are known words: they are
// never corrected into a stored value that looks like them.
func (l *linker) correctTypos() {
	timed := map[int]bool{}
	for i := range l.toks {
		if _, end, ok := l.tp.At(i); ok {
			for j := i; j < end; j++ {
				timed[j] = true
			}
		}
	}
	for i, t := range l.toks {
		if t.Kind != text.Word || timed[i] || l.known(i) || len([]rune(t.Text)) < 5 {
			continue
		}
		fixed, ok := l.vx.Correct(t.Text)
		if !ok || len([]rune(fixed)) < 5 {
			if fixed, ok = l.a.lex.abbreviated(t.Text); !ok {
				continue
			}
		}
		l.fuzzy[i] = t.Text
		l.texts[i], l.stems[i], l.vstems[i] = fixed, text.Stem(fixed), text.ValueStem(fixed)
	}
}

// link turns the tokens into mentions: every way to read each position is
// listed, and the reading that covers the most words with the fewest
// phrases wins ("number of" + "order lines" beats "number of orders" +
// an unknown "lines").
func (l *linker) link() []*mention {
	l.correctTypos()
	n := len(l.toks)
	cands := make([][]*mention, n)
	for i := 0; i < n; i++ {
		cands[i] = l.candidates(i)
	}
	type best struct {
		covered, segments int
		pick              *mention
	}
	dp := make([]best, n+1)
	for i := n - 1; i >= 0; i-- {
		dp[i] = best{covered: -1}
		for _, c := range cands[i] {
			cov := 0
			if c.kind != kUnknown {
				cov = c.end - c.start
			}
			cov += dp[c.end].covered
			seg := 1 + dp[c.end].segments
			if cov > dp[i].covered || cov == dp[i].covered && seg < dp[i].segments {
				dp[i] = best{covered: cov, segments: seg, pick: c}
			}
		}
	}
	var out []*mention
	for i := 0; i < n; {
		m := dp[i].pick
		l.noteFuzzy(m)
		out = append(out, m)
		i = m.end
	}
	return l.partialValues(out)
}

// candidates lists the readings of the words starting at token i, most
// preferred first (ties in the segmentation keep the first).
func (l *linker) candidates(i int) []*mention {
	var out []*mention
	if w, end, ok := l.tp.At(i); ok {
		// a copy made here, where a period was found: taking w's own
		// address would move it to the heap at every position
		win := w
		out = append(out, &mention{start: i, end: end, kind: kTime, window: &win, conf: 1})
	}
	t := l.toks[i]
	switch t.Kind {
	case text.Number:
		return append(out, &mention{start: i, end: i + 1, kind: kNumber, num: t.Num, conf: 1})
	case text.Op:
		return append(out, &mention{start: i, end: i + 1, kind: kOp, op: t.Text, conf: 1})
	}
	values := l.vx.Exact(l.texts, l.vstems, i)
	l.placeNames(i, values)
	ms := l.matches(i)
	// longer phrases first; at equal length the model's phrase, unless the
	// value is written exactly as in the question and the phrase is not
	for k := len(ms) - 1; k >= 0; k-- {
		mt := ms[k]
		if surfaceOnly(mt.entries) && !l.surfaceMatch(i, mt) {
			continue
		}
		if l.verbEnding(i, mt) {
			continue
		}
		vh, hit := values[mt.end-i]
		static := l.staticMention(i, mt)
		if hit && (fillerOnly(mt.entries) || l.shortBuiltin(i, mt)) && !l.ownerNear(i, mt.end, vh.IDs, true) && !(i > 0 && l.texts[i-1] == "the") {
			// "in", "on", "me": a stored code spelled like a filler ("IN"
			// for India, "ON" for Ontario) needs its column named
			// ("country code IN"): "countries in Asia" names the entity
			// before an ordinary "in"; after "the" it is a noun ("the US")
			delete(values, mt.end-i)
			hit = false
		}
		if hit && l.lowerForProper(i, mt.end, vh.IDs) {
			// "book sales" written in lower case is not the customer Sale
			delete(values, mt.end-i)
			hit = false
		}
		if hit && (!hasModelEntry(mt.entries) || vh.Text && !l.surfaceMatch(i, mt) || l.ownerNear(i, mt.end, vh.IDs, false)) {
			out = append(out, l.valueMention(i, mt.end, vh.IDs))
			delete(values, mt.end-i)
			hit = false
		}
		if hit && static.kind != kValue {
			for _, id := range vh.IDs {
				v := l.vx.Entry(id)
				static.vals = append(static.vals, storedCand(v, 1))
			}
			delete(values, mt.end-i)
		}
		out = append(out, static)
	}
	// "high schoolers" for the table Highschooler: two words written as one
	if i+1 < len(l.toks) && t.Kind == text.Word && l.toks[i+1].Kind == text.Word {
		if n := l.a.lex.root.children[text.Stem(l.texts[i]+l.texts[i+1])]; n != nil && hasModelEntry(n.entries) {
			out = append(out, l.staticMention(i, match{end: i + 2, entries: n.entries}))
		}
	}
	lengths := make([]int, 0, len(values))
	for length := range values {
		lengths = append(lengths, length)
	}
	sort.Sort(sort.Reverse(sort.IntSlice(lengths)))
	for _, length := range lengths {
		if l.lowerForProper(i, i+length, values[length].IDs) {
			continue // "sales" in lower case is not the customer Sale
		}
		out = append(out, l.valueMention(i, i+length, values[length].IDs))
	}
	return append(out, &mention{start: i, end: i + 1, kind: kUnknown})
}

// placeNames adds to values the stored values a place's other names find:
// "Texas" finds the state stored as TX, "French" finds France, "UK" the
// United Kingdom. A place found as written in one column and by its code
// in another is both ("Washington": a city, and the state WA).
func (l *linker) placeNames(i int, values map[int]valueindex.Hit) {
	for n := 1; n <= 3 && i+n <= len(l.texts); n++ {
		written, found := values[n]
		phrase := strings.Join(l.texts[i:i+n], " ")
		alts := gazetteer.Alternates(phrase)
		if i > 0 && l.texts[i-1] == "the" {
			alts = gazetteer.NounAlternates(phrase) // "the US"
		}
		for _, alt := range alts {
			// the gazetteer's names are plain lower-case words: split, not
			// tokenized (which would stem every word)
			texts := strings.Fields(alt)
			stems := make([]string, len(texts))
			for k, w := range texts {
				stems[k] = text.ValueStem(w)
			}
			hit, ok := l.vx.Exact(texts, stems, 0)[len(texts)]
			if !ok {
				continue
			}
			if !found {
				// the first other name found is the most specific
				values[n] = valueindex.Hit{IDs: hit.IDs}
				break
			}
			if len(alt) > 3 || !gazetteer.IsName(phrase) {
				// only a place's name and its code are two kinds of value
				// ("Washington" the city, WA the state); an adjective
				// ("Spanish") is not the country's code
				continue
			}
			// a new slice: the hits' ids belong to the shared value index
			ids := slices.Clone(written.IDs)
			for _, id := range hit.IDs {
				if !l.columnOf(ids, id) {
					ids = append(ids, id)
				}
			}
			written.IDs = ids
			values[n] = written
			break
		}
	}
}

// columnOf reports whether a value of the same column as value id is
// among ids.
func (l *linker) columnOf(ids []int32, id int32) bool {
	c := l.vx.Entry(id).Column
	for _, x := range ids {
		if l.vx.Entry(x).Column == c {
			return true
		}
	}
	return false
}

// ownerNear reports whether the word right after [i, end), or right
// before it, names the entity or the column one of the values belongs to:
// "the Sales department" is the department called Sales, whatever else
// "sales" means in the model (a revenue measure).
func (l *linker) ownerNear(i, end int, ids []int32, columnOnly bool) bool {
	cols := make([]*model.Column, len(ids))
	for k, id := range ids {
		cols[k] = l.vx.Entry(id).Column
	}
	return l.ownerNearCols(i, end, cols, columnOnly)
}

// ownerNearCols is ownerNear for the values of columns cols. With
// columnOnly, only a column named before the value counts: "state IN" is
// the state, "by state" groups by it.
func (l *linker) ownerNearCols(i, end int, cols []*model.Column, columnOnly bool) bool {
	owns := func(es []entry, entityToo bool) bool {
		for _, e := range es {
			for _, c := range cols {
				if e.kind == kEntity && e.entity == c.Entity() && entityToo || e.kind == kColumn && e.column == c {
					return true
				}
			}
		}
		return false
	}
	for _, mt := range l.matches(end) {
		if owns(mt.entries, true) && !columnOnly {
			return true
		}
	}
	for j := i - 1; j >= 0 && j >= i-3; j-- {
		for _, mt := range l.matches(j) {
			if mt.end == i && owns(mt.entries, !columnOnly) {
				return true
			}
		}
	}
	return false
}

// surfaceMatch reports whether one of a phrase's entries is written in the
// lexicon exactly as in the question (not only by stem).
func (l *linker) surfaceMatch(i int, mt match) bool {
	q := strings.Join(l.texts[i:mt.end], " ")
	for _, e := range mt.entries {
		if e.text == q {
			return true
		}
		for _, a := range e.alts {
			if a == q {
				return true
			}
		}
	}
	return false
}

func (l *linker) valueMention(start, end int, ids []int32) *mention {
	m := &mention{start: start, end: end, kind: kValue, conf: 1, entries: []entry{{kind: kValue}}, vals: make([]valCand, 0, len(ids))}
	for _, id := range ids {
		v := l.vx.Entry(id)
		m.vals = append(m.vals, storedCand(v, 1))
	}
	return m
}

func (l *linker) staticMention(i int, mt match) *mention {
	m := &mention{start: i, end: mt.end, conf: 1}
	m.entries = sortEntries(mt.entries)
	m.kind = m.entries[0].kind
	// a proper name of the model's own values written in lower case
	if m.kind == kValue && l.caps != nil {
		proper := true
		for k := i; k < mt.end; k++ {
			proper = proper && !l.caps[k]
		}
		for _, e := range m.entries {
			if e.kind != kValue {
				continue
			}
			r, _ := utf8.DecodeRuneInString(e.label)
			if e.column == nil || e.column.Role != model.RoleName || !unicode.IsUpper(r) || l.vx.ColumnSize(e.column) < properNames {
				proper = false
			}
		}
		if proper {
			var rest []entry
			for _, e := range m.entries {
				if e.kind != kValue {
					rest = append(rest, e)
				}
			}
			if len(rest) == 0 {
				return &mention{start: i, end: mt.end, kind: kUnknown}
			}
			m.entries = rest
			m.kind = rest[0].kind
		}
	}
	// "by" is the word, not the static code BY, unless its column is named
	if m.kind == kValue && mt.end == i+1 && len(l.texts[i]) <= 3 && !(i > 0 && l.texts[i-1] == "the") {
		var cols []*model.Column
		var word *entry
		for k, e := range m.entries {
			if e.kind == kValue {
				cols = append(cols, e.column)
			} else if !e.model && word == nil {
				word = &m.entries[k]
			}
		}
		if word != nil && !l.ownerNearCols(i, mt.end, cols, true) {
			m.entries = []entry{*word}
			m.kind = word.kind
		}
	}
	if m.kind == kValue || m.kind == kGroup || m.kind == kFlag {
		for _, e := range m.entries {
			if e.kind == m.kind {
				m.vals = append(m.vals, valCand{col: e.column, values: e.values, label: e.label, score: 1})
			}
		}
	}
	if m.kind == kNumberWord {
		m.kind, m.num = kNumber, m.entries[0].num
	}
	return m
}

// verbEnding reports whether a phrase of several words ends on a past
// tense where the model's phrase has a noun: "customers ordered" is not
// the entity "customer orders", though the stems agree.
func (l *linker) verbEnding(i int, mt match) bool {
	if mt.end-i < 2 || !strings.HasSuffix(l.texts[mt.end-1], "ed") {
		return false
	}
	for _, e := range mt.entries {
		if strings.HasSuffix(e.text, "ed") {
			return false
		}
		for _, a := range e.alts {
			if strings.HasSuffix(a, "ed") {
				return false
			}
		}
	}
	return true
}

// surfaceOnly reports whether a phrase's entries match only as written.
func surfaceOnly(es []entry) bool {
	for _, e := range es {
		if !e.surface {
			return false
		}
	}
	return len(es) > 0
}

// fillerOnly reports whether a phrase's meanings are all fillers or list
// words ("in", "on", "which").
func fillerOnly(es []entry) bool {
	for _, e := range es {
		if e.kind != kStop && e.kind != kList {
			return false
		}
	}
	return len(es) > 0
}

// properNames is how many values a name column holds for them to be proper
// names (people, titles) rather than categories (Road Bikes), which are
// often typed in lower case.
const properNames = 200

// lowerForProper reports whether the words [i, end), written in lower case
// by a writer who capitalizes names, would match only proper names
// (capitalized values of name columns with many values): "book sales" is
// not the customer Gilbert Sale, "ship" not the title "Ship of Fools".
// Categories and dimension values (Road Bikes, Horror) are often typed in
// lower case and are kept.
func (l *linker) lowerForProper(i, end int, ids []int32) bool {
	if l.caps == nil || len(ids) == 0 {
		return false
	}
	for k := i; k < end; k++ {
		if l.caps[k] {
			return false
		}
	}
	for _, id := range ids {
		v := l.vx.Entry(id)
		r, _ := utf8.DecodeRuneInString(v.Value)
		if v.Column.Role != model.RoleName || !unicode.IsUpper(r) || l.vx.ColumnSize(v.Column) < properNames {
			return false
		}
	}
	return true
}

// shortBuiltin reports whether a phrase is one short built-in word of
// questions ("by", "no", "at"): spelled like a stored code ("BY" for
// Belarus), it is still the word.
func (l *linker) shortBuiltin(i int, mt match) bool {
	if mt.end != i+1 || len(l.texts[i]) > 3 {
		return false
	}
	word := false
	for _, e := range mt.entries {
		switch {
		case !e.model:
			word = true
		case e.kind != kValue && e.kind != kGroup:
			return false // a model's own word ("no" a column's synonym)
		}
	}
	return word
}

func hasModelEntry(es []entry) bool {
	for _, e := range es {
		if e.model && e.kind != kStop {
			return true
		}
	}
	return false
}

func (l *linker) noteFuzzy(m *mention) {
	for i := m.start; i < m.end; i++ {
		if w, ok := l.fuzzy[i]; ok {
			m.fuzzy = append(m.fuzzy, w)
			m.conf = min(m.conf, 0.85*text.Similarity(w, l.texts[i]))
		}
	}
}

// sortEntries orders meanings by kind rank, stably.
func sortEntries(es []entry) []entry {
	out := append([]entry(nil), es...)
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && out[j].kind.rank() < out[j-1].kind.rank(); j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out
}

// partialValues links runs of unknown words to values that contain them
// ("Tesla" → "Tesla, Inc.", "vitamin D" → three vitamin D analytes).
func (l *linker) partialValues(ms []*mention) []*mention {
	var out []*mention
	for i := 0; i < len(ms); {
		if ms[i].kind != kUnknown {
			out = append(out, ms[i])
			i++
			continue
		}
		j := i
		for j < len(ms) && ms[j].kind == kUnknown && ms[j].start == ms[i].start+(j-i) {
			j++
		}
		out = append(out, l.partialRun(ms[i:j])...)
		i = j
	}
	return out
}

// modelWords reports whether every word in [from, to) is a word of the
// model's entity and column names.
func (l *linker) modelWords(from, to int) bool {
	for k := from; k < to; k++ {
		if !l.a.lex.names[l.texts[k]] {
			return false
		}
	}
	return true
}

func (l *linker) partialRun(run []*mention) []*mention {
	var out []*mention
	for i := 0; i < len(run); {
		matched := false
		for k := len(run); k > i; k-- {
			// a word corrected as a typo must name a value whole: "worth"
			// is not part of "North Hall"
			if l.anyFuzzy(run[i].start, run[k-1].end) {
				continue
			}
			// words of the model's own names ("middle" of middle_name, in
			// "first, middle and last name") are not parts of stored values
			if l.modelWords(run[i].start, run[k-1].end) {
				continue
			}
			q := l.vstems[run[i].start:run[k-1].end]
			cands := l.vx.Partial(q)
			// a word naming a small part of a long name is not a reference to it
			// ("yet" in "Office mug - is it Friday yet?")
			for len(cands) > 0 && cands[len(cands)-1].Coverage < minCoverage {
				cands = cands[:len(cands)-1]
			}
			// part of a proper name written in lower case is not that name
			if l.caps != nil {
				cands = slices.DeleteFunc(slices.Clone(cands), func(c valueindex.Match) bool {
					return l.lowerForProper(run[i].start, run[k-1].end, []int32{c.ID})
				})
			}
			if len(cands) == 0 {
				continue
			}
			m := &mention{start: run[i].start, end: run[k-1].end, kind: kValue, partial: true, entries: []entry{{kind: kValue}}}
			best := cands[0].Coverage
			for n, c := range cands {
				if n >= 50 {
					break
				}
				v := l.vx.Entry(c.ID)
				m.vals = append(m.vals, storedCand(v, partialScore(c.Coverage)))
			}
			m.conf = partialScore(best)
			l.noteFuzzy(m)
			out = append(out, m)
			i = k
			matched = true
			break
		}
		if !matched {
			out = append(out, run[i])
			i++
		}
	}
	return out
}

// anyFuzzy reports whether a token in [from, to) was corrected as a typo.
func (l *linker) anyFuzzy(from, to int) bool {
	for i := from; i < to; i++ {
		if _, ok := l.fuzzy[i]; ok {
			return true
		}
	}
	return false
}

// minCoverage is the least share of a value's distinctive words a phrase
// must name to refer to it by part.
const minCoverage = 0.34

// partialScore is the confidence of a link by part of a value's name: a
// fuzzy match (0.85) scaled by how much of the value the words name.
func partialScore(coverage float64) float64 { return 0.85 * (0.5 + 0.5*coverage) }

// words returns the question's words of a mention.
func (l *linker) words(m *mention) string {
	parts := make([]string, 0, m.end-m.start)
	for _, t := range l.toks[m.start:m.end] {
		parts = append(parts, t.Text)
	}
	return strings.Join(parts, " ")
}

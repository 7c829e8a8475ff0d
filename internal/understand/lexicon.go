package understand

import (
	"slices"
	"sort"
	"strings"

	"github.com/clarify-sql/clarify/internal/model"
	"github.com/clarify-sql/clarify/internal/understand/text"
)

// kind is what a lexicon entry means.
type kind uint8

const (
	kEntity kind = iota + 1
	kColumn
	kValue // a value (or value synonym) of a column
	kGroup // a value group: several values of a column
	kFlag  // a flag column word: true, or false when neg
	kMeasure
	kTerm
	kVague
	kSuperlative // "largest": order by a vague term's column
	kFirstPerson
	kPlot
	kTable
	kHistory
	kLatest
	kCount
	kAgg
	kTop
	kBottom
	kBy
	kPer
	kNot
	kCmp
	kTrend
	kAsc
	kDesc
	kOrder
	kGeneric
	kList
	kUnit
	kNumberWord
	kMost
	kBucket
	kEarliest
	kStop
)

var kindNames = map[kind]string{
	kEntity: "entity", kColumn: "column", kValue: "value", kGroup: "group", kFlag: "flag", kMeasure: "measure",
	kTerm: "term", kVague: "vague", kSuperlative: "superlative", kFirstPerson: "first_person", kPlot: "plot",
	kTable: "table", kHistory: "history", kLatest: "latest", kCount: "count", kAgg: "aggregate", kTop: "top",
	kBottom: "bottom", kBy: "by", kPer: "per", kNot: "not", kCmp: "compare", kTrend: "trend", kAsc: "asc",
	kDesc: "desc", kOrder: "order", kGeneric: "generic", kList: "list", kUnit: "unit", kNumberWord: "number", kMost: "most", kBucket: "bucket", kEarliest: "earliest",
	kStop: "stop",
}

func (k kind) String() string { return kindNames[k] }

// rank orders kinds when one phrase has several meanings: the model's words
// beat built-in words, which beat fillers.
func (k kind) rank() int {
	switch k {
	case kTerm:
		return 0
	case kVague, kSuperlative:
		return 1
	case kMeasure:
		return 2
	case kGroup, kValue, kFlag:
		return 3
	case kEntity:
		return 4
	case kColumn:
		return 5
	case kFirstPerson, kPlot, kTable, kHistory:
		return 6
	case kStop:
		return 20
	case kList, kGeneric:
		return 15
	}
	return 10
}

// entry is one meaning of a phrase.
type entry struct {
	kind    kind
	entity  *model.Entity
	column  *model.Column
	values  []string // kValue: one value; kGroup: the group's values
	label   string   // canonical text for people
	measure *model.Measure
	term    *model.Term
	vague   *model.VagueTerm
	op      string   // kAgg: avg/sum/min/max; kCmp: > >= < <= =
	neg     bool     // kFlag: the flag is false
	num     float64  // kNumberWord
	model   bool     // declared by the model (not built in)
	surface bool     // matches only as written, not by stem ("alphabetically", not "Alphabet")
	text    string   // the phrase as written (normalized), to prefer exact wording
	alts    []string // other wordings of the same meaning with the same stems
}

// trie maps stemmed token sequences to entries.
type trie struct {
	entries  []entry
	children map[string]*trie
}

func (t *trie) add(phrase string, e entry) {
	key := text.StemPhrase(phrase)
	if key == "" {
		return
	}
	n := t
	for _, s := range strings.Split(key, " ") {
		if n.children == nil {
			n.children = map[string]*trie{}
		}
		c := n.children[s]
		if c == nil {
			c = &trie{}
			n.children[s] = c
		}
		n = c
	}
	for i, have := range n.entries {
		if sameEntry(have, e) {
			// keep the wording that appears exactly as written, if either does
			if have.text != e.text && strings.Join(strings.Fields(have.text), " ") != "" {
				n.entries[i].alts = append(n.entries[i].alts, e.text)
			}
			return
		}
	}
	n.entries = append(n.entries, e)
}

func sameEntry(a, b entry) bool {
	return a.kind == b.kind && a.entity == b.entity && a.column == b.column && a.measure == b.measure &&
		a.term == b.term && a.vague == b.vague && a.op == b.op && a.neg == b.neg && strings.Join(a.values, "\x00") == strings.Join(b.values, "\x00")
}

// lexicon is the static vocabulary of one model plus the built-in words.
type lexicon struct {
	root  trie
	vocab map[string]bool // every stem in the trie
	words map[string]bool // the model's own words as written (typo targets)
	// short are the 4- to 6-letter words of entity and column names, which
	// may be shortened words ("indep", "prereq")
	short map[string]bool
	// names are the words of entity and column names and synonyms
	names map[string]bool
	// sortedVocab is vocab in order, to find the stems a stem begins
	sortedVocab []string
	// suggest finds the names an unknown word resembles
	suggest *suggester
	// titles are the columns' titles in lower case
	titles map[*model.Column]string
}

// lowerTitle returns the title of c in lower case.
func (l *lexicon) lowerTitle(c *model.Column) string {
	if t, ok := l.titles[c]; ok {
		return t
	}
	return strings.ToLower(c.Title())
}

// abbreviated returns the name word a long word not in the vocabulary
// starts with, when the schema shortened it: "independence" → "indep",
// "prerequisite" → "prereq". The longest such word wins; words under 8
// letters are never read as abbreviated.
func (l *lexicon) abbreviated(w string) (string, bool) {
	if len(w) < 8 {
		return "", false
	}
	for n := 6; n >= 4; n-- {
		if l.short[w[:n]] {
			return w[:n], true
		}
	}
	return "", false
}

func (l *lexicon) add(phrase string, e entry) {
	toks := text.Tokenize(text.Normalize(phrase))
	texts := make([]string, len(toks))
	for i, t := range toks {
		texts[i] = t.Text
		l.vocab[t.Stem] = true
		if e.model && t.Kind == text.Word {
			l.words[t.Text] = true
			if e.kind == kEntity || e.kind == kColumn {
				l.names[t.Text] = true
				if n := len(t.Text); n >= 4 && n <= 6 {
					l.short[t.Text] = true
				}
			}
		}
	}
	e.text = strings.Join(texts, " ")
	l.root.add(phrase, e)
	// "high schooler" is also written "highschooler"
	if e.model && len(toks) == 2 && toks[0].Kind == text.Word && toks[1].Kind == text.Word && (e.kind == kEntity || e.kind == kColumn) {
		l.root.add(texts[0]+texts[1], e)
	}
}

func newLexicon(m *model.Model) *lexicon {
	l := &lexicon{vocab: map[string]bool{}, words: map[string]bool{}, short: map[string]bool{}, names: map[string]bool{}}
	l.addBuiltins(m)
	l.addModel(m)
	l.dropShadowedCounts()
	l.sortedVocab = sortedKeys(l.vocab)
	l.suggest = newSuggester(m)
	l.titles = map[*model.Column]string{}
	for _, e := range m.Entities {
		for _, c := range e.Columns {
			l.titles[c] = strings.ToLower(c.Title())
		}
	}
	return l
}

// dropShadowedCounts removes counting phrases whose head word the model
// claims: where "quantity" is a column, "total quantity of MSFT trades"
// sums it rather than counting trades.
func (l *lexicon) dropShadowedCounts() {
	for _, w := range shadowableCounts {
		head := l.root.find(text.StemPhrase(strings.TrimSuffix(w, " of")))
		if head == nil || !hasModelEntry(head.entries) {
			continue
		}
		n := l.root.find(text.StemPhrase(w))
		if n == nil {
			continue
		}
		kept := n.entries[:0]
		for _, e := range n.entries {
			if e.kind != kCount {
				kept = append(kept, e)
			}
		}
		n.entries = kept
	}
}

// find returns the node of a stemmed phrase, or nil.
func (t *trie) find(key string) *trie {
	n := t
	for _, s := range strings.Split(key, " ") {
		if n = n.children[s]; n == nil {
			return nil
		}
	}
	return n
}

func (l *lexicon) addBuiltins(m *model.Model) {
	for _, w := range countWords {
		l.add(w, entry{kind: kCount})
	}
	for _, op := range sortedKeys(aggWords) {
		ws := aggWords[op]
		for _, w := range ws {
			l.add(w, entry{kind: kAgg, op: op})
		}
	}
	for _, op := range sortedKeys(mostWords) {
		ws := mostWords[op]
		for _, w := range ws {
			l.add(w, entry{kind: kMost, op: op})
		}
	}
	for _, w := range earliestWords {
		l.add(w, entry{kind: kEarliest})
	}
	for _, unit := range sortedKeys(bucketWords) {
		ws := bucketWords[unit]
		for _, w := range ws {
			l.add(w, entry{kind: kBucket, op: unit})
		}
	}
	for _, op := range sortedKeys(cmpWords) {
		ws := cmpWords[op]
		for _, w := range ws {
			l.add(w, entry{kind: kCmp, op: op})
		}
	}
	simple := []struct {
		k  kind
		ws []string
	}{
		{kTop, topWords}, {kBottom, bottomWords}, {kBy, byWords}, {kPer, perWords}, {kNot, notWords},
		{kTrend, trendWords}, {kLatest, latestWords}, {kAsc, ascWords}, {kDesc, descWords}, {kOrder, orderWords},
		{kGeneric, genericWords}, {kList, listWords}, {kUnit, slices.Collect(text.UnitWords())}, {kStop, stopWords},
	}
	for _, s := range simple {
		for _, w := range s.ws {
			l.add(w, entry{kind: s.k})
		}
	}
	for _, w := range alphaWords {
		l.add(w, entry{kind: kAsc, op: "alpha", surface: true})
	}
	for _, w := range versusWords {
		l.add(w, entry{kind: kStop, op: "versus"})
	}
	for w, n := range text.NumberWords() {
		l.add(w, entry{kind: kNumberWord, num: n})
	}
	// format and history words are built in, the model may add more
	if f := m.Policies.Format; f != nil {
		for _, w := range append(append([]string{}, plotWords...), f.PlotWords...) {
			l.add(w, entry{kind: kPlot, model: true})
		}
		for _, w := range append(append([]string{}, tableWords...), f.TableWords...) {
			l.add(w, entry{kind: kTable, model: true})
		}
	} else {
		for _, w := range plotWords {
			l.add(w, entry{kind: kPlot})
		}
	}
	if h := m.Policies.History; h != nil {
		for _, w := range append(append([]string{}, historyWords...), h.HistoryWords...) {
			l.add(w, entry{kind: kHistory, model: true})
		}
		for _, w := range h.LatestWords {
			l.add(w, entry{kind: kLatest, model: true})
		}
	}
	for _, w := range m.Stopwords {
		l.add(w, entry{kind: kStop, model: true})
	}
}

func (l *lexicon) addModel(m *model.Model) {
	for _, e := range m.Entities {
		for _, w := range entityWords(e) {
			l.add(w, entry{kind: kEntity, entity: e, label: e.PluralLabel(), model: true})
		}
		for _, c := range e.Columns {
			l.addColumn(e, c)
		}
		// "the date of the latest assessment": the column that dates the
		// entity's rows, when the entity has one of its own
		if tc := m.TimeColumn(e); tc != nil && tc.Entity() == e {
			for _, w := range []string{"date", "dates"} {
				l.add(w, entry{kind: kColumn, entity: e, column: tc, label: tc.Title(), model: true})
			}
		}
	}
	for _, ms := range m.Measures {
		words := append([]string{ms.Name, strings.ReplaceAll(ms.Name, "_", " ")}, ms.Synonyms...)
		if ms.Label != "" {
			words = append(words, ms.Label)
		}
		for _, w := range words {
			l.add(w, entry{kind: kMeasure, measure: ms, entity: m.Entity(ms.Entity), label: measureLabel(ms), model: true})
		}
	}
	for _, t := range m.Terms {
		for _, p := range t.Phrases {
			l.add(p, entry{kind: kTerm, term: t, entity: m.Entity(t.Entity), label: p, model: true})
		}
	}
	// vague words match as written: their stems catch other words
	// ("costs" is not "costly", "higher than" not "high")
	for _, v := range m.Vague {
		for _, w := range v.Words {
			l.add(w, entry{kind: kVague, vague: v, label: w, model: true, surface: true})
		}
		for _, w := range v.Superlatives {
			l.add(w, entry{kind: kSuperlative, vague: v, label: w, model: true, surface: true})
		}
	}
	if s := m.Scope; s != nil {
		for _, w := range s.FirstPerson {
			l.add(w, entry{kind: kFirstPerson, model: true})
		}
	}
}

func (l *lexicon) addColumn(e *model.Entity, c *model.Column) {
	if c.Role == model.RoleFlag {
		for _, w := range append([]string{humanizeName(c.Name), c.Label}, c.Synonyms...) {
			if w != "" {
				l.add(w, entry{kind: kFlag, entity: e, column: c, label: c.Title(), model: true})
			}
		}
		for _, w := range c.FalseSynonyms {
			l.add(w, entry{kind: kFlag, entity: e, column: c, neg: true, label: "not " + c.Title(), model: true})
		}
	} else {
		words := append([]string{humanizeName(c.Name)}, c.Synonyms...)
		if c.Label != "" {
			words = append(words, c.Label)
		}
		for _, w := range words {
			l.add(w, entry{kind: kColumn, entity: e, column: c, label: c.Title(), model: true})
		}
	}
	for _, w := range c.UnitWords {
		l.add(w, entry{kind: kUnit})
	}
	if c.Values == nil {
		return
	}
	for _, it := range c.Values.Items {
		for _, w := range it.Synonyms {
			l.add(w, entry{kind: kValue, entity: e, column: c, values: []string{it.Value}, label: it.Value, model: true})
		}
		if it.Label != "" {
			l.add(it.Label, entry{kind: kValue, entity: e, column: c, values: []string{it.Value}, label: it.Value, model: true})
		}
	}
	for _, g := range c.Values.Groups {
		for _, w := range append([]string{g.Name}, g.Synonyms...) {
			l.add(w, entry{kind: kGroup, entity: e, column: c, values: g.Values, label: g.Name, model: true})
		}
	}
}

// entityWords are the phrases that name an entity.
func entityWords(e *model.Entity) []string {
	words := []string{humanizeName(e.Name), e.Singular(), e.PluralLabel()}
	if t := e.TableName(); t != e.Name {
		words = append(words, humanizeName(t))
	}
	return append(words, e.Synonyms...)
}

func humanizeName(s string) string { return strings.ReplaceAll(s, "_", " ") }

func measureLabel(ms *model.Measure) string {
	if ms.Label != "" {
		return ms.Label
	}
	return humanizeName(ms.Name)
}

// sortedKeys returns a map's keys in order, so the lexicon is built the
// same way every time (entries of equal rank keep their order).
func sortedKeys[V any](m map[string]V) []string {
	ks := make([]string, 0, len(m))
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}

package valueindex

import (
	"slices"
	"strings"
	"unicode"

	"github.com/clarify-sql/clarify/internal/model"
	"github.com/clarify-sql/clarify/internal/understand/text"
)

// Entry is one stored value of one column.
type Entry struct {
	Column *model.Column
	Value  string
	// Rows is how many rows hold the value (0 when unknown: a static
	// value of the model): a name that two customers share has 2.
	Rows  int64
	stems []string // plural-free stems (text.ValueStem), by which values are found
	// words are the stems of the value as text.StemPhrase gives them,
	// by which values are compared with a question's words; they share
	// stems' memory where the two agree
	words []string
	core  int // tokens that make the value distinct (not noise, not in parentheses)
	// asWritten: the value's stems are its words as written, so that
	// its stemmed phrase in exact also names it as written
	asWritten bool
}

// Words returns the value's words stemmed as text.StemPhrase stems them,
// computed once when the value was added; callers must not modify them.
func (e Entry) Words() []string { return e.words }

// Index finds values in questions: exactly, by part ("Tesla" for "Tesla,
// Inc."), or despite a typo. Values are identified by the int32 ids the
// lookups return; Entry turns one back into its column and value. An
// Index is built once and then only read: reads are safe for concurrent
// use, Add and AddTypoTarget are not.
type Index struct {
	vals  []Entry
	exact map[string][]int32 // stemmed phrase → values
	// text holds the values whose words as written are not their stems,
	// by their unstemmed phrase ("healed" ≠ "healing"); the others are
	// found under the same phrase in exact, marked asWritten
	text     map[string][]int32
	postings map[string][]int32 // stem → values holding it
	digitExt map[string][]string
	maxLen   int
	words    map[string]int      // words as written → how many values use them
	deletes  map[string][]string // typo correction over words as written
	// colNoise are, per column, stems that many of its values share
	// ("bikes" in Road Bikes, Mountain Bikes, Kids Bikes): they name the
	// kind of thing, not one value (set by Seal)
	colNoise map[*model.Column]map[string]bool
	// cols holds, per column, how many values it holds and the id of its
	// first one
	cols map[*model.Column]*colStat
	// adding is what adding values reuses from one value to the next;
	// Seal drops it
	adding *adder
	// base, when set, is the sealed index this one is a layer over
	// (layer.go): its values keep their ids, this one's come after them,
	// from off
	base *Index
	off  int32
	// outside counts, per column, values it holds that were left out of
	// the index (Outside)
	outside map[*model.Column]int
}

// colStat is what the index knows of one column's values.
type colStat struct {
	size  int   // how many values the column holds
	first int32 // the id of its first value: its others come after it
}

// adder is what adding many values reuses: the values of a column share
// their words ("gamma-1" … "gamma-9999"), so each distinct word is stemmed
// once per build, and the values' stems are cut from shared blocks rather
// than allocated one by one.
type adder struct {
	stems map[string]string // word → text.Stem(word)
	stem  func(string) string
	toks  []text.Token
	block []string // the free part of the block stems are cut from
}

// newAdder returns an empty adder.
func newAdder() *adder {
	a := &adder{stems: map[string]string{}}
	a.stem = func(w string) string {
		s, ok := a.stems[w]
		if !ok {
			s = text.Stem(w)
			a.stems[w] = s
		}
		return s
	}
	return a
}

// stemBlock is how many strings one block of the values' stems holds.
const stemBlock = 4096

// strings returns room for n strings, cut from the current block.
func (a *adder) strings(n int) []string {
	if n > len(a.block) {
		a.block = make([]string, max(stemBlock, n))
	}
	s := a.block[:n:n]
	a.block = a.block[n:]
	return s
}

// New returns an empty index.
func New() *Index { return NewSized(0) }

// NewSized returns an empty index with room for about n values, so that
// building an index of many values does not grow it step by step.
func NewSized(n int) *Index {
	return &Index{
		vals:     make([]Entry, 0, n),
		exact:    make(map[string][]int32, n),
		text:     make(map[string][]int32, n),
		postings: map[string][]int32{},
		digitExt: map[string][]string{},
		words:    map[string]int{},
		deletes:  map[string][]string{},
		cols:     map[*model.Column]*colStat{},
	}
}

// noiseWords do not make a value distinct: "Tesla" fully names "Tesla, Inc.".
var noiseWords = []string{"inc", "incorporated", "corp", "corporation", "co", "company", "the", "ltd", "llc",
	"plc", "limited", "group", "&", "and", "of"}

var noiseSet = func() map[string]bool {
	s := map[string]bool{}
	for _, w := range noiseWords {
		s[text.Stem(w)] = true
	}
	return s
}()

// IsNoise reports whether a stem is a word that makes no value distinct
// ("inc", "company", "the").
func IsNoise(stem string) bool { return noiseSet[stem] }

// Add indexes one value of a column; extraNoise are stems that do not
// make a value distinct in this column (its entity's own words). A value
// added twice to one column is kept once.
func (x *Index) Add(c *model.Column, v string, extraNoise map[string]bool) {
	x.AddCounted(c, v, 0, extraNoise)
}

// AddCounted indexes one value with the number of rows that hold it.
func (x *Index) AddCounted(c *model.Column, v string, rows int64, extraNoise map[string]bool) {
	x.add(c, v, rows, extraNoise, 0)
}

// add is AddCounted; core, when above 0, is the count of the value's
// distinct words, as an earlier index computed it.
func (x *Index) add(c *model.Column, v string, rows int64, extraNoise map[string]bool, core int) {
	if strings.TrimSpace(v) == "" {
		return
	}
	if x.adding == nil {
		x.adding = newAdder()
	}
	ad := x.adding
	// stored codes such as "in_repair" are matched as the words they
	// spell; the value bound to SQL stays as stored
	norm := text.Normalize(strings.ReplaceAll(v, "_", " "))
	ad.toks = text.AppendTokens(ad.toks[:0], norm, ad.stem)
	toks := ad.toks
	if len(toks) == 0 {
		return
	}
	stems := ad.strings(len(toks))
	asWritten := true // every stem is the word as written
	given := core
	core = 0
	for i, t := range toks {
		stems[i] = text.ValueStem(t.Text)
		asWritten = asWritten && stems[i] == t.Text
		n := x.words[t.Text]
		if n == 0 && t.Kind == text.Word && (x.base == nil || !x.base.HasWord(t.Text)) {
			x.AddTypoTarget(t.Text)
		}
		x.words[t.Text] = n + 1
		if !noiseSet[t.Stem] && !extraNoise[t.Stem] && !inParens(norm, t.Start) {
			core++
		}
	}
	if core == 0 {
		core = len(stems)
	}
	if given > 0 {
		core = given
	}
	key := strings.Join(stems, " ")
	same := x.exact[key]
	col := x.cols[c]
	if col != nil && x.duplicate(same, col.first, c, v) || x.base != nil && x.base.holds(c, key, v) {
		return
	}
	id := x.off + int32(len(x.vals))
	if col == nil {
		col = &colStat{first: id}
		x.cols[c] = col
	}
	col.size++
	x.vals = append(x.vals, Entry{Column: c, Value: v, Rows: rows, stems: stems, words: ad.phraseStems(v, toks, stems), core: core, asWritten: asWritten})
	x.exact[key] = append(same, id)
	if !asWritten {
		tkey := joinTexts(toks)
		x.text[tkey] = append(x.text[tkey], id)
	}
	if len(stems) > x.maxLen {
		x.maxLen = len(stems)
	}
	for i, s := range stems {
		if slices.Contains(stems[:i], s) {
			continue
		}
		ids := x.postings[s]
		if len(ids) == 0 {
			if base := strings.TrimRightFunc(s, unicode.IsDigit); base != s && base != "" {
				x.digitExt[base] = append(x.digitExt[base], s)
			}
		}
		x.postings[s] = append(ids, id)
	}
}

// duplicate reports whether column c, whose first value has id first,
// already holds v, among ids, the values with v's stems. The ids ascend,
// so only the last of them, those from first on, can be c's.
func (x *Index) duplicate(ids []int32, first int32, c *model.Column, v string) bool {
	for k := len(ids) - 1; k >= 0 && ids[k] >= first; k-- {
		if e := x.entry(ids[k]); e.Column == c && e.Value == v {
			return true
		}
	}
	return false
}

// joinTexts returns the tokens' words as written, joined by spaces.
func joinTexts(toks []text.Token) string {
	if len(toks) == 1 {
		return toks[0].Text
	}
	n := len(toks) - 1
	for _, t := range toks {
		n += len(t.Text)
	}
	var b strings.Builder
	b.Grow(n)
	for i, t := range toks {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(t.Text)
	}
	return b.String()
}

// phraseStems returns text.StemPhrase(v) as words, from the tokens of the
// value already stemmed when they are the same (no underscore in v), in
// stems' memory where they are equal to the plural-free stems.
func (a *adder) phraseStems(v string, toks []text.Token, stems []string) []string {
	if strings.Contains(v, "_") {
		// "in_repair" is one token to StemPhrase, two to the index
		return strings.Fields(text.StemPhrase(v))
	}
	words := stems
	for i, t := range toks {
		if t.Stem == stems[i] {
			continue
		}
		if &words[0] == &stems[0] {
			words = a.strings(len(stems))
			copy(words, stems)
		}
		words[i] = t.Stem
	}
	return words
}

// Seal finishes the index once every value is added: a last word shared
// by at least three values of a column, and by at least a third of them,
// names the kind of thing the column holds ("Bikes" in Road Bikes,
// Mountain Bikes, Kids Bikes), so it alone refers to none of them, and a
// value is named in full without it ("mountain" is Mountain Bikes). A
// shared first word ("Left" Heel, "Left" Hip) still tells values apart.
func (x *Index) Seal() {
	x.adding = nil // no more values to add, or few: keep no cache
	perCol := map[*model.Column]map[string]int{}
	var (
		col    *model.Column
		counts map[string]int // perCol[col]
	)
	for i := range x.vals {
		e := &x.vals[i]
		if e.Column != col {
			col = e.Column
			if counts = perCol[col]; counts == nil {
				counts = map[string]int{}
				perCol[col] = counts
			}
		}
		// the head of a name is its last word ("Road Bikes"); a shared
		// first word ("Left Heel", "Left Hip") tells values apart
		if n := len(e.stems); n > 1 {
			counts[e.stems[n-1]]++
			// "Song 19", "Room 101": a word before a number is the kind too
			if n == 2 && isDigits(e.stems[1]) {
				counts[e.stems[0]]++
			}
		}
	}
	x.colNoise = map[*model.Column]map[string]bool{}
	for c, counts := range perCol {
		if x.base != nil && x.base.ColumnSize(c) > 0 {
			continue // a layer's few values of a column: the base's kind words hold
		}
		for s, n := range counts {
			if n >= 3 && n*3 >= x.cols[c].size && !isDigits(s) {
				if x.colNoise[c] == nil {
					x.colNoise[c] = map[string]bool{}
				}
				x.colNoise[c][s] = true
			}
		}
	}
	for i, e := range x.vals {
		noise := x.noiseOf(e.Column)
		if len(noise) == 0 {
			continue
		}
		core := 0
		for _, s := range e.stems {
			if !noiseSet[s] && !noise[s] {
				core++
			}
		}
		if core > 0 && core < e.core {
			x.vals[i].core = core
		}
	}
}

// kindWord reports whether stem s is one many values of e's column share.
func (x *Index) kindWord(e Entry, s string) bool { return x.noiseOf(e.Column)[s] }

// noiseOf returns the kind words of column c's values (Seal), the base's
// when this layer computed none for c.
func (x *Index) noiseOf(c *model.Column) map[string]bool {
	if n, ok := x.colNoise[c]; ok || x.base == nil {
		return n
	}
	return x.base.noiseOf(c)
}

// KindWord reports whether stem s names the kind of the values of some
// column ("bikes" in Road Bikes, Mountain Bikes…): a known word of the
// data that alone names no value.
func (x *Index) KindWord(s string) bool {
	for _, n := range x.colNoise {
		if n[s] {
			return true
		}
	}
	return x.base != nil && x.base.KindWord(s)
}

func isDigits(s string) bool {
	for _, r := range s {
		if r < '0' || r > '9' {
			return false
		}
	}
	return s != ""
}

// AddTypoTarget records a word that a misspelt word may be corrected into
// (deletion neighbourhood, distance 1); words of values are added by Add,
// other words (the model's, built-in ones) here. Words under four letters
// are never targets.
func (x *Index) AddTypoTarget(s string) {
	rs := []rune(s)
	if len(rs) < 4 {
		return
	}
	for i := range rs {
		d := string(rs[:i]) + string(rs[i+1:])
		x.deletes[d] = append(x.deletes[d], s)
	}
	x.deletes[s] = append(x.deletes[s], s)
}

// Entry returns the value with id id.
func (x *Index) Entry(id int32) Entry { return *x.entry(id) }

// entry returns the value with id id, in this index or its base.
func (x *Index) entry(id int32) *Entry {
	if id < x.off {
		return x.base.entry(id)
	}
	return &x.vals[id-x.off]
}

// ColumnSize is how many values column c holds: those the index holds
// and those left out of it (Outside).
func (x *Index) ColumnSize(c *model.Column) int {
	n := x.outside[c]
	if col := x.cols[c]; col != nil {
		n += col.size
	}
	if x.base != nil {
		n += x.base.ColumnSize(c)
	}
	return n
}

// Outside notes that column c holds n values besides those added, left
// out of the index: ColumnSize counts them (a column of many proper
// names is told by its size).
func (x *Index) Outside(c *model.Column, n int) {
	if x.outside == nil {
		x.outside = map[*model.Column]int{}
	}
	x.outside[c] += n
}

// HasStem reports whether some value has a word with this plural-free
// stem (text.ValueStem).
func (x *Index) HasStem(s string) bool {
	return len(x.postings[s]) > 0 || x.base != nil && x.base.HasStem(s)
}

// HasWord reports whether some value has this word as written.
func (x *Index) HasWord(w string) bool {
	return x.words[w] > 0 || x.base != nil && x.base.HasWord(w)
}

// inParens reports whether byte offset i of s lies inside parentheses.
func inParens(s string, i int) bool {
	depth := 0
	for j := 0; j < i && j < len(s); j++ {
		switch s[j] {
		case '(':
			depth++
		case ')':
			depth--
		}
	}
	return depth > 0
}

package valueindex

import (
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
	vals     []Entry
	exact    map[string][]int32 // stemmed phrase → values
	text     map[string][]int32 // unstemmed phrase → values ("healed" ≠ "healing")
	postings map[string][]int32 // stem → values holding it
	digitExt map[string][]string
	maxLen   int
	vocab    map[string]int      // value stem → how many values use it
	words    map[string]int      // words as written → how many values use them
	deletes  map[string][]string // typo correction over words as written
	// colNoise are, per column, stems that many of its values share
	// ("bikes" in Road Bikes, Mountain Bikes, Kids Bikes): they name the
	// kind of thing, not one value (set by Seal)
	colNoise map[*model.Column]map[string]bool
	// colSize is how many values each column holds
	colSize map[*model.Column]int
}

// New returns an empty index.
func New() *Index {
	return &Index{
		exact:    map[string][]int32{},
		text:     map[string][]int32{},
		postings: map[string][]int32{},
		digitExt: map[string][]string{},
		vocab:    map[string]int{},
		words:    map[string]int{},
		deletes:  map[string][]string{},
		colSize:  map[*model.Column]int{},
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
	if strings.TrimSpace(v) == "" {
		return
	}
	// stored codes such as "in_repair" are matched as the words they
	// spell; the value bound to SQL stays as stored
	norm := text.Normalize(strings.ReplaceAll(v, "_", " "))
	toks := text.Tokenize(norm)
	if len(toks) == 0 {
		return
	}
	stems := make([]string, len(toks))
	texts := make([]string, len(toks))
	core := 0
	for i, t := range toks {
		stems[i] = text.ValueStem(t.Text)
		texts[i] = t.Text
		if x.words[t.Text] == 0 && t.Kind == text.Word {
			x.AddTypoTarget(t.Text)
		}
		x.words[t.Text]++
		if !noiseSet[t.Stem] && !extraNoise[t.Stem] && !inParens(norm, t.Start) {
			core++
		}
	}
	if core == 0 {
		core = len(stems)
	}
	key := strings.Join(stems, " ")
	for _, id := range x.exact[key] {
		if x.vals[id].Column == c && x.vals[id].Value == v {
			return // duplicate value
		}
	}
	id := int32(len(x.vals))
	x.vals = append(x.vals, Entry{Column: c, Value: v, Rows: rows, stems: stems, words: phraseStems(v, toks, stems), core: core})
	x.colSize[c]++
	x.exact[key] = append(x.exact[key], id)
	tkey := strings.Join(texts, " ")
	x.text[tkey] = append(x.text[tkey], id)
	if len(stems) > x.maxLen {
		x.maxLen = len(stems)
	}
	seen := map[string]bool{}
	for _, s := range stems {
		if seen[s] {
			continue
		}
		seen[s] = true
		x.postings[s] = append(x.postings[s], id)
		if x.vocab[s] == 0 {
			if base := strings.TrimRightFunc(s, unicode.IsDigit); base != s && base != "" {
				x.digitExt[base] = append(x.digitExt[base], s)
			}
		}
		x.vocab[s]++
	}
}

// phraseStems returns text.StemPhrase(v) as words, from the tokens of the
// value already stemmed when they are the same (no underscore in v), in
// stems' memory where they are equal to the plural-free stems.
func phraseStems(v string, toks []text.Token, stems []string) []string {
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
			words = append([]string(nil), stems...)
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
	perCol := map[*model.Column]map[string]int{}
	values := map[*model.Column]int{}
	for _, e := range x.vals {
		values[e.Column]++
		if perCol[e.Column] == nil {
			perCol[e.Column] = map[string]int{}
		}
		// the head of a name is its last word ("Road Bikes"); a shared
		// first word ("Left Heel", "Left Hip") tells values apart
		if n := len(e.stems); n > 1 {
			perCol[e.Column][e.stems[n-1]]++
			// "Song 19", "Room 101": a word before a number is the kind too
			if n == 2 && isDigits(e.stems[1]) {
				perCol[e.Column][e.stems[0]]++
			}
		}
	}
	x.colNoise = map[*model.Column]map[string]bool{}
	for c, counts := range perCol {
		for s, n := range counts {
			if n >= 3 && n*3 >= values[c] && !isDigits(s) {
				if x.colNoise[c] == nil {
					x.colNoise[c] = map[string]bool{}
				}
				x.colNoise[c][s] = true
			}
		}
	}
	for i, e := range x.vals {
		noise := x.colNoise[e.Column]
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
func (x *Index) kindWord(e Entry, s string) bool { return x.colNoise[e.Column][s] }

// KindWord reports whether stem s names the kind of the values of some
// column ("bikes" in Road Bikes, Mountain Bikes…): a known word of the
// data that alone names no value.
func (x *Index) KindWord(s string) bool {
	for _, n := range x.colNoise {
		if n[s] {
			return true
		}
	}
	return false
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
func (x *Index) Entry(id int32) Entry { return x.vals[id] }

// ColumnSize is how many values of column c the index holds.
func (x *Index) ColumnSize(c *model.Column) int { return x.colSize[c] }

// HasStem reports whether some value has a word with this plural-free
// stem (text.ValueStem).
func (x *Index) HasStem(s string) bool { return x.vocab[s] > 0 }

// HasWord reports whether some value has this word as written.
func (x *Index) HasWord(w string) bool { return x.words[w] > 0 }

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

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
	stems  []string
	core   int // tokens that make the value distinct (not noise, not in parentheses)
}

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
	x.vals = append(x.vals, Entry{Column: c, Value: v, stems: stems, core: core})
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

package understand

import (
	"context"
	"sort"
	"strings"
	"unicode"

	"github.com/clarify-sql/clarify/internal/model"
	"github.com/clarify-sql/clarify/internal/understand/text"
)

// Catalog supplies what understanding needs from the database: the allowed
// values of database-sourced columns and the rows a scope question lists.
// Implementations cache (package source); understanding never blocks on a
// refresh once values are known.
type Catalog interface {
	// Version changes whenever any column's values change; it is cheap and
	// may start background refreshes of expired values.
	Version(ctx context.Context) uint64
	// Values returns the distinct values of a column. When the database is
	// unreachable it returns an error and understanding goes on without them.
	Values(ctx context.Context, c *model.Column) ([]string, error)
	// Rows returns the key and the given columns of an entity's rows in key
	// order, at most limit of them.
	Rows(ctx context.Context, e *model.Entity, cols []string, limit int) ([][]string, error)
}

// valueEntry is one allowed value of one column.
type valueEntry struct {
	col   *model.Column
	value string
	stems []string
	core  int // tokens that make the value distinct (not noise, not in parentheses)
}

// valueIndex finds values in questions: exactly, by part ("Tesla" for
// "Tesla, Inc."), or despite a typo.
type valueIndex struct {
	vals     []valueEntry
	exact    map[string][]int32 // stemmed phrase → values
	text     map[string][]int32 // unstemmed phrase → values ("healed" ≠ "healing")
	postings map[string][]int32 // stem → values holding it
	digitExt map[string][]string
	maxLen   int
	vocab    map[string]int      // value stem → how many values use it
	words    map[string]int      // words as written → how many values use them
	deletes  map[string][]string // typo correction over words as written
	// errors met while loading, per column (the database was unreachable)
	failed map[*model.Column]error
}

func newValueIndex() *valueIndex {
	return &valueIndex{
		exact:    map[string][]int32{},
		text:     map[string][]int32{},
		postings: map[string][]int32{},
		digitExt: map[string][]string{},
		vocab:    map[string]int{},
		words:    map[string]int{},
		deletes:  map[string][]string{},
		failed:   map[*model.Column]error{},
	}
}

var noiseSet = func() map[string]bool {
	s := map[string]bool{}
	for _, w := range noiseWords {
		s[text.Stem(w)] = true
	}
	return s
}()

// addValue indexes one value of a column; extraNoise are stems that do not
// make a value distinct in this column (its entity's own words).
func (x *valueIndex) addValue(c *model.Column, v string, extraNoise map[string]bool) {
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
			x.addWord(t.Text)
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
		if x.vals[id].col == c && x.vals[id].value == v {
			return // duplicate value
		}
	}
	id := int32(len(x.vals))
	x.vals = append(x.vals, valueEntry{col: c, value: v, stems: stems, core: core})
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

// addWord records a word for typo correction (deletion neighbourhood, d=1).
func (x *valueIndex) addWord(s string) {
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

// valueHit is the values a phrase names, and whether it names them as
// written (not only by plural-free stems).
type valueHit struct {
	ids  []int32
	text bool
}

// exactAll returns, per length, the values named by the phrase starting at
// token i: as written when a value is written so, else by stems
// ("ulcers" → "Ulcer").
func (x *valueIndex) exactAll(texts, stems []string, i int) map[int]valueHit {
	out := map[int]valueHit{}
	for l := min(x.maxLen, len(stems)-i); l >= 1; l-- {
		if got := x.text[strings.Join(texts[i:i+l], " ")]; len(got) > 0 {
			out[l] = valueHit{ids: got, text: true}
			continue
		}
		if got := x.exact[strings.Join(stems[i:i+l], " ")]; len(got) > 0 {
			out[l] = valueHit{ids: got}
		}
	}
	return out
}

// partialMatch is a value that holds every token of a query phrase.
type partialMatch struct {
	id       int32
	coverage float64 // share of the value's distinct tokens the phrase names
}

// partial returns the values whose tokens include every stem of q (a stem
// also matches itself followed by digits: "d" matches "d2"), best first.
func (x *valueIndex) partial(q []string) []partialMatch {
	var sets [][]int32
	for _, s := range q {
		ids := append([]int32(nil), x.postings[s]...)
		for _, ext := range x.digitExt[s] {
			ids = append(ids, x.postings[ext]...)
		}
		if len(ids) == 0 {
			return nil
		}
		sets = append(sets, ids)
	}
	if len(sets) == 0 {
		return nil
	}
	sort.Slice(sets, func(i, j int) bool { return len(sets[i]) < len(sets[j]) })
	count := map[int32]int{}
	for _, id := range sets[0] {
		count[id] = 1
	}
	for _, set := range sets[1:] {
		seen := map[int32]bool{}
		for _, id := range set {
			if count[id] > 0 && !seen[id] {
				count[id]++
				seen[id] = true
			}
		}
	}
	var out []partialMatch
	for id, n := range count {
		if n != len(sets) {
			continue
		}
		v := x.vals[id]
		matched := 0
		for _, s := range v.stems {
			if !noiseSet[s] && containsPrefixDigit(q, s) {
				matched++
			}
		}
		cov := float64(matched) / float64(v.core)
		if cov > 1 {
			cov = 1
		}
		out = append(out, partialMatch{id: id, coverage: cov})
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].coverage != out[j].coverage {
			return out[i].coverage > out[j].coverage
		}
		return out[i].id < out[j].id
	})
	return out
}

func containsPrefixDigit(q []string, s string) bool {
	for _, w := range q {
		if w == s || (strings.HasPrefix(s, w) && strings.TrimLeftFunc(s[len(w):], unicode.IsDigit) == "") {
			return true
		}
	}
	return false
}

// correct finds the one known word within one edit (insertion,
// deletion, substitution or transposition) of s. ok is false when there is
// none or more than one.
func (x *valueIndex) correct(s string) (fixed string, ok bool) {
	rs := []rune(s)
	if len(rs) < 4 {
		return "", false
	}
	cands := map[string]bool{}
	// a typo keeps its first letter far more often than not; words that
	// differ there are other words ("dealing" is not "healing", "rates"
	// not "dates", "worth" not "north")
	probe := func(k string) {
		for _, w := range x.deletes[k] {
			if w != s && []rune(w)[0] == rs[0] && text.EditDistance(s, w) <= 1 {
				cands[w] = true
			}
		}
	}
	probe(s)
	for i := range rs {
		probe(string(rs[:i]) + string(rs[i+1:]))
	}
	if len(cands) != 1 {
		return "", false
	}
	for w := range cands {
		return w, true
	}
	return "", false
}

// buildValueIndex indexes the static values of the model and, through the
// catalog, the database-sourced ones. Columns whose values cannot be loaded
// are recorded in failed and skipped: understanding goes on without them.
func buildValueIndex(ctx context.Context, m *model.Model, cat Catalog, lex *lexicon) *valueIndex {
	x := newValueIndex()
	for _, e := range m.Entities {
		noise := map[string]bool{}
		for _, w := range entityWords(e) {
			for _, s := range strings.Fields(text.StemPhrase(w)) {
				noise[s] = true
			}
		}
		for _, c := range e.Columns {
			if c.Values == nil {
				continue
			}
			for _, it := range c.Values.Items {
				x.addValue(c, it.Value, noise)
			}
			if c.FromDatabase() && cat != nil {
				vals, err := cat.Values(ctx, c)
				if err != nil {
					x.failed[c] = err
					continue
				}
				for _, v := range vals {
					x.addValue(c, v, noise)
				}
			}
		}
	}
	// the model's own words take part in typo correction too, and the
	// long built-in words a question turns on ("hihgest")
	for w := range lex.words {
		if x.words[w] == 0 {
			x.addWord(w)
		}
	}
	for _, w := range typoTargets {
		if x.words[w] == 0 && !lex.words[w] {
			x.addWord(w)
		}
	}
	return x
}

package valueindex

import (
	"sort"
	"strings"
	"unicode"

	"github.com/clarify-sql/clarify/internal/understand/text"
)

// Hit is the values a phrase names, and whether it names them as written
// (not only by plural-free stems).
type Hit struct {
	IDs  []int32
	Text bool
}

// Exact returns, per length in tokens, the values named by the phrase
// starting at token i: as written when a value is written so, else by
// stems ("ulcers" → "Ulcer"). texts are a question's words as written,
// stems their text.ValueStem.
func (x *Index) Exact(texts, stems []string, i int) map[int]Hit {
	out := map[int]Hit{}
	for l := min(x.maxLen, len(stems)-i); l >= 1; l-- {
		if got := x.asWritten(strings.Join(texts[i:i+l], " ")); len(got) > 0 {
			out[l] = Hit{IDs: got, Text: true}
			continue
		}
		if got := x.exactIDs(strings.Join(stems[i:i+l], " ")); len(got) > 0 {
			out[l] = Hit{IDs: got}
		}
	}
	return out
}

// asWritten returns the values whose words as written are phrase, in the
// order they were added: those whose stems differ from their words are in
// x.text, the others in x.exact, marked. A value's words decide whether it
// is marked, so the values of one phrase are all in one of the two.
func (x *Index) asWritten(phrase string) []int32 {
	own := x.ownAsWritten(phrase)
	if x.base == nil {
		return own
	}
	return concat(x.base.asWritten(phrase), own)
}

// ownAsWritten is asWritten among the values of this index, not its base.
func (x *Index) ownAsWritten(phrase string) []int32 {
	if ids := x.text[phrase]; len(ids) > 0 {
		return ids
	}
	same := x.exact[phrase]
	n := 0
	for _, id := range same {
		if x.entry(id).asWritten {
			n++
		}
	}
	if n == len(same) {
		return same
	}
	out := make([]int32, 0, n)
	for _, id := range same {
		if x.entry(id).asWritten {
			out = append(out, id)
		}
	}
	return out
}

// Match is a value that holds every word of a phrase.
type Match struct {
	ID       int32
	Coverage float64 // share of the value's distinct words the phrase names
}

// Partial returns the values whose words include every stem of q (a stem
// also matches itself followed by digits: "d" matches "d2"), best covered
// first, then in the order they were added.
func (x *Index) Partial(q []string) []Match {
	var sets [][]int32
	for _, s := range q {
		ids := x.posting(s, nil)
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
	var out []Match
	for id, n := range count {
		if n != len(sets) {
			continue
		}
		v := *x.entry(id)
		matched := 0
		for _, s := range v.stems {
			if !noiseSet[s] && !x.kindWord(v, s) && containsPrefixDigit(q, s) {
				matched++
			}
		}
		if matched == 0 {
			continue // only words many values share: "bikes" names none of them
		}
		cov := float64(matched) / float64(v.core)
		if cov > 1 {
			cov = 1
		}
		out = append(out, Match{ID: id, Coverage: cov})
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Coverage != out[j].Coverage {
			return out[i].Coverage > out[j].Coverage
		}
		return out[i].ID < out[j].ID
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

// Correct finds the one known word within one edit (insertion, deletion,
// substitution or transposition) of s that starts with the same letter.
// ok is false when there is none or more than one, and for words under
// four letters.
func (x *Index) Correct(s string) (fixed string, ok bool) {
	rs := []rune(s)
	if len(rs) < 4 {
		return "", false
	}
	cands := map[string]bool{}
	// a typo keeps its first letter far more often than not; words that
	// differ there are other words ("dealing" is not "healing", "rates"
	// not "dates", "worth" not "north")
	probe := func(k string) {
		for _, w := range x.deletesOf(k) {
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

// Suggestions for unknown words: the names of a model that resemble a
// word nothing linked, indexed once per analyzer so that a question
// compares the word only with names it could be near.

package understand

import (
	"sort"

	"github.com/clarify-sql/clarify/internal/model"
	"github.com/clarify-sql/clarify/internal/understand/text"
)

// minSuggestSimilarity is the least text.Similarity a name must have to
// an unknown word to be offered for it.
const minSuggestSimilarity = 0.6

// suggester holds the names an unknown word may be taken for: each entity
// by its words (offered as its plural label), each column by its title,
// each measure by its label. Names are grouped by length in runes, and
// each keeps a count of its letters, so that a word is compared in full
// only with names whose length and letters leave it within reach.
type suggester struct {
	names []suggestName
	// byLen[n] are the indexes in names of the names n runes long
	byLen [][]int32
}

// suggestName is one distinct normalized name and what it is offered as.
type suggestName struct {
	runes []rune
	bag   letterBag
	// offers are the labels the name stands for, each with the place
	// where a scan of the model in order first meets it under this name
	offers []suggestOffer
}

type suggestOffer struct {
	seq   int
	label string
}

// newSuggester indexes the names of m, in the order entities, their words
// and columns, then measures: the order in which equally similar names
// are offered.
func newSuggester(m *model.Model) *suggester {
	s := &suggester{}
	at := map[string]int{}
	seq := 0
	add := func(name, label string) {
		norm := text.Normalize(name)
		i, ok := at[norm]
		if !ok {
			i = len(s.names)
			at[norm] = i
			rs := []rune(norm)
			s.names = append(s.names, suggestName{runes: rs, bag: bagOf(rs)})
			for len(s.byLen) <= len(rs) {
				s.byLen = append(s.byLen, nil)
			}
			s.byLen[len(rs)] = append(s.byLen[len(rs)], int32(i))
		}
		n := &s.names[i]
		for _, o := range n.offers {
			if o.label == label {
				seq++
				return // met earlier under this name, with the same similarity
			}
		}
		n.offers = append(n.offers, suggestOffer{seq: seq, label: label})
		seq++
	}
	for _, e := range m.Entities {
		for _, x := range entityWords(e) {
			add(x, e.PluralLabel())
		}
		for _, c := range e.Columns {
			add(c.Title(), c.Title())
		}
	}
	for _, ms := range m.Measures {
		add(measureLabel(ms), measureLabel(ms))
	}
	return s
}

// similar returns up to limit labels whose names have a similarity of at
// least minSuggestSimilarity to the normalized word w, most similar first;
// equally similar ones in the order of the model. A label is ranked by
// the first of its names (in that order) that is similar enough.
func (s *suggester) similar(w string, limit int) []string {
	rw := []rune(w)
	bag := bagOf(rw)
	type hit struct {
		seq   int
		label string
		sim   float64
	}
	var hits []hit
	for l := range s.byLen {
		if !within(abs(len(rw)-l), max(len(rw), l)) {
			continue
		}
		for _, i := range s.byLen[l] {
			n := &s.names[i]
			longer := max(len(rw), l)
			if !within(bag.distance(&n.bag), longer) {
				continue
			}
			sim := 1.0
			if longer > 0 {
				d := text.EditDistanceAtMost(rw, n.runes, reach(longer))
				sim = 1 - float64(d)/float64(longer)
			}
			if sim < minSuggestSimilarity {
				continue
			}
			for _, o := range n.offers {
				hits = append(hits, hit{o.seq, o.label, sim})
			}
		}
	}
	sort.Slice(hits, func(i, j int) bool { return hits[i].seq < hits[j].seq })
	seen := map[string]bool{}
	kept := hits[:0]
	for _, h := range hits {
		if !seen[h.label] {
			seen[h.label] = true
			kept = append(kept, h)
		}
	}
	sort.SliceStable(kept, func(i, j int) bool { return kept[i].sim > kept[j].sim })
	var out []string
	for _, h := range kept[:min(limit, len(kept))] {
		out = append(out, h.label)
	}
	return out
}

// within reports whether a word and a name, the longer of them longer
// runes long, at least d edits apart may still be similar enough
// (computed as text.Similarity computes it, so that no name is lost to
// rounding).
func within(d, longer int) bool {
	if longer == 0 {
		return true
	}
	return 1-float64(d)/float64(longer) >= minSuggestSimilarity
}

// reach is the most edits at which a word and a name, the longer of them
// longer runes long, are similar enough.
func reach(longer int) int {
	k := 0
	for k < longer && within(k+1, longer) {
		k++
	}
	return k
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

// letterBag counts the letters of a word by the low five bits of each
// rune. Every edit changes at most one count up and one down, and a
// transposition none, so the difference of two bags is never more than
// the edit distance of their words: a cheap test that rules most names out.
type letterBag [32]uint8

func bagOf(rs []rune) letterBag {
	var b letterBag
	for _, r := range rs {
		if b[r&31] < 255 {
			b[r&31]++
		}
	}
	return b
}

// distance is the larger of the letters b has beyond o and o beyond b.
func (b *letterBag) distance(o *letterBag) int {
	more, fewer := 0, 0
	for i := range b {
		if d := int(b[i]) - int(o[i]); d > 0 {
			more += d
		} else {
			fewer -= d
		}
	}
	return max(more, fewer)
}

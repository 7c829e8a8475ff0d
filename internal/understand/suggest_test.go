package understand_test

import (
	"math/rand/v2"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/clarify-sql/clarify/internal/demo/demotest"
	"github.com/clarify-sql/clarify/internal/model"
	"github.com/clarify-sql/clarify/internal/understand"
	"github.com/clarify-sql/clarify/internal/understand/text"
)

// scanSuggest is how suggestions were made before they were indexed: the
// word compared with every entity word, column title and measure label,
// kept in the order met, most similar first. It is the reference the
// index must agree with.
func scanSuggest(m *model.Model, words string) []string {
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
	for _, e := range m.Entities {
		for _, x := range understand.EntityWords(e) {
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
		if sim := text.Similarity(w, text.Normalize(understand.MeasureLabel(ms))); sim >= 0.6 {
			add(understand.MeasureLabel(ms), sim)
		}
	}
	for i := 1; i < len(cs); i++ {
		for j := i; j > 0 && cs[j].sim > cs[j-1].sim; j-- {
			cs[j], cs[j-1] = cs[j-1], cs[j]
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

// typos returns words a user might type for name: the name itself, and
// with one or two letters dropped, doubled, swapped or replaced.
func typos(r *rand.Rand, name string) []string {
	rs := []rune(name)
	out := []string{name}
	edit := func(rs []rune) []rune {
		if len(rs) == 0 {
			return rs
		}
		i := r.IntN(len(rs))
		switch r.IntN(4) {
		case 0:
			return append(append([]rune{}, rs[:i]...), rs[i+1:]...)
		case 1:
			return append(append([]rune{}, rs[:i+1]...), rs[i:]...)
		case 2:
			if i+1 < len(rs) {
				c := append([]rune{}, rs...)
				c[i], c[i+1] = c[i+1], c[i]
				return c
			}
			return rs
		default:
			c := append([]rune{}, rs...)
			c[i] = rune('a' + r.IntN(26))
			return c
		}
	}
	one := edit(rs)
	return append(out, string(one), string(edit(one)), string(edit(edit(edit(one)))))
}

// TestSuggestMatchesScan checks that the suggestion index offers what a
// scan of every name offers, for typos of every name of the demo models
// and of a synthetic model of 40 tables, and for words like none of them.
func TestSuggestMatchesScan(t *testing.T) {
	t.Parallel()
	synth, _, _ := syntheticModel(t, 40, 800)
	models := map[string]*model.Model{"synthetic": synth}
	for _, name := range []string{"clinic", "labs", "trades", "retail"} {
		models[name] = demotest.Model(t, name)
	}
	for name, m := range models {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			an := understand.New(m, nil)
			r := rand.New(rand.NewPCG(7, 8))
			words := []string{"", "x", "glorp", "zzzzzzzzzzzz", "ёжик", "created", "amount"}
			for _, e := range m.Entities {
				for _, w := range understand.EntityWords(e) {
					words = append(words, typos(r, w)...)
				}
				for _, c := range e.Columns {
					words = append(words, typos(r, c.Title())...)
				}
			}
			for _, ms := range m.Measures {
				words = append(words, typos(r, understand.MeasureLabel(ms))...)
			}
			offered := 0
			for _, w := range words {
				want, got := scanSuggest(m, w), an.Suggest(w)
				if d := cmp.Diff(want, got); d != "" {
					t.Errorf("suggestions for %q (-scan +index):\n%s", w, d)
				}
				offered += len(got)
			}
			if offered == 0 {
				t.Fatalf("no word of %d got a suggestion: the comparison proves nothing", len(words))
			}
			t.Logf("%d words, %d suggestions", len(words), offered)
		})
	}
}

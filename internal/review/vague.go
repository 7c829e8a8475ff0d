package review

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"unicode"
)

// adjectiveEndings are English endings that make a word read as a
// qualifier ("gnarly", "sluggish", "painful", "nasty").
var adjectiveEndings = []string{"y", "ish", "ful", "ous", "ive", "al", "able", "ible", "ic", "less", "ent", "ant"}

// maxExamples caps the typed explanations a vague term proposal quotes.
const maxExamples = 3

// vagueTerms proposes a vague term to define for each unknown word that
// was used at least MinVagueUses times, reads as a qualifier — it ends
// like an English adjective, or stands right before a word naming an
// entity ("gnarly wounds") — and that no answer explained (explained holds
// the words already proposed as synonyms or stopwords).
func vagueTerms(v *vocabulary, words []*wordStat, explained map[string]bool) []ranked {
	var out []ranked
	for _, w := range words {
		uses := w.Uses + w.EvalCases
		if explained[w.Word] || uses < MinVagueUses || !isWord(w.Word) || v.knows(w.Word) {
			continue
		}
		before, named := entitiesAround(v, w)
		if len(before) == 0 && !adjectiveLike(w.Word) {
			continue
		}
		applies := before
		if len(applies) == 0 {
			applies = named
		}
		var examples []string
		for _, c := range w.Answers {
			if t := typedText(c.Value); t != "" && len(examples) < maxExamples {
				examples = append(examples, t)
			}
		}
		answered := "no answer said what it means"
		if n := w.answers.total(); n > 0 {
			answered = fmt.Sprintf("%s, none naming one meaning in the model", plural(n, "answer"))
		}
		ev := fmt.Sprintf("%s; %s; reads as a qualifier (%q)", usedIn(w), answered, w.Example)
		out = append(out, ranked{rank: rankVague, support: uses, p: Proposal{DefineVagueTerm: &DefineVagueTerm{
			Word: w.Word, AppliesTo: applies, Examples: examples, Evidence: ev,
		}}})
	}
	return out
}

// entitiesAround returns the entities named right after the word in the
// questions that used it, and those named anywhere in them, most often
// first.
func entitiesAround(v *vocabulary, w *wordStat) (before, named []string) {
	var after, all tally
	for _, q := range w.questions {
		toks := tokens(q)
		seen := map[string]bool{}
		for i, t := range toks {
			e, ok := v.entityWord[t]
			if !ok {
				continue
			}
			if !seen[e] {
				all.add(e)
				seen[e] = true
			}
			if i > 0 && toks[i-1] == w.Word {
				after.add(e)
			}
		}
	}
	return v.inOrder(after), v.inOrder(all)
}

// inOrder lists the values of t most counted first, ties in model order.
func (v *vocabulary) inOrder(t tally) []string {
	c := t.counts()
	slices.SortStableFunc(c, func(a, b Count) int {
		return cmp.Or(cmp.Compare(b.Count, a.Count), cmp.Compare(slices.Index(v.entities, a.Value), slices.Index(v.entities, b.Value)))
	})
	var out []string
	for _, x := range c {
		out = append(out, x.Value)
	}
	return out
}

func adjectiveLike(w string) bool {
	for _, e := range adjectiveEndings {
		if len(w) > len(e)+2 && strings.HasSuffix(w, e) {
			return true
		}
	}
	return false
}

// isWord reports whether w is one word of letters, long enough to mean
// something.
func isWord(w string) bool {
	n := 0
	for _, r := range w {
		if !unicode.IsLetter(r) {
			return false
		}
		n++
	}
	return n >= 3
}

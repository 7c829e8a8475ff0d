package review

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/clarify-sql/clarify/internal/model"
	"github.com/clarify-sql/clarify/internal/store"
)

// ranked is a proposal with what orders it: its kind's rank, then how many
// answers (or uses) support it.
type ranked struct {
	p       Proposal
	rank    int
	support int
}

// The order of the kinds of proposals.
const (
	rankSynonym = iota
	rankStopword
	rankBestGuess
	rankDefault
	rankVague
)

// propose makes the proposals the evidence supports, synonyms first, then
// stopwords, best guesses, ranking defaults and vague terms; within a kind
// the best supported first.
func propose(m *model.Model, words []*wordStat, answers []store.Answer) []Proposal {
	v := newVocabulary(m)
	bySlot := map[string][]store.Answer{}
	for _, a := range answers {
		bySlot[a.Slot] = append(bySlot[a.Slot], a)
	}
	slots := make([]string, 0, len(bySlot))
	for s := range bySlot {
		slots = append(slots, s)
	}
	slices.Sort(slots)

	explained := map[string]bool{}
	var out []ranked
	out = append(out, unknownMeanings(v, words, explained)...)
	for _, s := range slots {
		if w, ok := strings.CutPrefix(s, columnPrefix); ok {
			if r, ok := columnChoice(m, v, w, bySlot[s]); ok {
				out = append(out, r)
			}
		}
	}
	out = append(out, defaults(m, slots, bySlot)...)
	out = append(out, vagueTerms(v, words, explained)...)
	slices.SortStableFunc(out, func(a, b ranked) int {
		return cmp.Or(cmp.Compare(a.rank, b.rank), cmp.Compare(b.support, a.support))
	})
	ps := make([]Proposal, len(out))
	for i, r := range out {
		ps[i] = r.p
	}
	return ps
}

// agreement is what most of the answers to one question mean.
type agreement struct {
	meaning      string // "" when no answer meant anything usable
	count, total int
	users        int // distinct users among count
}

// agree finds the meaning most answers share; meaning maps an answer to
// what it means ("" for nothing usable, which still counts in total). Ties
// go to the meaning given first.
func agree(answers []store.Answer, meaning func(store.Answer) string) agreement {
	var t tally
	users := map[string]map[string]bool{}
	for _, a := range answers {
		m := meaning(a)
		if m == "" {
			continue
		}
		t.add(m)
		if users[m] == nil {
			users[m] = map[string]bool{}
		}
		users[m][a.UserID] = true
	}
	g := agreement{total: len(answers)}
	if c := t.counts(); len(c) > 0 {
		g.meaning, g.count, g.users = c[0].Value, c[0].Count, len(users[c[0].Value])
	}
	return g
}

// holds reports whether the agreement is strong enough to propose: at least
// MinAgreeing answers, and most of them.
func (g agreement) holds() bool { return g.count >= MinAgreeing && 2*g.count > g.total }

// ignoreMeaning is what an answer asking to ignore a word means.
const ignoreMeaning = "ignore"

// unknownMeanings proposes, for each unknown word most answers explained
// the same way, a synonym of what they named, or a stopword when they
// asked to ignore it; explained collects the words proposed.
func unknownMeanings(v *vocabulary, words []*wordStat, explained map[string]bool) []ranked {
	var out []ranked
	for _, w := range words {
		if len(w.answerList) == 0 || isNumber(w.Word) || v.knows(w.Word) {
			continue
		}
		targets := map[string]target{}
		g := agree(w.answerList, func(a store.Answer) string {
			t, ignore, ok := unknownMeaning(v, a.Value)
			switch {
			case ignore:
				return ignoreMeaning
			case !ok:
				return ""
			}
			targets[t.String()] = t
			return t.String()
		})
		if !g.holds() {
			continue
		}
		used := usedIn(w)
		if g.meaning == ignoreMeaning {
			explained[w.Word] = true
			out = append(out, ranked{rank: rankStopword, support: g.count, p: Proposal{AddStopword: &AddStopword{
				Word:     w.Word,
				Evidence: fmt.Sprintf("%d of %d answers asked to ignore %q (%s); %s", g.count, g.total, w.Word, plural(g.users, "user"), used),
			}}})
			continue
		}
		t := targets[g.meaning]
		explained[w.Word] = true
		out = append(out, ranked{rank: rankSynonym, support: g.count, p: Proposal{AddSynonym: &AddSynonym{
			Entity: t.entity, Column: t.column, Measure: t.measure, Word: w.Word,
			Evidence: fmt.Sprintf("%d of %d answers said %q means %s (%s); %s", g.count, g.total, w.Word, t, plural(g.users, "user"), used),
		}}})
	}
	return out
}

// unknownMeaning reads an answer to "what does this word mean?": the
// part of the model it names, or that it asked to ignore the word.
func unknownMeaning(v *vocabulary, value string) (t target, ignore, ok bool) {
	id := chosenOption(value)
	if id == ignoreMeaning {
		return target{}, true, false
	}
	phrase, isUse := strings.CutPrefix(id, "use:")
	if !isUse {
		phrase = typedText(value)
	}
	t, ok = v.resolve(phrase)
	return t, false, ok
}

// columnChoice proposes the column most answers chose for an ambiguous
// word as one of its synonyms, unless the word names it already.
func columnChoice(m *model.Model, v *vocabulary, word string, answers []store.Answer) (ranked, bool) {
	g := agree(answers, func(a store.Answer) string {
		if t, ok := columnOption(m, chosenOption(a.Value)); ok {
			return t.entity + "." + t.column
		}
		if t, ok := v.resolve(typedText(a.Value)); ok && t.column != "" {
			return t.entity + "." + t.column
		}
		return ""
	})
	if !g.holds() {
		return ranked{}, false
	}
	t, _ := columnOption(m, g.meaning)
	if v.namesTarget(t, word) {
		return ranked{}, false
	}
	return ranked{rank: rankSynonym, support: g.count, p: Proposal{AddSynonym: &AddSynonym{
		Entity: t.entity, Column: t.column, Word: word,
		Evidence: fmt.Sprintf("asked which %q was meant, %d of %d answers chose %s (%s)", word, g.count, g.total, t, plural(g.users, "user")),
	}}}, true
}

// columnOption reads an option id "entity.column" of a column question.
func columnOption(m *model.Model, id string) (target, bool) {
	e, c, ok := strings.Cut(id, ".")
	if !ok || m.Entity(e) == nil || m.Entity(e).Column(c) == nil {
		return target{}, false
	}
	return target{entity: e, column: c}, true
}

// usedIn says how often an unknown word was used.
func usedIn(w *wordStat) string {
	s := fmt.Sprintf("used in %s by %s", plural(w.Uses, "conversation"), plural(w.Users, "user"))
	if w.EvalCases > 0 {
		s += fmt.Sprintf(" and %s", plural(w.EvalCases, "failing eval case"))
	}
	return s
}

// plural writes n and a noun, with an "s" unless n is 1.
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

func isNumber(w string) bool {
	for _, r := range w {
		if (r < '0' || r > '9') && r != '.' && r != ',' {
			return false
		}
	}
	return w != ""
}

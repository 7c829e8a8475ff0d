package review

import (
	"slices"
	"strings"
	"unicode"

	"github.com/clarify-sql/clarify/internal/model"
)

// target is the part of the model a phrase names: an entity, one of its
// columns, or a measure.
type target struct {
	entity, column, measure string
}

func (t target) String() string {
	switch {
	case t.measure != "":
		return "measure " + t.measure
	case t.column != "":
		return "column " + t.entity + "." + t.column
	}
	return "entity " + t.entity
}

// vocabulary is what a model calls things, normalized (normalizePhrase):
// the phrases that name its entities, columns and measures, and every
// other word it knows.
type vocabulary struct {
	// names maps a phrase to the targets it names; more than one is
	// ambiguous.
	names map[string][]target
	// own are each target's own phrases (names, labels, synonyms), without
	// the combinations with entity words that names also holds.
	own map[target][]string
	// known holds every phrase of the model (also vague words, terms,
	// values, stopwords…).
	known map[string]bool
	// entityWord maps a one-word phrase naming an entity to its name.
	entityWord map[string]string
	// entities lists entity names in model order.
	entities []string
}

func newVocabulary(m *model.Model) *vocabulary {
	v := &vocabulary{names: map[string][]target{}, own: map[target][]string{}, known: map[string]bool{}, entityWord: map[string]string{}}
	for _, e := range m.Entities {
		if e == nil {
			continue
		}
		v.entities = append(v.entities, e.Name)
		et := target{entity: e.Name}
		entityWords := append([]string{humanize(e.Name), e.Label, e.Plural, e.PluralLabel(), e.Singular()}, e.Synonyms...)
		for _, w := range entityWords {
			v.name(et, w, true)
			if p := normalizePhrase(w); p != "" && !strings.Contains(p, " ") {
				v.entityWord[p] = e.Name
			}
		}
		for _, c := range e.Columns {
			if c == nil {
				continue
			}
			ct := target{entity: e.Name, column: c.Name}
			for _, w := range append([]string{humanize(c.Name), c.Label, c.Title()}, c.Synonyms...) {
				v.name(ct, w, true)
				// "wound area", "area of wounds", "Area (wounds)": the
				// column named with its entity
				for _, ew := range []string{e.Singular(), e.PluralLabel(), humanize(e.Name)} {
					for _, combo := range []string{ew + " " + w, w + " " + ew, w + " of " + ew, w + " of the " + ew} {
						v.name(ct, combo, false)
					}
				}
			}
			v.knowAll(c.FalseSynonyms, c.UnitWords)
			if c.Values != nil {
				for _, it := range c.Values.Items {
					if it != nil {
						v.knowAll([]string{it.Value, it.Label}, it.Synonyms)
					}
				}
				for _, g := range c.Values.Groups {
					if g != nil {
						v.knowAll([]string{g.Name}, g.Synonyms)
					}
				}
			}
		}
	}
	for _, ms := range m.Measures {
		if ms == nil {
			continue
		}
		mt := target{measure: ms.Name}
		for _, w := range append([]string{humanize(ms.Name), ms.Label}, ms.Synonyms...) {
			v.name(mt, w, true)
		}
	}
	for _, t := range m.Terms {
		if t != nil {
			v.knowAll([]string{humanize(t.Name)}, t.Phrases)
		}
	}
	for _, vt := range m.Vague {
		if vt != nil {
			v.knowAll(vt.Words, vt.Superlatives)
		}
	}
	v.knowAll(m.Stopwords)
	return v
}

// name records that phrase w names t; own phrases are t's own.
func (v *vocabulary) name(t target, w string, own bool) {
	p := normalizePhrase(w)
	if p == "" {
		return
	}
	v.known[p] = true
	if !slices.Contains(v.names[p], t) {
		v.names[p] = append(v.names[p], t)
	}
	if own && !slices.Contains(v.own[t], p) {
		v.own[t] = append(v.own[t], p)
	}
}

func (v *vocabulary) knowAll(lists ...[]string) {
	for _, l := range lists {
		for _, w := range l {
			if p := normalizePhrase(w); p != "" {
				v.known[p] = true
			}
		}
	}
}

// resolve returns the one target a phrase names.
func (v *vocabulary) resolve(phrase string) (target, bool) {
	ts := v.names[normalizePhrase(phrase)]
	if len(ts) != 1 {
		return target{}, false
	}
	return ts[0], true
}

// names reports whether phrase is already one of t's own phrases.
func (v *vocabulary) namesTarget(t target, phrase string) bool {
	return slices.Contains(v.own[t], normalizePhrase(phrase))
}

// knows reports whether the model has the phrase anywhere.
func (v *vocabulary) knows(phrase string) bool { return v.known[normalizePhrase(phrase)] }

// normalizePhrase lowercases a phrase and keeps only its letters and
// digits, one space between words: "Area (cm²)" is "area cm²".
func normalizePhrase(s string) string {
	f := strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsNumber(r) })
	return strings.Join(f, " ")
}

// tokens splits a question into normalized words.
func tokens(s string) []string { return strings.Fields(normalizePhrase(s)) }

func humanize(name string) string { return strings.ReplaceAll(name, "_", " ") }

// Column words: a word naming columns of several tables ("price": bid,
// ask or close) is settled by context or asked, before the subject; the
// columns a question asks to see are kept (projection, after the window).

package understand

import (
	"fmt"
	"slices"
	"strings"

	"github.com/clarify-sql/clarify/internal/model"
	"github.com/clarify-sql/clarify/internal/understand/text"
)

// resolveColumns settles which column an ambiguous column word means
// ("price": bid, ask, last, close or trade price).
func (b *builder) resolveColumns() {
	for _, m := range b.ms {
		if m.kind != kColumn && m.kind != kFlag {
			continue
		}
		var cols []entry
		for _, e := range m.entries {
			if e.kind == m.kind {
				cols = append(cols, e)
			}
		}
		if len(cols) <= 1 {
			continue
		}
		// a meaning the data holds twice (singer.age, singer_age.age)
		if pair := copyPair(cols); pair != nil {
			b.sourceSlot(m, pair)
			continue
		}
		// "the names of the battles", "battle names": the entity named
		// with the word says whose column it is
		cols = b.boundColumns(m, cols)
		narrowed := preferByContext(b, cols, func(e entry) *model.Entity { return e.entity })
		// a foreign key and the column it copies mean one thing
		narrowed = oneMeaning(narrowed)
		// "the age of the losers": loser_age, not winner_age
		narrowed = b.byOtherWords(m, narrowed)
		if len(narrowed) == 1 || m.kind == kFlag {
			m.entries = []entry{narrowed[0]}
			if m.kind == kFlag {
				m.vals = []valCand{{col: narrowed[0].column, label: narrowed[0].label, score: 1}}
			}
			continue
		}
		words := b.words(m)
		sl := &Slot{Key: "column:" + words, Kind: KindColumn, Priority: Important, Text: words, Ask: true, Confidence: 0.5,
			Question: fmt.Sprintf("Which %q do you mean?", words),
			Context:  fmt.Sprintf("%q matches %d columns in the data.", words, len(narrowed))}
		for i, e := range narrowed {
			if i == 5 {
				break
			}
			sl.Options = append(sl.Options, &Option{ID: e.entity.Name + "." + e.column.Name, Label: columnLabel(e.column),
				Description: fmt.Sprintf("%s of %s", e.column.Title(), e.entity.PluralLabel()), column: e.column, entity: e.entity})
		}
		sl.Options[0].BestGuess = true
		sl.Question = fmt.Sprintf("By %q, do you mean the %s, or another one?", words, strings.ToLower(sl.Options[0].Label))
		o := b.settle(sl, func(answer string) (*Option, string) { return b.parseColumnAnswer(answer, narrowed) })
		if o != nil {
			for _, e := range narrowed {
				if e.column == o.column {
					m.entries = []entry{e}
				}
			}
		}
	}
}

func columnLabel(c *model.Column) string {
	t := c.Title()
	return strings.ToUpper(t[:1]) + t[1:] + " (" + c.Entity().PluralLabel() + ")"
}

func (b *builder) parseColumnAnswer(answer string, cols []entry) (*Option, string) {
	key := text.StemPhrase(answer)
	for _, e := range cols {
		for _, w := range append([]string{e.column.Name, e.column.Title(), e.entity.Name + " " + e.column.Name}, e.column.Synonyms...) {
			if text.StemPhrase(w) == key || strings.Contains(text.StemPhrase(e.column.Title()+" "+e.entity.PluralLabel()), key) {
				return &Option{ID: e.entity.Name + "." + e.column.Name, Label: columnLabel(e.column), column: e.column, entity: e.entity}, ""
			}
		}
	}
	return nil, fmt.Sprintf("%q is not one of the columns that match", answer)
}

// byOtherWords keeps, of the columns a word names, the one whose name
// also has another word of the question ("average age of the losers":
// loser_age, not winner_age), when exactly one has.
func (b *builder) byOtherWords(m *mention, cols []entry) []entry {
	if len(cols) < 2 {
		return cols
	}
	// the words of things the question names, not of its time expressions
	// and function words ("over the last 30 days" says nothing of
	// last_price)
	said := map[string]bool{}
	for _, x := range b.ms {
		if x == m || x.kind != kUnknown && x.kind != kEntity && x.kind != kColumn && x.kind != kValue && x.kind != kFlag {
			continue
		}
		for k := x.start; k < x.end; k++ {
			if len(b.l.texts[k]) > 2 {
				said[b.l.stems[k]] = true
			}
		}
	}
	own := map[string]bool{}
	for _, st := range b.l.stems[m.start:m.end] {
		own[st] = true
	}
	var out []entry
	for _, e := range cols {
		// the table's own name in a column's ("loan" of loan_date) tells
		// nothing apart: "loans by date" is still asked
		ent := map[string]bool{}
		for _, w := range strings.Fields(text.Normalize(e.entity.Name + " " + e.entity.Label + " " + e.entity.PluralLabel())) {
			ent[text.Stem(w)] = true
		}
		for w := range columnWords(e.column) {
			if st := text.Stem(w); !own[st] && said[st] && !ent[st] {
				out = append(out, e)
				break
			}
		}
	}
	if len(out) == 1 {
		return out
	}
	return cols
}

// nameHasWord reports whether one of the words of a column's name or unit
// is among words ("origin_city" has "origin", "duration_minutes" has
// "minutes").
func nameHasWord(c *model.Column, words []string) bool {
	name := strings.ToLower(c.Name + "_" + c.Unit)
	for _, part := range strings.FieldsFunc(name, func(r rune) bool { return r == '_' || r == ' ' }) {
		if slices.Contains(words, part) {
			return true
		}
	}
	return false
}

// projection keeps the columns the question asked to see.
func (b *builder) projection() {
	for _, m := range b.ms {
		if m.kind != kColumn || m.used || b.grouped[m] {
			continue
		}
		c := m.entry().column
		if b.a.model.ToOne(b.q.Base, c.Entity()) {
			m.used = true
			b.q.Columns = append(b.q.Columns, c)
		}
	}
}

// boundColumns keeps the columns of the entity a column word is bound to:
// named right after it with "of" ("the names of the battles") or right
// before it ("battle names", "the battle's name"). Otherwise, or when that
// entity has none of the columns, cols is returned as it is.
func (b *builder) boundColumns(m *mention, cols []entry) []entry {
	i := b.idx(m)
	var owner *mention
	// "the ids and names of the battles": past other column words
	j := i + 1
	for j+1 < len(b.ms) && b.words(b.ms[j]) == "and" && b.ms[j+1].kind == kColumn {
		j += 2
	}
	if j < len(b.ms) && b.words(b.ms[j]) == "of" {
		for j++; j < len(b.ms) && b.ms[j].kind == kStop; j++ {
		}
		if j < len(b.ms) && b.ms[j].kind == kEntity {
			owner = b.ms[j]
		}
	}
	if owner == nil && i > 0 && b.ms[i-1].kind == kEntity && b.adjacent(b.ms[i-1], m) {
		owner = b.ms[i-1]
	}
	if owner == nil {
		return cols
	}
	var out []entry
	for _, c := range cols {
		for _, e := range distinctEntities(owner.entries) {
			if c.entity == e {
				out = append(out, c)
			}
		}
	}
	if len(out) == 0 {
		return cols
	}
	return out
}

// oneMeaning drops columns that copy another of the candidates: a foreign
// key holds the value of the column it references (car_names.model and
// model_list.model), and two foreign keys to one column hold the same
// thing. When every candidate is such a copy of one column, that column
// (the referenced one, else the first) is the one meaning.
func oneMeaning(cols []entry) []entry {
	if len(cols) < 2 {
		return cols
	}
	target := func(c *model.Column) string {
		if c.References != "" {
			return c.References
		}
		return c.Entity().Name + "." + c.Name
	}
	t := target(cols[0].column)
	for _, c := range cols[1:] {
		if target(c.column) != t {
			return cols
		}
	}
	for _, c := range cols {
		if c.column.References == "" {
			return []entry{c}
		}
	}
	return cols[:1]
}

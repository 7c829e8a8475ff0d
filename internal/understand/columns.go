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
		narrowed := preferByContext(b, cols, func(e entry) *model.Entity { return e.entity })
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

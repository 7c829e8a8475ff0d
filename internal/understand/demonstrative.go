// Demonstratives: "the email of this owner", "how many people in these
// countries". A first question that points at rows it does not name
// refers to something Clarify cannot see; it asks which ones are meant,
// with no guess, instead of answering for all of them. Read with the
// unknown words, last.

package understand

import (
	"fmt"

	"github.com/clarify-sql/clarify/internal/model"
)

// demonstratives point at rows named elsewhere.
var demonstratives = map[string]bool{"this": true, "that": true, "these": true, "those": true}

// demonstrativeRows asks which rows "this owner" means: a demonstrative
// right before an entity the question names, when nothing else in the
// question (a value, a scope) says which rows.
func (b *builder) demonstrativeRows() {
	for _, m := range b.ms {
		if m.kind != kEntity || m.start == 0 || !demonstratives[b.l.texts[m.start-1]] {
			continue
		}
		e := b.entityOfQuiet(m)
		if e == nil || b.namesRowsOf(e) {
			continue
		}
		words := b.l.texts[m.start-1] + " " + b.words(m)
		sl := &Slot{Key: "unknown:" + words, Kind: KindValue, Priority: Important, Text: words, Ask: true, Confidence: 0.3,
			NoGuess:  true,
			Question: fmt.Sprintf("Which %s do you mean by %q?", e.Singular(), words),
			Context:  fmt.Sprintf("%q points at %s the question does not name.", words, e.PluralLabel())}
		sl.Options = []*Option{{ID: "all", Label: "All " + e.PluralLabel(), rewrite: e.PluralLabel()}}
		b.settle(sl, func(answer string) (*Option, string) {
			return &Option{ID: "use:" + answer, Label: answer, rewrite: answer + " " + e.Singular()}, ""
		})
		return
	}
}

// namesRowsOf reports whether the question names rows of e another way: a
// value of one of its columns, or the scope.
func (b *builder) namesRowsOf(e *model.Entity) bool {
	for _, f := range b.q.Filters {
		if f.Entity == e {
			return true
		}
	}
	return b.q.Scope != nil
}

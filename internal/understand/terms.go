// Terms: a phrase the model defines ("overdue", "high-value customer") is
// a filter by the model's condition or predicate, in the filter pass; it
// is never asked, only shown as an assumption.

package understand

import (
	"strconv"

	"github.com/clarify-sql/clarify/internal/model"
	"github.com/clarify-sql/clarify/internal/query"
)

func (b *builder) termFilter(_ int, m *mention) {
	t := m.entry().term
	words := b.words(m)
	conf := t.Confidence
	if conf == 0 {
		conf = 1
	}
	sl := &Slot{Key: "term:" + t.Name, Kind: KindTerm, Priority: Helpful, Text: words, Method: MethodDefault, Confidence: conf,
		Why:     "the model's definition of " + strconvQuote(words),
		Options: []*Option{{ID: t.Name, Label: t.Description, Description: t.Description}}}
	b.settle(sl, nil)
	e := b.a.model.Entity(t.Entity)
	f := query.Filter{Entity: e, Label: t.Description, Slot: sl.Key}
	if t.Condition != "" {
		c, err := model.ParseCond(t.Condition)
		if err != nil {
			return // validated at load; unreachable
		}
		f.Cond = qualify(c, e)
	} else {
		f.Predicate = t.Predicate
	}
	b.addFilter(f, m)
}

func strconvQuote(s string) string { return strconv.Quote(s) }

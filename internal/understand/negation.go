// Negation: "not infected", "without infected wounds", "customers who
// never rented a film", "stock items that had no sales". Negated measures
// are read before the intent (which would take them); negated values and
// related rows in the filter pass.

package understand

import (
	"github.com/clarify-sql/clarify/internal/model"
	"github.com/clarify-sql/clarify/internal/query"
)

// negated reports whether the mention at index i is negated ("not
// infected", "without infected wounds", "no open wounds").
func (b *builder) negated(i int) bool {
	for j := i - 1; j >= 0 && j >= i-3; j-- {
		switch b.ms[j].kind {
		case kNot:
			return true
		case kStop, kList, kEntity:
			continue
		}
		return false
	}
	return false
}

// negate turns a filter around: NOT on the base entity, "has no such row"
// on another ("patients without infected wounds").
func (b *builder) negate(f query.Filter) query.Filter {
	if f.Entity == b.q.Base {
		f.Cond = model.Not{Item: f.Cond}
		f.Label = "not " + f.Label
		return f
	}
	f.Exclude = true
	f.Label = "no " + f.Entity.Singular() + " where " + f.Label
	return f
}

// negatedMeasures reads "stock items that had no sales": a measure named
// after a negation is the absence of the rows it adds up (their dated
// parent when the measure is dated by one, so a period applies to it),
// not a total. It runs before the intent, which would take the measure.
func (b *builder) negatedMeasures() {
	q := b.q
	for i, m := range b.ms {
		if m.kind != kMeasure || m.used || b.grouped[m] || !b.negated(i) || q.Subject == nil {
			continue
		}
		e := b.a.model.Entity(m.entry().measure.Entity)
		if e == nil || e == q.Subject || !b.a.model.Reachable(q.Subject, e) || b.a.model.ToOne(q.Subject, e) {
			continue
		}
		if tc := b.a.model.TimeColumn(e); tc != nil && tc.Entity() != e && !b.a.model.ToOne(q.Subject, tc.Entity()) {
			e = tc.Entity()
		}
		m.used = true
		b.addFilter(query.Filter{Entity: e, Exclude: true, Label: "no " + e.PluralLabel(), Slot: "entity:" + e.Name}, m)
	}
}

// childEntities reads a named entity related to the base by one-to-many
// steps: "customers who never placed an order" keeps customers with no
// order; "patients with wounds" those with at least one.
func (b *builder) childEntities() {
	q := b.q
	for i, m := range b.ms {
		if m.kind != kEntity || m.used || m == b.subjectM || b.grouped[m] {
			continue
		}
		e := b.entityOf(m)
		if e == nil || e == q.Base {
			continue
		}
		if !b.a.model.Reachable(q.Base, e) || b.a.model.ToOne(q.Base, e) {
			continue
		}
		has := false
		for _, f := range q.Filters {
			if f.Entity == e {
				has = true
			}
		}
		switch {
		case b.negated(i):
			m.used = true
			b.addFilter(query.Filter{Entity: e, Exclude: true, Label: "no " + e.PluralLabel(), Slot: "entity:" + e.Name}, m)
		case !has && b.withBefore(i):
			m.used = true
			b.addFilter(query.Filter{Entity: e, Label: "at least one " + e.Singular(), Slot: "entity:" + e.Name}, m)
		}
	}
}

// withBefore reports whether "with", "have" or "has" comes just before
// mention i.
func (b *builder) withBefore(i int) bool {
	for j := i - 1; j >= 0 && j >= i-3; j-- {
		switch b.words(b.ms[j]) {
		case "with", "have", "has", "having", "had", "с", "есть":
			return true
		}
		if b.ms[j].kind != kStop {
			return false
		}
	}
	return false
}

// Negation: "not infected", "without infected wounds", "customers who
// never rented a film", "stock items that had no sales". Negated measures
// are read before the intent (which would take them); negated values and
// related rows in the filter pass.

package understand

import (
	"github.com/clarify-sql/clarify/internal/model"
	"github.com/clarify-sql/clarify/internal/query"
	"github.com/clarify-sql/clarify/internal/understand/text"
	"strings"
)

// negated reports whether the mention at index i is negated ("not
// infected", "without infected wounds", "no open wounds").
func (b *builder) negated(i int) bool {
	// fillers between do not separate ("haven't written any of our
	// titles"); at most two entities or verbs do
	between := 0
	for j := i - 1; j >= 0; j-- {
		switch m := b.ms[j]; m.kind {
		case kNot:
			return true
		case kStop, kList:
			continue
		case kTime:
			if m.window != nil && m.window.All {
				continue // "never … ever"
			}
		case kEntity, kUnknown:
			if verb, _ := text.VerbForm(b.l.texts[m.start]); m.kind == kUnknown && !verb {
				return false
			}
			if between++; between > 2 {
				return false
			}
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
		if a, v, ok := strings.Cut(f.Label, " is "); ok && !strings.HasPrefix(v, "not ") {
			f.Label = a + " is not " + v // "country is not USA"
		} else {
			f.Label = "not " + f.Label
		}
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
//
// A negated event word does the same: "products nobody has ever ordered",
// "films never rented" name the date of a child's rows ("ordered" is the
// order date, "rented" the rental date), so the subject's rows without
// such a child are meant.
func (b *builder) negatedMeasures() {
	q := b.q
	for i, m := range b.ms {
		if m.used || b.grouped[m] || q.Subject == nil || !b.negated(i) {
			continue
		}
		if m.kind == kColumn {
			if e := b.eventChild(m); e != nil {
				m.used = true
				b.addFilter(query.Filter{Entity: e, Exclude: true, Label: "no " + e.PluralLabel(), Slot: "entity:" + e.Name}, m)
			}
			continue
		}
		if m.kind != kMeasure {
			continue
		}
		e := b.a.model.Entity(m.entry().measure.Entity)
		if e == nil || e == q.Subject || !b.hasChildren(q.Subject, e) {
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
		if !b.hasChildren(q.Base, e) {
			// "employees not assigned to a department": a reference to
			// the parent that is empty
			if b.negated(i) {
				if p, ok := b.a.model.Path(q.Base, e); ok && len(p) == 1 && p[0].ToOne {
					fk := q.Base.Column(p[0].FromCol)
					ref := &model.ColumnRef{Entity: q.Base.Name, Column: fk.Name}
					m.used = true
					b.addFilter(query.Filter{Entity: q.Base, Cond: model.Compare{Left: model.Operand{Column: ref}, Op: "is null"},
						Label: "no " + e.Singular(), Slot: "null:" + fk.Name}, m)
				}
			}
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

// hasChildren reports whether rows of e belong to rows of base through a
// one-to-many step: a department's employees, although the employee who
// manages it is also one.
func (b *builder) hasChildren(base, e *model.Entity) bool {
	_, ok := b.a.model.ChildPath(base, e)
	return ok
}

// eventChild returns the child entity whose event a column word names:
// the entity of a date column the word names ("ordered" for orders'
// order date), when its rows belong to the subject's.
func (b *builder) eventChild(m *mention) *model.Entity {
	for _, e := range m.entries {
		if e.kind == kColumn && e.column.Temporal() && e.entity != b.q.Subject && b.hasChildren(b.q.Subject, e.entity) {
			return e.entity
		}
	}
	return nil
}

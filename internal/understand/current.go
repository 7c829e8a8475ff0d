// Current rows: "the current salary", "who works here now", "Senior
// Engineers at the moment". On a model whose entities record when a row
// holds (validity: from_date to to_date), such words keep the rows that
// hold today, in every table with a validity period the answer reads.
// Read after the subject, before the intent (so that "current" is not
// taken for "the latest row"); the rows of a subject without a period of
// its own are current through a child that has one (read after the
// filters).

package understand

import (
	"slices"

	"github.com/clarify-sql/clarify/internal/model"
	"github.com/clarify-sql/clarify/internal/query"
)

// currentPhrases say the question is about what holds today.
var currentPhrases = [][]string{{"current"}, {"currently"}, {"now"}, {"right", "now"}, {"at", "the", "moment"},
	{"at", "present"}, {"presently"}, {"nowadays"}, {"these", "days"}, {"today"}, {"still"}, {"as", "of", "today"}}

// currentWords reads the current words when an entity the subject reaches
// has a validity period: the query keeps current rows, and the words are
// taken (not a latest row, not a period of one day).
func (b *builder) currentWords() {
	if b.q.Subject == nil || !b.reachesValidity(b.q.Subject) {
		return
	}
	for k := range b.l.texts {
		for _, p := range currentPhrases {
			if k+len(p) > len(b.l.texts) || !slices.Equal(b.l.texts[k:k+len(p)], p) {
				continue
			}
			b.q.Current = true
			for _, m := range b.ms {
				if m.start < k+len(p) && m.end > k && (m.kind == kLatest || m.kind == kTime || m.kind == kUnknown || m.kind == kStop) {
					m.kind, m.used = kStop, true
				}
			}
		}
	}
}

// reachesValidity reports whether e or an entity connected to it records
// when its rows hold.
func (b *builder) reachesValidity(e *model.Entity) bool {
	for _, x := range b.a.model.Entities {
		if x.Validity != nil && (x == e || b.a.model.Reachable(e, x)) {
			return true
		}
	}
	return false
}

// currentThroughChild makes the rows of a base with no validity period of
// its own current through a child that has one ("current employees":
// those with an assignment that holds today), unless a filter, a group or
// the metric already reads such a child.
func (b *builder) currentThroughChild() {
	q := b.q
	if !q.Current || q.Base == nil || q.Base.Validity != nil {
		return
	}
	m := b.a.model
	for _, f := range q.Filters {
		if f.Entity != nil && f.Entity.Validity != nil {
			return
		}
	}
	for _, g := range q.Group {
		if g.Column != nil && b.throughValidity(g.Column.Entity()) || g.Entity != nil && b.throughValidity(g.Entity) {
			return
		}
	}
	var best *model.Entity
	for _, e := range m.Entities {
		if e.Validity == nil || e == q.Base || !m.ToOne(e, q.Base) {
			continue
		}
		// an assignment (it also refers to something else) says where a
		// row is now better than a value that changes (a salary)
		if best == nil || assignment(e, q.Base) && !assignment(best, q.Base) {
			best = e
		}
	}
	if best == nil {
		return
	}
	b.q.Filters = append(b.q.Filters, query.Filter{Entity: best, Label: "with a current " + best.Singular(), Slot: "current"})
}

// throughValidity reports whether reading e from the base goes through an
// entity with a validity period (departments of employees through their
// assignments).
func (b *builder) throughValidity(e *model.Entity) bool {
	if e.Validity != nil {
		return true
	}
	path, ok := b.a.model.Path(b.q.Base, e)
	if !ok {
		return false
	}
	for _, ed := range path {
		if ed.To.Validity != nil {
			return true
		}
	}
	return false
}

// assignment reports whether child e refers to another entity besides
// parent: a link such as an employee's department assignments.
func assignment(e, parent *model.Entity) bool {
	for _, c := range e.Columns {
		if c.References != "" && !hasPrefixDot(c.References, parent.Name) {
			return true
		}
	}
	return false
}

func hasPrefixDot(ref, entity string) bool {
	return len(ref) > len(entity) && ref[:len(entity)] == entity && ref[len(entity)] == '.'
}

// Entities in context: which entities the question names without doubt
// (read in the first passes, before the subject), and how near any other
// entity is to them. Ambiguous words are settled in favour of the nearest.

package understand

import "github.com/clarify-sql/clarify/internal/model"

// contextEntities collects entities the question names unambiguously.
func (b *builder) contextEntities() {
	seen := map[*model.Entity]bool{}
	add := func(e *model.Entity) {
		if e != nil && !seen[e] {
			seen[e] = true
			b.context = append(b.context, e)
		}
	}
	for _, m := range b.ms {
		switch m.kind {
		case kEntity:
			if len(distinctEntities(m.entries)) == 1 {
				add(m.entry().entity)
			}
		case kMeasure, kTerm:
			add(m.entry().entity)
		case kColumn:
			// a column only one entity has names that entity ("which day …")
			if ents := columnEntities(m.entries); len(ents) == 1 && m.entry().column.Role != model.RoleID {
				add(ents[0])
			}
		case kValue:
			// a name found in one entity only names it too ("the
			// population of Afghanistan": a country's)
			if !m.partial && len(m.vals) > 0 {
				e := m.vals[0].col.Entity()
				one := true
				for _, v := range m.vals {
					one = one && v.col.Entity() == e
				}
				if one {
					add(e)
				}
			}
		}
	}
}

func (b *builder) addContext(e *model.Entity) {
	for _, c := range b.context {
		if c == e {
			return
		}
	}
	b.context = append(b.context, e)
}

func columnEntities(es []entry) []*model.Entity {
	var out []*model.Entity
	seen := map[*model.Entity]bool{}
	for _, e := range es {
		if e.kind == kColumn && e.entity != nil && !seen[e.entity] {
			seen[e.entity] = true
			out = append(out, e.entity)
		}
	}
	return out
}

func distinctEntities(es []entry) []*model.Entity {
	var out []*model.Entity
	seen := map[*model.Entity]bool{}
	for _, e := range es {
		if e.entity != nil && !seen[e.entity] && e.kind == kEntity {
			seen[e.entity] = true
			out = append(out, e.entity)
		}
	}
	return out
}

// related reports how close entity e is to the question's context: 0 named,
// 1 a many-to-one neighbour of a named entity, 20 and the number of joins
// to the nearest named entity when connected otherwise, 30 not connected
// to anything named.
func (b *builder) related(e *model.Entity) int {
	for _, c := range b.context {
		if c == e {
			return 0
		}
	}
	m := b.a.model
	for _, c := range b.context {
		if m.ToOne(c, e) {
			return 1
		}
	}
	// connected: the fewer joins away, the closer ("mountain bikes":
	// products, one step from categories, before their order items)
	steps := 0
	for _, c := range b.context {
		if p, ok := m.Path(c, e); ok && (steps == 0 || len(p) < steps) {
			steps = len(p)
		}
	}
	if steps > 0 {
		return 20 + min(steps, 9)
	}
	if len(b.context) == 0 {
		return 20
	}
	return 30
}

// preferByContext keeps the candidates closest to the question's context.
// Candidates mostly share a few entities, whose relation is worked out
// once each; when every candidate is as close as the closest, items
// itself is returned.
func preferByContext[T any](b *builder, items []T, ent func(T) *model.Entity) []T {
	var memo map[*model.Entity]int
	related := func(e *model.Entity) int {
		if r, ok := memo[e]; ok {
			return r
		}
		if memo == nil {
			memo = map[*model.Entity]int{}
		}
		memo[e] = b.related(e)
		return memo[e]
	}
	best, all := 100, true
	for i, it := range items {
		r := related(ent(it))
		if i > 0 && r != best {
			all = false
		}
		best = min(best, r)
	}
	if all {
		return items
	}
	var out []T
	for _, it := range items {
		if related(ent(it)) == best {
			out = append(out, it)
		}
	}
	return out
}

// entitiesInPlay lists the base, the subject and the other named entities.
func (b *builder) entitiesInPlay() []*model.Entity {
	var out []*model.Entity
	seen := map[*model.Entity]bool{}
	for _, e := range append([]*model.Entity{b.q.Base, b.q.Subject}, b.context...) {
		if e != nil && !seen[e] {
			seen[e] = true
			out = append(out, e)
		}
	}
	return out
}

// entityOfQuiet returns a mention's entity when it names just one.
func (b *builder) entityOfQuiet(m *mention) *model.Entity {
	if ents := distinctEntities(m.entries); len(ents) == 1 {
		return ents[0]
	}
	return nil
}

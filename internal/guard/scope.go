package guard

import (
	"slices"
	"strings"

	"github.com/clarify-sql/clarify/internal/model"
)

// scopePath is how the rows of one scoped entity are tied to a scope value:
// the many-to-one join steps from the entity to the scope entity (none for
// the scope entity itself).
type scopePath struct {
	entity *model.Entity
	scope  *model.Entity
	steps  []model.Edge
}

// scopePaths finds the scoped entities of a model: the scope entity and
// the entities whose rows belong to one scope value. Entities listed in
// scope.applies_to without a many-to-one path are returned as unscopable.
func scopePaths(m *model.Model) (map[*model.Entity]*scopePath, map[*model.Entity]bool) {
	if m.Scope == nil {
		return nil, nil
	}
	se := m.Entity(m.Scope.Entity)
	if se == nil {
		return nil, nil
	}
	paths := map[*model.Entity]*scopePath{se: {entity: se, scope: se}}
	bad := map[*model.Entity]bool{}
	for _, e := range m.ScopeEntities() {
		if e == nil || e == se {
			continue
		}
		p, ok := m.Path(e, se)
		if !ok || !model.ToOnePath(p) {
			bad[e] = true
			continue
		}
		paths[e] = &scopePath{entity: e, scope: se, steps: p}
	}
	return paths, bad
}

// keyColumn is the column of p's entity that holds the scope value.
// Entities more than one join away hold no scope value: "".
func (p *scopePath) keyColumn() string {
	if len(p.steps) == 0 {
		return p.scope.Key
	}
	if first := p.steps[0]; first.To == p.scope && first.ToCol == p.scope.Key {
		return first.FromCol
	}
	return ""
}

// quoteString renders a string literal for a dialect. The dialect's parser
// reads the template back and the guard compares the literal it parsed with
// the value, so a mistake here is refused rather than executed.
func quoteString(d model.Dialect, v string) string {
	switch d {
	case model.MySQL:
		r := strings.NewReplacer(`\`, `\\`, `'`, `\'`)
		return "'" + r.Replace(v) + "'"
	case model.Postgres:
		if strings.Contains(v, `\`) {
			r := strings.NewReplacer(`\`, `\\`, `'`, `''`)
			return "E'" + r.Replace(v) + "'"
		}
	}
	return "'" + strings.ReplaceAll(v, "'", "''") + "'"
}

// filter renders the condition that keeps the rows of p's entity belonging
// to one of the scope values vals (sorted, at least one), with unqualified
// columns of that entity: key = 'v' for one value, key IN ('v1', 'v2', …)
// for several.
func (p *scopePath) filter(d model.Dialect, vals []string) string {
	return filterSteps(d, p.scope, p.steps, matchValues(d, vals))
}

// matchValues renders the right-hand side of the scope key's condition.
func matchValues(d model.Dialect, vals []string) string {
	if len(vals) == 1 {
		return " = " + quoteString(d, vals[0])
	}
	var b strings.Builder
	b.WriteString(" IN (")
	for i, v := range vals {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(quoteString(d, v))
	}
	b.WriteString(")")
	return b.String()
}

// filterSteps renders the condition on the first step's column: match
// applied to the scope key, through an IN subquery per further many-to-one
// step.
func filterSteps(d model.Dialect, se *model.Entity, steps []model.Edge, match string) string {
	q := func(s string) string { return d.QuoteIdent(s) }
	if len(steps) == 0 {
		return q(se.Key) + match
	}
	first := steps[0]
	if first.To == se && first.ToCol == se.Key {
		return q(first.FromCol) + match
	}
	return q(first.FromCol) + " IN (SELECT " + q(first.ToCol) + " FROM " + q(first.To.TableName()) +
		" WHERE " + filterSteps(d, se, steps[1:], match) + ")"
}

// sameValues reports whether the string literals found in a parsed
// projection are exactly the scope values vals (sorted, without
// duplicates): each once, and no other. The order the parser's tree is
// walked in does not count.
func sameValues(found, vals []string) bool {
	if len(found) != len(vals) {
		return false
	}
	found = slices.Clone(found)
	slices.Sort(found)
	return slices.Equal(found, vals)
}

// projectionSQL is the SELECT that replaces a reference to entity e: the
// model's columns only, and only the rows of the scope values vals when p
// is set.
func projectionSQL(d model.Dialect, e *model.Entity, p *scopePath, vals []string) string {
	var b strings.Builder
	b.WriteString("SELECT ")
	for i, c := range storedColumns(e) {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(d.QuoteIdent(c.Name))
	}
	b.WriteString(" FROM " + d.QuoteIdent(e.TableName()))
	if p != nil {
		b.WriteString(" WHERE " + p.filter(d, vals))
		b.WriteString(scopeFence(d))
	}
	return b.String()
}

// scopeFence ends a scoped projection with a clause that makes it an
// optimisation fence. Without one the optimisers merge the projection into
// the statement around it and evaluate the statement's own conditions on
// rows of other scope values — MariaDB even reads a row found by primary
// key while planning and folds the conditions on it — so an error (an
// overflow, a bad cast) answered a question about a row the statement
// cannot see. A LIMIT or OFFSET keeps a derived table from being merged
// into its parent and conditions from being pushed into it on all three
// servers: the projection is computed on its own, and the statement's
// conditions only ever meet the scope value's rows.
func scopeFence(d model.Dialect) string {
	switch d {
	case model.MySQL:
		return " LIMIT 18446744073709551615" // MySQL's way of writing "no limit"
	case model.Postgres:
		return " OFFSET 0"
	}
	return " LIMIT -1 OFFSET 0" // SQLite: any OFFSET stops flattening
}

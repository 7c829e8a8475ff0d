package model

import (
	"fmt"
	"strings"
)

// Edge is one step of a join path: From.FromCol = To.ToCol.
type Edge struct {
	From    *Entity
	FromCol string
	To      *Entity
	ToCol   string
	// ToOne is true when each From row matches at most one To row
	// (following a foreign key, or a key-to-key link).
	ToOne bool
}

// Entity returns the entity with the given name, or nil.
func (m *Model) Entity(name string) *Entity { return m.entities[name] }

// EntityByTable returns the entity for a table name, or nil.
func (m *Model) EntityByTable(table string) *Entity { return m.tables[strings.ToLower(table)] }

// Measure returns the measure with the given name, or nil.
func (m *Model) Measure(name string) *Measure { return m.measures[name] }

// File returns the path the model was loaded from ("" when parsed from memory).
func (m *Model) File() string { return m.file }

// Line returns the line of a field path such as "entities[1].columns[2]", or 0.
func (m *Model) Line(path string) int { return m.lines[path] }

// Column returns the column with the given name, or nil.
func (e *Entity) Column(name string) *Column { return e.columns[name] }

// Model returns the model the entity belongs to.
func (e *Entity) Model() *Model { return e.model }

// Index is the entity's position in the model, for stable ordering.
func (e *Entity) Index() int { return e.index }

// TableName returns the database table of the entity.
func (e *Entity) TableName() string {
	if e.Table != "" {
		return e.Table
	}
	return e.Name
}

// Singular returns the label for one row.
func (e *Entity) Singular() string {
	if e.Label != "" {
		return e.Label
	}
	return humanize(strings.TrimSuffix(e.Name, "s"))
}

// PluralLabel returns the label for several rows.
func (e *Entity) PluralLabel() string {
	if e.Plural != "" {
		return e.Plural
	}
	if e.Label != "" {
		return e.Label + "s"
	}
	return humanize(e.Name)
}

// KeyColumn returns the key column, or nil for an entity without a key.
func (e *Entity) KeyColumn() *Column { return e.columns[e.Key] }

// DisplayColumn returns the display column; when none is set, the key,
// and for an entity without a key its first name, dimension or text
// column (else its first column).
func (e *Entity) DisplayColumn() *Column {
	if c := e.columns[e.Display]; c != nil {
		return c
	}
	if c := e.KeyColumn(); c != nil {
		return c
	}
	for _, c := range e.Columns {
		if c != nil && (c.Role == RoleName || c.Role == RoleDimension || c.Role == RoleText) {
			return c
		}
	}
	if len(e.Columns) > 0 {
		return e.Columns[0]
	}
	return nil
}

// ValueColumns are the columns of e whose values are read from the
// database (FromDatabase), in the model's order.
func (e *Entity) ValueColumns() []*Column {
	var cols []*Column
	for _, c := range e.Columns {
		if c.FromDatabase() {
			cols = append(cols, c)
		}
	}
	return cols
}

// Entity returns the entity the column belongs to.
func (c *Column) Entity() *Entity { return c.entity }

// Title returns the label of the column for people.
func (c *Column) Title() string {
	if c.Label != "" {
		return c.Label
	}
	return humanize(c.Name)
}

// Weight returns the confidence weight (default 1).
func (c *Column) Weight() float64 {
	if c.ConfidenceWeight > 0 {
		return c.ConfidenceWeight
	}
	return 1
}

// Numeric reports whether the column holds numbers.
func (c *Column) Numeric() bool {
	switch c.Type {
	case "integer", "real", "numeric":
		return true
	case "":
		return c.Role == RoleMeasure || c.Role == RoleFlag
	}
	return false
}

// Temporal reports whether the column holds dates or timestamps.
func (c *Column) Temporal() bool {
	return c.Role == RoleTime || c.Type == "date" || c.Type == "timestamp"
}

// HoldsYears reports whether the column holds calendar years (grain: year).
func (c *Column) HoldsYears() bool { return c.Grain == GrainYear }

// Computed reports whether the column is an expression, not stored.
func (c *Column) Computed() bool { return !c.Expr.IsZero() }

// FromDatabase reports whether the column's values are loaded from the database.
func (c *Column) FromDatabase() bool { return c.Values != nil && c.Values.Source == "database" }

// ResolveColumn finds the column a reference names, relative to entity e
// when the reference has no entity.
func (m *Model) ResolveColumn(e *Entity, ref ColumnRef) (*Column, error) {
	target := e
	if ref.Entity != "" {
		target = m.entities[ref.Entity]
		if target == nil {
			target = m.EntityByTable(ref.Entity)
		}
		if target == nil {
			return nil, fmt.Errorf("unknown entity %q", ref.Entity)
		}
	}
	if target == nil {
		return nil, fmt.Errorf("column %q needs an entity", ref.Column)
	}
	c := target.columns[ref.Column]
	if c == nil {
		return nil, fmt.Errorf("unknown column %q in %s", ref.Column, target.Name)
	}
	return c, nil
}

// TimeColumn resolves the entity's time column, which may live on an entity
// reached through many-to-one joins; it returns nil when there is none.
func (m *Model) TimeColumn(e *Entity) *Column {
	if e.TimeColumn == "" {
		return nil
	}
	ref := ColumnRef{Column: e.TimeColumn}
	if i := strings.IndexByte(e.TimeColumn, '.'); i > 0 {
		ref = ColumnRef{Entity: e.TimeColumn[:i], Column: e.TimeColumn[i+1:]}
	}
	c, err := m.ResolveColumn(e, ref)
	if err != nil {
		return nil
	}
	return c
}

// Edges returns the join steps leaving entity e, in declaration order.
func (m *Model) Edges(e *Entity) []Edge { return m.edges[e.Name] }

// Path returns the shortest join path from one entity to another (nil when
// from == to), and false when they are not connected. Of equally short
// paths, the one with the fewest turns from many-to-one to one-to-many
// wins, then one that is many-to-one all the way; remaining ties are
// broken by declaration order, so paths are stable. The breadth-first tree of each
// starting entity is computed once and kept.
func (m *Model) Path(from, to *Entity) ([]Edge, bool) {
	if from == to {
		return nil, true
	}
	tree := m.tree(from)
	if _, ok := tree[to.Name]; !ok {
		return nil, false
	}
	var path []Edge
	for n := to.Name; n != from.Name; {
		step := tree[n]
		path = append(path, step)
		n = step.From.Name
	}
	for i, j := 0, len(path)-1; i < j; i, j = i+1, j-1 {
		path[i], path[j] = path[j], path[i]
	}
	return path, true
}

// ChildPath returns the shortest join path from one entity to another
// whose first step is one-to-many: the rows of to that belong to a row of
// from ("the employees of a department" through employees.department_id,
// although the department's manager_id also leads to an employee). Of
// equally short paths the one declared first wins. ok is false when no
// such path exists.
func (m *Model) ChildPath(from, to *Entity) ([]Edge, bool) {
	if from == to {
		return nil, false
	}
	type node struct {
		e    *Entity
		path []Edge
	}
	seen := map[string]bool{from.Name: true}
	var level []node
	for _, ed := range m.edges[from.Name] {
		if !ed.ToOne && !seen[ed.To.Name] {
			if ed.To == to {
				return []Edge{ed}, true
			}
			level = append(level, node{ed.To, []Edge{ed}})
		}
	}
	for _, n := range level {
		seen[n.e.Name] = true
	}
	for len(level) > 0 {
		var next []node
		for _, n := range level {
			for _, ed := range m.edges[n.e.Name] {
				if seen[ed.To.Name] {
					continue
				}
				p := append(append([]Edge{}, n.path...), ed)
				if ed.To == to {
					return p, true
				}
				next = append(next, node{ed.To, p})
			}
		}
		for _, n := range next {
			seen[n.e.Name] = true
		}
		level = next
	}
	return nil, false
}

// ToOne reports whether to is reachable from from through many-to-one
// steps only (joining it never multiplies rows); from itself counts.
func (m *Model) ToOne(from, to *Entity) bool {
	if from == to {
		return true
	}
	m.tree(from)
	m.treeMu.Lock()
	defer m.treeMu.Unlock()
	return m.toOne[from.Name][to.Name]
}

// Reachable reports whether two entities are connected at all.
func (m *Model) Reachable(from, to *Entity) bool {
	if from == to {
		return true
	}
	_, ok := m.tree(from)[to.Name]
	return ok
}

// tree returns the breadth-first tree from an entity: for each reachable
// entity, the edge that reaches it.
func (m *Model) tree(from *Entity) map[string]Edge {
	m.treeMu.Lock()
	defer m.treeMu.Unlock()
	if t, ok := m.trees[from.Name]; ok {
		return t
	}
	prev := map[string]Edge{}
	toOne := map[string]bool{from.Name: true}
	seen := map[string]bool{from.Name: true}
	// Level by level, so that of the shortest paths to an entity the one
	// with the fewest turns from "up" (many-to-one) to "down" wins:
	// customers reach stock groups through their orders, not through the
	// suppliers that share their city.
	turns := map[string]int{from.Name: 0}
	up := map[string]bool{}
	level := []*Entity{from}
	for len(level) > 0 {
		var next []*Entity
		for _, cur := range level {
			for _, ed := range m.edges[cur.Name] {
				if seen[ed.To.Name] {
					continue
				}
				t := turns[cur.Name]
				if up[cur.Name] && !ed.ToOne {
					t++
				}
				one := toOne[cur.Name] && ed.ToOne
				if _, ok := prev[ed.To.Name]; ok {
					// of two paths as short, the one with fewer turns,
					// then the one that is many-to-one all the way
					// (employees reach their department through
					// department_id, not through the department they
					// manage), whatever order the YAML lists them in
					better := t < turns[ed.To.Name] || t == turns[ed.To.Name] && one && !toOne[ed.To.Name]
					if !better {
						continue
					}
				} else {
					next = append(next, ed.To)
				}
				prev[ed.To.Name] = ed
				turns[ed.To.Name] = t
				up[ed.To.Name] = ed.ToOne
				toOne[ed.To.Name] = one
			}
		}
		for _, e := range next {
			seen[e.Name] = true
		}
		level = next
	}
	if m.trees == nil {
		m.trees, m.toOne = map[string]map[string]Edge{}, map[string]map[string]bool{}
	}
	m.trees[from.Name] = prev
	m.toOne[from.Name] = toOne
	return prev
}

// ToOnePath reports whether every step of a path is many-to-one (so joining
// it never multiplies rows).
func ToOnePath(p []Edge) bool {
	for _, e := range p {
		if !e.ToOne {
			return false
		}
	}
	return true
}

// ScopeEntities returns the entities whose rows belong to one scope value.
func (m *Model) ScopeEntities() []*Entity {
	if m.Scope == nil {
		return nil
	}
	var out []*Entity
	if len(m.Scope.AppliesTo) > 0 {
		for _, n := range m.Scope.AppliesTo {
			out = append(out, m.entities[n])
		}
		return out
	}
	se := m.entities[m.Scope.Entity]
	for _, e := range m.Entities {
		if e == se {
			continue
		}
		if p, ok := m.Path(e, se); ok && ToOnePath(p) {
			out = append(out, e)
		}
	}
	return out
}

func humanize(s string) string { return strings.ReplaceAll(s, "_", " ") }

// index builds the lookup maps and join edges. It assumes names are unique
// (validate reports duplicates) and skips what it cannot resolve.
func (m *Model) index() {
	m.entities = map[string]*Entity{}
	m.tables = map[string]*Entity{}
	m.measures = map[string]*Measure{}
	m.edges = map[string][]Edge{}
	for i, e := range m.Entities {
		if e == nil {
			continue
		}
		e.model = m
		e.index = i
		e.columns = map[string]*Column{}
		for _, c := range e.Columns {
			if c == nil {
				continue
			}
			c.entity = e
			if _, dup := e.columns[c.Name]; !dup {
				e.columns[c.Name] = c
			}
		}
		if _, dup := m.entities[e.Name]; !dup {
			m.entities[e.Name] = e
			m.tables[strings.ToLower(e.TableName())] = e
		}
	}
	for _, ms := range m.Measures {
		if ms != nil {
			if _, dup := m.measures[ms.Name]; !dup {
				m.measures[ms.Name] = ms
			}
		}
	}
	for _, e := range m.Entities {
		if e == nil {
			continue
		}
		for _, c := range e.Columns {
			if c == nil || c.References == "" {
				continue
			}
			i := strings.IndexByte(c.References, '.')
			if i < 0 {
				continue
			}
			to := m.entities[c.References[:i]]
			if to == nil || to.columns[c.References[i+1:]] == nil {
				continue
			}
			toCol := c.References[i+1:]
			oneToOne := c.Name == e.Key && toCol == to.Key
			m.edges[e.Name] = append(m.edges[e.Name], Edge{From: e, FromCol: c.Name, To: to, ToCol: toCol, ToOne: true})
			m.edges[to.Name] = append(m.edges[to.Name], Edge{From: to, FromCol: toCol, To: e, ToCol: c.Name, ToOne: oneToOne})
		}
	}
}

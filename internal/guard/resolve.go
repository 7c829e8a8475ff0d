package guard

import (
	"strings"

	"github.com/clarify-sql/clarify/internal/model"
)

// relation is something a FROM clause makes visible: a model table (as its
// projection), a derived table or a common table expression.
type relation struct {
	name   string   // the name references use: alias, table or CTE name, as written
	cols   []string // output columns in order, lower case; "" for unnamed ones
	set    map[string]bool
	table  bool          // a model table
	entity *model.Entity // the model table's entity
}

func newRelation(name string, cols []string, table bool) *relation {
	r := &relation{name: name, cols: cols, set: make(map[string]bool, len(cols)), table: table}
	for _, c := range cols {
		if c != "" {
			r.set[c] = true
		}
	}
	return r
}

// tableRelation is a model table as the projection that replaces it.
func tableRelation(alias string, e *model.Entity) *relation {
	r := newRelation(alias, modelColumns(e), true)
	r.entity = e
	return r
}

// renamed applies a column alias list (t(a, b, c)) to a relation's columns.
func renamed(cols []string, names []string) ([]string, error) {
	if len(names) == 0 {
		return cols, nil
	}
	if len(names) > len(cols) {
		return nil, reject("a column alias list names %d columns but the relation has %d", len(names), len(cols))
	}
	out := append([]string(nil), cols...)
	for i, n := range names {
		out[i] = strings.ToLower(n)
	}
	return out, nil
}

// sameName reports whether two names of tables, aliases or CTEs are the
// same. exact is for PostgreSQL, whose parser hands names over already
// folded as the server folds them, and MySQL, where table names and
// aliases are case-sensitive on most servers: a name that differs from a
// CTE's only in case may be a real table there (WITH "PG_STATS" … FROM
// pg_stats reads the catalog), so it is never taken for the CTE. SQLite
// folds ASCII case, and its verifier compiles every statement anyway.
func sameName(a, b string, exact bool) bool {
	if exact {
		return a == b
	}
	return strings.EqualFold(a, b)
}

// cteScope holds the common table expressions visible at a point.
type cteScope struct {
	parent *cteScope
	exact  bool
	names  []string   // as written
	cols   [][]string // output columns of each
}

func newCTEScope(parent *cteScope, exact bool) *cteScope {
	return &cteScope{parent: parent, exact: exact}
}

func (c *cteScope) define(name string, cols []string) {
	c.names = append(c.names, name)
	c.cols = append(c.cols, cols)
}

// definesFolded reports whether a CTE visible here has name in any case:
// a second definition differing only in case is refused in every
// dialect, whatever the server would make of it.
func (c *cteScope) definesFolded(name string) bool {
	for s := c; s != nil; s = s.parent {
		for _, n := range s.names {
			if strings.EqualFold(n, name) {
				return true
			}
		}
	}
	return false
}

func (c *cteScope) lookup(name string) ([]string, bool) {
	for s := c; s != nil; s = s.parent {
		for i, n := range s.names {
			if sameName(n, name, s.exact) {
				return s.cols[i], true
			}
		}
	}
	return nil, false
}

// frame is one SELECT's name space: its FROM relations and select-list
// aliases, inside the frames of the queries it is nested in.
type frame struct {
	parent  *frame
	exact   bool // names compare exactly (see sameName)
	rels    []*relation
	aliases map[string]bool
}

func newFrame(parent *frame, exact bool) *frame {
	return &frame{parent: parent, exact: exact, aliases: map[string]bool{}}
}

func (f *frame) add(r *relation) { f.rels = append(f.rels, r) }

// find returns the nearest relation named name.
func (f *frame) find(name string) *relation {
	for s := f; s != nil; s = s.parent {
		for i := len(s.rels) - 1; i >= 0; i-- {
			if sameName(s.rels[i].name, name, s.exact) {
				return s.rels[i]
			}
		}
	}
	return nil
}

// star returns the columns of every relation of this frame, in order.
func (f *frame) star() []string {
	var out []string
	for _, r := range f.rels {
		out = append(out, r.cols...)
	}
	return out
}

// column checks that a column reference names a column the model exposes:
// a column of a relation in this frame or an enclosing one (a correlated
// reference), or a select-list alias of this SELECT. Ambiguity is left to
// the database: every candidate only exposes allowed columns.
func (f *frame) column(table, col string) error {
	col = strings.ToLower(col)
	if table != "" {
		r := f.find(table)
		if r == nil {
			return reject("%s is not a table, alias or CTE of the statement", table)
		}
		if !r.set[col] {
			if r.table {
				return reject("column %s.%s is not in the model", table, col)
			}
			return reject("%s has no column %s", table, col)
		}
		return nil
	}
	for s := f; s != nil; s = s.parent {
		for _, r := range s.rels {
			if r.set[col] {
				return nil
			}
		}
		if s == f && f.aliases[col] {
			return nil
		}
	}
	return reject("column %s is not in the model or in any table of the statement", col)
}

// owner returns the relation a column reference reads from, or nil.
func (f *frame) owner(table, col string) *relation {
	col = strings.ToLower(col)
	if table != "" {
		if r := f.find(table); r != nil && r.set[col] {
			return r
		}
		return nil
	}
	for s := f; s != nil; s = s.parent {
		for _, r := range s.rels {
			if r.set[col] {
				return r
			}
		}
	}
	return nil
}

// constant is a value a comparison names: a literal or a bound argument.
type constant struct {
	value string
	known bool
}

// scopeComparison refuses, in a scoped check, a comparison of a scoped
// table's scope key (patients.id, lab_results.patient_id) with a value
// outside the scope's set: the projection would make it return nothing,
// but a statement asking for another scope value is an attempt to leave
// the scope and is reported as such. eq is set for = and IN, the only
// comparisons accepted, and only with values of the set.
func (g *Guard) scopeComparison(sc *Scope, rel *relation, col string, eq bool, consts []constant) error {
	if sc == nil || rel == nil || rel.entity == nil {
		return nil
	}
	p := g.scoped[rel.entity]
	if p == nil || p.keyColumn() == "" || !strings.EqualFold(col, p.keyColumn()) {
		return nil
	}
	for _, c := range consts {
		if !c.known {
			continue
		}
		if eq && sc.contains(c.value) {
			continue
		}
		if len(sc.Values) == 1 {
			return scopeViolation("the conversation is limited to one %s; the statement compares %s.%s with another value",
				p.scope.Singular(), rel.entity.TableName(), col)
		}
		return scopeViolation("the conversation is limited to the %s this user may see; the statement compares %s.%s with another value",
			g.scopeLabel(true), rel.entity.TableName(), col)
	}
	return nil
}

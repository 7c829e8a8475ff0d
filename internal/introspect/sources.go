package introspect

import (
	"strings"

	"github.com/clarify-sql/clarify/internal/model"
)

// secondSources marks columns that hold a meaning another table already
// holds, so that Clarify asks which source a question means instead of
// picking one silently:
//
//   - a table that extends another one to one (its key is its reference
//     to the other's key) and repeats one of its columns (singer_age.age
//     beside singer.age) holds the same meaning: same_as;
//   - a table of aggregates (avg_age, max_age, min_age beside the columns
//     they are grouped by, such as country) precomputes the aggregates of
//     another table's column: precomputes, with the aggregate it holds.
func (d *drafter) secondSources() {
	for _, e := range d.ents {
		if to := d.extends(e); to != nil {
			for _, c := range e.cols {
				if c.references != "" || c.c.Name == e.key {
					continue
				}
				if o := sameNamed(to, c); o != nil && o.references == "" {
					c.sameAs = to.name + "." + o.c.Name
				}
			}
		}
		for _, c := range e.cols {
			if c.role != model.RoleMeasure || len(c.words) < 2 {
				continue
			}
			fn, ok := precomputedAgg[c.words[0]]
			if !ok {
				continue
			}
			rest := strings.Join(c.words[1:], " ")
			if src := d.aggregated(e, rest); src != nil {
				c.precomputes = src.name + "." + src.byWords(rest).c.Name
				c.aggregate = fn
				// what it is grouped by holds the source's own values
				for _, g := range e.cols {
					if o := src.byWords(strings.Join(g.words, " ")); o != nil && g.precomputes == "" && g.references == "" && o != src.byWords(rest) {
						g.sameAs = src.name + "." + o.c.Name
					}
				}
			}
		}
	}
}

// precomputedAgg are the first words of columns that hold an aggregate.
var precomputedAgg = map[string]string{"avg": "avg", "average": "avg", "mean": "avg", "max": "max", "maximum": "max",
	"min": "min", "minimum": "min", "sum": "sum", "total": "sum"}

// extends returns the table e extends one to one: e's key is its only
// reference, to that table's key.
func (d *drafter) extends(e *entity) *entity {
	k := e.byName[e.key]
	if k == nil || k.references == "" {
		return nil
	}
	to := d.byTable[k.references[:strings.IndexByte(k.references, '.')]]
	if to == nil || to == e || k.references != to.name+"."+to.key {
		return nil
	}
	return to
}

// sameNamed returns to's column named as c is, or nil.
func sameNamed(to *entity, c *column) *column {
	for _, o := range to.cols {
		if strings.Join(o.words, " ") == strings.Join(c.words, " ") {
			return o
		}
	}
	return nil
}

// byWords returns the column whose name's words are w, or nil.
func (e *entity) byWords(w string) *column {
	for _, c := range e.cols {
		if strings.Join(c.words, " ") == w {
			return c
		}
	}
	return nil
}

// aggregated returns the table whose numeric column named rest the
// aggregate columns of e summarize: one whose other columns e's
// non-aggregate columns are named after (what e is grouped by), the one
// whose name begins e's first.
func (d *drafter) aggregated(e *entity, rest string) *entity {
	var best *entity
	for _, o := range d.ents {
		if o == e {
			continue
		}
		c := o.byWords(rest)
		if c == nil || c.role != model.RoleMeasure {
			continue
		}
		grouped := true
		for _, g := range e.cols {
			if _, agg := precomputedAgg[g.words[0]]; agg && len(g.words) > 1 {
				continue
			}
			if g.references == "" && o.byWords(strings.Join(g.words, " ")) == nil {
				grouped = false
			}
		}
		if !grouped {
			continue
		}
		if best == nil || strings.HasPrefix(e.name, o.name) {
			best = o
		}
	}
	return best
}

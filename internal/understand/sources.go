// Second sources: a meaning the data holds twice. A column word that
// names a column and its copy in another table (singer.age and
// singer_age.age) is asked about when columns are resolved; an aggregate
// another table precomputes (avg_age per country) is asked about once the
// intent is known: compute it, or read it.

package understand

import (
	"fmt"
	"strings"

	"github.com/clarify-sql/clarify/internal/model"
	"github.com/clarify-sql/clarify/internal/query"
)

// copyPair returns two candidate columns of which one repeats the other
// (same_as), or nil.
func copyPair(cols []entry) []entry {
	for _, a := range cols {
		for _, c := range cols {
			if a.column != c.column && a.column.SameAs == c.entity.Name+"."+c.column.Name {
				return []entry{c, a} // the original first
			}
		}
	}
	return nil
}

// sourceSlot asks which of two sources of one meaning a column word means.
func (b *builder) sourceSlot(m *mention, pair []entry) {
	words := b.words(m)
	sl := &Slot{Key: "source:" + words, Kind: KindTable, Priority: Important, Text: words, Ask: true, Confidence: 0.5,
		Context: fmt.Sprintf("The data holds %q twice: in %s and in %s.", words, pair[0].entity.PluralLabel(), pair[1].entity.PluralLabel())}
	for i, e := range pair {
		sl.Options = append(sl.Options, &Option{ID: e.entity.Name + "." + e.column.Name, Label: columnLabel(e.column),
			Description: fmt.Sprintf("%s as %s hold it", e.column.Title(), e.entity.PluralLabel()), column: e.column, entity: e.entity, BestGuess: i == 0})
	}
	sl.Question = fmt.Sprintf("Should I read %q from %s, or from %s?", words, pair[0].entity.PluralLabel(), pair[1].entity.PluralLabel())
	o := b.settle(sl, func(answer string) (*Option, string) { return b.parseColumnAnswer(answer, pair) })
	if o == nil {
		o = sl.Options[0]
	}
	for _, e := range pair {
		if e.column == o.column {
			m.entries = []entry{e}
		}
	}
}

// precomputedSource offers to read an aggregate a table precomputes
// ("the average age of singers from France": averaged from singers, or
// read from singer_age where country is France). Only tables whose columns
// can take every filter and group of the question are offered.
func (b *builder) precomputedSource() {
	q := b.q
	a := q.Agg
	if a == nil || a.Column == nil || (a.Func != "avg" && a.Func != "min" && a.Func != "max" && a.Func != "sum") {
		return
	}
	src := a.Column.Entity().Name + "." + a.Column.Name
	var pre *model.Column
	for _, e := range b.a.model.Entities {
		for _, c := range e.Columns {
			if c.Precomputes == src && c.Aggregate == a.Func && b.mapsOnto(e) {
				pre = c
			}
		}
	}
	if pre == nil {
		return
	}
	what := fmt.Sprintf("%s %s", aggWord(a.Func), strings.ToLower(a.Column.Title()))
	sl := &Slot{Key: "source:" + what, Kind: KindTable, Priority: Important, Text: what, Ask: true, Confidence: 0.5,
		Context: fmt.Sprintf("%s holds the %s already computed.", capitalize(pre.Entity().PluralLabel()), what),
		Options: []*Option{
			{ID: "compute", Label: fmt.Sprintf("Compute it from %s", a.Column.Entity().PluralLabel()), BestGuess: true},
			{ID: "precomputed", Label: fmt.Sprintf("Read it from %s", pre.Entity().PluralLabel()), column: pre},
		}}
	sl.Question = fmt.Sprintf("Should I compute the %s from %s, or read it from %s?", what, a.Column.Entity().PluralLabel(), pre.Entity().PluralLabel())
	o := b.settle(sl, nil)
	if o == nil || o.column == nil {
		return
	}
	// read the precomputed column: the filters and groups move onto its table
	e := pre.Entity()
	q.Intent, q.Agg, q.Base, q.Subject = query.IntentList, nil, e, e
	b.in.Subject = e
	q.Columns = []*model.Column{pre}
	for i, f := range q.Filters {
		q.Filters[i] = moveFilter(f, e)
	}
	// its rows are already one per group: shown, not grouped again
	for _, g := range q.Group {
		if c := columnNamed(e, g.Column.Name); c != nil {
			q.Columns = append([]*model.Column{c}, q.Columns...)
		}
	}
	q.Group = nil
}

// mapsOnto reports whether entity e has, by name, every column the
// question's filters and groups use, so that they can be read from it.
func (b *builder) mapsOnto(e *model.Entity) bool {
	for _, f := range b.q.Filters {
		for _, ref := range model.CondColumns(f.Cond) {
			if columnNamed(e, ref.Column) == nil {
				return false
			}
		}
		if f.Cond == nil {
			return false
		}
	}
	for _, g := range b.q.Group {
		if g.Column == nil || columnNamed(e, g.Column.Name) == nil {
			return false
		}
	}
	return b.q.Window == nil
}

// moveFilter rewrites a filter's columns onto entity e's same-named ones.
func moveFilter(f query.Filter, e *model.Entity) query.Filter {
	f.Entity = e
	f.Cond = renameCond(f.Cond, e)
	return f
}

func renameCond(c model.Cond, e *model.Entity) model.Cond {
	switch c := c.(type) {
	case model.And:
		out := model.And{}
		for _, it := range c.Items {
			out.Items = append(out.Items, renameCond(it, e))
		}
		return out
	case model.Or:
		out := model.Or{}
		for _, it := range c.Items {
			out.Items = append(out.Items, renameCond(it, e))
		}
		return out
	case model.Not:
		return model.Not{Item: renameCond(c.Item, e)}
	case model.Compare:
		mv := func(o model.Operand) model.Operand {
			if o.Column != nil {
				if c := columnNamed(e, o.Column.Column); c != nil {
					return model.Operand{Column: &model.ColumnRef{Entity: e.Name, Column: c.Name}}
				}
			}
			return o
		}
		out := model.Compare{Left: mv(c.Left), Op: c.Op}
		for _, r := range c.Right {
			out.Right = append(out.Right, mv(r))
		}
		return out
	}
	return c
}

// columnNamed returns e's column called name, whatever the case.
func columnNamed(e *model.Entity, name string) *model.Column {
	if c := e.Column(name); c != nil {
		return c
	}
	for _, c := range e.Columns {
		if strings.EqualFold(c.Name, name) {
			return c
		}
	}
	return nil
}

package plan

import (
	"strings"

	"github.com/clarify-sql/clarify/internal/model"
	"github.com/clarify-sql/clarify/internal/query"
)

// Column kinds: what an answer's values mean, so the page and the terminal
// format them alike (a month as a month, money with its currency).
const (
	KindID        = "id"
	KindName      = "name"
	KindCategory  = "category"
	KindDate      = "date"
	KindTimestamp = "timestamp"
	KindPeriod    = "period"
	KindYear      = "year"
	KindMeasure   = "measure"
	KindCount     = "count"
	KindBool      = "bool"
	KindText      = "text"
)

// columnMeta describes a model column's values for people.
func columnMeta(col *model.Column) Column {
	m := Column{Type: colType(col), Label: col.Title(), Unit: col.Unit}
	switch {
	case col.Grain == model.GrainYear:
		m.Kind = KindYear
	case col.Role == model.RoleID || col.References != "":
		m.Kind = KindID
	case col.Temporal():
		m.Kind = KindDate
		if m.Type == "timestamp" {
			m.Kind = KindTimestamp
		}
	case col.Role == model.RoleFlag:
		m.Kind = KindBool
	case col.Role == model.RoleName:
		m.Kind = KindName
	case col.Role == model.RoleDimension:
		m.Kind = KindCategory
	case col.Role == model.RoleMeasure:
		m.Kind = KindMeasure
	default:
		m.Kind = KindText
	}
	return m
}

// aggMeta describes an aggregate's values.
func aggMeta(a query.Agg) Column {
	label := capitalize(strings.TrimSpace(a.Label))
	switch {
	case a.Func == "count" || a.Func == "count_distinct":
		return Column{Type: aggType(a), Label: label, Kind: KindCount}
	case (a.Func == "min" || a.Func == "max") && a.Column != nil:
		m := columnMeta(a.Column)
		m.Type, m.Label = aggType(a), label
		if m.Kind == KindID {
			m.Kind = KindMeasure
		}
		return m
	}
	m := Column{Type: aggType(a), Label: label, Kind: KindMeasure}
	switch {
	case a.Measure != nil && a.Measure.Unit != "":
		m.Unit = a.Measure.Unit
	case a.Column != nil:
		m.Unit = a.Column.Unit
	}
	return m
}

// bucketMeta describes a time bucket's values ("2023-11" for a month).
func bucketMeta(bucket string) Column {
	return Column{Type: "text", Label: capitalize(bucket), Kind: KindPeriod, Grain: bucket}
}

// ranges points each shown measure with a reference range at the shown
// columns holding its limits, when both are in the answer.
func (c *compiler) ranges() {
	for col, i := range c.colOf {
		r := col.Range
		if r == nil || i >= len(c.cols) {
			continue
		}
		e := col.Entity()
		low, lok := c.shown(e, r.Low)
		high, hok := c.shown(e, r.High)
		if (r.Low == "" || lok) && (r.High == "" || hok) {
			c.cols[i].RangeLow, c.cols[i].RangeHigh = low, high
		}
	}
}

// shown returns the output name of an entity's column in the answer.
func (c *compiler) shown(e *model.Entity, name string) (string, bool) {
	if name == "" {
		return "", false
	}
	col := e.Column(name)
	if col == nil {
		return "", false
	}
	i, ok := c.colOf[col]
	if !ok || i >= len(c.cols) {
		return "", false
	}
	return c.cols[i].Name, true
}

// nameReference shows, beside a foreign key of the base rows, the name of
// the row it points at (a wound's patient_id gets the patient's name), so
// people read names instead of ids. The parent is LEFT JOINed, so rows
// without one stay, and only when no other join reaches it already.
func (c *compiler) nameReference(col *model.Column) {
	i, shown := c.colOf[col]
	if col.References == "" || col.Role != model.RoleID || col.Entity() != c.base || !shown {
		return
	}
	for _, ed := range c.m.Edges(c.base) {
		if ed.FromCol != col.Name || !ed.ToOne || ed.To == c.base {
			continue
		}
		d, k := ed.To.DisplayColumn(), ed.To.KeyColumn()
		if d == nil || d == k || d.Role == model.RoleID || k != nil && k.Role != model.RoleID {
			return // no name, or the key is one already (a ticker symbol)
		}
		if c.joined[ed.To] && !c.joinedBy(ed) {
			return // reached another way: its name may not be this key's
		}
		if !c.joined[ed.To] {
			c.joined[ed.To] = true
			if c.named == nil {
				c.named = map[*model.Entity]bool{}
			}
			c.named[ed.To] = true
			c.joins = append(c.joins, ed)
		}
		j, ok := c.colOf[d]
		if !ok {
			name := strings.TrimSuffix(strings.TrimSuffix(col.Name, "_id"), "id")
			if name == "" || name == col.Name {
				name = strings.ReplaceAll(ed.To.Singular(), " ", "_")
			}
			name = strings.TrimRight(name, "_")
			meta := columnMeta(d)
			meta.Label = ed.To.Singular()
			if words := strings.ReplaceAll(name, "_", " "); len(strings.Fields(words)) > len(strings.Fields(meta.Label)) {
				meta.Label = words // salesperson_person_id: "salesperson person", not "person"
			}
			meta.Label = capitalize(meta.Label)
			c.addMeta(c.w.col(d), name, meta)
			j = len(c.cols) - 1
			c.colOf[d] = j
		}
		c.cols[i].Display = c.cols[j].Name
		return
	}
}

// joinedBy reports whether ed is one of the statement's joins.
func (c *compiler) joinedBy(ed model.Edge) bool {
	for _, j := range c.joins {
		if j.From == ed.From && j.FromCol == ed.FromCol && j.To == ed.To && j.ToCol == ed.ToCol {
			return true
		}
	}
	return false
}

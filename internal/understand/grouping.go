// Grouping: "by clinic", "per day", "for each stock", "buys vs sells",
// "which venues", trends over time. Group targets are set aside in the
// first pass (they are never the subject); groups, versus, buckets and
// trends are read as refinements of the intent.

package understand

import (
	"time"

	"github.com/clarify-sql/clarify/internal/model"
	"github.com/clarify-sql/clarify/internal/query"
	"github.com/clarify-sql/clarify/internal/understand/timeexpr"
)

// markGroupTargets marks what follows "by"/"per": grouped, not a subject.
func (b *builder) markGroupTargets() {
	for i, m := range b.ms {
		if m.kind != kBy && m.kind != kPer {
			continue
		}
		// "for each Consumer Staples stock": values may qualify the group
		for j := i + 1; j < len(b.ms); j++ {
			n := b.ms[j]
			if n.kind == kStop || n.kind == kList || n.kind == kValue || n.kind == kGroup {
				continue
			}
			switch n.kind {
			case kEntity, kColumn, kMeasure, kUnknown, kFlag:
				b.grouped[n] = true
			}
			break
		}
	}
}

// groups reads "by X" / "per X" / "for each X".
func (b *builder) groups() {
	for i, m := range b.ms {
		if m.kind != kBy && m.kind != kPer {
			continue
		}
		n := b.groupTarget(i)
		if n == nil || n.used {
			continue
		}
		if n.kind == kEntity && b.entityColumnGroup(n) {
			continue
		}
		b.group(i, n)
	}
}

// groupTarget is what the "by"/"per" word at i groups by, past fillers;
// "for each Consumer Staples stock": past the values qualifying it.
func (b *builder) groupTarget(i int) *mention {
	for j := i + 1; j < len(b.ms); j++ {
		x := b.ms[j]
		if x.kind == kStop || x.kind == kList || (x.kind == kValue || x.kind == kGroup) && !b.grouped[x] {
			continue
		}
		return x
	}
	return nil
}

// entityColumnGroup reads "by doctor specialty", "by project status": an
// entity followed by one of its columns groups by that column. It reports
// whether it applied.
func (b *builder) entityColumnGroup(n *mention) bool {
	q := b.q
	j := b.idx(n)
	if j+1 >= len(b.ms) || !b.adjacent(n, b.ms[j+1]) || b.ms[j+1].kind != kColumn || b.ms[j+1].used {
		return false
	}
	col := b.ms[j+1]
	e, c := b.entityOfQuiet(n), col.entry().column
	if e == nil || c.Entity() != e || c.Numeric() || !b.a.model.Reachable(q.Base, e) {
		return false
	}
	n.used, col.used = true, true
	b.grouped[n] = true
	if c.Temporal() {
		q.Group = append(q.Group, query.Group{Column: c, Bucket: "month"})
	} else {
		q.Group = append(q.Group, query.Group{Column: c})
	}
	return true
}

// group groups by what mention n, after the "by"/"per" word at i, names:
// an entity, a flag's entity, a column (by month for a date), or a unit
// of time (the trend's bucket). A numeric column after a superlative is
// what the superlative orders by ("the 5 largest wounds by area").
func (b *builder) group(i int, n *mention) {
	q := b.q
	switch n.kind {
	case kEntity:
		e := b.entityOf(n)
		if e == nil || e == q.Base {
			return
		}
		n.used = true
		q.Group = append(q.Group, query.Group{Entity: e})
	case kFlag:
		// "revenue per salesperson": group by the flag's entity, keep the flag
		e := n.entry().entity
		if len(n.vals) > 0 && n.vals[0].col != nil {
			e = n.vals[0].col.Entity()
		}
		if e != q.Base {
			q.Group = append(q.Group, query.Group{Entity: e})
		}
	case kColumn:
		c := n.entry().column
		n.used = true
		if c.Numeric() && b.superlativeBefore(i) {
			b.superlativeBy = c
			return
		}
		if c.Temporal() {
			q.Group = append(q.Group, query.Group{Column: c, Bucket: "month"})
			return
		}
		q.Group = append(q.Group, query.Group{Column: c})
	case kUnknown, kStop:
		if u := timeexpr.Unit(b.words(n)); u != "" && u != "quarter" {
			n.used = true
			b.bucket = u
		}
	}
}

// superlativeBefore reports whether a superlative ("largest") stands
// before position i.
func (b *builder) superlativeBefore(i int) bool {
	for j := 0; j < i; j++ {
		if b.ms[j].kind == kSuperlative {
			return true
		}
	}
	return false
}

// versus reads "X vs Y" with X and Y values of one column as a comparison
// of the two: grouped by that column (both stay filters), counted unless
// something else is aggregated.
func (b *builder) versus() {
	q := b.q
	for i, m := range b.ms {
		if m.kind != kStop || m.entry().op != "versus" {
			continue
		}
		x, y := b.valueNear(i, -1), b.valueNear(i, 1)
		if x == nil || y == nil || x.vals[0].col != y.vals[0].col {
			continue
		}
		c := x.vals[0].col
		if c.Entity() != q.Base && !b.a.model.Reachable(q.Base, c.Entity()) {
			continue
		}
		q.Group = append(q.Group, query.Group{Column: c})
		if q.Agg == nil {
			q.Agg = &query.Agg{Func: "count", Label: "number of " + q.Base.PluralLabel()}
		}
		return
	}
}

// valueNear returns the value mention next to position i in direction
// step, past fillers, or nil.
func (b *builder) valueNear(i, step int) *mention {
	for j := i + step; j >= 0 && j < len(b.ms); j += step {
		switch m := b.ms[j]; {
		case m.kind == kStop:
			continue
		case (m.kind == kValue || m.kind == kGroup) && len(m.vals) > 0 && !b.grouped[m]:
			return m
		}
		return nil
	}
	return nil
}

// whichDimension returns the dimension column a question asks for right
// after "which"/"what", when no entity is named between: the question
// wants that column's values, not the rows of the subject.
func (b *builder) whichDimension() *mention {
	for _, m := range b.ms {
		if m.kind != kColumn || m.used || b.grouped[m] || !b.whichBefore(m) {
			continue
		}
		c := m.entry().column
		if c.Role != model.RoleDimension || c.Numeric() || c.Temporal() || len(columnEntities(m.entries)) != 1 {
			continue
		}
		if c.Entity() != b.q.Base && !b.a.model.Reachable(b.q.Base, c.Entity()) {
			continue
		}
		// "which depth are Stage 4 wounds": a value of the same column
		// answers itself; "what exchange is Coca-Cola listed on": one named
		// row is shown whole; list the rows
		for _, o := range b.ms {
			if (o.kind != kValue && o.kind != kGroup) || len(o.vals) == 0 {
				continue
			}
			vc := o.vals[0].col
			if vc == c || vc.Entity() == b.q.Base && (vc.Role == model.RoleName || vc.Name == b.q.Base.Key) {
				return nil
			}
		}
		return m
	}
	return nil
}

// trend groups by a time bucket of the base entity's time column.
func (b *builder) trend() {
	q := b.q
	tc := b.a.model.TimeColumn(q.Base)
	if tc == nil {
		return
	}
	q.Intent = query.IntentTrend
	bucket := b.bucket
	if bucket == "" {
		bucket = "month"
		// a short window is followed day by day
		if w := b.windowHint(); w > 0 && w <= 62 {
			bucket = "day"
		}
	}
	q.Group = append([]query.Group{{Column: tc, Bucket: bucket}}, q.Group...)
	if q.Agg == nil {
		b.aggregationSlot(true)
	}
}

// windowHint is the length in days of the question's "last N units" window,
// or 0: trends over short windows use daily buckets.
func (b *builder) windowHint() int {
	for _, m := range b.ms {
		if m.kind != kTime || m.window == nil || m.window.From == "" {
			continue
		}
		from, err := time.Parse(time.DateOnly, m.window.From)
		if err != nil {
			continue
		}
		return int(timeexpr.Midnight(b.s.Now).Sub(from).Hours() / 24)
	}
	return 0
}

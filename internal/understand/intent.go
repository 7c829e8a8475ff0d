package understand

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/clarify-sql/clarify/internal/model"
	"github.com/clarify-sql/clarify/internal/query"
	"github.com/clarify-sql/clarify/internal/understand/text"
	"github.com/clarify-sql/clarify/internal/understand/timeexpr"
)

// intent settles what kind of answer is wanted: count, aggregate, groups,
// trend, top N, latest or a list, and the measure it is computed over.
func (b *builder) intent() {
	q := b.q
	q.Intent = query.IntentList
	q.Base = q.Subject
	var countM, aggM, trendM, latestM *mention
	for _, m := range b.ms {
		switch m.kind {
		case kCount:
			if countM == nil {
				countM = m
			}
		case kAgg:
			if aggM == nil {
				aggM = m
			}
		case kTrend:
			if trendM == nil {
				trendM = m
			}
		case kLatest:
			if latestM == nil {
				latestM = m
			}
		}
	}
	if b.rankM != nil && b.topDimension() {
		return
	}
	if b.rankM != nil {
		b.ranking()
		return
	}
	if b.mostBy != nil {
		b.mostByColumn()
		return
	}
	if b.whenAgg != nil {
		q.Intent = query.IntentAggregate
		q.Agg = b.whenAgg
		b.baseForMetric(q.Agg)
		return
	}
	// "the 3 clients with the highest credit limit", "John's 3 highest
	// glucose readings": the top N rows by a column, not its maximum
	if aggM != nil && (aggM.entry().op == "max" || aggM.entry().op == "min") {
		if n := b.rankCount(aggM); n != nil {
			if agg := b.aggTarget(aggM); agg != nil {
				b.rankMetric(agg, aggM)
				n.used = true
				q.Intent = query.IntentTop
				q.Rank = &query.Rank{Entity: q.Subject, Metric: *agg, Desc: aggM.entry().op == "max", Limit: int(n.num)}
				b.baseForMetric(agg)
				b.groups()
				return
			}
		}
	}
	// "which customer has the highest credit limit": the top one by a column
	if aggM != nil && (aggM.entry().op == "max" || aggM.entry().op == "min") && b.subjectM != nil && b.whichBefore(b.subjectM) {
		if agg := b.aggTarget(aggM); agg != nil {
			b.rankMetric(agg, aggM)
			q.Intent = query.IntentTop
			q.Rank = &query.Rank{Entity: q.Subject, Metric: *agg, Desc: aggM.entry().op == "max", Limit: 1}
			b.baseForMetric(agg)
			b.groups()
			return
		}
	}
	if countM != nil {
		if agg := b.countedQuantity(countM); agg != nil {
			q.Intent = query.IntentAggregate
			q.Agg = agg
			b.baseForMetric(agg)
			b.groups()
			return
		}
	}
	if aggM != nil && b.whichColumnTop(aggM) {
		return
	}
	switch {
	case countM != nil:
		q.Intent = query.IntentCount
		q.Agg = &query.Agg{Func: "count", Label: "number of " + q.Subject.PluralLabel()}
		// "number of orders per customer": a measure named after the count word
		if _, n := b.next(b.idx(countM)); n != nil && n.kind == kMeasure {
			n.used = true
			q.Agg = measureAgg(n.entry().measure)
			q.Base = b.a.model.Entity(n.entry().measure.Entity)
		}
	case aggM != nil:
		if agg := b.aggTarget(aggM); agg != nil {
			q.Intent = query.IntentAggregate
			q.Agg = agg
			b.baseForMetric(agg)
		} else if aggM.entry().op == "sum" {
			// "total orders": a count
			q.Intent = query.IntentCount
			q.Agg = &query.Agg{Func: "count", Label: "number of " + q.Subject.PluralLabel()}
		}
	default:
		// "the total amount of invoices": a column whose name starts with
		// an aggregate word, asked of many rows, is that aggregate
		if a := b.namedAggColumn(); a != nil {
			q.Intent = query.IntentAggregate
			q.Agg = a
			break
		}
		for i, m := range b.ms {
			if m.kind == kMeasure && !m.used && !b.grouped[m] {
				// "number of wound assessments": a row count whose noun
				// modifies the next one counts that one's rows
				if ms := m.entry().measure; ms.Aggregate == "count" && ms.Expr.IsZero() && i+1 < len(b.ms) && b.adjacent(m, b.ms[i+1]) &&
					b.ms[i+1] == b.subjectM && b.singular(m) {
					m.used = true
					q.Intent = query.IntentCount
					q.Agg = &query.Agg{Func: "count", Label: "number of " + q.Subject.PluralLabel()}
					break
				}
				m.used = true
				q.Intent = query.IntentAggregate
				q.Agg = measureAgg(m.entry().measure)
				b.baseForMetric(q.Agg)
				break
			}
		}
	}
	b.versus()
	if q.Intent == query.IntentList && countM == nil && aggM == nil && trendM == nil && latestM == nil && len(q.Group) == 0 {
		// "which venues did TSLA trade on": the values of the column, with
		// how many rows have each
		if x := b.whichDimension(); x != nil {
			x.used = true
			q.Group = append(q.Group, query.Group{Column: x.entry().column})
			q.Agg = &query.Agg{Func: "count", Label: "number of " + q.Base.PluralLabel()}
		}
	}
	b.groups()
	for _, m := range b.ms {
		if m.kind == kBucket && b.bucket == "" {
			b.bucket = m.entry().op
			m.used = true
		}
	}
	if trendM != nil || b.bucket != "" {
		b.columnAgg()
		b.trend()
	}
	if len(q.Group) > 0 && q.Intent != query.IntentTrend {
		b.columnAgg()
		if q.Agg == nil {
			b.aggregationSlot(false)
		}
		q.Intent = query.IntentGroup
	}
	if b.firstBy != nil && q.Intent == query.IntentList && b.a.model.Reachable(q.Base, b.firstBy.Column.Entity()) {
		q.Intent = query.IntentTop
		q.Order = []query.Order{*b.firstBy}
		q.Limit = 1
		if !b.singular(b.subjectM) {
			q.Limit = b.topLimit(q.Base)
		}
	}
	if latestM != nil && q.Intent == query.IntentList && !b.historyPolicyApplies() {
		if tc := b.a.model.TimeColumn(q.Base); tc != nil {
			q.Intent = query.IntentLatest
			q.Latest = &query.Latest{Time: tc}
			latestM.used = true
		}
	}
}

// countedQuantity reads "how many shares …" / "how many units … on hand"
// as the sum of a quantity column: the count word is followed by a unit of
// a numeric column, or the question names a numeric column that no number
// compares.
func (b *builder) countedQuantity(countM *mention) *query.Agg {
	i := b.idx(countM)
	j, n := b.next(i)
	// "how many Tesla shares": values may qualify the unit
	for n != nil && (n.kind == kValue || n.kind == kGroup) {
		j, n = b.next(j)
	}
	if n == nil {
		return nil
	}
	if n.kind == kUnit {
		unit := b.words(n)
		// entities in play first, then any entity with a column in that unit
		for _, e := range append(b.entitiesInPlay(), b.a.model.Entities...) {
			for _, c := range e.Columns {
				if c.Role == model.RoleMeasure && c.Numeric() && unitMatches(c, unit) {
					n.used = true
					return &query.Agg{Func: "sum", Column: c, Label: "total " + c.Title()}
				}
			}
		}
		// "how many units of X on hand": the numeric column named later
		for j := i + 1; j < len(b.ms); j++ {
			x := b.ms[j]
			if x.kind == kColumn && x.entry().column.Numeric() && x.entry().column.Role == model.RoleMeasure && !b.comparedLater(j) {
				x.used, n.used = true, true
				c := x.entry().column
				return &query.Agg{Func: "sum", Column: c, Label: "total " + c.Title()}
			}
		}
	}
	return nil
}

// comparedLater reports whether mention j is followed by a comparison.
func (b *builder) comparedLater(j int) bool {
	_, n := b.next(j)
	return n != nil && (n.kind == kCmp || n.kind == kOp || n.kind == kNumber)
}

// whichColumnTop reads "which day had the highest volume": the row with the
// highest value of a numeric column, showing the column asked about.
func (b *builder) whichColumnTop(aggM *mention) bool {
	op := aggM.entry().op
	if op != "max" && op != "min" {
		return false
	}
	for i, m := range b.ms {
		if m.kind != kColumn || !b.whichBefore(m) || m.entry().column.Numeric() && !m.entry().column.Temporal() {
			continue
		}
		asked := m.entry().column
		agg := b.aggTarget(aggM)
		if agg == nil || agg.Column == nil || agg.Column.Entity() != asked.Entity() {
			return false
		}
		_ = i
		q := b.q
		m.used = true
		q.Base, q.Subject = asked.Entity(), asked.Entity()
		b.in.Subject = q.Subject
		q.Intent = query.IntentTop
		q.Order = []query.Order{{Column: agg.Column, Desc: op == "max"}}
		q.Limit = 1
		q.Columns = []*model.Column{asked, agg.Column}
		return true
	}
	return false
}

// mostByColumn reads "which sector has the most symbols": the values of a
// column ranked by the count (or measure) named after "most", top first.
func (b *builder) mostByColumn() {
	q := b.q
	col := b.mostBy.entry().column
	q.Intent = query.IntentGroup
	q.Group = []query.Group{{Column: col}}
	q.Agg = &query.Agg{Func: "count", Label: "number of " + q.Subject.PluralLabel()}
	if _, n := b.next(b.idx(b.mostM)); n != nil {
		switch n.kind {
		case kMeasure:
			n.used = true
			q.Agg = measureAgg(n.entry().measure)
			b.baseForMetric(q.Agg)
		case kEntity:
			if e := b.entityOf(n); e != nil {
				n.used = true
				q.Subject, q.Base = e, e
				b.in.Subject = e
				q.Agg = &query.Agg{Func: "count", Label: "number of " + e.PluralLabel()}
			}
		}
	}
	q.Limit = 1
	if !b.singular(b.mostBy) {
		q.Limit = b.topLimit(q.Base)
	}
	q.SortAsc = b.mostM.entry().op == "min"
}

// whichBefore reports whether "which"/"what"/"who" directly precedes m.
func (b *builder) whichBefore(m *mention) bool {
	i := b.idx(m)
	for j := i - 1; j >= 0 && j >= i-2; j-- {
		switch b.words(b.ms[j]) {
		case "which", "what", "who", "какой", "какая", "какие":
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

// topDimension reads "top 3 genres by average price": the values of a
// dimension column ranked by a metric of their rows (their count when no
// metric is named). It reports whether it applied.
func (b *builder) topDimension() bool {
	q := b.q
	if b.rankM.kind != kTop {
		return false
	}
	j, n := b.next(b.idx(b.rankM))
	var count *mention
	if n != nil && n.kind == kNumber && n.num >= 1 && n.num == float64(int(n.num)) {
		count = n
		_, n = b.next(j)
	}
	if n == nil || n.kind != kColumn || len(columnEntities(n.entries)) != 1 {
		return false
	}
	c := n.entry().column
	if c.Role != model.RoleDimension || c.Numeric() || c.Temporal() || (c.Entity() != q.Base && !b.a.model.Reachable(q.Base, c.Entity())) {
		return false
	}
	n.used = true
	b.rankM.used = true
	limit := b.topLimit(q.Base)
	if count != nil {
		count.used = true
		limit = int(count.num)
	}
	q.Intent = query.IntentGroup
	q.Group = []query.Group{{Column: c}}
	q.Agg = b.byMetric(c.Entity())
	if q.Agg == nil {
		q.Agg = &query.Agg{Func: "count", Label: "number of " + q.Base.PluralLabel()}
	} else {
		b.baseForMetric(q.Agg)
	}
	q.Limit = limit
	return true
}

// byMetric reads the metric named after "by" ("by revenue", "by average
// score", "by number of tickets") for ranking rows of r; nil when none is.
func (b *builder) byMetric(r *model.Entity) *query.Agg {
	var metric *query.Agg
	for k, m := range b.ms {
		if m.kind != kBy {
			continue
		}
		j, n := b.next(k)
		if n == nil {
			continue
		}
		// "by average score", "by total distance": the aggregate is said
		var said *mention
		if n.kind == kAgg {
			said = n
			if _, n = b.next(j); n == nil {
				continue
			}
		}
		switch n.kind {
		case kCount:
			// "by number of tickets": how many related rows each has
			if _, e := b.next(b.idx(n)); e != nil && e.kind == kEntity {
				if ce := b.entityOfQuiet(e); ce != nil && ce != r {
					if p, ok := b.a.model.Path(ce, r); ok && model.ToOnePath(p) {
						metric = &query.Agg{Func: "count", Measure: countMeasure(ce), Label: "number of " + ce.PluralLabel()}
						n.used, e.used = true, true
					}
				}
			}
		case kMeasure:
			metric = measureAgg(n.entry().measure)
			n.used = true
		case kColumn:
			if c := n.entry().column; c.Numeric() {
				fn := columnAgg(c, r)
				label := c.Title()
				if said != nil {
					fn = said.entry().op
					label = aggWord(fn) + " " + strings.ToLower(c.Title())
					said.used = true
				}
				metric = &query.Agg{Func: fn, Column: c, Label: label}
				n.used = true
			}
		}
		if metric != nil {
			b.grouped[n] = false
			break
		}
	}
	return metric
}

// namedAggColumn returns the aggregate of a numeric column named with a
// leading aggregate word ("total amount"), when the question is about the
// rows of the column's entity in the plural; nil otherwise.
func (b *builder) namedAggColumn() *query.Agg {
	if b.subjectM == nil || b.singular(b.subjectM) {
		return nil
	}
	for _, m := range b.ms {
		if m.kind != kColumn || m.used || b.grouped[m] {
			continue
		}
		c := m.entry().column
		if !c.Numeric() || c.Role != model.RoleMeasure || c.Entity() != b.q.Subject {
			continue
		}
		first := b.l.texts[m.start]
		for _, op := range []string{"sum", "avg"} {
			if slices.Contains(aggWords[op], first) {
				m.used = true
				return &query.Agg{Func: op, Column: c, Label: aggWord(op) + " " + strings.TrimPrefix(strings.ToLower(c.Title()), first+" ")}
			}
		}
	}
	return nil
}

// rankMetric makes a "highest"/"lowest" metric rank the subject by what
// its rows add up to when the metric's rows are other rows: "the 10 stock
// items with the highest revenue" sum their order lines' revenue rather
// than take the largest line, and "the highest total quantity" sums.
// Over the subject's own rows the largest value is the metric itself.
func (b *builder) rankMetric(agg *query.Agg, aggM *mention) {
	var e *model.Entity
	switch {
	case agg.Measure != nil:
		e = b.a.model.Entity(agg.Measure.Entity)
	case agg.Column != nil:
		e = agg.Column.Entity()
	}
	if e == nil || e == b.q.Subject {
		return
	}
	if _, n := b.next(b.idx(aggM)); n != nil && n.kind == kAgg && (n.entry().op == "sum" || n.entry().op == "avg") {
		n.used = true
		agg.Func = n.entry().op
	} else if agg.Measure != nil {
		agg.Func = agg.Measure.Aggregate
	} else {
		agg.Func = columnAgg(agg.Column, b.q.Subject)
	}
	what := strings.TrimPrefix(strings.TrimPrefix(agg.Label, "highest "), "lowest ")
	if agg.Measure != nil {
		what = measureLabel(agg.Measure)
	}
	agg.Label = what
	if agg.Func == "sum" || agg.Func == "avg" {
		if agg.Measure == nil || agg.Measure.Aggregate != agg.Func {
			agg.Label = aggWord(agg.Func) + " " + what
		}
	}
}

// rankCount returns a whole number standing right before the aggregate
// word ("3 highest") or before the subject ("the 3 clients with the
// highest …"), which makes the question a top-N; nil otherwise.
func (b *builder) rankCount(aggM *mention) *mention {
	for _, at := range []*mention{aggM, b.subjectM} {
		if at == nil {
			continue
		}
		if _, p := b.prev(b.idx(at)); p != nil && p.kind == kNumber && !p.used && p.num >= 1 && p.num <= 1000 && p.num == float64(int(p.num)) {
			return p
		}
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

func measureAgg(ms *model.Measure) *query.Agg {
	return &query.Agg{Func: ms.Aggregate, Measure: ms, Label: measureLabel(ms)}
}

// aggTarget finds what an aggregate word applies to: a measure or a numeric
// column after it (or anywhere in the question).
func (b *builder) aggTarget(aggM *mention) *query.Agg {
	op := aggM.entry().op
	start := b.idx(aggM)
	try := func(m *mention) *query.Agg {
		if m.used || b.grouped[m] {
			return nil
		}
		switch m.kind {
		case kMeasure:
			ms := m.entry().measure
			m.used = true
			a := measureAgg(ms)
			// the question's word wins ("highest healing time"), except for counts
			if ms.Aggregate != "count" && ms.Aggregate != "count_distinct" && op != ms.Aggregate {
				a.Func = op
				a.Label = aggWord(op) + " " + measureLabel(ms)
			}
			return a
		case kColumn:
			c := m.entry().column
			if !c.Numeric() {
				return nil
			}
			m.used = true
			return &query.Agg{Func: op, Column: c, Label: aggWord(op) + " " + c.Title()}
		}
		return nil
	}
	for i := start + 1; i < len(b.ms) && i <= start+4; i++ {
		if a := try(b.ms[i]); a != nil {
			return a
		}
	}
	for _, m := range b.ms {
		if a := try(m); a != nil {
			return a
		}
	}
	// "average TSH": the subject's only numeric measure
	var only *model.Column
	for _, c := range b.q.Subject.Columns {
		if c.Role == model.RoleMeasure && c.Numeric() {
			if only != nil {
				return nil
			}
			only = c
		}
	}
	if only != nil {
		return &query.Agg{Func: op, Column: only, Label: aggWord(op) + " " + only.Title()}
	}
	return nil
}

func aggWord(op string) string {
	switch op {
	case "avg":
		return "average"
	case "sum":
		return "total"
	case "max":
		return "highest"
	case "min":
		return "lowest"
	case "count", "count_distinct":
		return "number of"
	}
	return op
}

// baseForMetric reads rows from the metric's entity when it differs from
// the subject ("average healing time of patients' wounds").
func (b *builder) baseForMetric(a *query.Agg) {
	switch {
	case a.Measure != nil:
		b.q.Base = b.a.model.Entity(a.Measure.Entity)
	case a.Column != nil:
		b.q.Base = a.Column.Entity()
	}
	if b.subjectM == nil {
		b.q.Subject = b.q.Base
		b.in.Subject = b.q.Base
	}
}

// groups reads "by X" / "per X" / "for each X".
func (b *builder) groups() {
	q := b.q
	for i, m := range b.ms {
		if m.kind != kBy && m.kind != kPer {
			continue
		}
		// "for each Consumer Staples stock": skip the values qualifying the group
		var n *mention
		for j := i + 1; j < len(b.ms); j++ {
			x := b.ms[j]
			if x.kind == kStop || x.kind == kList || (x.kind == kValue || x.kind == kGroup) && !b.grouped[x] {
				continue
			}
			n = x
			break
		}
		if n == nil || n.used {
			continue
		}
		// "by doctor specialty", "by project status": an entity followed by
		// one of its columns groups by that column
		if n.kind == kEntity {
			if j := b.idx(n); j+1 < len(b.ms) && b.adjacent(n, b.ms[j+1]) && b.ms[j+1].kind == kColumn && !b.ms[j+1].used {
				col := b.ms[j+1]
				if e, c := b.entityOfQuiet(n), col.entry().column; e != nil && c.Entity() == e && !c.Numeric() && b.a.model.Reachable(q.Base, e) {
					n.used, col.used = true, true
					b.grouped[n] = true
					if c.Temporal() {
						q.Group = append(q.Group, query.Group{Column: c, Bucket: "month"})
					} else {
						q.Group = append(q.Group, query.Group{Column: c})
					}
					continue
				}
			}
		}
		switch n.kind {
		case kEntity:
			e := b.entityOf(n)
			if e == nil || e == q.Base {
				continue
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
			// "the 5 largest wounds by area": what the superlative orders by
			if c.Numeric() && b.superlativeBefore(i) {
				b.superlativeBy = c
				continue
			}
			if c.Temporal() {
				q.Group = append(q.Group, query.Group{Column: c, Bucket: "month"})
				continue
			}
			q.Group = append(q.Group, query.Group{Column: c})
		case kUnknown, kStop:
			if u := timeexpr.Unit(b.words(n)); u != "" && u != "quarter" {
				n.used = true
				b.bucket = u
			}
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

// columnAgg aggregates a numeric column named without an aggregate word
// ("volume per day", "area by wound type") with its default aggregate.
func (b *builder) columnAgg() {
	q := b.q
	if q.Agg != nil {
		return
	}
	for _, m := range b.ms {
		if m.kind != kColumn || m.used || b.grouped[m] {
			continue
		}
		c := m.entry().column
		if c.Role != model.RoleMeasure || !c.Numeric() {
			continue
		}
		fn := c.Aggregate
		if fn == "" {
			fn = "sum"
		}
		m.used = true
		q.Agg = &query.Agg{Func: fn, Column: c, Label: aggWord(fn) + " " + c.Title()}
		b.baseForMetric(q.Agg)
		return
	}
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

// aggregationSlot decides what to compute per group or over time when the
// question does not say: the number of rows by default.
func (b *builder) aggregationSlot(ask bool) {
	q := b.q
	e := q.Base
	sl := &Slot{Key: "aggregation", Kind: KindAggregation, Priority: Important, Text: b.in.Question,
		Ask: ask, Confidence: 0.85, Method: MethodDefault, Why: "counting rows is the usual reading"}
	sl.Options = append(sl.Options, &Option{ID: "count", Label: "Number of " + e.PluralLabel(), BestGuess: true,
		metric: &query.Agg{Func: "count", Label: "number of " + e.PluralLabel()}})
	for _, ms := range b.a.model.Measures {
		label := capitalize(measureLabel(ms))
		// A measure that reads as the row count ("order count" on orders)
		// is the same choice to the user: two options with one label
		// would make a pointless question.
		if ms.Entity == e.Name && len(sl.Options) < 4 && !hasLabel(sl.Options, label) {
			sl.Options = append(sl.Options, &Option{ID: "measure:" + ms.Name, Label: label, metric: measureAgg(ms)})
		}
	}
	for _, c := range e.Columns {
		if c.Role == model.RoleMeasure && len(sl.Options) < 4 {
			sl.Options = append(sl.Options, &Option{ID: "avg:" + c.Name, Label: "Average " + c.Title(), metric: &query.Agg{Func: "avg", Column: c, Label: "average " + c.Title()}})
		}
	}
	if len(sl.Options) == 1 {
		sl.Ask = false
	}
	if ask {
		sl.Confidence = 0.5
		sl.Question = fmt.Sprintf("What should I show over time: the number of %s, or something else?", e.PluralLabel())
		sl.Context = "The question does not say which measure to follow."
	}
	if o := b.settle(sl, b.parseAggAnswer(e)); o != nil {
		q.Agg = o.metric
	}
}

// hasLabel reports whether an option already reads as label.
func hasLabel(opts []*Option, label string) bool {
	for _, o := range opts {
		if strings.EqualFold(o.Label, label) {
			return true
		}
	}
	return false
}

func (b *builder) parseAggAnswer(e *model.Entity) func(string) (*Option, string) {
	return func(answer string) (*Option, string) {
		key := text.StemPhrase(answer)
		for _, ms := range b.a.model.Measures {
			for _, w := range append([]string{measureLabel(ms)}, ms.Synonyms...) {
				if text.StemPhrase(w) == key {
					return &Option{ID: "measure:" + ms.Name, Label: capitalize(measureLabel(ms)), metric: measureAgg(ms)}, ""
				}
			}
		}
		for _, c := range e.Columns {
			if c.Numeric() && (text.StemPhrase(c.Title()) == key || strings.Contains(key, text.StemPhrase(c.Title()))) {
				return &Option{ID: "avg:" + c.Name, Label: "Average " + c.Title(), metric: &query.Agg{Func: "avg", Column: c, Label: "average " + c.Title()}}, ""
			}
		}
		if strings.Contains(key, "count") || strings.Contains(key, "number") {
			return &Option{ID: "count", Label: "Number of " + e.PluralLabel(), metric: &query.Agg{Func: "count", Label: "number of " + e.PluralLabel()}}, ""
		}
		return nil, fmt.Sprintf("%q is not a measure I know for %s", answer, e.PluralLabel())
	}
}

// ranking reads "top 5 products by revenue", "best customers", "the
// clinic with the most patients".
func (b *builder) ranking() {
	q := b.q
	r := q.Subject
	desc := b.rankM.kind == kTop || (b.rankM.kind == kMost && b.rankM.entry().op == "max")
	q.Intent = query.IntentTop
	limit := 0
	i := b.idx(b.rankM)
	if _, n := b.next(i); n != nil && n.kind == kNumber && n.num >= 1 && n.num == float64(int(n.num)) {
		limit = int(n.num)
		n.used = true
	} else if j, p := b.prev(i); p != nil && p.kind == kNumber && j == i-1 && p.num >= 1 {
		limit = int(p.num) // "the 5 best"
		p.used = true
	} else if b.subjectM != nil {
		// "which 3 products … the most revenue"
		if _, p := b.prev(b.idx(b.subjectM)); p != nil && p.kind == kNumber && !p.used && p.num >= 1 && p.num == float64(int(p.num)) {
			limit = int(p.num)
			p.used = true
		}
	}
	// the metric: "by X" after the ranked entity, or a measure anywhere
	metric := b.byMetric(r)
	if metric == nil {
		for _, m := range b.ms {
			if m.kind == kMeasure && !m.used {
				metric = measureAgg(m.entry().measure)
				m.used = true
				break
			}
		}
	}
	// "the most patients": count of another entity named after "most"
	if metric == nil {
		if _, n := b.next(i); n != nil && n.kind == kEntity && n != b.subjectM {
			if e := b.entityOf(n); e != nil && e != r {
				if b.a.model.ToOne(e, r) {
					metric = &query.Agg{Func: "count", Label: "number of " + e.PluralLabel(), Measure: countMeasure(e)}
					n.used = true
					if limit == 0 && b.whichBefore(b.subjectM) {
						limit = 1
					}
				}
			}
		}
	}
	sl := b.rankingSlot(r, metric)
	if o := b.settle(sl, b.parseRankAnswer(r)); o != nil {
		metric = o.metric
	}
	if metric == nil {
		return
	}
	if limit == 0 {
		limit = b.topLimit(r)
		if b.whichBefore(b.subjectM) && b.singular(b.subjectM) {
			limit = 1
		}
	}
	q.Rank = &query.Rank{Entity: r, Metric: *metric, Desc: desc, Limit: limit}
	b.baseForMetric(metric)
	q.Subject = r
	b.in.Subject = r
	b.groups()
}

// singular reports whether an entity mention was written in the singular.
func (b *builder) singular(m *mention) bool {
	if m == nil {
		return false
	}
	t := b.l.toks[m.end-1]
	return !strings.HasSuffix(t.Text, "s") || strings.HasSuffix(t.Text, "ss")
}

// countMeasure is a measure that counts an entity's rows.
func countMeasure(e *model.Entity) *model.Measure {
	return &model.Measure{Name: "count_" + e.Name, Label: "number of " + e.PluralLabel(), Entity: e.Name, Aggregate: "count"}
}

func columnAgg(c *model.Column, r *model.Entity) string {
	if c.Entity() == r {
		return "max"
	}
	if c.Aggregate != "" {
		return c.Aggregate
	}
	return "sum"
}

func (b *builder) topLimit(r *model.Entity) int {
	for _, rk := range b.a.model.Rankings {
		if rk.Entity == r.Name && rk.Limit > 0 {
			return rk.Limit
		}
	}
	if n := b.a.model.Policies.TopLimit; n > 0 {
		return n
	}
	return 10
}

// rankingSlot offers the ways to rank an entity; the question's own
// metric is exact, the model's default is an assumption.
func (b *builder) rankingSlot(r *model.Entity, given *query.Agg) *Slot {
	words := b.words(b.rankM)
	sl := &Slot{Key: "ranking:" + r.Name, Kind: KindRanking, Priority: Important, Text: words + " " + r.PluralLabel(),
		Question: fmt.Sprintf("How should I rank %s?", r.PluralLabel()),
		Context:  fmt.Sprintf("%q %s can be ranked in more than one way.", words, r.PluralLabel())}
	var rk *model.Ranking
	for _, x := range b.a.model.Rankings {
		if x.Entity == r.Name {
			rk = x
		}
	}
	if rk != nil {
		for _, mt := range rk.Metrics {
			ms := b.a.model.Measure(mt.Measure)
			o := &Option{ID: mt.ID, Label: mt.Label, Description: ms.Description, BestGuess: mt.Default, metric: measureAgg(ms)}
			o.metric.Label = mt.Label
			sl.Options = append(sl.Options, o)
			if given != nil && sameMeasure(given.Measure, ms) {
				sl.Chosen, sl.Method, sl.Confidence = len(sl.Options)-1, MethodExact, 1
			}
		}
	} else {
		b.derivedMetrics(sl, r)
	}
	if given != nil && sl.Method == "" {
		sl.Options = append(sl.Options, &Option{ID: "given", Label: given.Label, metric: given})
		sl.Chosen, sl.Method, sl.Confidence = len(sl.Options)-1, MethodExact, 1
	}
	if sl.Method == "" {
		sl.Chosen = sl.Best()
		switch {
		case rk != nil && len(sl.Options) > 0:
			sl.Method, sl.Confidence = MethodDefault, 0.7
			for _, mt := range rk.Metrics {
				if mt.Default && mt.Confidence > 0 {
					sl.Confidence = mt.Confidence
				}
			}
			sl.Why = "the usual way to rank " + r.PluralLabel()
			if len(sl.Options) > 1 {
				sl.Question = fmt.Sprintf("Ranking %s by %s. Is that right, or by %s?", r.PluralLabel(), sl.Options[sl.Chosen].Label, otherLabels(sl.Options, sl.Chosen))
			}
		case len(sl.Options) == 1:
			sl.Method, sl.Confidence = MethodDefault, 0.7
			sl.Why = "the only measure I know for " + r.PluralLabel()
		case len(sl.Options) > 1:
			sl.Ask, sl.Confidence = true, 0.5
			sl.Question = fmt.Sprintf("Should I rank %s by %s, or by %s?", r.PluralLabel(), sl.Options[0].Label, otherLabels(sl.Options, 0))
		}
	}
	return sl
}

func otherLabels(opts []*Option, skip int) string {
	var ls []string
	for i, o := range opts {
		if i != skip {
			ls = append(ls, o.Label)
		}
	}
	return strings.Join(ls, " or ")
}

// derivedMetrics offers metrics for an entity the model has no ranking
// for: the count of its child rows and its numeric columns.
func (b *builder) derivedMetrics(sl *Slot, r *model.Entity) {
	m := b.a.model
	for _, e := range m.Entities {
		if e == r || len(sl.Options) >= 3 {
			continue
		}
		if p, ok := m.Path(e, r); ok && len(p) == 1 && p[0].ToOne {
			sl.Options = append(sl.Options, &Option{ID: "count:" + e.Name, Label: "Number of " + e.PluralLabel(),
				metric: &query.Agg{Func: "count", Measure: countMeasure(e), Label: "number of " + e.PluralLabel()}})
		}
	}
	for _, c := range r.Columns {
		if c.Role == model.RoleMeasure && len(sl.Options) < 4 {
			sl.Options = append(sl.Options, &Option{ID: "col:" + c.Name, Label: capitalize(c.Title()), metric: &query.Agg{Func: "max", Column: c, Label: c.Title()}})
		}
	}
	if len(sl.Options) > 0 {
		sl.Options[0].BestGuess = true
	}
}

func (b *builder) parseRankAnswer(r *model.Entity) func(string) (*Option, string) {
	return func(answer string) (*Option, string) {
		key := text.StemPhrase(answer)
		for _, ms := range b.a.model.Measures {
			for _, w := range append([]string{measureLabel(ms), ms.Name}, ms.Synonyms...) {
				if text.StemPhrase(w) == key {
					if b.a.model.ToOne(b.a.model.Entity(ms.Entity), r) {
						return &Option{ID: "measure:" + ms.Name, Label: measureLabel(ms), metric: measureAgg(ms)}, ""
					}
				}
			}
		}
		for _, c := range r.Columns {
			if c.Numeric() && text.StemPhrase(c.Title()) == key {
				return &Option{ID: "col:" + c.Name, Label: c.Title(), metric: &query.Agg{Func: "max", Column: c, Label: c.Title()}}, ""
			}
		}
		return nil, fmt.Sprintf("%q is not a way I know to rank %s", answer, r.PluralLabel())
	}
}

// sameMeasure reports whether two measures compute the same thing (the
// model's "number of patients" and a count of patients derived from "most").
func sameMeasure(a, b *model.Measure) bool {
	if a == nil || b == nil {
		return false
	}
	if a == b || a.Name == b.Name {
		return true
	}
	return a.Aggregate == "count" && b.Aggregate == "count" && a.Entity == b.Entity && a.Expr.IsZero() && b.Expr.IsZero()
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

// The intent: what kind of answer a question asks for (a list, a count,
// an aggregate, groups, a trend, the top N, the latest), read after the
// subject and before the filters. The precedence of the readings is the
// table intentReaders; the refinements that may follow are
// intentRefinements. The readings themselves are in ranking.go,
// aggregation.go and grouping.go.

package understand

import (
	"strings"

	"github.com/clarify-sql/clarify/internal/model"
	"github.com/clarify-sql/clarify/internal/query"
)

// intentWords are the first mention of each kind of word the intent is
// read from; nil when the question has none.
type intentWords struct {
	count  *mention // "how many", "number of"
	agg    *mention // "average", "total", "highest"
	trend  *mention // "trend", "over time"
	latest *mention // "latest", "most recent"
}

func (b *builder) intentWords() intentWords {
	var w intentWords
	for _, m := range b.ms {
		switch m.kind {
		case kCount:
			if w.count == nil {
				w.count = m
			}
		case kAgg:
			if w.agg == nil {
				w.agg = m
			}
		case kTrend:
			if w.trend == nil {
				w.trend = m
			}
		case kLatest:
			if w.latest == nil {
				w.latest = m
			}
		}
	}
	return w
}

// An intentReader reads one kind of answer. read reports whether it
// applied, having set the intent; the first reader that applies settles
// it. Readers with refine set leave the intent open to the refinements.
type intentReader struct {
	name   string
	read   func(b *builder, w intentWords) bool
	refine bool
}

// intentReaders are tried in order. The order is the precedence of what a
// question can ask, most specific first:
//   - a ranking word ("top", "best", "most") names the whole shape of
//     the answer, so it goes first: a ranked dimension ("top 3 genres by
//     average price") before ranked rows ("top 5 products by revenue"),
//     then "which sector has the most symbols";
//   - "when was the most recent test" asks for one date, whatever else
//     the question says;
//   - "highest"/"lowest" with a number ("the 3 clients with the highest
//     credit limit") or after "which" ("which customer has the highest
//     credit limit") ranks rows: tried before the count and aggregate
//     readers, which would take the same word as a maximum;
//   - a counted quantity ("how many shares") is a sum, tried before the
//     plain count; "which day had the highest volume" before the plain
//     aggregate;
//   - then the plain count, the plain aggregate, and a measure or a
//     total named without an aggregate word; the last always applies.
//
// Some readers consume mentions even when they do not apply (an
// aggregate target tried and refused), so the order also fixes what the
// later readers see.
var intentReaders = []intentReader{
	{name: "ranked dimension", read: (*builder).readTopDimension},
	{name: "ranking", read: (*builder).readRanking},
	{name: "most by column", read: (*builder).readMostByColumn},
	{name: "when", read: (*builder).readWhen},
	{name: "top n by column", read: (*builder).readTopRows},
	{name: "which has the highest", read: (*builder).readWhichHighest},
	{name: "counted quantity", read: (*builder).readCountedQuantity},
	{name: "which column is highest", read: (*builder).readWhichColumnTop},
	{name: "count", read: (*builder).readCount, refine: true},
	{name: "aggregate", read: (*builder).readAggregate, refine: true},
	{name: "measure", read: (*builder).readMeasure, refine: true},
}

// intentRefinements follow a count, an aggregate, a measure or a plain
// list, in order: versus and "which DIMENSION" add a group to a list
// before the "by"/"per" groups are read; buckets before the trend they
// set; the trend before groups make the intent group_by (a trend keeps
// its own); "the first patient" and "latest" only turn what is still a
// list into the top rows or the newest row.
var intentRefinements = []struct {
	name   string
	refine func(b *builder, w intentWords)
}{
	{"versus", (*builder).refineVersus},
	{"which dimension", (*builder).refineWhichDimension},
	{"groups", (*builder).refineGroups},
	{"buckets", (*builder).refineBuckets},
	{"trend", (*builder).refineTrend},
	{"group by", (*builder).refineGroupBy},
	{"first", (*builder).refineFirst},
	{"latest", (*builder).refineLatest},
	{"current value", (*builder).refineCurrentValue},
}

// intent settles what kind of answer is wanted: count, aggregate, groups,
// trend, top N, latest or a list, and the measure it is computed over.
// A list of the subject's rows is the reading until one says otherwise.
func (b *builder) intent() {
	b.q.Intent = query.IntentList
	b.q.Base = b.q.Subject
	w := b.intentWords()
	for _, r := range intentReaders {
		if !r.read(b, w) {
			continue
		}
		if r.refine {
			for _, f := range intentRefinements {
				f.refine(b, w)
			}
		}
		return
	}
}

// readTopDimension: "top 3 genres by average price".
func (b *builder) readTopDimension(intentWords) bool {
	return b.rankM != nil && b.topDimension()
}

// readRanking: "top 5 products by revenue", "the clinic with the most
// patients".
func (b *builder) readRanking(intentWords) bool {
	if b.rankM == nil {
		return false
	}
	b.ranking()
	return true
}

// readMostByColumn: "which sector has the most symbols".
func (b *builder) readMostByColumn(intentWords) bool {
	if b.mostBy == nil {
		return false
	}
	b.mostByColumn()
	return true
}

// readWhen: "when was the most recent test", the newest date itself.
func (b *builder) readWhen(intentWords) bool {
	if b.whenAgg == nil {
		return false
	}
	q := b.q
	q.Intent = query.IntentAggregate
	q.Agg = b.whenAgg
	b.baseForMetric(q.Agg)
	return true
}

// extreme reports whether an aggregate word asks for a maximum or a
// minimum ("highest", "lowest").
func extreme(aggM *mention) bool {
	return aggM != nil && (aggM.entry().op == "max" || aggM.entry().op == "min")
}

// readTopRows: "the 3 clients with the highest credit limit", "John's 3
// highest glucose readings": the top N rows by a column, not its maximum.
func (b *builder) readTopRows(w intentWords) bool {
	if !extreme(w.agg) {
		return false
	}
	n := b.rankCount(w.agg)
	if n == nil {
		return false
	}
	agg := b.aggTarget(w.agg)
	if agg == nil {
		return false
	}
	b.rankMetric(agg, w.agg)
	n.used = true
	q := b.q
	q.Intent = query.IntentTop
	q.Rank = &query.Rank{Entity: q.Subject, Metric: *agg, Desc: w.agg.entry().op == "max", Limit: int(n.num)}
	b.baseForMetric(agg)
	b.groups()
	return true
}

// readWhichHighest: "which customer has the highest credit limit": the
// top one by a column.
func (b *builder) readWhichHighest(w intentWords) bool {
	// "which customer has the highest credit limit", and "who has the
	// highest salary", which names no entity but asks for people
	if !extreme(w.agg) || !(b.subjectM != nil && b.whichBefore(b.subjectM) || b.subjectM == nil && b.asksWho() && isPerson(b.q.Subject) ||
		b.hasTheExtreme(w.agg) || b.withItsColumns(w.agg)) {
		return false
	}
	agg := b.aggTarget(w.agg)
	if agg == nil {
		return false
	}
	b.rankMetric(agg, w.agg)
	q := b.q
	q.Intent = query.IntentTop
	limit := 1
	if b.subjectM != nil && !b.whichBefore(b.subjectM) && !b.singular(b.subjectM) {
		limit = b.topLimit(q.Subject) // "the countries with the highest population"
	}
	q.Rank = &query.Rank{Entity: q.Subject, Metric: *agg, Desc: w.agg.entry().op == "max", Limit: limit}
	b.baseForMetric(agg)
	b.groups()
	return true
}

// withItsColumns reports whether a question asks for an extreme and other
// columns of the row that has it: "the smallest version number and its
// template type code" is that template, not the minimum alone. A group
// word ("per", "by") makes it an extreme per group instead.
func (b *builder) withItsColumns(agg *mention) bool {
	if b.has(kPer) != nil || b.has(kBy) != nil || b.q.Subject == nil {
		return false
	}
	_, target := b.next(b.idx(agg))
	if target == nil || target.kind != kColumn {
		return false
	}
	for i, m := range b.ms {
		if m.kind != kColumn || m == target || m.used || b.grouped[m] || b.whichBefore(m) {
			continue
		}
		// a name, a code or a date of the row, listed with the extreme
		// ("and its", ","); another number ("the highest price and the
		// average weight") is an aggregate too
		c := m.entry().column
		if c == target.entry().column || c.Role == model.RoleMeasure || !b.a.model.ToOne(b.q.Subject, c.Entity()) {
			continue
		}
		from, to := m.end, agg.start
		if i > b.idx(target) {
			from, to = target.end, m.start
		}
		for k := from; k < to; k++ {
			switch b.l.texts[k] {
			case "and", ",", "its", "their", "with":
				return true
			}
		}
	}
	return false
}

// hasLinks are the words that tie an entity to the extreme it has: "the
// country with the highest population", "players whose earnings are the
// highest".
var hasLinks = map[string]bool{"with": true, "has": true, "have": true, "had": true, "having": true, "whose": true}

// hasTheExtreme reports whether the extreme word follows the subject
// through "with"/"that has"/"having": the rows that have it are wanted,
// not the extreme itself.
func (b *builder) hasTheExtreme(agg *mention) bool {
	s := b.subjectM
	if s == nil || agg.start < s.end {
		return false
	}
	linked := false
	for k := s.end; k < agg.start; k++ {
		w := b.l.texts[k]
		switch {
		case hasLinks[w]:
			linked = true
		case w == "that" || w == "which" || w == "who" || w == "the" || w == "a" || w == "an":
		default:
			return false
		}
	}
	return linked
}

// readCountedQuantity: "how many shares", the sum of a quantity column.
func (b *builder) readCountedQuantity(w intentWords) bool {
	if w.count == nil {
		return false
	}
	agg := b.countedQuantity(w.count)
	if agg == nil {
		return false
	}
	q := b.q
	q.Intent = query.IntentAggregate
	q.Agg = agg
	b.baseForMetric(agg)
	b.groups()
	return true
}

// readWhichColumnTop: "which day had the highest volume".
func (b *builder) readWhichColumnTop(w intentWords) bool {
	return w.agg != nil && b.whichColumnTop(w.agg)
}

// readCount: "how many wounds", "number of orders per customer".
func (b *builder) readCount(w intentWords) bool {
	if w.count == nil {
		return false
	}
	q := b.q
	q.Intent = query.IntentCount
	q.Agg = &query.Agg{Func: "count", Label: "number of " + q.Subject.PluralLabel()}
	// "how many regions are there in Asia": the distinct values of a
	// column named after the count word, not the rows
	if _, n := b.next(b.idx(w.count)); n != nil && n.kind == kColumn && !b.grouped[n] && !n.used {
		if c := n.entry().column; !c.Numeric() && (c.Role == model.RoleDimension || c.Role == model.RoleName) &&
			b.a.model.ToOne(q.Subject, c.Entity()) && !b.singular(n) {
			n.used = true
			q.Agg = &query.Agg{Func: "count_distinct", Column: c, Label: "number of " + strings.ToLower(b.words(n))}
			return true
		}
	}
	// "number of orders per customer": a measure named after the count word
	if _, n := b.next(b.idx(w.count)); n != nil && n.kind == kMeasure {
		n.used = true
		q.Agg = measureAgg(n.entry().measure)
		q.Base = b.a.model.Entity(n.entry().measure.Entity)
	}
	return true
}

// readAggregate: "average wound area", "total orders" (a count).
func (b *builder) readAggregate(w intentWords) bool {
	if w.agg == nil {
		return false
	}
	q := b.q
	if agg := b.aggTarget(w.agg); agg != nil {
		q.Intent = query.IntentAggregate
		q.Agg = agg
		b.baseForMetric(agg)
	} else if w.agg.entry().op == "sum" {
		// "total orders": a count
		q.Intent = query.IntentCount
		q.Agg = &query.Agg{Func: "count", Label: "number of " + q.Subject.PluralLabel()}
	} else if agg := b.aggregateSlot(w.agg); agg != nil {
		q.Intent = query.IntentAggregate
		q.Agg = agg
		b.baseForMetric(agg)
	}
	return true
}

// readMeasure: a measure named without an aggregate word ("revenue of
// computer stores"), or a column named as a total ("the total amount of
// invoices"); else the intent stays a list. It always applies.
func (b *builder) readMeasure(intentWords) bool {
	q := b.q
	// "the total amount of invoices": a column whose name starts with
	// an aggregate word, asked of many rows, is that aggregate
	if a := b.namedAggColumn(); a != nil {
		q.Intent = query.IntentAggregate
		q.Agg = a
		return true
	}
	for i, m := range b.ms {
		if m.kind != kMeasure || m.used || b.grouped[m] {
			continue
		}
		// "number of wound assessments": a row count whose noun
		// modifies the next one counts that one's rows
		if ms := m.entry().measure; ms.Aggregate == "count" && ms.Expr.IsZero() && i+1 < len(b.ms) && b.adjacent(m, b.ms[i+1]) &&
			b.ms[i+1] == b.subjectM && b.singular(m) {
			m.used = true
			q.Intent = query.IntentCount
			q.Agg = &query.Agg{Func: "count", Label: "number of " + q.Subject.PluralLabel()}
			return true
		}
		m.used = true
		q.Intent = query.IntentAggregate
		q.Agg = measureAgg(m.entry().measure)
		b.baseForMetric(q.Agg)
		return true
	}
	// "how much did customers pay us": the money of the rows a verb names
	// (payments), added up
	if c := b.howMuchPaid(); c != nil {
		q.Intent = query.IntentAggregate
		q.Agg = &query.Agg{Func: "sum", Column: c, Label: "total " + strings.ToLower(c.Title())}
		b.baseForMetric(q.Agg)
		return true
	}
	// "what is the population in Asia": an additive number of the rows,
	// asked of a group of them (a value of a dimension, not one row's
	// name), is their total
	if c, m := b.groupTotal(); c != nil {
		m.used = true
		q.Intent = query.IntentAggregate
		q.Agg = &query.Agg{Func: "sum", Column: c, Label: "total " + strings.ToLower(c.Title())}
		b.baseForMetric(q.Agg)
	}
	return true
}

// howMuchPaid returns the one additive measure of the entity a verb of a
// "how much" question names by its stem ("pay" of payments, "spent" of
// spending), or nil.
func (b *builder) howMuchPaid() *model.Column {
	t := b.l.texts
	if len(t) < 2 || t[0] != "how" || t[1] != "much" {
		return nil
	}
	md := b.a.model
	for _, m := range b.ms {
		if m.kind != kUnknown || m.end-m.start != 1 {
			continue
		}
		w := b.l.stems[m.start]
		if len(w) < 3 {
			continue
		}
		for _, e := range md.Entities {
			name := strings.ToLower(e.Name)
			if !strings.HasPrefix(name, w) || b.q.Subject == nil || e != b.q.Subject && !md.Reachable(b.q.Subject, e) {
				continue
			}
			var money *model.Column
			for _, c := range e.Columns {
				if c.Role == model.RoleMeasure && c.Aggregate == "sum" && c.Numeric() {
					if money != nil {
						return nil // two amounts: which is asked elsewhere
					}
					money = c
				}
			}
			if money != nil {
				m.used = true
				return money
			}
		}
	}
	return nil
}

// groupTotal returns the column and its mention when a question asking
// "what is the X" (or "how much") of an additive measure names a group of
// rows by a dimension's value and no single row by its name.
func (b *builder) groupTotal() (*model.Column, *mention) {
	t := b.l.texts
	if len(t) < 2 || !(t[0] == "what" && (t[1] == "is" || t[1] == "was" || t[1] == "s") || t[0] == "how" && t[1] == "much") {
		return nil, nil
	}
	var col *mention
	group := false
	for _, m := range b.ms {
		switch m.kind {
		case kColumn:
			c := m.entry().column
			if col == nil && !m.used && !b.grouped[m] && c.Numeric() && c.Role == model.RoleMeasure && c.Aggregate == "sum" &&
				b.a.model.ToOne(b.q.Subject, c.Entity()) {
				col = m
			}
		case kValue, kGroup:
			for _, v := range m.vals {
				switch v.col.Role {
				case model.RoleName, model.RoleID:
					return nil, nil // one row, named
				case model.RoleDimension:
					group = true
				}
			}
		}
	}
	if col == nil || !group {
		return nil, nil
	}
	return col.entry().column, col
}

// refineVersus: "buys vs sells" groups by the column of the two values.
func (b *builder) refineVersus(intentWords) { b.versus() }

// refineWhichDimension: "which venues did TSLA trade on": the values of
// the column, with how many rows have each, when nothing else is asked.
func (b *builder) refineWhichDimension(w intentWords) {
	q := b.q
	if q.Intent != query.IntentList || w.count != nil || w.agg != nil || w.trend != nil || w.latest != nil || len(q.Group) > 0 {
		return
	}
	if x := b.whichDimension(); x != nil {
		x.used = true
		q.Group = append(q.Group, query.Group{Column: x.entry().column})
		q.Agg = &query.Agg{Func: "count", Label: "number of " + q.Base.PluralLabel()}
	}
}

// refineGroups: "by clinic", "per day", "for each stock".
func (b *builder) refineGroups(intentWords) { b.groups() }

// refineBuckets: "monthly", "by week": the bucket of a trend.
func (b *builder) refineBuckets(intentWords) {
	for _, m := range b.ms {
		if m.kind == kBucket && b.bucket == "" {
			b.bucket = m.entry().op
			m.used = true
		}
	}
}

// refineTrend: "trend", "over time", or a bucket: grouped by a period of
// the base's date.
func (b *builder) refineTrend(w intentWords) {
	if w.trend != nil || b.bucket != "" {
		b.columnAgg()
		b.trend()
	}
}

// refineGroupBy: groups make the intent group_by, with the aggregation
// asked for when the question names none.
func (b *builder) refineGroupBy(intentWords) {
	q := b.q
	if len(q.Group) == 0 || q.Intent == query.IntentTrend {
		return
	}
	b.columnAgg()
	if q.Agg == nil {
		b.aggregationSlot(false)
	}
	q.Intent = query.IntentGroup
}

// refineFirst: "the first patient registered": the oldest rows by a date.
func (b *builder) refineFirst(intentWords) {
	q := b.q
	if b.firstBy == nil || q.Intent != query.IntentList || !b.a.model.Reachable(q.Base, b.firstBy.Column.Entity()) {
		return
	}
	q.Intent = query.IntentTop
	limit := 1
	switch {
	case b.firstLimit > 0:
		limit = b.firstLimit
	case !b.singular(b.subjectM):
		limit = b.topLimit(q.Base)
	}
	// a column of rows that belong to the base ("the best paid employees"
	// by their salaries): the base rows ranked by its largest (or
	// smallest) value, not an order the statement cannot follow
	if oc := b.firstBy.Column; !b.a.model.ToOne(q.Base, oc.Entity()) {
		fn := map[bool]string{true: "max", false: "min"}[b.firstBy.Desc]
		q.Rank = &query.Rank{Entity: q.Base, Metric: query.Agg{Func: fn, Column: oc, Label: strings.ToLower(oc.Title())},
			Desc: b.firstBy.Desc, Limit: limit}
		b.baseForMetric(&q.Rank.Metric)
		return
	}
	q.Order = []query.Order{*b.firstBy}
	q.Limit = limit
}

// refineCurrentValue: "the price of AAPL" (one measure named in the
// singular, of rows that happen over time, for one thing a stored value
// names) asks for its value now: the newest row, once, with its time —
// not every trade there ever was. A plural ("prices of AAPL"), a period
// ("this week"), history words, a condition ("who has a high price",
// "over 10"), rows named by their own name ("the salary of Kowalski") or
// a model's latest-or-history policy keep their own reading.
func (b *builder) refineCurrentValue(intentWords) {
	q := b.q
	if q.Intent != query.IntentList || b.historyPolicyApplies() || len(q.Columns) > 0 {
		return
	}
	tc := b.a.model.TimeColumn(q.Base)
	if tc == nil || tc.Entity() != q.Base {
		return
	}
	var measure *mention
	thing := false
	for _, m := range b.ms {
		switch m.kind {
		case kTime, kHistory, kTrend, kPlot, kTable, kVague, kTerm, kSuperlative, kCmp, kNumber, kNot:
			return
		case kValue:
			for _, v := range m.vals {
				if v.col != nil && v.col.Entity() == q.Base && (v.col.Role == model.RoleName || v.col.Name == q.Base.Key) {
					return
				}
			}
			thing = true
		case kColumn:
			c := m.entry().column
			if c == nil || c.Role != model.RoleMeasure || c.Entity() != q.Base {
				continue
			}
			if measure != nil || !b.singular(m) {
				return
			}
			measure = m
		}
	}
	if measure == nil || !thing || b.subjectM != nil && b.subjectM != measure && !b.singular(b.subjectM) {
		return // "trades for AAPL" lists trades
	}
	q.Intent = query.IntentLatest
	q.Latest = &query.Latest{Time: tc} // the measure is shown: projection adds it
}

// refineLatest: "the latest glucose" keeps the newest row, unless the
// model's history policy decides between latest and history.
func (b *builder) refineLatest(w intentWords) {
	q := b.q
	if w.latest == nil || q.Intent != query.IntentList || b.historyPolicyApplies() {
		return
	}
	if tc := b.a.model.TimeColumn(q.Base); tc != nil {
		q.Intent = query.IntentLatest
		q.Latest = &query.Latest{Time: tc}
		w.latest.used = true
	}
}

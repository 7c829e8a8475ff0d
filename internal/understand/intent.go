// The intent: what kind of answer a question asks for (a list, a count,
// an aggregate, groups, a trend, the top N, the latest), read after the
// subject and before the filters.

package understand

import "github.com/clarify-sql/clarify/internal/query"

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

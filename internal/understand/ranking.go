// Ranking: "top 5 products by revenue", "best customers", "the clinic with
// the most patients", "which sector has the most symbols", "the 3 clients
// with the highest credit limit". Read by the first readers of the intent
// table; the metric is settled or asked in the ranking slot.

package understand

import (
	"fmt"
	"slices"
	"strings"

	"github.com/clarify-sql/clarify/internal/model"
	"github.com/clarify-sql/clarify/internal/query"
	"github.com/clarify-sql/clarify/internal/understand/text"
)

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
	// "the book with the most pages", "the movie with the most votes": a
	// number column of the ranked rows named after "most"
	if metric == nil && b.rankM.kind == kMost {
		if _, n := b.next(i); n != nil && n.kind == kColumn {
			if c := n.entry().column; c.Numeric() && !c.Temporal() && b.a.model.ToOne(r, c.Entity()) {
				fn := "max"
				if b.rankM.entry().op == "min" {
					fn = "min"
				}
				metric = &query.Agg{Func: fn, Column: c, Label: c.Title()}
				n.used = true
				if b.subjectM != nil && b.singular(b.subjectM) {
					limit = 1
				}
			}
		}
	}
	// "the top 5 largest area", "top 3 highest rating": a number column of
	// the ranked rows named after the ranking word
	if metric == nil && b.rankM.kind == kTop {
		fn := "max"
		for j := i + 1; j < len(b.ms) && j <= i+4; j++ {
			n := b.ms[j]
			switch n.kind {
			case kSuperlative:
				// "the top 5 highest paid": the superlative's own column
				col, dir, _ := strings.Cut(n.entry().vague.Order, " ")
				if ve := b.vagueEntity(n.entry().vague, j); ve != nil {
					if c := ve.Column(col); c != nil && c.Numeric() && b.a.model.ToOne(r, c.Entity()) {
						fn = map[bool]string{true: "min", false: "max"}[strings.EqualFold(dir, "asc")]
						metric = &query.Agg{Func: fn, Column: c, Label: c.Title()}
						n.used = true
						break
					}
				}
				continue
			case kNumber, kStop:
				continue
			case kAgg:
				if n.entry().op == "min" {
					fn = "min"
				}
				continue
			case kColumn:
				if c := n.entry().column; c.Numeric() && !c.Temporal() && b.a.model.ToOne(r, c.Entity()) {
					metric = &query.Agg{Func: fn, Column: c, Label: c.Title()}
					n.used = true
					for k := i + 1; k < j; k++ {
						if b.ms[k].kind == kAgg || b.ms[k].kind == kSuperlative {
							b.ms[k].used = true
						}
					}
				}
			}
			break
		}
	}
	// "the largest number of languages": languages is a column of rows
	// that belong to the ranked ones (a country's languages): how many
	// different ones
	if metric == nil {
		if _, n := b.next(i); n != nil && n.kind == kColumn && !n.used {
			if c := n.entry().column; !c.Numeric() && c.Entity() != r && b.a.model.ToOne(c.Entity(), r) && !b.singular(n) {
				metric = &query.Agg{Func: "count_distinct", Column: c, Label: "number of " + strings.ToLower(b.words(n))}
				n.used = true
				if limit == 0 && b.whichBefore(b.subjectM) {
					limit = 1
				}
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
			agg, desc := b.rankingMetric(mt)
			if agg == nil {
				continue
			}
			o := &Option{ID: mt.ID, Label: mt.Label, Description: desc, BestGuess: mt.Default, metric: agg}
			sl.Options = append(sl.Options, o)
			if given != nil && sameMetric(given, agg) {
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

// rankingMetric is what a model's ranking metric computes: a measure, the
// number of an entity's rows, or an aggregate of a column.
func (b *builder) rankingMetric(mt *model.RankingMetric) (*query.Agg, string) {
	m := b.a.model
	switch {
	case mt.Measure != "":
		ms := m.Measure(mt.Measure)
		if ms == nil {
			return nil, ""
		}
		a := measureAgg(ms)
		a.Label = lowerFirst(mt.Label)
		return a, ms.Description
	case mt.Count != "":
		e := m.Entity(mt.Count)
		if e == nil {
			return nil, ""
		}
		return &query.Agg{Func: "count", Measure: countMeasure(e), Label: lowerFirst(mt.Label)}, ""
	case mt.Column != "":
		ref := model.ColumnRef{Column: mt.Column}
		if i := strings.IndexByte(mt.Column, '.'); i > 0 {
			ref = model.ColumnRef{Entity: mt.Column[:i], Column: mt.Column[i+1:]}
		}
		c, err := m.ResolveColumn(nil, ref)
		if err != nil {
			return nil, ""
		}
		return &query.Agg{Func: mt.Aggregate, Column: c, Label: lowerFirst(mt.Label)}, ""
	}
	return nil, ""
}

// sameMetric reports whether the metric a question names is a ranking's.
func sameMetric(given, a *query.Agg) bool {
	switch {
	case given.Measure != nil && a.Measure != nil:
		return sameMeasure(given.Measure, a.Measure)
	case given.Column != nil && a.Column != nil:
		return given.Column == a.Column && given.Func == a.Func
	}
	return false
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
		// a metric the ranking offers, named in part ("revenue", "orders")
		// or by its column ("quantity" for units sold)
		for _, x := range b.a.model.Rankings {
			if x.Entity != r.Name {
				continue
			}
			var hits []*model.RankingMetric
			for _, mt := range x.Metrics {
				if key == "" {
					continue
				}
				named := strings.Contains(" "+text.StemPhrase(mt.Label)+" ", " "+key+" ")
				if agg, _ := b.rankingMetric(mt); !named && agg != nil && agg.Column != nil {
					named = namesColumn(key, agg.Column) || strings.Contains(" "+text.StemPhrase(splitName(agg.Column.Name))+" ", " "+key+" ")
				}
				if named {
					hits = append(hits, mt)
				}
			}
			if len(hits) == 1 {
				if agg, desc := b.rankingMetric(hits[0]); agg != nil {
					return &Option{ID: hits[0].ID, Label: hits[0].Label, Description: desc, metric: agg}, ""
				}
			}
		}
		for _, ms := range b.a.model.Measures {
			for _, w := range append([]string{measureLabel(ms), ms.Name}, ms.Synonyms...) {
				if text.StemPhrase(w) == key {
					if b.a.model.ToOne(b.a.model.Entity(ms.Entity), r) {
						return &Option{ID: "measure:" + ms.Name, Label: measureLabel(ms), metric: measureAgg(ms)}, ""
					}
				}
			}
		}
		if o := b.typedMetric(r, answer); o != nil {
			return o, ""
		}
		return nil, fmt.Sprintf("%q is not a way I know to rank %s", answer, r.PluralLabel())
	}
}

// namesColumn reports whether the stemmed words name the column.
func namesColumn(key string, c *model.Column) bool {
	for _, w := range append([]string{humanizeName(c.Name), splitName(c.Name), c.Title()}, c.Synonyms...) {
		if w != "" && text.StemPhrase(w) == key {
			return true
		}
	}
	return false
}

// typedMetric reads a metric the user typed in answer to "how should I
// rank": "total salary", "average rating", "number of orders", "price"
// — a number column of the ranked rows or of rows that belong to them,
// with its aggregate word, or a count of such rows.
func (b *builder) typedMetric(r *model.Entity, answer string) *Option {
	words := strings.Fields(text.Normalize(answer))
	fn := ""
	if len(words) > 1 {
		for op, ws := range aggWords {
			if slices.Contains(ws, words[0]) {
				fn, words = op, words[1:]
			}
		}
		if fn == "" && len(words) > 2 && words[0] == "number" && words[1] == "of" {
			fn, words = "count", words[2:]
		}
	}
	key := text.StemPhrase(strings.Join(words, " "))
	m := b.a.model
	for _, e := range m.Entities {
		if e != r && !m.ToOne(e, r) {
			continue
		}
		if e != r && (fn == "count" || fn == "") {
			for _, w := range append([]string{e.Name, e.Label, e.PluralLabel()}, e.Synonyms...) {
				if w != "" && text.StemPhrase(w) == key {
					return &Option{ID: "count:" + e.Name, Label: "Number of " + e.PluralLabel(),
						metric: &query.Agg{Func: "count", Measure: countMeasure(e), Label: "number of " + e.PluralLabel()}}
				}
			}
		}
		if fn == "count" {
			continue
		}
		for _, c := range e.Columns {
			if !c.Numeric() || c.Role == model.RoleID || !namesColumn(key, c) {
				continue
			}
			f := fn
			if f == "" {
				f = columnAgg(c, r)
			}
			label := aggWord(f) + " " + c.Title()
			return &Option{ID: "col:" + e.Name + "." + c.Name + ":" + f, Label: capitalize(label), metric: &query.Agg{Func: f, Column: c, Label: label}}
		}
	}
	return nil
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
			// "by number of units sold": the quantity of the lines that
			// reach the ranked rows
			if _, u := b.next(b.idx(n)); u != nil && (u.kind == kUnit || b.words(u) == "copies" || b.words(u) == "items") {
				if c := b.soldQuantity(r); c != nil {
					metric = &query.Agg{Func: "sum", Column: c, Label: "units sold"}
					n.used, u.used = true, true
					break
				}
			}
			// "by number of tickets": how many related rows each has
			if _, e := b.next(b.idx(n)); e != nil && e.kind == kEntity {
				if ce := b.entityOfQuiet(e); ce != nil && ce != r {
					if p, ok := b.a.model.Path(ce, r); ok && model.ToOnePath(p) {
						metric = &query.Agg{Func: "count", Measure: countMeasure(ce), Label: "number of " + ce.PluralLabel()}
						n.used, e.used = true, true
					}
				}
			}
		case kUnit:
			// "by units sold", "by units": the quantity of the lines
			if w := b.words(n); w == "units" || w == "unit" || w == "items" || w == "pieces" {
				if c := b.soldQuantity(r); c != nil {
					metric = &query.Agg{Func: "sum", Column: c, Label: "units sold"}
					n.used = true
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

// mostByColumn reads "which sector has the most symbols": the values of a
// column ranked by the count (or measure) named after "most", top first.
// commonPhrases ask for the value that occurs most (or least) often:
// "the most common citizenship", "the transcript date that appears least
// often". The first word is the ranking word the lexicon reads.
var commonPhrases = [][]string{{"most", "common"}, {"most", "frequent"}, {"most", "often"}, {"least", "common"},
	{"least", "frequent"}, {"least", "often"}, {"most", "frequently"}, {"least", "frequently"}}

// commonValues reads "the most common citizenship of singers" as the
// citizenship with the most singers: a ranking phrase next to a column
// that is not a number ranks the column's values by how many rows have
// them (mostByColumn). Read in the first pass, before the subject.
func (b *builder) commonValues() {
	if b.mostBy != nil {
		return
	}
	for i, m := range b.ms {
		if m.kind != kMost && !(m.kind == kAgg && m.entry().op == "min") || m.end >= len(b.l.texts) {
			continue
		}
		phrase := false
		for _, p := range commonPhrases {
			if b.l.texts[m.start] == p[0] && b.l.texts[m.end] == p[1] {
				phrase = true
			}
		}
		if !phrase {
			continue
		}
		// the column after the phrase ("most common citizenship"), else
		// the one before it ("the date that appears least often")
		var col *mention
		if _, n := b.next(i + 1); n != nil && n.kind == kColumn && !n.entry().column.Numeric() {
			col = n
		} else {
			for j := i - 1; j >= 0; j-- {
				if x := b.ms[j]; x.kind == kColumn && (!x.entry().column.Numeric() || x.entry().column.Temporal()) {
					col = x
					break
				}
			}
		}
		if col == nil {
			continue
		}
		for _, x := range b.ms {
			if x.start == m.end && x.end == m.end+1 {
				x.kind, x.used = kStop, true // "common", "often"
			}
		}
		col.used = true
		b.mostBy, b.mostM = col, m
		return
	}
}

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

// soldQuantity is the quantity column of the lines that reach r through
// many-to-one steps (order_items.quantity for products), the nearest one;
// nil when there is none.
func (b *builder) soldQuantity(r *model.Entity) *model.Column {
	var best *model.Column
	bestLen := 0
	for _, e := range b.a.model.Entities {
		if e == r {
			continue
		}
		p, ok := b.a.model.Path(e, r)
		if !ok || !model.ToOnePath(p) {
			continue
		}
		for _, c := range e.Columns {
			w := " " + strings.ToLower(humanizeName(c.Name)) + " "
			if c.Role == model.RoleMeasure && c.Numeric() && (strings.Contains(w, " quantity ") || strings.Contains(w, " qty ") ||
				strings.Contains(w, " units ")) && !strings.Contains(w, " stock ") && (best == nil || len(p) < bestLen) {
				best, bestLen = c, len(p)
			}
		}
	}
	return best
}

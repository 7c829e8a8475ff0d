// Aggregation: what "how many", "average", "total", "highest" apply to, in
// the intent pass: the target of an aggregate word, a counted quantity
// ("how many shares"), a default aggregate for a numeric column, and the
// aggregation slot when groups or a trend name nothing to compute.

package understand

import (
	"fmt"
	"slices"
	"strings"

	"github.com/clarify-sql/clarify/internal/model"
	"github.com/clarify-sql/clarify/internal/query"
	"github.com/clarify-sql/clarify/internal/understand/text"
)

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
	_, n := b.next(start)
	// "the average horsepower" when horsepower is text: not another number
	if n != nil && n.kind == kColumn && !n.used && !b.grouped[n] && !n.entry().column.Numeric() && op != "max" && op != "min" {
		return nil
	}
	// "the highest salary" right after the word, where salaries is a table
	// the subject reading took: its number column of the same name
	if n != nil && n.kind == kEntity && !b.grouped[n] {
		if c := b.namesakeColumn(n); c != nil {
			n.used = true
			return &query.Agg{Func: op, Column: c, Label: aggWord(op) + " " + c.Title()}
		}
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

// namesakeColumn is the number column an entity mention also names: the
// salaries table's salary, the ratings table's rating.
func (b *builder) namesakeColumn(m *mention) *model.Column {
	e := b.entityOfQuiet(m)
	if e == nil {
		return nil
	}
	w := text.StemPhrase(b.words(m))
	for _, c := range e.Columns {
		if c.Role != model.RoleMeasure || !c.Numeric() {
			continue
		}
		for _, n := range append([]string{humanizeName(c.Name), c.Label}, c.Synonyms...) {
			if n != "" && text.StemPhrase(n) == w {
				return c
			}
		}
	}
	return nil
}

// aggregateSlot asks what an aggregate word with nothing to compute is
// of ("the average horsepower" when horsepower is stored as text): the
// numbers of the entities in play are offered, none as a best guess.
// Answering a list instead would drop the word; another number would
// answer another question.
func (b *builder) aggregateSlot(aggM *mention) *query.Agg {
	op := aggM.entry().op
	words := b.words(aggM)
	why := fmt.Sprintf("Nothing named after %q is a number I can compute it over.", words)
	if _, n := b.next(b.idx(aggM)); n != nil && n.kind == kColumn && !n.entry().column.Numeric() {
		c := n.entry().column
		why = fmt.Sprintf("%s is not stored as a number, so I cannot compute its %s.", c.Title(), aggWord(op))
		words += " " + b.words(n)
		n.used = true
	}
	aggM.used = true
	sl := &Slot{Key: "aggregate:" + words, Kind: KindColumn, Priority: Important, Text: words, Ask: true, Confidence: 0.4, Context: why}
	var entries []entry
	for _, e := range b.entitiesInPlay() {
		for _, c := range e.Columns {
			if c.Role == model.RoleMeasure && c.Numeric() && len(sl.Options) < 4 {
				sl.Options = append(sl.Options, &Option{ID: e.Name + "." + c.Name, Label: columnLabel(c), column: c, entity: e})
				entries = append(entries, entry{kind: kColumn, column: c, entity: e})
			}
		}
	}
	sl.Options = append(sl.Options, &Option{ID: "ignore", Label: fmt.Sprintf("Leave %q out", words), ignore: true})
	// another number would answer another question: only the user picks
	sl.NoGuess = true
	sl.Question = fmt.Sprintf("What should %q be computed over?", words)
	o := b.settle(sl, func(t string) (*Option, string) { return b.parseColumnAnswer(t, entries) })
	if o == nil || o.column == nil {
		return nil
	}
	return &query.Agg{Func: op, Column: o.column, Label: aggWord(op) + " " + o.column.Title()}
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

func measureAgg(ms *model.Measure) *query.Agg {
	return &query.Agg{Func: ms.Aggregate, Measure: ms, Label: measureLabel(ms)}
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
		b.metricWords(o.metric)
	}
}

// metricWords marks the values read from words that name the chosen
// metric as used: in "wound healing trend" with "healing time" chosen,
// "healing" named the measure, not the status Healing.
func (b *builder) metricWords(a *query.Agg) {
	var names []string
	switch {
	case a == nil:
		return
	case a.Measure != nil:
		names = append([]string{measureLabel(a.Measure)}, a.Measure.Synonyms...)
	case a.Column != nil && a.Func != "count":
		names = append([]string{a.Column.Title()}, a.Column.Synonyms...)
	}
	stems := map[string]bool{}
	for _, n := range names {
		for _, w := range strings.Fields(text.StemPhrase(n)) {
			stems[w] = true
		}
	}
	for _, m := range b.ms {
		if m.kind != kValue || m.used {
			continue
		}
		named := true
		for i := m.start; i < m.end && named; i++ {
			named = stems[b.l.stems[i]]
		}
		if named {
			m.used = true
		}
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

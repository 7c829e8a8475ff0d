// The builder: one Interpretation from the linked mentions of a question.
// build is the pass order, the one place that says which reading runs
// before which; each reading lives in a file named for what it reads.
// The helpers below walk the mentions (next, prev, words…).

package understand

import (
	"context"
	"sort"
	"strings"

	"github.com/clarify-sql/clarify/internal/model"
	"github.com/clarify-sql/clarify/internal/query"
)

// builder builds one Interpretation from linked mentions.
type builder struct {
	// superlativeBy is the column named after a superlative ("the largest
	// wounds by area"), which it orders by instead of the term's own
	superlativeBy *model.Column
	a             *Analyzer
	l             *linker
	ms            []*mention
	s             Settings
	q             *query.Query
	in            *Interpretation

	// unknown are the spans of the words asked about as unknown
	unknown [][2]int

	context   []*model.Entity // entities the question names
	grouped   map[*mention]bool
	subjectM  *mention // the entity mention chosen as subject
	rankM     *mention
	scopeVals []*mention
	// "when was the most recent test": the aggregate of a time column
	whenAgg *query.Agg
	// "which sector has the most symbols": group by a column, keep the top
	mostBy, mostM *mention
	// "the first patient registered": order by a date, keep the first rows
	// (firstLimit of them when the question says how many)
	firstBy    *query.Order
	firstLimit int
	// "on the latest trading day": filters waiting for the base to be known
	latestFilters  []query.Filter
	explicitLatest bool
	bucket         string // "by month": the trend bucket
	allTime        bool   // "all time" was said
	// "names that start with J": patterns waiting for the subject
	patterns []textPattern
	// "the most expensive": base adjectives "most" or "least" made superlative
	mostBase map[*mention]bool
}

// build reads the question pass by pass. The order is the contract
// between the readings: words are settled (columns, values, latest
// periods) before the subject is chosen among them; the subject before
// the intent, which decides what is computed over it; the intent before
// the filters, which need the base entity it sets; the filters before
// comparisons and the period, which take what the filters left; and the
// model's policies (scope, format, history, a required period) and the
// unknown words last, when everything else has taken its words.
func (b *builder) build(ctx context.Context) {
	b.grouped = map[*mention]bool{}
	b.mostBase = map[*mention]bool{}
	b.readPatterns()
	// what the words mean, before anything is chosen among them
	b.aggregateColumns()
	b.superlativeColumns()
	b.dimensionAggregates()
	b.mostBases()
	b.commonValues()
	b.markGroupTargets()
	b.contextEntities()
	b.resolveColumns()
	b.resolveValues()
	b.latestPeriods()
	// what the question is about
	b.chooseSubject()
	b.whoSubject()
	if b.q.Subject == nil {
		b.unknownWords()
		b.finish()
		return
	}
	// what it computes
	b.negatedMeasures()
	b.currentWords()
	b.howMuch()
	b.dimensionSuperlatives()
	b.intent()
	b.sharedNames(ctx)
	// over which rows
	b.dateComparisons()
	b.filters()
	b.patternFilters()
	b.columnComparisons()
	b.numbers()
	b.columnAgainstColumn()
	b.window()
	b.currentThroughChild()
	b.precomputedSource()
	// how the answer is shown, and what the model's policies ask for
	b.ordering()
	b.projection()
	b.scope(ctx)
	b.formatWords()
	b.history()
	b.format()
	b.requireWindow()
	b.demonstrativeRows()
	b.unknownWords()
	b.finish()
}

// filters turns values, flags, terms and vague words into filters.
func (b *builder) filters() {
	for i, m := range b.ms {
		if m.used {
			continue
		}
		switch m.kind {
		case kValue, kGroup:
			if b.isScopeVal(m) || len(m.vals) == 0 || b.grouped[m] {
				continue
			}
			b.valueFilter(i, m)
		case kFlag:
			b.flagFilter(i, m)
		case kTerm:
			b.termFilter(i, m)
		case kVague:
			b.vagueFilter(i, m)
		case kSuperlative:
			b.superlative(i, m)
		}
	}
	b.keyFilters()
	b.nullFilters()
	b.q.Filters = append(b.q.Filters, b.latestFilters...)
	b.childEntities()
	b.mergeValueFilters()
}

// addFilter adds a filter read from mention m (nil for none), which it
// marks used and whose words the filter points at.
func (b *builder) addFilter(f query.Filter, m *mention) {
	if m != nil {
		f.Start, f.End = b.l.toks[m.start].Start, b.l.toks[m.end-1].End
		m.used = true
	}
	b.q.Filters = append(b.q.Filters, f)
}

// finish fills the interpretation's summary fields.
func (b *builder) finish() {
	b.spelling()
	b.secondQuestion()
	b.in.Query = b.q
	b.in.Intent = b.q.Intent
	for _, m := range b.ms {
		switch m.kind {
		case kStop, kList, kUnknown, kNumber, kOp, kUnit:
		default:
			b.in.Linked = append(b.in.Linked, b.words(m))
		}
		if m.kind == kUnknown && !m.used && contentWord(b.l.toks[m.start]) {
			b.in.Unknown = append(b.in.Unknown, b.words(m))
		}
	}
	sort.Strings(b.in.Warnings)
}

// next returns the first mention after index i that is not a filler.
func (b *builder) next(i int) (int, *mention) {
	for j := i + 1; j < len(b.ms); j++ {
		if k := b.ms[j].kind; k != kStop && k != kList {
			return j, b.ms[j]
		}
	}
	return -1, nil
}

// prev returns the last mention before index i that is not a filler.
func (b *builder) prev(i int) (int, *mention) {
	for j := i - 1; j >= 0; j-- {
		if k := b.ms[j].kind; k != kStop && k != kList {
			return j, b.ms[j]
		}
	}
	return -1, nil
}

// idx returns the index of mention m, or -1.
func (b *builder) idx(m *mention) int {
	for i, x := range b.ms {
		if x == m {
			return i
		}
	}
	return -1
}

// words returns the question's words of a mention.
func (b *builder) words(m *mention) string { return b.l.words(m) }

// has returns the first mention of kind k, or nil.
func (b *builder) has(k kind) *mention {
	for _, m := range b.ms {
		if m.kind == k {
			return m
		}
	}
	return nil
}

// unused returns the first mention of kind k no reading has used, or nil.
func (b *builder) unused(k kind) *mention {
	for _, m := range b.ms {
		if m.kind == k && !m.used {
			return m
		}
	}
	return nil
}

// adjacent reports whether mention y starts right where x ends.
func (b *builder) adjacent(x, y *mention) bool { return x.end == y.start }

// singular reports whether an entity mention was written in the singular.
func (b *builder) singular(m *mention) bool {
	if m == nil {
		return false
	}
	t := b.l.toks[m.end-1]
	return !strings.HasSuffix(t.Text, "s") || strings.HasSuffix(t.Text, "ss")
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

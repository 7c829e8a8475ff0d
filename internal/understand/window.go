// Periods: the time expression a question names is applied to the date
// it is about (after the comparisons); "on the latest trading day" and
// "when was the most recent test" are read before the subject; a period
// the model requires is asked for (after the format).

package understand

import (
	"fmt"
	"strings"
	"time"

	"github.com/clarify-sql/clarify/internal/model"
	"github.com/clarify-sql/clarify/internal/query"
	"github.com/clarify-sql/clarify/internal/understand/text"
	"github.com/clarify-sql/clarify/internal/understand/timeexpr"
)

// window applies the question's time expression to the date it is about:
// a date column the question names ("recorded", "registered"), the date
// of an event named by a value ("healed in 2025" → healed_date), the
// measure's rows for an aggregate, a child entity named just before, else
// the base's own date.
func (b *builder) window() {
	for i, m := range b.ms {
		if m.kind != kTime || m.used {
			continue
		}
		m.used = true
		if m.window.All {
			b.allTime = true
			continue
		}
		if w := b.q.Window; w != nil {
			if w.Window.Label != m.window.Label {
				// "opened before 2009 and after 2011" needs two sets of
				// rows; one period per question is all a filter holds
				b.periodSlot(m, fmt.Sprintf("I can apply one period per question, and %q already is.", w.Window.Label))
			}
			continue
		}
		if tc := b.namedDate(i); tc != nil {
			b.q.Window = &query.TimeFilter{Column: tc, Window: *m.window}
			continue
		}
		// a period after today dates what is planned: "purchase orders
		// next week" are expected then, not ordered then
		if tc := b.plannedDate(*m.window); tc != nil {
			b.q.Window = &query.TimeFilter{Column: tc, Window: *m.window}
			continue
		}
		// an aggregate over a measure is dated by the measure's rows
		// ("revenue of computer store customers in the past 6 months")
		if a := b.q.Agg; a != nil && (a.Measure != nil || a.Column != nil) && b.a.model.TimeColumn(b.q.Base) != nil {
			b.setWindow(b.q.Base, *m.window, m)
			continue
		}
		if r := b.q.Rank; r != nil && b.a.model.TimeColumn(b.q.Base) != nil {
			b.setWindow(b.q.Base, *m.window, m)
			continue
		}
		var e *model.Entity
		for j := i - 1; j >= 0; j-- {
			if x := b.ms[j]; x.kind == kEntity {
				if ents := distinctEntities(x.entries); len(ents) == 1 && b.a.model.TimeColumn(ents[0]) != nil {
					e = ents[0]
					break
				}
			}
		}
		// a parent named before the period qualifies the rows, it is not what
		// the period dates ("wounds of Riverside patients this year")
		if e != nil && e != b.q.Base && b.a.model.ToOne(b.q.Base, e) && b.a.model.TimeColumn(b.q.Base) != nil {
			e = b.q.Base
		}
		if e == nil {
			e = b.q.Base
		}
		b.setWindow(e, *m.window, m)
	}
}

// plannedWords name the dates of what is still to come.
var plannedWords = []string{"expected", "due", "planned", "scheduled", "deadline", "eta", "estimated", "target"}

// plannedDate returns the base's one planned-date column when the window
// starts after today, else nil.
func (b *builder) plannedDate(w timeexpr.Window) *model.Column {
	if w.From == "" || b.s.Now.IsZero() || w.From <= b.s.Now.Format("2006-01-02") || b.q.Base == nil {
		return nil
	}
	var found *model.Column
	for _, c := range b.q.Base.Columns {
		if c.Temporal() && nameHasWord(c, plannedWords) {
			if found != nil {
				return nil
			}
			found = c
		}
	}
	return found
}

// namedDate finds the date column the question names for the period at
// mention i: a date column word anywhere ("registered", "recorded"), or a
// value naming an event right before the period whose entity has a date
// column named after it ("healed in 2025" → healed_date).
func (b *builder) namedDate(i int) *model.Column {
	if _, p := b.prev(i); p != nil && (p.kind == kValue || p.kind == kGroup) && len(p.vals) == 1 {
		v := p.vals[0]
		stem := text.ValueStem(text.Normalize(v.label))
		if len(stem) >= 4 {
			for _, c := range v.col.Entity().Columns {
				if c.Temporal() && strings.HasPrefix(strings.ToLower(c.Name), strings.TrimSuffix(stem, "e")) {
					return c
				}
			}
		}
	}
	for _, x := range b.ms {
		if x.kind != kColumn || x.used || b.grouped[x] {
			continue
		}
		c := x.entry().column
		if !c.Temporal() && !c.HoldsYears() || !b.a.model.Reachable(b.q.Base, c.Entity()) {
			continue
		}
		// a parent's date named with a generic word ("recorded") does not
		// date the base's rows when they have a date of their own ("the
		// highest pain score recorded this week": the assessments' date)
		if c.Entity() != b.q.Base && b.a.model.ToOne(b.q.Base, c.Entity()) && b.a.model.TimeColumn(b.q.Base) != nil && !b.namedWith(x, c.Entity()) {
			continue
		}
		x.used = true
		return c
	}
	return nil
}

// namedWith reports whether the entity is named right before the column
// word ("assessments of wounds recorded this week").
func (b *builder) namedWith(x *mention, e *model.Entity) bool {
	_, p := b.prev(b.idx(x))
	if p == nil || p.kind != kEntity {
		return false
	}
	for _, pe := range distinctEntities(p.entries) {
		if pe == e {
			return true
		}
	}
	return false
}

// setWindow limits the time column of e (or of the base) to w.
func (b *builder) setWindow(e *model.Entity, w timeexpr.Window, m *mention) {
	m2 := b.a.model
	tc := m2.TimeColumn(e)
	if tc == nil {
		tc = m2.TimeColumn(b.q.Base)
	}
	if tc == nil {
		for _, x := range b.entitiesInPlay() {
			if tc = m2.TimeColumn(x); tc != nil {
				break
			}
		}
	}
	if tc == nil {
		tc = b.yearColumn(e, m)
	}
	if tc == nil {
		tc = b.childDate(m)
	}
	if tc == nil {
		b.periodSlot(m, fmt.Sprintf("Nothing in the question has a date to apply %q to.", b.words(m)))
		return
	}
	if b.q.Window != nil {
		return // the first period named wins
	}
	b.q.Window = &query.TimeFilter{Column: tc, Window: w}
}

// childDate is the date of the rows that belong to the base, for a period
// nothing in play dates: "how much did customers pay us in 2004" dates
// their payments. The nearest such rows with a date of their own; when
// several are as near, the one a word of the question names ("pay",
// "payments"), else asked.
func (b *builder) childDate(m *mention) *model.Column {
	md := b.a.model
	if b.q.Base == nil {
		return nil
	}
	best := 1 << 30
	var cands []*model.Column
	for _, e := range md.Entities {
		p, ok := md.ChildPath(b.q.Base, e)
		if !ok || md.TimeColumn(e) == nil || md.TimeColumn(e).Entity() != e {
			continue
		}
		switch {
		case len(p) < best:
			best, cands = len(p), []*model.Column{md.TimeColumn(e)}
		case len(p) == best:
			cands = append(cands, md.TimeColumn(e))
		}
	}
	if len(cands) > 1 {
		// a word of the question that starts the entity's name ("pay" of
		// payments, "ordered" of orders)
		var named []*model.Column
		for _, c := range cands {
			for _, w := range b.l.stems {
				if len(w) >= 3 && strings.HasPrefix(text.Stem(c.Entity().Name), w[:3]) && strings.HasPrefix(strings.ToLower(c.Entity().Name), w) {
					named = append(named, c)
					break
				}
			}
		}
		if len(named) == 1 {
			return named[0]
		}
		return b.yearColumnSlot(b.words(m), cands)
	}
	if len(cands) == 1 {
		return cands[0]
	}
	return nil
}

// yearColumn is the column of years a period applies to when nothing in
// play has a date: "singers born before 1945" (birth_year), "cars made in
// 1974" (year). The entity's own, else the base's, else another in play;
// asked when one entity has several.
func (b *builder) yearColumn(e *model.Entity, m *mention) *model.Column {
	for _, x := range append([]*model.Entity{e, b.q.Base}, b.entitiesInPlay()...) {
		if x == nil {
			continue
		}
		var cols []*model.Column
		for _, c := range x.Columns {
			if c.HoldsYears() {
				cols = append(cols, c)
			}
		}
		switch {
		case len(cols) == 1:
			return cols[0]
		case len(cols) > 1:
			return b.yearColumnSlot(b.words(m), cols)
		}
	}
	return nil
}

// yearColumnSlot asks which column of years a period is about.
func (b *builder) yearColumnSlot(words string, cols []*model.Column) *model.Column {
	sl := &Slot{Key: "year:" + words, Kind: KindColumn, Priority: Important, Text: words, Ask: true, Confidence: 0.5,
		Context: fmt.Sprintf("%d dates could be what %q is about.", len(cols), words)}
	var entries []entry
	for _, c := range cols {
		sl.Options = append(sl.Options, &Option{ID: c.Entity().Name + "." + c.Name, Label: columnLabel(c), column: c})
		entries = append(entries, entry{kind: kColumn, column: c, entity: c.Entity()})
	}
	sl.Options[0].BestGuess = true
	noun := "year"
	if cols[0].Temporal() {
		noun = "date"
	}
	sl.Question = fmt.Sprintf("Which %s is %q about: the %s, or another?", noun, words, strings.ToLower(sl.Options[0].Label))
	if o := b.settle(sl, func(t string) (*Option, string) { return b.parseColumnAnswer(t, entries) }); o != nil {
		return o.column
	}
	return nil
}

// periodSlot asks about a period that cannot be applied (why says why):
// answering without it would drop a condition the user stated.
func (b *builder) periodSlot(m *mention, why string) {
	words := b.words(m)
	sl := &Slot{Key: "unknown:" + words, Kind: KindUnknown, Priority: Important, Text: words, Ask: true, Confidence: 0.4,
		Context:  why,
		Question: fmt.Sprintf("Which date should %q apply to? Say it again naming the date, or should I leave it out?", words),
		Options:  []*Option{{ID: "ignore", Label: fmt.Sprintf("Leave %q out", words), ignore: true, BestGuess: true}}}
	b.settle(sl, func(answer string) (*Option, string) {
		return &Option{ID: "use:" + answer, Label: answer, rewrite: answer}, ""
	})
}

// optionWindow turns a model's "last" value ("30 days", "today") into a window.
func optionWindow(last string, now time.Time) (timeexpr.Window, bool) {
	if last == "today" {
		return timeexpr.ParseWindow("today", now)
	}
	sp, err := model.ParseSpan(last)
	if err != nil {
		return timeexpr.Window{}, false
	}
	return timeexpr.Last(sp.N, sp.Unit, now), true
}

// latestPeriods reads "on the latest trading day" (a filter to the newest
// date of a time column) and "when was the most recent test" (the newest
// date itself).
func (b *builder) latestPeriods() {
	when := len(b.ms) > 0 && (b.words(b.ms[0]) == "when" || b.words(b.ms[0]) == "когда")
	for i, m := range b.ms {
		if m.kind != kLatest && m.kind != kEarliest {
			continue
		}
		j, n := b.next(i)
		if n == nil || j != i+1 && b.ms[i+1].kind != kStop {
			continue
		}
		// "when was the first NVDA trade": values may stand between
		for when && n != nil && (n.kind == kValue || n.kind == kGroup) {
			j, n = b.next(j)
		}
		if n == nil {
			continue
		}
		var tc *model.Column
		switch n.kind {
		case kColumn:
			if c := n.entry().column; c.Temporal() {
				tc = c
			}
		case kEntity:
			if ents := distinctEntities(n.entries); len(ents) == 1 {
				tc = b.a.model.TimeColumn(ents[0])
			}
		}
		if tc == nil {
			continue
		}
		op := "max"
		if m.kind == kEarliest {
			op = "min"
		}
		switch {
		case !when && !b.prepBefore(i) && n.kind == kColumn && (b.asksWho() || b.whichBefore(b.subjectM)):
			// "who has the earliest hire date": the row with it
			m.used, n.used = true, true
			b.firstBy = &query.Order{Column: tc, Desc: m.kind == kLatest}
			b.firstLimit = 1
		case !when && !b.prepBefore(i) && n.kind == kEntity && m.kind == kEarliest:
			// "the first patient registered at AML Clinic": oldest first
			if _, after := b.next(b.idx(n)); after != nil && after.kind == kColumn && after.entry().column.Temporal() {
				tc = after.entry().column
				after.used = true
			}
			m.used = true
			b.firstBy = &query.Order{Column: tc}
		case when:
			m.used = true
			if n.kind == kColumn {
				n.used = true
			}
			b.whenAgg = &query.Agg{Func: op, Column: tc, Label: map[string]string{"max": "latest ", "min": "earliest "}[op] + tc.Title()}
		case b.prepBefore(i) && op == "max":
			m.used = true
			if n.kind == kColumn {
				n.used = true
			} else {
				b.grouped[n] = true // not the subject
			}
			b.latestFilters = append(b.latestFilters, query.Filter{Entity: tc.Entity(), LatestOf: tc, Label: "on the latest " + tc.Title(), Slot: "latest:" + tc.Name,
				Start: b.l.toks[m.start].Start, End: b.l.toks[n.end-1].End})
		}
	}
}

// prepBefore reports whether a preposition of place in time comes just
// before mention i ("on", "from", "at", "in", "for", "as of").
func (b *builder) prepBefore(i int) bool {
	for j := i - 1; j >= 0 && j >= i-2; j-- {
		switch b.words(b.ms[j]) {
		case "on", "from", "at", "in", "for", "of", "as", "during":
			return true
		case "the", "her", "his", "their", "its", "my", "our":
			continue
		}
		return false
	}
	return false
}

// requireWindow asks for a period when the entity requires one or the
// policy asks for one for averages and trends.
func (b *builder) requireWindow() {
	q := b.q
	if q.Window != nil || b.allTime || q.Latest != nil || q.Intent == query.IntentLatest {
		return
	}
	for _, s := range b.in.Slots {
		if s.Kind == KindVague && s.Choice() != nil && s.Choice().vopt != nil && s.Choice().vopt.Last != "" {
			return // "recent" is a period once chosen
		}
	}
	m := b.a.model
	pol := m.Policies.MissingTimeWindow
	need := q.Base.TimeWindow == "required"
	why := fmt.Sprintf("%s are many; a period keeps the answer meaningful", q.Base.PluralLabel())
	// averages and totals depend on the period; a maximum or a date does not
	if (q.Intent == query.IntentAggregate || q.Intent == query.IntentGroup) && pol.Aggregate == "ask" && q.Agg != nil && (q.Agg.Func == "avg" || q.Agg.Func == "sum") {
		need, why = true, "an average or total depends on the period"
	}
	if q.Intent == query.IntentTrend && pol.Trend == "ask" {
		need, why = true, "a trend depends on the period"
	}
	if !need {
		return
	}
	tc := m.TimeColumn(q.Base)
	if tc == nil {
		return
	}
	sl := &Slot{Key: "time_window", Kind: KindTimeWindow, Priority: Important, Text: b.in.Question, Ask: true, Confidence: 0.5,
		Context: "The question does not name a period: " + why + "."}
	opts := m.Policies.TimeWindowOptions
	if len(opts) == 0 {
		opts = []*model.TimeOption{
			{ID: "last_7_days", Label: "Last 7 days", Last: "7 days"},
			{ID: "last_30_days", Label: "Last 30 days", Last: "30 days", BestGuess: true},
			{ID: "last_12_months", Label: "Last 12 months", Last: "12 months"},
			{ID: "all", Label: "All time"},
		}
	}
	for _, o := range opts {
		w := timeexpr.Window{All: true, Label: "all time"}
		if o.Last != "" {
			if ow, ok := optionWindow(o.Last, b.s.Now); ok {
				w = ow
			}
		} else if o.ID == "today" {
			w, _ = timeexpr.ParseWindow("today", b.s.Now)
		}
		sl.Options = append(sl.Options, &Option{ID: o.ID, Label: o.Label, BestGuess: o.BestGuess, window: &w})
	}
	best := sl.Best()
	sl.Question = fmt.Sprintf("Which period should I use for %s (%s)? %s is my best guess.", q.Base.PluralLabel(), tc.Title(), sl.Options[best].Label)
	o := b.settle(sl, func(answer string) (*Option, string) {
		if w, ok := timeexpr.ParseWindow(answer, b.s.Now); ok {
			return &Option{ID: "custom:" + optionID(w.Label), Label: capitalize(w.Label), window: &w}, ""
		}
		return nil, fmt.Sprintf("I could not read %q as a period (for example \"last 14 days\" or \"since March\")", answer)
	})
	if o != nil && o.window != nil && !o.window.All {
		q.Window = &query.TimeFilter{Column: tc, Window: *o.window}
	}
}

// namesPeriod reports whether the question names a period of its own.
func (b *builder) namesPeriod() bool {
	for _, m := range b.ms {
		if m.kind == kTime && !m.window.All {
			return true
		}
	}
	return false
}

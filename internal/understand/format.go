// Format and history, after the scope: "plot"/"table" words, the format
// slot when the model asks between a plot and a table, and latest or
// history ("the latest result, or all of them") when its policy applies.

package understand

import (
	"strings"

	"github.com/clarify-sql/clarify/internal/model"
	"github.com/clarify-sql/clarify/internal/query"
	"github.com/clarify-sql/clarify/internal/understand/text"
)

func (b *builder) inList(names []string, e *model.Entity) bool {
	for _, n := range names {
		if e != nil && n == e.Name {
			return true
		}
	}
	return false
}

// formatWords reads plot or table words.
func (b *builder) formatWords() {
	if m := b.has(kPlot); m != nil {
		b.q.Format, m.used = "plot", true
	} else if m := b.has(kTable); m != nil {
		b.q.Format, m.used = "table", true
	}
}

// format asks between a plot and a table when the model says to and the
// answer is a series — not for one latest value.
func (b *builder) format() {
	q := b.q
	f := b.a.model.Policies.Format
	if q.Format != "" || f == nil || f.Mode != "ask" || !b.inList(f.AppliesTo, q.Base) || (q.Intent != query.IntentList && q.Intent != query.IntentLatest) {
		return
	}
	// one latest value asked for in so many words is not a series
	if q.Latest != nil && b.explicitLatest && b.singleValueOf(q.Latest.Per) {
		return
	}
	sl := &Slot{Key: "format", Kind: KindFormat, Priority: Helpful, Text: b.in.Question, Ask: true, Confidence: 0.5,
		Question: "Would you like to see this as a table, or as a plot over time?",
		Context:  "The question does not say how to show the results.",
		Options: []*Option{
			{ID: "table", Label: "Table", Description: "Rows with dates and values", BestGuess: true, format: "table"},
			{ID: "plot", Label: "Plot (chart over time)", Description: "A line chart of the values over time", format: "plot"},
		}}
	if o := b.settle(sl, parseFormatAnswer); o != nil {
		q.Format = o.format
		if o.format == "plot" && sl.Method != MethodDefault {
			b.plotHistory()
		}
	}
}

// plotHistory: a plot the user asked for is a series, so a latest-only
// default gives way to every result (a chart of one point answers
// nothing). A latest the user said or chose stays.
func (b *builder) plotHistory() {
	if b.q.Latest == nil || b.explicitLatest {
		return
	}
	for _, sl := range b.in.Slots {
		if sl.Key != "history" || sl.Method != MethodDefault && sl.Method != MethodPreference {
			continue
		}
		for i, o := range sl.Options {
			if o.history == "history" {
				sl.Chosen, sl.Method, sl.Confidence, sl.Ask = i, MethodExact, 1, false
				sl.Why = "you asked for a plot, which shows every result"
				b.q.Latest = nil
			}
		}
	}
}

func parseFormatAnswer(answer string) (*Option, string) {
	for _, t := range text.Tokenize(text.Normalize(answer)) {
		for _, w := range plotWords {
			if text.StemPhrase(w) == t.Stem {
				return &Option{ID: "plot", Label: "Plot (chart over time)", format: "plot"}, ""
			}
		}
		for _, w := range tableWords {
			if text.StemPhrase(w) == t.Stem {
				return &Option{ID: "table", Label: "Table", format: "table"}, ""
			}
		}
	}
	return nil, "answer table or plot"
}

// singleValueOf reports whether the filters pin column c to one value.
func (b *builder) singleValueOf(c *model.Column) bool {
	if c == nil {
		return false
	}
	for _, f := range b.q.Filters {
		cmp, ok := f.Cond.(model.Compare)
		if ok && cmp.Left.Column != nil && cmp.Left.Column.Column == c.Name && f.Entity == c.Entity() && cmp.Op == "=" {
			return true
		}
	}
	return false
}

func (b *builder) historyPolicyApplies() bool {
	h := b.a.model.Policies.History
	return h != nil && b.inList(h.AppliesTo, b.q.Base) && (b.q.Intent == query.IntentList || b.q.Intent == query.IntentLatest)
}

// history decides between the latest result and all of them.
func (b *builder) history() {
	if !b.historyPolicyApplies() {
		return
	}
	q := b.q
	h := b.a.model.Policies.History
	sl := &Slot{Key: "history", Kind: KindHistory, Priority: Helpful, Text: b.in.Question,
		Question: "Just the latest result, or all historical results?",
		Context:  "The question does not say whether to show only the latest results.",
		Options: []*Option{
			{ID: "latest", Label: "Latest result only", history: "latest"},
			{ID: "history", Label: "All results (history)", history: "history"},
		}}
	switch {
	case b.has(kHistory) != nil || q.Window != nil || q.Format == "plot" || b.has(kTrend) != nil || len(b.latestFilters) > 0:
		sl.Chosen, sl.Method, sl.Confidence = 1, MethodExact, 1
		if m := b.has(kHistory); m != nil {
			m.used = true
			sl.Text = b.words(m)
		}
	case b.unused(kLatest) != nil:
		m := b.unused(kLatest)
		m.used = true
		b.explicitLatest = true
		sl.Chosen, sl.Method, sl.Confidence, sl.Text = 0, MethodExact, 1, b.words(m)
	case h.Default == "ask":
		sl.Ask, sl.Confidence = true, 0.5
		sl.Options[0].BestGuess = true
	default:
		i := 0
		if h.Default == "history" {
			i = 1
		}
		sl.Options[i].BestGuess = true
		sl.Chosen, sl.Method, sl.Confidence = i, MethodDefault, 0.7
		if h.Confidence > 0 {
			sl.Confidence = h.Confidence
		}
		sl.Why = "no history words (all, history, over time) in the question"
	}
	o := b.settle(sl, func(answer string) (*Option, string) {
		key := text.StemPhrase(answer)
		for _, w := range append(append([]string{}, historyWords...), h.HistoryWords...) {
			if strings.Contains(key, text.StemPhrase(w)) {
				return sl.Options[1], ""
			}
		}
		if strings.Contains(key, "latest") || strings.Contains(key, "last") || strings.Contains(key, "recent") {
			return sl.Options[0], ""
		}
		return nil, "answer latest or history"
	})
	if o != nil && o.history == "latest" {
		var per *model.Column
		if h.Per != "" {
			per = q.Base.Column(h.Per)
		}
		q.Latest = &query.Latest{Per: per, Time: b.a.model.TimeColumn(q.Base)}
	}
}

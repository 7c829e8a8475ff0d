package understand

import (
	"fmt"
	"strings"

	"github.com/clarify-sql/clarify/internal/query"
)

// Describe renders an interpretation as stable text, for golden files,
// debugging and the CLI's --explain.
func Describe(in *Interpretation) string {
	var b strings.Builder
	fmt.Fprintf(&b, "question: %s\n", in.Question)
	q := in.Query
	if q == nil {
		q = &query.Query{}
	}
	describeQuery(&b, q)
	describeSlots(&b, in)
	return b.String()
}

// describeQuery writes what the query computes, one line per part.
func describeQuery(b *strings.Builder, q *query.Query) {
	fmt.Fprintf(b, "intent: %s\n", q.Intent)
	if q.Subject != nil {
		fmt.Fprintf(b, "subject: %s\n", q.Subject.Name)
	}
	if q.Base != nil && q.Base != q.Subject {
		fmt.Fprintf(b, "base: %s\n", q.Base.Name)
	}
	for _, c := range q.Columns {
		fmt.Fprintf(b, "column: %s.%s\n", c.Entity().Name, c.Name)
	}
	if a := q.Agg; a != nil {
		fmt.Fprintf(b, "aggregate: %s\n", describeAgg(a))
	}
	for _, f := range q.Filters {
		ex := ""
		if f.Exclude {
			ex = " (exclude)"
		}
		fmt.Fprintf(b, "filter: %s: %s%s\n", f.Entity.Name, f.Label, ex)
	}
	for _, g := range q.Group {
		switch {
		case g.Bucket != "":
			fmt.Fprintf(b, "group: %s of %s.%s\n", g.Bucket, g.Column.Entity().Name, g.Column.Name)
		case g.Entity != nil:
			fmt.Fprintf(b, "group: %s\n", g.Entity.Name)
		default:
			fmt.Fprintf(b, "group: %s.%s\n", g.Column.Entity().Name, g.Column.Name)
		}
	}
	if w := q.Window; w != nil {
		fmt.Fprintf(b, "window: %s.%s %s [%s, %s)\n", w.Column.Entity().Name, w.Column.Name, w.Window.Label, w.Window.From, w.Window.To)
	}
	if r := q.Rank; r != nil {
		dir := "top"
		if !r.Desc {
			dir = "bottom"
		}
		fmt.Fprintf(b, "rank: %s %d %s by %s\n", dir, r.Limit, r.Entity.Name, describeAgg(&r.Metric))
	}
	for _, o := range q.Order {
		fmt.Fprintf(b, "order: %s desc=%v\n", o.Column.Name, o.Desc)
	}
	if q.Limit > 0 {
		fmt.Fprintf(b, "limit: %d\n", q.Limit)
	}
	if l := q.Latest; l != nil {
		per := ""
		if l.Per != nil {
			per = " per " + l.Per.Name
		}
		fmt.Fprintf(b, "latest%s\n", per)
	}
	if s := q.Scope; s != nil {
		fmt.Fprintf(b, "scope: %s = %s (%s)\n", s.Entity.Name, s.Key, s.Label)
	}
	if q.Format != "" {
		fmt.Fprintf(b, "format: %s\n", q.Format)
	}
}

// describeSlots writes the slots, the unknown words and the warnings.
func describeSlots(b *strings.Builder, in *Interpretation) {
	for _, s := range in.Slots {
		chosen := "-"
		if o := s.Choice(); o != nil {
			chosen = o.ID
		}
		ask := ""
		if s.Ask {
			ask = " ASK"
		}
		var ids []string
		for _, o := range s.Options {
			ids = append(ids, o.ID)
		}
		fmt.Fprintf(b, "slot %s [%s/%s]%s chosen=%s method=%s conf=%.2f options=%s\n", s.Key, s.Kind, s.Priority, ask, chosen, s.Method, s.Confidence, strings.Join(ids, ","))
	}
	if len(in.Unknown) > 0 {
		fmt.Fprintf(b, "unknown: %s\n", strings.Join(in.Unknown, ", "))
	}
	if len(in.Ignored) > 0 {
		fmt.Fprintf(b, "ignored: %s\n", strings.Join(in.Ignored, ", "))
	}
	for _, w := range in.Warnings {
		fmt.Fprintf(b, "warning: %s\n", w)
	}
}

func describeAgg(a *query.Agg) string {
	switch {
	case a.Measure != nil:
		return fmt.Sprintf("%s(measure %s)", a.Func, a.Measure.Name)
	case a.Column != nil:
		return fmt.Sprintf("%s(%s.%s)", a.Func, a.Column.Entity().Name, a.Column.Name)
	}
	return a.Func + "(*)"
}

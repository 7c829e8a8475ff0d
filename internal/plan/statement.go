package plan

import (
	"fmt"
	"sort"
	"strings"

	"github.com/clarify-sql/clarify/internal/model"
	"github.com/clarify-sql/clarify/internal/query"
)

// Statement says in plain language what a query computes, e.g. "Patients
// with at least one wound where infected".
func Statement(m *model.Model, q *query.Query) string {
	if q == nil || q.Base == nil {
		return ""
	}
	subject := q.Base.PluralLabel()
	var head string
	switch {
	case q.Rank != nil:
		dir := "Top"
		if !q.Rank.Desc {
			dir = "Bottom"
		}
		head = fmt.Sprintf("%s %d %s by %s", dir, q.Rank.Limit, q.Rank.Entity.PluralLabel(), q.Rank.Metric.Label)
		if q.Rank.Limit == 1 {
			ext := map[bool]string{true: "highest", false: "lowest"}[q.Rank.Desc]
			label := q.Rank.Metric.Label
			for _, p := range []string{"highest ", "lowest ", "maximum ", "minimum "} {
				label = strings.TrimPrefix(label, p)
			}
			head = fmt.Sprintf("The %s with the %s %s", q.Rank.Entity.Singular(), ext, label)
		}
		subject = ""
	case q.Agg != nil && q.Intent == query.IntentCount && len(q.Group) == 0:
		head = "Number of " + subject
		subject = ""
	case q.Agg != nil:
		head = capitalize(q.Agg.Label)
		// "number of wounds" already names what it counts
		if !strings.HasSuffix(q.Agg.Label, " "+subject) {
			head += " of " + subject
		}
		subject = ""
	case q.Latest != nil && q.Latest.Per != nil:
		head = "Latest " + subject + " per " + q.Latest.Per.Title()
		subject = ""
	case q.Latest != nil:
		head = "The latest " + q.Base.Singular()
		subject = ""
	case len(q.Order) > 0 && q.Limit > 0:
		ext := map[bool]string{true: "highest", false: "lowest"}[q.Order[0].Desc]
		head = fmt.Sprintf("The %d %s with the %s %s", q.Limit, subject, ext, q.Order[0].Column.Title())
		if q.Limit == 1 {
			head = fmt.Sprintf("The %s with the %s %s", q.Base.Singular(), ext, q.Order[0].Column.Title())
		}
		subject = ""
	default:
		head = capitalize(subject)
	}
	var parts []string
	var own []string
	var children []query.Filter
	for _, f := range q.Filters {
		path, ok := m.Path(q.Base, f.Entity)
		switch {
		case f.Via != nil && strings.TrimSpace(f.Label) == "":
			own = append(own, viaPhrase(m, f))
		case f.Entity == q.Base || (ok && model.ToOnePath(path)):
			own = append(own, f.Label)
		case f.Exclude && f.Cond == nil && f.Predicate.IsZero():
			parts = append(parts, "with no "+f.Entity.Singular())
		case f.Exclude:
			parts = append(parts, "with no "+f.Entity.Singular()+" where "+strings.TrimPrefix(f.Label, "no "+f.Entity.Singular()+" where "))
		default:
			children = append(children, f)
		}
	}
	// a child and what it leads to are one row: "with at least one
	// enrollment where grade is F, for a course where title is Physics"
	// nearer children first, so each takes in what lies beyond it
	sort.SliceStable(children, func(i, j int) bool {
		pi, _ := m.Path(q.Base, children[i].Entity)
		pj, _ := m.Path(q.Base, children[j].Entity)
		return len(pi) < len(pj)
	})
	folded := map[int]bool{}
	for i, f := range children {
		if folded[i] {
			continue
		}
		if f.Count != nil {
			// "with at least 1 order and at most 3 orders"
			phrase := "with " + countPhrase(m, f)
			for j := i + 1; j < len(children); j++ {
				if g := children[j]; !folded[j] && g.Count != nil && g.Entity == f.Entity {
					phrase += " and " + countPhrase(m, g)
					folded[j] = true
				}
			}
			folded[i] = true
			parts = append(parts, phrase)
			continue
		}
		phrase := childPhrase(f)
		for j, g := range children {
			if j != i && !folded[j] && f.Cond != nil && g.Cond != nil && onPath(m, q.Base, f.Entity, g.Entity) {
				phrase += ", for a " + g.Entity.Singular() + " where " + lowerFirst(strings.TrimSpace(g.Label))
				folded[j] = true
			}
		}
		folded[i] = true
		parts = append(parts, phrase)
	}
	if len(own) > 0 {
		parts = append([]string{"where " + strings.Join(own, " and ")}, parts...)
	}
	if q.Current {
		parts = append(parts, "(as of today)")
	}
	if w := q.Window; w != nil {
		parts = append(parts, fmt.Sprintf("(%s: %s)", w.Column.Title(), w.Window.Label))
	}
	if s := q.Scope; s != nil {
		parts = append(parts, "for "+strings.SplitN(s.Label, " (", 2)[0])
	}
	for i, g := range q.Group {
		word := "per"
		if i > 0 {
			word = "and"
		}
		switch {
		case g.Bucket != "":
			parts = append(parts, word+" "+g.Bucket)
		case g.Entity != nil:
			parts = append(parts, word+" "+g.Entity.Singular())
		default:
			parts = append(parts, word+" "+g.Column.Title())
		}
	}
	// an average per parent has no value for a parent without children:
	// only those with some are ranked or listed, and the statement says so
	switch {
	case q.Rank != nil && !(q.Rank.Metric.Column != nil && q.Rank.Metric.Column.Entity() == q.Rank.Entity && q.Base == q.Rank.Entity):
		if s := emptyParents(m, q, q.Rank.Entity, q.Rank.Metric, false); s != "" {
			parts = append(parts, s)
		}
	case q.Agg != nil && len(q.Group) == 1 && q.Group[0].Entity != nil && q.Group[0].Bucket == "":
		if s := emptyParents(m, q, q.Group[0].Entity, *q.Agg, true); s != "" {
			parts = append(parts, s)
		}
	}
	if len(q.Group) > 0 && q.Limit > 0 && q.Rank == nil {
		parts = append(parts, fmt.Sprintf("(the %s %d)", map[bool]string{true: "bottom", false: "top"}[q.SortAsc], q.Limit))
	}
	if len(q.Order) > 0 && q.Limit == 0 && q.Rank == nil && q.Agg == nil {
		dir := map[bool]string{true: "descending", false: "ascending"}[q.Order[0].Desc]
		parts = append(parts, "sorted by "+q.Order[0].Column.Title()+", "+dir)
	}
	_ = subject
	if len(parts) == 0 {
		return head
	}
	return head + " " + strings.Join(parts, " ")
}

// childPhrase says a filter on related rows naturally: "with at least one
// infected wound" for the label "Infected wounds", else "with at least one
// wound where …".
func childPhrase(f query.Filter) string {
	label := strings.TrimSpace(f.Label)
	plural, single := f.Entity.PluralLabel(), f.Entity.Singular()
	low := strings.ToLower(label)
	if strings.HasSuffix(low, " "+strings.ToLower(plural)) && !strings.ContainsAny(label, "<>=()") {
		adj := strings.TrimSpace(label[:len(label)-len(plural)])
		return "with at least one " + strings.ToLower(adj) + " " + single
	}
	if f.Cond == nil && f.Predicate.IsZero() {
		return "with at least one " + single
	}
	return "with at least one " + single + " where " + lowerFirst(label)
}

// countPhrase says a count of related rows: "more than 1 order",
// "at most 3 orders", with the condition the rows counted meet.
func countPhrase(m *model.Model, f query.Filter) string {
	word := map[string]string{">": "more than", ">=": "at least", "<": "fewer than", "<=": "at most", "=": "exactly"}[f.Count.Op]
	if word == "" {
		word = f.Count.Op
	}
	noun := f.Entity.PluralLabel()
	if f.Count.N == 1 {
		noun = f.Entity.Singular()
	}
	s := fmt.Sprintf("%s %d %s", word, f.Count.N, noun)
	// the label of a count filter says the count ("more than 1 orders");
	// a condition on the rows counted is said apart
	switch {
	case f.Cond != nil:
		s += " where " + model.CondString(m, f.Entity, f.Cond)
	case !f.Predicate.IsZero():
		s += " that meet a condition"
	}
	return s
}

// viaPhrase says a self-reference that came without a label by the
// relationship it follows: "referred by is a customer where name = Ann
// Lee", "customer is the referred by of a customer where name = Dan Berg".
func viaPhrase(m *model.Model, f query.Filter) string {
	cond := "a " + f.Entity.Singular()
	switch {
	case f.Cond != nil:
		cond += " where " + model.CondString(m, f.Entity, f.Cond)
	case !f.Predicate.IsZero():
		cond += " meeting a condition"
	}
	rel := strings.ToLower(f.Via.Title())
	s := rel + " is " + cond
	if f.Referenced {
		s = f.Entity.Singular() + " is the " + rel + " of " + cond
	}
	if f.Exclude {
		s = "not " + s
	}
	return s
}

func lowerFirst(s string) string {
	r := []rune(s)
	if len(r) > 1 && r[0] >= 'A' && r[0] <= 'Z' && !(r[1] >= 'A' && r[1] <= 'Z') {
		r[0] = r[0] + ('a' - 'A')
	}
	return string(r)
}

func capitalize(s string) string {
	if s == "" {
		return s
	}
	r := []rune(s)
	return strings.ToUpper(string(r[0])) + string(r[1:])
}

// chartFor picks a chart: a line for time series, bars for categories.
func chartFor(q *query.Query, cols []Column) Chart {
	last := ""
	if len(cols) > 0 {
		last = cols[len(cols)-1].Name
	}
	switch {
	case q.Intent == query.IntentTrend && len(cols) >= 2:
		return Chart{Type: "line", X: cols[0].Name, Y: last}
	case q.Rank != nil && len(cols) >= 2:
		return Chart{Type: "bar", X: cols[len(cols)-2].Name, Y: last}
	case q.Agg != nil && len(q.Group) > 0 && len(cols) >= 2:
		return Chart{Type: "bar", X: cols[len(cols)-2].Name, Y: last}
	case q.Format == "plot":
		var x, y, series string
		for _, c := range cols {
			switch {
			case x == "" && (c.Type == "date" || c.Type == "timestamp"):
				x = c.Name
			case y == "" && c.Type == "real":
				y = c.Name
			}
		}
		if q.Latest == nil && q.Base != nil {
			if h := q.Base.Display; h != "" {
				for _, c := range cols {
					if c.Name == h {
						series = h
					}
				}
			}
		}
		if x != "" && y != "" {
			return Chart{Type: "line", X: x, Y: y, Series: series}
		}
	}
	return Chart{Type: "none"}
}

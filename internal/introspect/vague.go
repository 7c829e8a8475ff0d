package introspect

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/clarify-sql/clarify/internal/model"
)

// vagueTerm is a drafted vague word of one entity ("long" films): options
// at percentiles of the measures it can mean, so that Clarify asks which
// threshold is meant and shows how many rows each gives.
type vagueTerm struct {
	name, entity string
	words        []string
	superlatives []string
	order        string // "column desc|asc" for the superlatives
	options      []vagueOption
}

type vagueOption struct {
	id, label, description, condition string
	last                              string // a period ending today ("30 days"), instead of a condition
	best                              bool
}

// vagueFamily is a pair of adjectives that say "much" and "little" of one
// kind of number, and the column-name words of that kind.
type vagueFamily struct {
	kind        string
	names       []string // words of a column name (or its unit) of this kind
	high, low   []string // the adjectives, first is the term's name
	most, least []string // superlatives
}

// vagueFamilies are the kinds of numbers people qualify with a vague
// adjective. The order matters: a column takes the first family that fits.
var vagueFamilies = []vagueFamily{
	{kind: "age", names: []string{"age"},
		high: []string{"old", "older", "elderly"}, low: []string{"young", "younger"},
		most: []string{"oldest", "eldest"}, least: []string{"youngest"}},
	{kind: "price", names: []string{"price", "cost", "fee", "rate", "charge", "fare", "msrp", "usd", "eur", "gbp"},
		high: []string{"expensive", "pricey", "pricy", "costly", "dear"}, low: []string{"cheap", "inexpensive", "affordable", "low cost", "low-cost"},
		most: []string{"most expensive", "priciest", "costliest", "dearest"}, least: []string{"cheapest", "least expensive"}},
	{kind: "salary", names: []string{"salary", "wage", "wages", "pay", "income", "earnings"},
		high: []string{"well paid", "well-paid", "highly paid", "high paid", "high-paid", "high earning", "high-earning"},
		low:  []string{"poorly paid", "low paid", "low-paid", "underpaid"},
		most: []string{"highest paid", "highest-paid", "best paid", "best-paid", "top earning", "top-earning"}, least: []string{"lowest paid", "lowest-paid", "worst paid"}},
	{kind: "duration", names: []string{"duration", "length", "runtime", "ms", "seconds", "minutes", "hours", "days", "weeks",
		"distance", "km", "mi", "miles", "m", "pages"},
		high: []string{"long", "lengthy"}, low: []string{"short", "brief"},
		most: []string{"longest"}, least: []string{"shortest"}},
	{kind: "weight", names: []string{"weight", "mass", "kg", "lb", "g", "t"},
		high: []string{"heavy"}, low: []string{"light", "lightweight"},
		most: []string{"heaviest"}, least: []string{"lightest"}},
	{kind: "height", names: []string{"height", "tall", "cm"},
		high: []string{"tall"}, low: []string{"short"},
		most: []string{"tallest"}, least: []string{"shortest"}},
	{kind: "rating", names: []string{"rating", "score", "stars", "rank"},
		high: []string{"highly rated", "high rated", "top rated", "top-rated", "well rated", "well-rated"},
		low:  []string{"poorly rated", "low rated", "badly rated"},
		most: []string{"highest rated", "highest-rated", "best rated", "best-rated"}, least: []string{"lowest rated", "worst rated"}},
	{kind: "stock", names: []string{"stock", "inventory", "hand"},
		high: []string{"well stocked", "well-stocked", "overstocked"}, low: []string{"running low", "low stock", "low on stock", "low in stock", "almost out", "understocked"},
		most: []string{"most stocked"}, least: []string{"least stocked"}},
	{kind: "rate", names: []string{"commission", "pct", "percent", "percentage", "ratio", "rate", "share", "margin", "discount"},
		high: []string{"high"}, low: []string{"low"},
		most: []string{"highest"}, least: []string{"lowest"}},
	{kind: "size", names: []string{"size", "area", "amount", "total", "volume", "capacity", "population",
		"budget", "revenue", "sales", "value", "bytes", "KB", "MB", "GB", "m²", "km²", "cm²"},
		high: []string{"large", "big", "huge", "sizable", "sizeable"}, low: []string{"small", "tiny"},
		most: []string{"largest", "biggest"}, least: []string{"smallest"}},
}

// familyOf returns the family of a measure column, or nil.
func familyOf(c *column) *vagueFamily {
	words := append(append([]string{}, c.words...), strings.ToLower(c.unit))
	for i := range vagueFamilies {
		f := &vagueFamilies[i]
		if f.kind == "height" && !hasWord(c.words, "height", "tall") {
			continue // "cm" alone is a length, not a height
		}
		if hasWord(words, f.names...) || c.unit != "" && hasWord([]string{c.unit}, f.names...) {
			return f
		}
	}
	return nil
}

// vagueTerms drafts the vague words of each entity from the distributions
// of its measures: "long" films are those whose length is in the top
// quarter, or the top tenth, or above the average — the user picks, and
// sees how many rows each gives. Only measures whose values spread (the
// top quarter differs from the median) are qualified.
func (d *drafter) vagueTerms() {
	for _, e := range d.ents {
		if e.link {
			continue
		}
		byFamily := map[string][]*column{}
		var order []string
		for _, c := range e.cols {
			// a bound (min_salary, highest) is not what an adjective qualifies
			if c.role != model.RoleMeasure || c.aggregate == "min" || c.aggregate == "max" || !spread(c.c) || !conditionName(c.c.Name) {
				continue
			}
			f := familyOf(c)
			if f == nil {
				continue
			}
			if byFamily[f.kind] == nil {
				order = append(order, f.kind)
			}
			byFamily[f.kind] = append(byFamily[f.kind], c)
		}
		for _, kind := range order {
			f := familyByKind(kind)
			cols := byFamily[kind]
			d.vague = append(d.vague, vagueFor(e, f, cols, true), vagueFor(e, f, cols, false))
		}
	}
}

// recentWords qualify rows by how recent their date is.
var recentWords = []string{"recent", "recently", "new", "newly"}

// recentTerms drafts "recent" for each entity with a time column of its
// own: the last 30 days, 90 days or 12 months. For data still being
// written (its latest date within 90 days of when it was read) the periods
// end today; for an older snapshot they end on its latest date, since
// "recent hires" of a 2008 snapshot are those of early 2008, not none.
func (d *drafter) recentTerms() {
	for _, e := range d.ents {
		c := e.byName[e.timeColumn]
		if e.link || c == nil || c.c.Latest == "" || !conditionName(c.c.Name) {
			continue
		}
		v := vagueTerm{name: e.name + "_recent", entity: e.name, words: recentWords}
		last, err := time.Parse(time.DateOnly, c.c.Latest)
		fresh := err == nil && !d.s.Now.IsZero() && d.s.Now.Sub(last) < 90*24*time.Hour
		if err != nil {
			continue
		}
		title := columnTitle(c)
		for i, p := range []struct {
			id, label string
			days      int
		}{{"last_30_days", "30 days", 30}, {"last_90_days", "90 days", 90}, {"last_12_months", "12 months", 365}} {
			o := vagueOption{id: p.id, best: i == 1}
			if fresh {
				o.last = p.label
				o.label = fmt.Sprintf("%s in the last %s", capitalize(title), p.label)
			} else {
				from := last.AddDate(0, 0, -p.days+1).Format(time.DateOnly)
				o.condition = fmt.Sprintf("%s >= '%s'", c.c.Name, from)
				o.label = fmt.Sprintf("%s in the last %s of the data (since %s)", capitalize(title), p.label, from)
			}
			v.options = append(v.options, o)
		}
		d.vague = append(d.vague, v)
	}
}

func familyByKind(kind string) *vagueFamily {
	for i := range vagueFamilies {
		if vagueFamilies[i].kind == kind {
			return &vagueFamilies[i]
		}
	}
	return nil
}

// spread reports whether a column's values differ enough for a vague word
// to pick some of them.
func spread(c *Column) bool {
	q := c.Quantiles
	return len(q) == len(quantilePoints) && q[4] > q[3] && q[5] > q[1]
}

// conditionName reports whether a column can be named in a structured
// condition (letters, digits and underscores).
func conditionName(name string) bool {
	for i, r := range name {
		switch {
		case r == '_', r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z':
		case r >= '0' && r <= '9' && i > 0:
		default:
			return false
		}
	}
	return name != ""
}

// vagueFor drafts one side ("long" when high, "short" otherwise) of a
// family for an entity: up to four options over its columns of that kind,
// the top (or bottom) quarter of the first column the best guess.
func vagueFor(e *entity, f *vagueFamily, cols []*column, high bool) vagueTerm {
	words, sup, dir := f.low, f.least, "asc"
	if high {
		words, sup, dir = f.high, f.most, "desc"
	}
	v := vagueTerm{name: e.name + "_" + strings.ReplaceAll(words[0], " ", "_"), entity: e.name, words: words,
		superlatives: sup, order: cols[0].c.Name + " " + dir}
	// the first column gets a quarter, a tenth and the average; others a quarter each
	for i, c := range cols {
		q := c.c.Quantiles
		title := columnTitle(c)
		if high {
			v.options = append(v.options, threshold(e, c, title, ">=", q[4], "top quarter", i == 0))
		} else {
			v.options = append(v.options, threshold(e, c, title, "<=", q[2], "bottom quarter", i == 0))
		}
		if i > 0 {
			continue
		}
		if high {
			v.options = append(v.options, threshold(e, c, title, ">=", q[5], "top tenth", false))
			v.options = append(v.options, threshold(e, c, title, ">", c.c.Mean, "above average", false))
		} else {
			v.options = append(v.options, threshold(e, c, title, "<=", q[1], "bottom tenth", false))
			v.options = append(v.options, threshold(e, c, title, "<", c.c.Mean, "below average", false))
		}
	}
	// two options may round to one threshold; four at most
	var kept []vagueOption
	seen := map[string]bool{}
	for _, o := range v.options {
		if !seen[o.condition] && len(kept) < 4 {
			seen[o.condition] = true
			kept = append(kept, o)
		}
	}
	v.options = kept
	if len(v.options) < 2 {
		// one threshold only: offer the other side of the average too
		c := cols[0]
		v.options = append(v.options, threshold(e, c, columnTitle(c), map[bool]string{true: ">", false: "<"}[high], c.c.Mean, map[bool]string{true: "above average", false: "below average"}[high], false))
	}
	return v
}

// threshold is one option: the column compared with a value read from
// its distribution. The value is one the data holds (a quantile) or the
// average, written with at most four significant digits, so that "4.99 or
// more" keeps the rows at 4.99.
func threshold(e *entity, c *column, title, op string, v float64, what string, best bool) vagueOption {
	n := numberText(v, c.kind == KindInteger && !strings.Contains(what, "average"))
	unit := ""
	if c.unit != "" {
		unit = " " + c.unit
	}
	words := map[string]string{">=": "or more", "<=": "or less", ">": "or more", "<": "or less"}[op]
	label := fmt.Sprintf("%s %s%s %s", capitalize(title), n, unit, words)
	desc := fmt.Sprintf("about the %s of %s by %s", what, e.plural, title)
	if strings.HasPrefix(what, "above") || strings.HasPrefix(what, "below") {
		label = fmt.Sprintf("%s %s the average (%s%s)", capitalize(title), strings.Fields(what)[0], n, unit)
		desc = fmt.Sprintf("%s %s the average of all %s", title, strings.Fields(what)[0], e.plural)
	}
	id := strings.ToLower(c.c.Name) + "_" + strings.ReplaceAll(what, " ", "_")
	return vagueOption{id: id, label: label, description: desc, condition: fmt.Sprintf("%s %s %s", c.c.Name, op, n), best: best}
}

// numberText writes a threshold: whole for integers, else with at most
// four significant digits, never with an exponent.
func numberText(v float64, integer bool) string {
	if math.IsNaN(v) || math.IsInf(v, 0) {
		return "0"
	}
	if integer {
		return strconv.FormatFloat(math.Round(v), 'f', 0, 64)
	}
	if v != 0 {
		digits := 4 - int(math.Floor(math.Log10(math.Abs(v)))) - 1
		if digits > 0 {
			p := math.Pow(10, float64(digits))
			v = math.Round(v*p) / p
		} else {
			v = math.Round(v)
		}
	}
	return strconv.FormatFloat(v, 'f', -1, 64)
}

// columnTitle is how a column is called to people: its label or its name
// in words.
func columnTitle(c *column) string {
	if c.label != "" {
		return c.label
	}
	return strings.Join(c.words, " ")
}

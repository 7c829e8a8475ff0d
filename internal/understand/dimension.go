// Dimension adjectives: "the youngest teacher", "the lightest car",
// "models lighter than 3500", "players taller than 200". The adjective
// names the kind of number it is about (age, weight, height, price); a
// column of that kind on the rows, found by its name, is what it orders
// or compares. An adjective no column answers is left to the unknown
// words, and asked about.

package understand

import (
	"strings"

	"github.com/clarify-sql/clarify/internal/model"
	"github.com/clarify-sql/clarify/internal/query"
	"github.com/clarify-sql/clarify/internal/understand/text"
)

// dimension is what a dimension adjective is about.
type dimension struct {
	// kinds are words of the names of the columns it is about.
	kinds []string
	// high says the superlative wants the highest value ("tallest").
	high bool
	// inverse are words of columns whose values run the other way: the
	// oldest person has the earliest birth date.
	inverse []string
	// generic says the comparative also just means "a larger number"
	// ("bigger than 500"), whatever the column.
	generic bool
}

var (
	ageKinds    = []string{"age"}
	birthKinds  = []string{"birth", "born", "dob", "birthday", "birthdate"}
	heightKinds = []string{"height", "tall", "stature"}
	weightKinds = []string{"weight", "kg", "lb", "lbs", "mass"}
	lengthKinds = []string{"length", "duration", "runtime", "minutes", "hours", "seconds", "distance", "km", "miles", "pages"}
	priceKinds  = []string{"price", "cost", "fee", "charge", "rate", "amount", "usd", "eur", "gbp"}
	wealthKinds = []string{"worth", "wealth", "fortune", "income", "earnings"}
	speedKinds  = []string{"speed", "velocity", "mph", "kmh"}
	sizeKinds   = []string{"area", "size", "capacity", "surface", "volume"}
)

// dimensionWords are the superlative and comparative forms of the
// adjectives that name a kind of number.
var dimensionWords = map[string]dimension{
	"youngest": {ageKinds, false, birthKinds, false}, "younger": {ageKinds, false, birthKinds, false},
	"oldest": {ageKinds, true, birthKinds, false}, "older": {ageKinds, true, birthKinds, false},
	"tallest": {heightKinds, true, nil, false}, "taller": {heightKinds, true, nil, false},
	"shortest": {append(heightKinds[:1:1], lengthKinds...), false, nil, false}, "shorter": {append(heightKinds[:1:1], lengthKinds...), false, nil, false},
	"heaviest": {weightKinds, true, nil, false}, "heavier": {weightKinds, true, nil, false},
	"lightest": {weightKinds, false, nil, false}, "lighter": {weightKinds, false, nil, false},
	"longest": {lengthKinds, true, nil, false}, "longer": {lengthKinds, true, nil, false},
	"cheapest": {priceKinds, false, nil, false}, "cheaper": {priceKinds, false, nil, false},
	"priciest": {priceKinds, true, nil, false}, "pricier": {priceKinds, true, nil, false},
	"costliest": {priceKinds, true, nil, false}, "costlier": {priceKinds, true, nil, false},
	"richest": {wealthKinds, true, nil, false}, "richer": {wealthKinds, true, nil, false},
	"poorest": {wealthKinds, false, nil, false}, "poorer": {wealthKinds, false, nil, false},
	"fastest": {speedKinds, true, nil, false}, "faster": {speedKinds, true, nil, false},
	"slowest": {speedKinds, false, nil, false}, "slower": {speedKinds, false, nil, false},
	"largest": {sizeKinds, true, nil, true}, "larger": {sizeKinds, true, nil, true},
	"biggest": {sizeKinds, true, nil, true}, "bigger": {sizeKinds, true, nil, true},
	"smallest": {sizeKinds, false, nil, true}, "smaller": {sizeKinds, false, nil, true},
}

// superlativeForm reports whether a dimension word is a superlative.
func superlativeForm(w string) bool { return strings.HasSuffix(w, "est") }

// columnWords are the lowercase words of a column's name, label and
// synonyms, camelCase and snake_case split.
func columnWords(c *model.Column) map[string]bool {
	out := map[string]bool{}
	for _, p := range append([]string{splitName(c.Name), c.Label, c.Unit}, c.Synonyms...) {
		for _, w := range strings.Fields(text.Normalize(p)) {
			out[w] = true
		}
	}
	return out
}

// splitName splits a column name into words: "LifeExpectancy",
// "birth_year", "heightCm".
func splitName(s string) string {
	var sb strings.Builder
	prevLower := false
	for _, r := range s {
		upper := r >= 'A' && r <= 'Z'
		if upper && prevLower {
			sb.WriteByte(' ')
		}
		if r == '_' || r == '-' {
			sb.WriteByte(' ')
			prevLower = false
			continue
		}
		sb.WriteRune(r)
		prevLower = r >= 'a' && r <= 'z' || r >= '0' && r <= '9'
	}
	return sb.String()
}

func hasAnyWord(words map[string]bool, kinds []string) bool {
	for _, k := range kinds {
		if words[k] {
			return true
		}
	}
	return false
}

// dimensionColumn is a column a dimension adjective is about, and whether
// its values run the other way.
type dimensionColumn struct {
	col     *model.Column
	inverse bool
}

// dimensionColumns finds the columns of entity e of the adjective's kind:
// numbers named with a kind word, else dates or years named with an
// inverse word.
func dimensionColumns(e *model.Entity, d dimension) []dimensionColumn {
	var out, inv []dimensionColumn
	for _, c := range e.Columns {
		if c.Role == model.RoleID || c.References != "" {
			continue
		}
		w := columnWords(c)
		switch {
		case c.Numeric() && !c.Temporal() && hasAnyWord(w, d.kinds):
			out = append(out, dimensionColumn{col: c})
		case len(d.inverse) > 0 && (c.Temporal() || c.Numeric()) && hasAnyWord(w, d.inverse):
			inv = append(inv, dimensionColumn{col: c, inverse: true})
		}
	}
	if len(out) > 0 {
		return out
	}
	return inv
}

// dimensionSuperlatives reads "the youngest teacher" and "the lightest
// car" as the rows with the extreme value of a column of the adjective's
// kind: the rows ordered by it, one row when the noun is singular. Read
// after the subject, before the intent (refineFirst applies the order).
func (b *builder) dimensionSuperlatives() {
	if b.firstBy != nil || b.rankM != nil {
		return
	}
	for i, m := range b.ms {
		if m.used || m.end-m.start != 1 || (m.kind != kUnknown && m.kind != kEarliest) {
			continue
		}
		w := b.l.texts[m.start]
		d, ok := dimensionWords[w]
		if !ok || !superlativeForm(w) {
			continue
		}
		target := b.q.Subject
		if j, n := b.next(i); n != nil && n.kind == kEntity && j == i+1 {
			if e := b.entityOfQuiet(n); e != nil {
				target = e
			}
		}
		if target == nil {
			return
		}
		cols := dimensionColumns(target, d)
		if len(cols) == 0 {
			continue // an unknown word, asked; "oldest" stays a date
		}
		dc := cols[0]
		if len(cols) > 1 {
			var plain []*model.Column
			for _, c := range cols {
				plain = append(plain, c.col)
			}
			c := b.numberColumnSlot(w, plain)
			if c == nil {
				m.used = true
				return
			}
			for _, x := range cols {
				if x.col == c {
					dc = x
				}
			}
		}
		m.used = true
		b.firstBy = &query.Order{Column: dc.col, Desc: d.high != dc.inverse}
		return
	}
}

// comparativeColumns finds the columns a comparative with a number is
// about ("lighter than 3500" → weight) among the entities in play and
// those related to the base, nearest first; nil when the word is no
// dimension comparative or no column has its kind.
func (b *builder) comparativeColumns(word string) []*model.Column {
	d, ok := dimensionWords[word]
	if !ok || superlativeForm(word) || b.q.Base == nil {
		return nil
	}
	var cands []*model.Column
	for _, e := range b.a.model.Entities {
		if e != b.q.Base && !b.a.model.Reachable(b.q.Base, e) {
			continue
		}
		for _, c := range e.Columns {
			if c.Role != model.RoleID && c.References == "" && c.Numeric() && !c.Temporal() && hasAnyWord(columnWords(c), d.kinds) {
				cands = append(cands, c)
			}
		}
	}
	return preferCols(b, cands)
}

// dimensionAggregates reads a dimension superlative before a number
// column as its maximum or minimum, like "highest": "the shortest life
// expectancy", "the largest surface area". Read in the first pass, with
// the other aggregate words.
func (b *builder) dimensionAggregates() {
	for i, m := range b.ms {
		if m.kind != kUnknown || m.end-m.start != 1 {
			continue
		}
		w := b.l.texts[m.start]
		d, ok := dimensionWords[w]
		if !ok || !superlativeForm(w) {
			continue
		}
		for j := i + 1; j < len(b.ms) && j <= i+3; j++ {
			n := b.ms[j]
			if n.kind == kColumn && n.entry().column.Numeric() && !n.entry().column.Temporal() {
				op := "min"
				if d.high {
					op = "max"
				}
				m.kind, m.entries = kAgg, []entry{{kind: kAgg, op: op}}
				break
			}
			if n.kind != kStop && n.kind != kList {
				break
			}
		}
	}
}

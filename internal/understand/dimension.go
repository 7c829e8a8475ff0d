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
	"github.com/clarify-sql/clarify/internal/units"
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
	weightKinds = []string{"weight", "kg", "lb", "lbs", "mass", "grams"}
	lengthKinds = []string{"length", "duration", "runtime", "minutes", "hours", "seconds", "distance", "km", "miles", "pages"}
	priceKinds  = []string{"price", "cost", "fee", "charge", "rate", "amount", "budget", "usd", "eur", "gbp", "msrp"}
	wealthKinds = []string{"worth", "wealth", "fortune", "income", "earnings"}
	payKinds    = []string{"salary", "salaries", "wage", "wages", "pay", "income", "earnings", "compensation"}
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

// dimensionBases are the base forms, read after "most" or "least": "the
// most expensive book", "the least costly flight".
var dimensionBases = map[string]dimension{
	"expensive": {priceKinds, true, nil, false}, "costly": {priceKinds, true, nil, false},
	"pricey": {priceKinds, true, nil, false}, "valuable": {[]string{"value", "worth", "price"}, true, nil, false},
	"heavy": {weightKinds, true, nil, false}, "tall": {heightKinds, true, nil, false},
	"wealthy": {wealthKinds, true, nil, false}, "lengthy": {lengthKinds, true, nil, false},
	"paid": {payKinds, true, nil, false},
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

// ofKind reports whether column c is of a dimension's kind: named with
// one of its words, or in a unit of its kind of quantity (milliseconds
// are "longer", kilograms "heavier").
func ofKind(c *model.Column, d dimension) bool {
	if hasAnyWord(columnWords(c), d.kinds) {
		return true
	}
	k := units.Kind(c.Unit)
	for _, w := range d.kinds {
		if k != "" && units.Kind(w) == k {
			return true
		}
	}
	return false
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
		case c.Numeric() && !c.Temporal() && ofKind(c, d):
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

// dimensionSuperlatives reads "the youngest teacher", "the lightest car"
// and "the most expensive book" as the rows with the extreme value of a
// column of the adjective's kind: the rows ordered by it, one row when the
// noun is singular, N rows after a number ("the 3 most expensive"). Read
// after the subject, before the intent (refineFirst applies the order).
// A model's superlative of another entity ("most expensive" order lines)
// gives way to the subject's own column of the kind.
func (b *builder) dimensionSuperlatives() {
	if b.firstBy != nil || b.rankM != nil {
		return
	}
	for i, m := range b.ms {
		w, d, ok := b.dimensionOf(m)
		if !ok {
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
		if m.kind == kSuperlative && b.vagueApplies(m.entry().vague, target) {
			continue // the model's own superlative, read with the filters
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
		if j, p := b.prev(i); p != nil && p.kind == kNumber && !p.used && p.num >= 1 && p.num == float64(int(p.num)) && j >= i-2 {
			p.used = true
			b.firstLimit = int(p.num) // "the 3 most expensive movies"
		} else if b.isBefore(i) {
			b.firstLimit = 1 // "which bike is the most expensive"
		}
		return
	}
}

// dimensionOf returns the dimension adjective mention m is, and its word:
// a superlative ("youngest"), a base made superlative by "most"/"least",
// or a model's superlative spelled that way ("most expensive").
func (b *builder) dimensionOf(m *mention) (string, dimension, bool) {
	if m.used {
		return "", dimension{}, false
	}
	if m.kind == kSuperlative && m.end-m.start == 2 {
		first, w := b.l.texts[m.start], b.l.texts[m.start+1]
		d, ok := dimensionBases[w]
		up, maker := superlativeMakers[first]
		if !ok || !maker {
			return "", dimension{}, false
		}
		if !up {
			d.high = !d.high
		}
		return b.words(m), d, true
	}
	if m.end-m.start != 1 || m.kind != kUnknown && m.kind != kEarliest && !b.mostBase[m] {
		return "", dimension{}, false
	}
	w := b.l.texts[m.start]
	if d, ok := dimensionWords[w]; ok && superlativeForm(w) {
		return w, d, true
	}
	d, ok := dimensionBases[w]
	if !ok || !b.mostBase[m] {
		return "", dimension{}, false
	}
	if !superlativeMakers[b.l.texts[m.start-1]] {
		d.high = !d.high
	}
	return b.l.texts[m.start-1] + " " + w, d, true
}

// superlativeMakers make a base adjective a superlative, up (true) or
// down (false): "the most expensive", "the best paid", "the lowest paid".
var superlativeMakers = map[string]bool{"most": true, "best": true, "highest": true, "top": true,
	"least": false, "lowest": false, "worst": false}

// vagueApplies reports whether a vague term applies to entity e.
func (b *builder) vagueApplies(vt *model.VagueTerm, e *model.Entity) bool {
	for _, n := range vt.AppliesTo {
		if n == e.Name || b.a.model.ToOne(e, b.a.model.Entity(n)) {
			return true
		}
	}
	return false
}

// isBefore reports whether "is" or "was" stands right before mention i,
// past "the" or "our": a superlative said of one thing ("which bike is
// the most expensive", "what is our most expensive road bike").
func (b *builder) isBefore(i int) bool {
	det := func(w string) bool {
		return w == "the" || w == "our" || w == "my" || w == "your" || w == "their" || w == "its"
	}
	k := b.ms[i].start - 1
	if k >= 0 && det(b.l.texts[k]) {
		k--
	}
	if k > 0 && (b.l.texts[k] == "most" || b.l.texts[k] == "least") {
		k--
		if k >= 0 && det(b.l.texts[k]) {
			k--
		}
	}
	return k >= 0 && (b.l.texts[k] == "is" || b.l.texts[k] == "was")
}

// mostBases reads "most"/"least" before a base adjective of a kind of
// number ("the most expensive", "the least costly") as its superlative:
// the ranking word is taken off, and dimensionSuperlatives orders by the
// kind's column. Read in the first pass, before the subject, and only
// when some column of the model has that kind.
func (b *builder) mostBases() {
	for i, m := range b.ms {
		if i == 0 || m.end-m.start != 1 || (m.kind != kUnknown && !(m.kind == kValue && m.partial)) {
			continue
		}
		d, ok := dimensionBases[b.l.texts[m.start]]
		p := b.ms[i-1]
		if _, maker := superlativeMakers[b.l.texts[p.start]]; !ok || !maker || p.end != m.start || p.end-p.start != 1 {
			continue
		}
		found := false
		for _, e := range b.a.model.Entities {
			if len(dimensionColumns(e, d)) > 0 {
				found = true
				break
			}
		}
		if !found {
			continue
		}
		p.kind, p.used = kStop, true
		m.kind, m.vals, m.partial = kUnknown, nil, false
		b.mostBase[m] = true
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
			if c.Role != model.RoleID && c.References == "" && c.Numeric() && !c.Temporal() && ofKind(c, d) {
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

// howBases are the adjectives "how" asks the number of: "how old is
// George", "how tall is Ann".
var howBases = map[string]dimension{
	"old": {ageKinds, true, birthKinds, false}, "tall": {heightKinds, true, nil, false},
	"heavy": {weightKinds, true, nil, false}, "long": {lengthKinds, true, nil, false},
	"expensive": {priceKinds, true, nil, false}, "rich": {wealthKinds, true, nil, false},
	"fast": {speedKinds, true, nil, false}, "big": {sizeKinds, true, nil, true}, "large": {sizeKinds, true, nil, true},
}

// howMuch reads "how old is George Chuter" as George Chuter's age: the
// column of the adjective's kind is shown (a birth date when that is
// what the rows hold). Read after the subject, before the intent.
func (b *builder) howMuch() {
	s := b.q.Subject
	if s == nil {
		return
	}
	for k := 0; k+1 < len(b.l.texts); k++ {
		if b.l.texts[k] != "how" {
			continue
		}
		d, ok := howBases[b.l.texts[k+1]]
		if !ok {
			continue
		}
		cols := dimensionColumns(s, d)
		if len(cols) != 1 && !b.namesNumber() {
			continue
		}
		for _, m := range b.ms {
			if m.start <= k+1 && m.end > k {
				m.kind, m.used = kStop, true
			}
		}
		// "how long is the life expectancy": the number named says what
		if len(cols) == 1 {
			b.q.Columns = append(b.q.Columns, cols[0].col)
		}
		return
	}
}

// namesNumber reports whether the question names a number column or a
// measure.
func (b *builder) namesNumber() bool {
	for _, m := range b.ms {
		if m.kind == kMeasure || m.kind == kColumn && m.entry().column.Numeric() {
			return true
		}
	}
	return false
}

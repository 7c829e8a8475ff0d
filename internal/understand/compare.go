package understand

import (
	"fmt"
	"strings"

	"github.com/clarify-sql/clarify/internal/model"
	"github.com/clarify-sql/clarify/internal/query"
	"github.com/clarify-sql/clarify/internal/understand/text"
)

// comparatives are the words that compare two quantities with "than".
var comparatives = map[string]string{
	"fewer": "<", "less": "<", "lower": "<", "smaller": "<",
	"more": ">", "greater": ">", "higher": ">", "larger": ">", "bigger": ">",
}

// columnComparisons reads "lines where we received fewer outers than we
// ordered" as received_outers < ordered_outers: a comparative with "than"
// whose two sides each name one numeric column of the same entity, told
// apart by a word only that column has. Anything less certain is left
// alone (and its words are then asked about), never guessed.
func (b *builder) columnComparisons() {
	toks := b.l.toks
	for k := range toks {
		op, ok := comparatives[toks[k].Text]
		if !ok {
			continue
		}
		than := -1
		for j := k + 1; j < len(toks) && j <= k+3; j++ {
			if toks[j].Text == "than" {
				than = j
				break
			}
		}
		if than < 0 || than+1 >= len(toks) || toks[than+1].Kind == text.Number {
			continue // "more than 3" is a number comparison
		}
		left := b.stemsIn(max(0, k-3), than) // the words before, and between ("fewer outers than")
		right := b.stemsIn(than+1, min(len(toks), than+4))
		for _, e := range b.entitiesInPlay() {
			cols := numericColumns(e)
			// the entity's name before the comparative is not a side
			// ("purchase order lines received fewer outers than were ordered")
			l, r := withoutEntityWords(left, e), right
			a, c := sideColumn(cols, l, r), sideColumn(cols, r, l)
			if a == nil || c == nil || a == c || !comparable(a, c) {
				continue
			}
			ref := func(col *model.Column) *model.ColumnRef {
				return &model.ColumnRef{Entity: e.Name, Column: col.Name}
			}
			cond := model.Compare{Left: model.Operand{Column: ref(a)}, Op: op, Right: []model.Operand{{Column: ref(c)}}}
			f := query.Filter{Entity: e, Cond: cond, Slot: "compare:" + a.Name + op + c.Name,
				Label: fmt.Sprintf("%s %s %s", a.Title(), opWord(op), c.Title())}
			f.Start, f.End = toks[max(0, k-3)].Start, toks[min(len(toks), than+4)-1].End
			b.q.Filters = append(b.q.Filters, f)
			b.markUsed(max(0, k-3), min(len(toks), than+4), a, c)
			break
		}
	}
}

// withoutEntityWords returns the stems less those that name entity e.
func withoutEntityWords(stems map[string]bool, e *model.Entity) map[string]bool {
	out := map[string]bool{}
	names := map[string]bool{}
	for _, w := range entityWords(e) {
		for _, s := range strings.Fields(text.StemPhrase(w)) {
			names[s] = true
		}
	}
	for s := range stems {
		if !names[s] {
			out[s] = true
		}
	}
	return out
}

// columnAgainstColumn reads "results below the reference low": a
// comparator followed by a numeric column compares that column with the
// one named just before the comparator, else with the entity's only
// other measure. Without either it is left alone.
func (b *builder) columnAgainstColumn() {
	for i, m := range b.ms {
		if m.kind != kCmp || m.used {
			continue
		}
		op := m.entry().op
		switch op {
		case "<", ">", "<=", ">=":
		default:
			continue
		}
		_, n := b.next(i)
		if n == nil || n.kind != kColumn || n.used || len(columnEntities(n.entries)) != 1 {
			continue
		}
		c := n.entry().column
		e := c.Entity()
		if !c.Numeric() || (e != b.q.Base && !b.a.model.ToOne(b.q.Base, e)) {
			continue
		}
		var a *model.Column
		if _, p := b.prev(i); p != nil && p.kind == kColumn && !p.used && p.entry().column.Numeric() && p.entry().column.Entity() == e && p.entry().column != c {
			a = p.entry().column
			p.used = true
		} else {
			for _, x := range e.Columns {
				if x != c && x.Role == model.RoleMeasure && x.Numeric() {
					if a != nil {
						a = nil
						break
					}
					a = x
				}
			}
		}
		if a == nil {
			continue
		}
		ref := func(col *model.Column) *model.ColumnRef { return &model.ColumnRef{Entity: e.Name, Column: col.Name} }
		cond := model.Compare{Left: model.Operand{Column: ref(a)}, Op: op, Right: []model.Operand{{Column: ref(c)}}}
		f := query.Filter{Entity: e, Cond: cond, Slot: "compare:" + a.Name + op + c.Name, Label: fmt.Sprintf("%s %s %s", a.Title(), map[string]string{"<": "below", "<=": "at most", ">": "above", ">=": "at least"}[op], c.Title())}
		f.Start, f.End = b.l.toks[m.start].Start, b.l.toks[n.end-1].End
		b.q.Filters = append(b.q.Filters, f)
		m.used, n.used = true, true
	}
}

// comparable reports whether two columns measure the same kind of thing:
// the same unit, and without units a word in common ("outers ordered",
// "outers received") — never a quantity against a price.
func comparable(a, c *model.Column) bool {
	if a.Unit != c.Unit {
		return false
	}
	if a.Unit != "" {
		return true
	}
	sa := columnStems(a)
	for s := range columnStems(c) {
		if sa[s] {
			return true
		}
	}
	return false
}

// stemsIn returns the stems of the tokens in [from, to).
func (b *builder) stemsIn(from, to int) map[string]bool {
	out := map[string]bool{}
	for i := from; i < to; i++ {
		out[b.l.stems[i]] = true
	}
	return out
}

// markUsed marks the mentions in a token range that name nothing but the
// compared columns (or nothing at all) as used.
func (b *builder) markUsed(from, to int, cols ...*model.Column) {
	for _, m := range b.ms {
		if m.start < from || m.end > to || m.used {
			continue
		}
		switch m.kind {
		case kUnknown, kStop, kCmp:
			m.used = true
		case kColumn, kMeasure:
			for _, c := range cols {
				if m.entry().column == c {
					m.used = true
				}
			}
		}
	}
}

func numericColumns(e *model.Entity) []*model.Column {
	var out []*model.Column
	for _, c := range e.Columns {
		if c.Numeric() && c.Role != model.RoleID {
			out = append(out, c)
		}
	}
	return out
}

// columnStems are the stems of the words that name a column.
func columnStems(c *model.Column) map[string]bool {
	out := map[string]bool{}
	for _, p := range append([]string{humanizeName(c.Name), c.Label}, c.Synonyms...) {
		for _, w := range strings.Fields(strings.ToLower(p)) {
			out[text.Stem(w)] = true
		}
	}
	return out
}

// sideColumn is the one column named on a side of a comparison: it has a
// word on this side that no other column has, and no other column has
// such a word there.
func sideColumn(cols []*model.Column, side, other map[string]bool) *model.Column {
	var found *model.Column
	for _, c := range cols {
		own := columnStems(c)
		distinct := false
		for s := range side {
			if !own[s] || other[s] {
				continue
			}
			shared := false
			for _, d := range cols {
				if d != c && columnStems(d)[s] {
					shared = true
				}
			}
			distinct = distinct || !shared
		}
		if distinct {
			if found != nil {
				return nil // two columns named on one side: not certain
			}
			found = c
		}
	}
	return found
}

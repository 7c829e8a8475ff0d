// Names that fit several rows: read after the intent, before the filters.
// "How much has Frank paid" when two customers are called Frank, "orders of
// Justina Jenkins" when two customers are: a stored name that several rows
// share is asked about, listing the rows with what tells them apart,
// instead of merging them into one filter. Listing the named rows
// themselves ("the age of Joe Sharp") shows each of them: nothing is
// merged, so nothing is asked; rows nothing but their key tells apart are
// one thing entered twice, used together and said so.

package understand

import (
	"context"
	"fmt"
	"strings"

	"github.com/clarify-sql/clarify/internal/model"
	"github.com/clarify-sql/clarify/internal/query"
	"github.com/clarify-sql/clarify/internal/understand/text"
)

// maxNamedRows is how many rows of a shared name are fetched to list.
const maxNamedRows = 20

// sharedNames asks which row a name means when several rows hold it.
func (b *builder) sharedNames(ctx context.Context) {
	for i, m := range b.ms {
		if m.kind != kValue || len(m.vals) != 1 || b.isScopeVal(m) || b.grouped[m] || b.allMeant(i) {
			continue
		}
		v := m.vals[0]
		if v.rows < 2 || len(v.values) != 1 || v.col.Role != model.RoleName {
			continue
		}
		e := v.col.Entity()
		if e == b.q.Base && b.q.Intent == query.IntentList && b.selfReferenceQuiet(i, e) == nil {
			continue // each named row is shown: nothing is merged
		}
		if b.scoped(e) {
			continue // rows of a scope are never listed to choose from
		}
		// a part of a name (a first name) is told apart by the whole ones
		if d := e.DisplayColumn(); d != nil && d != v.col && d.Role == model.RoleName {
			if whole := b.wholeNames(m, d); len(whole) > 1 {
				m.vals = whole
				b.valueSlot(m)
				continue
			}
		}
		b.rowSlot(ctx, m, v)
	}
}

// allMeant reports whether the question asks for every row of the name:
// "all the customers named Frank", "customers called Smith".
func (b *builder) allMeant(i int) bool {
	for j := i - 1; j >= 0 && j >= i-3; j-- {
		switch b.words(b.ms[j]) {
		case "named", "called", "all", "every", "each", "everyone", "anyone":
			return true
		}
	}
	return false
}

// wholeNames returns the values of display column d that contain every
// word of the mention: the full names a first name is part of.
func (b *builder) wholeNames(m *mention, d *model.Column) []valCand {
	var out []valCand
	for _, c := range b.l.vx.Partial(b.l.vstems[m.start:m.end]) {
		v := b.l.vx.Entry(c.ID)
		if v.Column == d {
			out = append(out, storedCand(v, 1))
		}
	}
	return out
}

// rowSlot asks which of the rows holding a name is meant, each told apart
// by the first listed column whose values differ among them.
func (b *builder) rowSlot(ctx context.Context, m *mention, v valCand) {
	e := v.col.Entity()
	key := e.KeyColumn()
	if key == nil || b.a.cat == nil {
		return
	}
	var cols []string
	for _, n := range e.ListColumns {
		if c := e.Column(n); c != nil && c != key && c != v.col && !c.Computed() && c.Role != model.RoleID {
			cols = append(cols, n)
		}
	}
	rows, err := b.a.cat.RowsWith(ctx, v.col, v.values[0], cols, maxNamedRows)
	if err != nil || len(rows) < 2 {
		return
	}
	// the first column whose values tell the rows apart
	tell := -1
	for j := range cols {
		seen := map[string]bool{}
		for _, r := range rows {
			seen[r[j+1]] = true
		}
		if len(seen) == len(rows) {
			tell = j
			break
		}
	}
	words := b.words(m)
	var keys []string
	for _, r := range rows {
		keys = append(keys, r[0])
	}
	if tell < 0 && !b.differ(rows) {
		// nothing but the key tells them apart: one thing entered twice
		sl := &Slot{Key: "value:" + words, Kind: KindValue, Priority: Important, Text: words, Method: MethodDefault, Confidence: 0.7,
			Why:     fmt.Sprintf("%d %s are called %s and nothing else tells them apart", len(rows), e.PluralLabel(), v.label),
			Options: []*Option{{ID: "all", Label: fmt.Sprintf("All %d %s called %s", len(rows), e.PluralLabel(), v.label), column: key, values: keys}}}
		o := b.settle(sl, nil)
		m.vals = []valCand{{col: o.column, values: o.values, label: v.label, score: 1, rows: int64(len(keys))}}
		return
	}
	sl := &Slot{Key: "value:" + words, Kind: KindValue, Priority: Important, Text: words, Ask: true, Confidence: 0.5,
		Context: fmt.Sprintf("%d %s are called %s.", len(rows), e.PluralLabel(), v.label)}
	for i, r := range rows {
		if i == 3 && len(rows) > 4 {
			break
		}
		label := fmt.Sprintf("%s (%s %s)", v.label, key.Title(), r[0])
		if tell >= 0 && r[tell+1] != "" {
			label = fmt.Sprintf("%s (%s %s)", v.label, e.Column(cols[tell]).Title(), r[tell+1])
		}
		sl.Options = append(sl.Options, &Option{ID: optionID(e.Name + ":" + r[0]), Label: label,
			Description: fmt.Sprintf("the %s whose %s is %s", e.Singular(), key.Title(), r[0]), column: key, values: []string{r[0]}})
	}
	sl.Options = append(sl.Options, &Option{ID: "all", Label: fmt.Sprintf("All %d of them", len(rows)),
		Description: strings.Join(keys, ", "), column: key, values: keys})
	sl.Options[0].BestGuess = true
	sl.Question = fmt.Sprintf("Which %s called %s do you mean: %s, or another one?", e.Singular(), v.label, sl.Options[0].Label)
	o := b.settle(sl, func(answer string) (*Option, string) {
		k := text.StemPhrase(answer)
		var hit *Option
		for _, o := range sl.Options {
			if strings.Contains(text.StemPhrase(o.Label), k) {
				if hit != nil {
					return nil, fmt.Sprintf("%q fits more than one; pick a number", answer)
				}
				hit = o
			}
		}
		if hit == nil {
			return nil, fmt.Sprintf("%q is not one of them; pick a number", answer)
		}
		return hit, ""
	})
	if o != nil {
		m.vals = []valCand{{col: o.column, values: o.values, label: o.Label, score: 1, rows: int64(len(o.values))}}
		m.conf = 1
	}
}

// scoped reports whether e's rows belong to one scope value (a patient's).
func (b *builder) scoped(e *model.Entity) bool {
	if se := b.scopeEntity(); se == nil {
		return false
	} else if se == e {
		return true
	}
	for _, x := range b.a.model.ScopeEntities() {
		if x == e {
			return true
		}
	}
	return false
}

// differ reports whether the rows differ in any column but their key.
func (b *builder) differ(rows [][]string) bool {
	for j := 1; j < len(rows[0]); j++ {
		for _, r := range rows[1:] {
			if r[j] != rows[0][j] {
				return true
			}
		}
	}
	return false
}

// Conditions: the model's written conditions qualified for the entity
// they apply to, and a condition a user types as an answer ("area > 15"),
// checked against the model's columns and their types.

package understand

import (
	"fmt"

	"github.com/clarify-sql/clarify/internal/model"
	"github.com/clarify-sql/clarify/internal/understand/text"
)

// parseCondition reads a condition typed by a user against entity e: column
// words may be names, labels or synonyms ("area > 15"). Values stay values:
// the condition compiles to bound parameters.
func (b *builder) parseCondition(answer string, e *model.Entity) (model.Cond, string) {
	c, err := model.ParseCond(b.columnWordsToNames(answer, e))
	if err != nil {
		return nil, fmt.Sprintf("I could not read %q as a condition (for example \"area > 15\")", answer)
	}
	c = qualify(c, e)
	for _, ref := range model.CondColumns(c) {
		if _, err := b.a.model.ResolveColumn(e, ref); err != nil {
			return nil, fmt.Sprintf("%s: %v", answer, err)
		}
	}
	if why := checkTypes(b.a.model, e, c); why != "" {
		return nil, why
	}
	return c, ""
}

// columnWordsToNames replaces column words of entity e ("reorder level")
// with column names so the condition parser can read them.
func (b *builder) columnWordsToNames(answer string, e *model.Entity) string {
	norm := text.Normalize(answer)
	type rep struct{ from, to string }
	var reps []rep
	for _, c := range e.Columns {
		for _, w := range append([]string{c.Title(), c.Label}, c.Synonyms...) {
			if w != "" && w != c.Name {
				reps = append(reps, rep{text.Normalize(w), c.Name})
			}
		}
	}
	// longest words first
	for i := 1; i < len(reps); i++ {
		for j := i; j > 0 && len(reps[j].from) > len(reps[j-1].from); j-- {
			reps[j], reps[j-1] = reps[j-1], reps[j]
		}
	}
	for _, r := range reps {
		norm = text.ReplaceWords(norm, r.from, r.to)
	}
	return norm
}

// checkTypes rejects comparisons of a column with a value of the wrong kind.
func checkTypes(m *model.Model, e *model.Entity, c model.Cond) string {
	switch c := c.(type) {
	case model.And:
		for _, it := range c.Items {
			if w := checkTypes(m, e, it); w != "" {
				return w
			}
		}
	case model.Or:
		for _, it := range c.Items {
			if w := checkTypes(m, e, it); w != "" {
				return w
			}
		}
	case model.Not:
		return checkTypes(m, e, c.Item)
	case model.Compare:
		if c.Left.Column == nil {
			return "a condition must start with a column"
		}
		col, err := m.ResolveColumn(e, *c.Left.Column)
		if err != nil {
			return err.Error()
		}
		for _, r := range c.Right {
			if r.Column != nil {
				continue
			}
			switch r.Literal.(type) {
			case float64, int64:
				if !col.Numeric() && col.Role != model.RoleID {
					return fmt.Sprintf("%s is not a number column", col.Title())
				}
			case string:
				if col.Numeric() && col.Role != model.RoleID {
					return fmt.Sprintf("%s holds numbers, not text", col.Title())
				}
			}
		}
	}
	return ""
}

// qualify gives every column of a condition an entity.
func qualify(c model.Cond, e *model.Entity) model.Cond {
	switch c := c.(type) {
	case model.And:
		out := model.And{}
		for _, it := range c.Items {
			out.Items = append(out.Items, qualify(it, e))
		}
		return out
	case model.Or:
		out := model.Or{}
		for _, it := range c.Items {
			out.Items = append(out.Items, qualify(it, e))
		}
		return out
	case model.Not:
		return model.Not{Item: qualify(c.Item, e)}
	case model.Compare:
		q := func(o model.Operand) model.Operand {
			if o.Column != nil && o.Column.Entity == "" {
				return model.Operand{Column: &model.ColumnRef{Entity: e.Name, Column: o.Column.Column}}
			}
			return o
		}
		out := model.Compare{Left: q(c.Left), Op: c.Op}
		for _, r := range c.Right {
			out.Right = append(out.Right, q(r))
		}
		return out
	}
	return c
}

// Scope: a model scoped to one patient (or customer) limits every answer
// to one of them, named in the question or asked. It is never assumed;
// read after the period and the projection.

package understand

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/clarify-sql/clarify/internal/model"
	"github.com/clarify-sql/clarify/internal/query"
	"github.com/clarify-sql/clarify/internal/understand/text"
)

// scopeEntity returns the model's scope entity, or nil.
func (b *builder) scopeEntity() *model.Entity {
	if s := b.a.model.Scope; s != nil {
		return b.a.model.Entity(s.Entity)
	}
	return nil
}

func (b *builder) isScopeVal(m *mention) bool {
	for _, s := range b.scopeVals {
		if s == m {
			return true
		}
	}
	return false
}

// touched lists every entity the query reads.
func (b *builder) touched() []*model.Entity {
	q := b.q
	es := []*model.Entity{q.Base, q.Subject}
	for _, f := range q.Filters {
		es = append(es, f.Entity)
	}
	for _, g := range q.Group {
		if g.Entity != nil {
			es = append(es, g.Entity)
		}
		if g.Column != nil {
			es = append(es, g.Column.Entity())
		}
	}
	for _, c := range q.Columns {
		es = append(es, c.Entity())
	}
	if q.Rank != nil {
		es = append(es, q.Rank.Entity)
	}
	return es
}

// scope limits the question to one scope value (one patient): named in the
// question, or asked. It is never assumed.
func (b *builder) scope(ctx context.Context) {
	m := b.a.model
	se := b.scopeEntity()
	if se == nil {
		return
	}
	if !b.needsScope() && len(b.scopeVals) == 0 {
		return
	}
	if lim := b.s.Scope; lim != nil && len(lim.Keys()) == 0 {
		b.in.ScopeForbidden = "any " + se.Singular() // granted none: nothing to offer
		return
	}
	cols := m.Scope.OptionColumns
	if len(cols) == 0 {
		cols = []string{se.DisplayColumn().Name}
	}
	rows, err := b.scopeRows(ctx, se, cols)
	if err != nil {
		b.a.logger().WarnContext(ctx, "scope options unavailable", "entity", se.Name, "err", err)
		b.in.Warnings = append(b.in.Warnings, fmt.Sprintf("could not list the %s from the database", se.PluralLabel()))
	}
	sl := &Slot{Key: "scope", Kind: KindScope, Priority: Critical, NeverAssume: true, Confidence: 0}
	sl.Text = "which " + se.Singular()
	for _, r := range rows {
		sl.Options = append(sl.Options, &Option{ID: r[0], Label: scopeLabel(r), key: r[0]})
	}
	b.scopeNamed(ctx, sl, rows)
	if b.in.ScopeForbidden != "" {
		return // the turn is refused: nothing is asked or assumed
	}
	if r, ok := b.s.Resolved[sl.Key]; ok && r.OptionID != "" && r.Method != MethodPreference && !b.s.Scope.Permits(r.OptionID) {
		b.in.ScopeForbidden = r.OptionID // an answer naming a value not offered
		return
	}
	if sl.Method == "" {
		b.scopeUnnamed(sl, se, rows)
	}
	all := sl.Options
	if len(sl.Options) > 4 && sl.Ask {
		sl.Options = sl.Options[:4]
	}
	o := b.settle(sl, func(answer string) (*Option, string) { return parseScopeAnswer(answer, all) })
	if sl.Ask || o == nil {
		// unresolved: the query carries no scope; the turn must ask or fail
		return
	}
	b.q.Scope = &query.ScopeFilter{Entity: se, Key: o.key, Label: o.Label}
	b.dropScopeFilters(se)
}

// needsScope reports whether the answer must be limited to one scope
// value: the model always requires it, the question speaks in the first
// person ("my results"), or it reads a scoped entity.
func (b *builder) needsScope() bool {
	m := b.a.model
	need := m.Scope.Required == "always"
	for _, x := range b.ms {
		if x.kind == kFirstPerson {
			need = true
			x.used = true
		}
	}
	scoped := map[*model.Entity]bool{}
	for _, e := range m.ScopeEntities() {
		scoped[e] = true
	}
	for _, e := range b.touched() {
		if scoped[e] {
			need = true
		}
	}
	return need
}

// scopeNamed chooses the scope value the question names ("for John Doe"),
// or narrows the options to those a name matches.
func (b *builder) scopeNamed(ctx context.Context, sl *Slot, rows [][]string) {
	for _, sv := range b.scopeVals {
		sv.used = true
		keys := b.scopeKeys(ctx, sv, rows)
		if lim := b.s.Scope; lim != nil {
			named := len(keys)
			keys = slices.DeleteFunc(keys, func(k string) bool { return !lim.Permits(k) })
			if named > 0 && len(keys) == 0 {
				b.in.ScopeForbidden = b.words(sv)
				return
			}
		}
		if len(keys) == 1 {
			sl.Chosen, sl.Method, sl.Confidence = indexOfKey(sl.Options, keys[0]), MethodExact, sv.conf
			if sl.Chosen < 0 {
				sl.Options = append(sl.Options, &Option{ID: keys[0], Label: keys[0], key: keys[0]})
				sl.Chosen = len(sl.Options) - 1
			}
			sl.Text = b.words(sv)
			return
		}
		if len(keys) > 1 {
			var narrowed []*Option
			for _, k := range keys {
				if i := indexOfKey(sl.Options, k); i >= 0 {
					narrowed = append(narrowed, sl.Options[i])
				}
			}
			sl.Options = narrowed
			sl.Text = b.words(sv)
		}
	}
}

// scopeUnnamed settles a scope the question does not name: the only value
// in the data, unless the model always asks; else it is asked.
func (b *builder) scopeUnnamed(sl *Slot, se *model.Entity, rows [][]string) {
	m := b.a.model
	sl.Chosen = -1
	if len(rows) == 1 && m.Scope.Required != "always" {
		sl.Chosen, sl.Method, sl.Confidence = 0, MethodExact, 1
		sl.Why = "the only " + se.Singular() + " in the data"
		if b.s.Scope != nil {
			sl.Why = "the only " + se.Singular() + " you may see"
		}
		return
	}
	sl.Ask = true
	sl.Question = fmt.Sprintf("Which %s do you mean? I found %d:", se.Singular(), len(sl.Options))
	if m.Scope.Question != "" {
		sl.Question = m.Scope.Question
	}
	sl.Context = fmt.Sprintf("Answers are limited to one %s, and the question does not say which.", se.Singular())
	if len(sl.Options) > 4 {
		sl.Context += " Type a name or id if yours is not listed."
	}
}

func (b *builder) scopeRows(ctx context.Context, se *model.Entity, cols []string) ([][]string, error) {
	if b.a.cat == nil {
		return nil, nil
	}
	if lim := b.s.Scope; lim != nil {
		// only the rows this user may see are read, and so offered
		return b.a.cat.RowsByKey(ctx, se, cols, lim.Keys(), 200)
	}
	return b.a.cat.Rows(ctx, se, cols, 200)
}

// dropScopeFilters removes filters on the scope entity that the scope
// already expresses.
func (b *builder) dropScopeFilters(se *model.Entity) {
	out := b.q.Filters[:0]
	for _, f := range b.q.Filters {
		if f.Entity != se {
			out = append(out, f)
		}
	}
	b.q.Filters = out
}

func scopeLabel(r []string) string {
	if len(r) <= 2 {
		return r[len(r)-1]
	}
	return r[1] + " (" + strings.Join(r[2:], ", ") + ")"
}

func indexOfKey(opts []*Option, key string) int {
	for i, o := range opts {
		if o.key == key {
			return i
		}
	}
	return -1
}

// scopeKeys maps a scope value mention to row keys. For a user limited
// to some values, the rows offered are only theirs, so a name is looked up
// in the whole table: naming someone else's patient is refused, not
// mistaken for naming nobody.
func (b *builder) scopeKeys(ctx context.Context, sv *mention, rows [][]string) []string {
	se := b.scopeEntity()
	var keys []string
	for _, v := range sv.vals {
		for _, val := range v.values {
			if v.col.Name == se.Key {
				keys = append(keys, val)
				continue
			}
			if b.s.Scope != nil && b.a.cat != nil && v.col.Entity() == se {
				found, err := b.a.cat.RowsWith(ctx, v.col, val, nil, 50)
				if err != nil {
					b.a.logger().WarnContext(ctx, "scope name lookup failed", "entity", se.Name, "err", err)
				}
				for _, r := range found {
					keys = append(keys, r[0])
				}
				continue
			}
			ci := -1
			for i, c := range append([]string{se.Key}, b.a.model.Scope.OptionColumns...) {
				if c == v.col.Name {
					ci = i
				}
			}
			for _, r := range rows {
				if ci >= 0 && ci < len(r) && r[ci] == val {
					keys = append(keys, r[0])
				}
			}
		}
	}
	return keys
}

// parseScopeAnswer reads a typed scope: a number from the list, an id or a
// name (in part or with a typo).
func parseScopeAnswer(answer string, opts []*Option) (*Option, string) {
	t := strings.TrimSpace(answer)
	if n, err := strconv.Atoi(t); err == nil {
		if n >= 1 && n <= len(opts) {
			return opts[n-1], ""
		}
	}
	for _, o := range opts {
		if strings.EqualFold(o.key, t) {
			return o, ""
		}
	}
	key := text.StemPhrase(t)
	var hits []*Option
	for _, o := range opts {
		name := text.StemPhrase(strings.SplitN(o.Label, " (", 2)[0])
		if name == key || strings.Contains(" "+name+" ", " "+key+" ") {
			hits = append(hits, o)
		}
	}
	if len(hits) == 0 {
		for _, o := range opts {
			name := text.StemPhrase(strings.SplitN(o.Label, " (", 2)[0])
			if text.Similarity(name, key) >= 0.8 {
				hits = append(hits, o)
			}
		}
	}
	if len(hits) == 1 {
		return hits[0], ""
	}
	if len(hits) > 1 {
		return nil, fmt.Sprintf("%q matches more than one; pick a number", answer)
	}
	return nil, fmt.Sprintf("%q is not one of the listed; pick a number or type a name", answer)
}

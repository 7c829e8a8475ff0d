package guard

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/clarify-sql/clarify/internal/model"
)

// CheckModel checks every SQL fragment of a model — computed columns,
// measure expressions and filters, term predicates and vague-term option predicates — in each
// dialect, inside a SELECT over the fragment's entity (with the entities
// it reaches through many-to-one joins). It returns a *model.Error naming
// the file, line and field of each fragment the guard refuses, or nil.
func CheckModel(m *model.Model) error {
	var probs []model.Problem
	guards := map[model.Dialect]*Guard{}
	for _, d := range model.Dialects() {
		guards[d] = New(m, d, Options{})
	}
	check := func(path string, e *model.Entity, f model.Fragment, kind string) {
		if f.IsZero() || e == nil {
			return
		}
		for _, d := range model.Dialects() {
			stmt, args, err := fragmentStatement(m, e, f.For(d), d, kind)
			if err == nil {
				_, err = guards[d].Check(stmt, args, nil)
			}
			if err != nil {
				msg := err.Error()
				if ge, ok := IsRejection(err); ok {
					msg = ge.Reason
				}
				probs = append(probs, model.Problem{
					File: m.File(), Line: lineOf(m, path), Field: path,
					Msg: fmt.Sprintf("the guard refuses this %s SQL fragment: %s", d, msg),
				})
				return // one problem per fragment is enough
			}
		}
	}
	for i, e := range m.Entities {
		for j, c := range e.Columns {
			check(fmt.Sprintf("entities[%d].columns[%d].expr", i, j), e, c.Expr, "expr")
		}
	}
	for i, ms := range m.Measures {
		e := m.Entity(ms.Entity)
		check(fmt.Sprintf("measures[%d].expr", i), e, ms.Expr, "expr")
		check(fmt.Sprintf("measures[%d].filter", i), e, ms.Filter, "predicate")
	}
	for i, t := range m.Terms {
		check(fmt.Sprintf("terms[%d].predicate", i), m.Entity(t.Entity), t.Predicate, "predicate")
	}
	for i, v := range m.Vague {
		for j, o := range v.Options {
			name := o.Entity
			if name == "" && len(v.AppliesTo) > 0 {
				name = v.AppliesTo[0]
			}
			check(fmt.Sprintf("vague_terms[%d].options[%d].predicate", i, j), m.Entity(name), o.Predicate, "predicate")
		}
	}
	if len(probs) > 0 {
		return &model.Error{Problems: probs}
	}
	return nil
}

// lineOf finds the line of a field path, or of its nearest parent.
func lineOf(m *model.Model, path string) int {
	for p := path; p != ""; {
		if l := m.Line(p); l > 0 {
			return l
		}
		i := strings.LastIndexAny(p, ".[")
		if i < 0 {
			break
		}
		p = p[:i]
	}
	return 0
}

// fragmentStatement builds the SELECT a fragment is checked in, with date
// placeholders as bound parameters and their values as its arguments, the
// way plan compiles it.
func fragmentStatement(m *model.Model, e *model.Entity, text string, d model.Dialect, kind string) (string, []any, error) {
	pieces, err := model.Expand(text, time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC))
	if err != nil {
		return "", nil, reject("%v", err)
	}
	var b strings.Builder
	var args []any
	for _, p := range pieces {
		if !p.Param {
			b.WriteString(p.SQL)
			continue
		}
		args = append(args, p.Date)
		if d == model.Postgres {
			b.WriteString("$" + strconv.Itoa(len(args)))
		} else {
			b.WriteString("?")
		}
	}
	frag := b.String()
	q := func(s string) string { return d.QuoteIdent(s) }
	from := " FROM " + q(e.TableName())
	joined := map[*model.Entity]bool{e: true}
	for _, other := range m.Entities {
		p, ok := m.Path(e, other)
		if !ok || joined[other] || !model.ToOnePath(p) {
			continue
		}
		for _, st := range p {
			if joined[st.To] {
				continue
			}
			joined[st.To] = true
			from += " LEFT JOIN " + q(st.To.TableName()) + " ON " + q(st.To.TableName()) + "." + q(st.ToCol) +
				" = " + q(st.From.TableName()) + "." + q(st.FromCol)
		}
	}
	if kind == "expr" {
		return "SELECT " + frag + from, args, nil
	}
	return "SELECT 1" + from + " WHERE (" + frag + ")", args, nil
}

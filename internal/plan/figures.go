package plan

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/clarify-sql/clarify/internal/model"
	"github.com/clarify-sql/clarify/internal/query"
)

// ErrNoSharedBase is returned (wrapped) by CompileFigures for queries
// that do not read the same rows: another table, other joins.
var ErrNoSharedBase = errors.New("the queries do not share a base")

// Figures is one statement that computes a figure for each of several
// queries in one pass over their shared rows: column i is query i's.
type Figures struct {
	SQL  string
	Args []any
}

// CompileFigures compiles, for the options of one clarification, the
// figure each option's answer will show, all in one statement: the
// conditions every query has are the statement's WHERE, and each query's
// own conditions (the option's time window, its threshold) limit its
// column only, as a conditional aggregate. Reading the rows once instead
// of once per option is what keeps previews within their budget on a
// large table.
//
// A single aggregate's figure is its value; a list's is its row count
// before any LIMIT (the caller caps it). Grouped, ranked and latest-row
// queries have figures of another shape and fail with ErrUnsupported;
// queries that need other tables or joins fail with ErrNoSharedBase, and
// keep a statement each.
func CompileFigures(m *model.Model, qs []*query.Query, d model.Dialect, opt Options) (*Figures, error) {
	if len(qs) == 0 {
		return nil, fmt.Errorf("%w: no queries", ErrUnsupported)
	}
	w := &writer{d: d}
	type part struct {
		from  string
		conds []string
		call  aggCall
	}
	parts := make([]part, len(qs))
	for i, q := range qs {
		if q == nil || q.Base == nil {
			return nil, fmt.Errorf("%w: the question has no subject", ErrUnsupported)
		}
		if q.Rank != nil || len(q.Group) > 0 || q.Latest != nil {
			return nil, fmt.Errorf("%w: only lists and single aggregates have a figure of their own", ErrUnsupported)
		}
		// one writer for every query: the markers of their parameters
		// stay distinct when their conditions are put side by side
		c := &compiler{m: m, q: q, w: w, opt: opt, base: q.Base, joined: map[*model.Entity]bool{q.Base: true}, names: map[string]int{}, colOf: map[*model.Column]int{}}
		if err := c.restrict(); err != nil {
			return nil, err
		}
		call := aggCall{fn: "COUNT"}
		if q.Agg != nil {
			var err error
			if call, err = c.aggParts(*q.Agg); err != nil {
				return nil, err
			}
		} else {
			// a list joins what it shows (inner joins to parents), as
			// list does: its count must see the same rows
			for _, col := range c.listColumns() {
				c.reach(col.Entity())
			}
		}
		parts[i] = part{from: c.from(), conds: c.whereConds(), call: call}
		if parts[i].from != parts[0].from {
			return nil, fmt.Errorf("%w: %s and %s", ErrNoSharedBase, strings.TrimSpace(parts[0].from), strings.TrimSpace(parts[i].from))
		}
	}
	// a condition is shared when every query has it, with the same values
	have := make([]map[string]bool, len(parts))
	for i, p := range parts {
		have[i] = map[string]bool{}
		for _, cd := range p.conds {
			have[i][w.canon(cd)] = true
		}
	}
	shared := func(cd string) bool {
		k := w.canon(cd)
		for _, h := range have {
			if !h[k] {
				return false
			}
		}
		return true
	}
	var where, owns, cols []string
	for _, cd := range parts[0].conds {
		if shared(cd) {
			where = append(where, cd)
		}
	}
	// narrow: every query limits its rows beyond the shared conditions,
	// and none of its own conditions reads another table
	narrow := true
	for i, p := range parts {
		var own []string
		for _, cd := range p.conds {
			if !shared(cd) {
				own = append(own, cd)
			}
		}
		cond := strings.Join(own, " AND ")
		if len(own) > 1 {
			cond = "(" + cond + ")"
		}
		if cond == "" || hasSubquery(cond) {
			narrow = false
		}
		owns = append(owns, cond)
		cols = append(cols, p.call.render(d, cond)+" AS figure_"+strconv.Itoa(i))
	}
	if narrow && len(owns) > 1 {
		// rows no option keeps need not be read at all. Not when an
		// option's condition is a subquery (rows of another table, an
		// EXISTS): no index serves an OR of subqueries, PostgreSQL then
		// reads the whole other table once per subquery to hash it (three
		// full scans of 2,000,000 trades for three "high volume" options,
		// 0.7 s), and the conditional aggregates evaluate each subquery
		// anyway.
		narrowing := "(" + strings.Join(owns, " OR ") + ")"
		if cd, ok := w.loosest(owns, numericColumn(m)); ok {
			narrowing = cd
		}
		where = append(where, narrowing)
	}
	sql := "SELECT " + strings.Join(cols, ", ") + parts[0].from
	if len(where) > 0 {
		sql += " WHERE " + strings.Join(where, " AND ")
	}
	f := &Figures{}
	f.SQL, f.Args = w.bind(sql)
	if w.err != nil {
		return nil, w.err
	}
	return f, nil
}

// loosest returns, for options that each cut one numeric column at a
// number with the same comparison ("quantity > 1000", "> 5000", "> 10000"),
// the condition of the loosest cut: the rows any option keeps are the rows
// it keeps, read with one comparison a row instead of one per option (a
// scan of 2,000,000 trades on SQLite: 165 → 152 ms). numeric says whether
// a rendered column holds numbers: SQLite compares a number with a text
// column as text, where 10000 sorts before 5000. ok is false for any
// other set of conditions.
func (w *writer) loosest(conds []string, numeric func(col string) bool) (string, bool) {
	var lhs, op string
	best, bestV := -1, 0.0
	for i, cd := range conds {
		l, o, v, ok := w.threshold(cd)
		if !ok || i > 0 && (l != lhs || o != op) || i == 0 && !numeric(l) {
			return "", false
		}
		lhs, op = l, o
		if best < 0 || op[0] == '>' && v < bestV || op[0] == '<' && v > bestV {
			best, bestV = i, v
		}
	}
	if best < 0 {
		return "", false
	}
	return conds[best], true
}

// threshold reads a condition of the form `column op ?` with a number
// bound: the column as rendered, the comparison and the number. Whether
// the column is a stored one is numeric's to say (numericColumn).
func (w *writer) threshold(cond string) (col, op string, v float64, ok bool) {
	if !strings.HasSuffix(cond, paramMark) {
		return "", "", 0, false
	}
	i := strings.LastIndex(cond[:len(cond)-1], paramMark)
	if i < 0 {
		return "", "", 0, false
	}
	idx, err := strconv.Atoi(cond[i+1 : len(cond)-1])
	if err != nil || idx < 0 || idx >= len(w.args) {
		return "", "", 0, false
	}
	head := cond[:i]
	for _, o := range []string{" >= ", " <= ", " > ", " < "} {
		if c, found := strings.CutSuffix(head, o); found {
			col, op = c, strings.TrimSpace(o)
			break
		}
	}
	if op == "" {
		return "", "", 0, false
	}
	// a condition's numbers are bound as int64 or float64 (literal)
	switch x := w.args[idx].(type) {
	case int64:
		v = float64(x)
	case float64:
		v = x
	default:
		return "", "", 0, false
	}
	return col, op, v, true
}

// splitColumn returns the table and column names of a rendered column
// "t"."c" or `t`.`c`.
func splitColumn(s string) (table, column string, ok bool) {
	parts := strings.Split(s, ".")
	if len(parts) != 2 {
		return "", "", false
	}
	for _, p := range parts {
		if len(p) < 3 || !(p[0] == '"' && p[len(p)-1] == '"' || p[0] == '`' && p[len(p)-1] == '`') || strings.ContainsAny(p[1:len(p)-1], "\"`") {
			return "", "", false
		}
	}
	return parts[0][1 : len(parts[0])-1], parts[1][1 : len(parts[1])-1], true
}

// numericColumn says whether a column rendered by writer.col is one of
// m's that holds numbers.
func numericColumn(m *model.Model) func(string) bool {
	return func(s string) bool {
		table, column, ok := splitColumn(s)
		if !ok {
			return false
		}
		e := m.EntityByTable(table)
		if e == nil {
			return false
		}
		c := e.Column(column)
		return c != nil && c.Numeric()
	}
}

// hasSubquery reports whether a rendered condition reads another table
// through a subquery. Identifiers are quoted and values bound, so an
// unquoted "(SELECT " is one of the compiler's subqueries or a model
// fragment's.
func hasSubquery(cond string) bool {
	return strings.Contains(strings.ToUpper(cond), "(SELECT ")
}

// canon is a condition with each parameter marker replaced by the value
// it binds, so that two queries' conditions compare by what they say.
func (w *writer) canon(cond string) string {
	var b strings.Builder
	for {
		i := strings.Index(cond, paramMark)
		if i < 0 {
			b.WriteString(cond)
			return b.String()
		}
		j := strings.Index(cond[i+1:], paramMark)
		if j < 0 {
			b.WriteString(cond)
			return b.String()
		}
		idx, err := strconv.Atoi(cond[i+1 : i+1+j])
		b.WriteString(cond[:i])
		if err != nil || idx < 0 || idx >= len(w.args) {
			b.WriteString("?")
		} else {
			fmt.Fprintf(&b, "%T(%v)", w.args[idx], w.args[idx])
		}
		cond = cond[i+1+j+1:]
	}
}

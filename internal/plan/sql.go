package plan

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/clarify-sql/clarify/internal/model"
)

// writer accumulates SQL text and its bound parameters for one dialect.
type writer struct {
	d    model.Dialect
	args []any
	// err is the first statement bind could not number; the compile
	// that used the writer fails with it
	err error
}

// quote quotes an identifier for the dialect.
func (w *writer) quote(name string) string { return w.d.QuoteIdent(name) }

// col renders table.column, qualified by the entity's table name; a
// computed column renders as its expression, in parentheses.
func (w *writer) col(c *model.Column) string {
	if c.Computed() {
		return "(" + c.Expr.For(w.d) + ")"
	}
	return w.quote(c.Entity().TableName()) + "." + w.quote(c.Name)
}

// keyOf renders an entity's key column.
func (w *writer) key(e *model.Entity) string {
	return w.quote(e.TableName()) + "." + w.quote(e.Key)
}

func (w *writer) table(e *model.Entity) string { return w.quote(e.TableName()) }

// param binds a value and returns a marker for it. Parts of a statement
// are rendered out of textual order (an EXISTS built while filters are
// read lands after the joined filters), so placeholders are numbered by
// bind, once the text is whole; positional "?" would otherwise pair
// values with the wrong conditions.
func (w *writer) param(v any) string {
	w.args = append(w.args, v)
	return paramMark + strconv.Itoa(len(w.args)-1) + paramMark
}

// nullsLast orders by a column with rows that have no value last, in
// either direction and every dialect: PostgreSQL sorts NULL first when
// descending, SQLite and MySQL when ascending, so "the 4 customers with
// the highest credit limit" once listed customers with none on PostgreSQL.
func (w *writer) nullsLast(col string, desc bool) string {
	switch {
	case w.d == model.Postgres && desc:
		return col + " DESC NULLS LAST"
	case w.d != model.Postgres && !desc:
		return col + " IS NULL, " + col + " ASC"
	}
	return col + dir(desc)
}

// paramMark delimits a parameter marker; no identifier, fragment or
// literal of a model may contain it (the model rejects control characters).
const paramMark = "\x00"

// bind replaces the markers of sql with the dialect's placeholders in
// textual order and returns the values in that order.
func (w *writer) bind(sql string) (string, []any) {
	var b strings.Builder
	args := []any{}
	for {
		i := strings.Index(sql, paramMark)
		if i < 0 {
			b.WriteString(sql)
			return b.String(), args
		}
		j := strings.Index(sql[i+1:], paramMark)
		idx, err := -1, error(nil)
		if j >= 0 {
			idx, err = strconv.Atoi(sql[i+1 : i+1+j])
		}
		if j < 0 || err != nil || idx < 0 || idx >= len(w.args) {
			if w.err == nil {
				w.err = fmt.Errorf("%w: a parameter marker in the statement is malformed", ErrUnsupported)
			}
			return sql, nil
		}
		b.WriteString(sql[:i])
		args = append(args, w.args[idx])
		if w.d == model.Postgres {
			b.WriteString("$" + strconv.Itoa(len(args)))
		} else {
			b.WriteString("?")
		}
		sql = sql[i+1+j+1:]
	}
}

// fragment expands a model SQL fragment: date placeholders become bound
// parameters computed from now.
func (w *writer) fragment(f model.Fragment, now time.Time) (string, error) {
	pieces, err := model.Expand(f.For(w.d), now)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	for _, p := range pieces {
		if p.Param {
			b.WriteString(w.param(p.Date))
			continue
		}
		b.WriteString(p.SQL)
	}
	return b.String(), nil
}

// literal converts a condition literal to a bound value suited to column c.
func literal(v any, c *model.Column) any {
	switch x := v.(type) {
	case bool:
		switch {
		case c != nil && c.TrueValue != "":
			// a flag stored as text ("Y"/"N")
			if x {
				return c.TrueValue
			}
			return c.FalseValue
		case c != nil && c.Type == "boolean":
			return x
		case x:
			return int64(1)
		}
		return int64(0)
	case int64:
		if c != nil && (c.Type == "real" || c.Type == "numeric") {
			return float64(x)
		}
		return x
	case float64:
		if c != nil && c.Type == "integer" && x == float64(int64(x)) {
			return int64(x)
		}
		return x
	}
	return v
}

// cond renders a structured condition with bound values.
func (w *writer) cond(m *model.Model, e *model.Entity, c model.Cond) (string, error) {
	switch c := c.(type) {
	case model.And:
		return w.conds(m, e, c.Items, " AND ")
	case model.Or:
		s, err := w.conds(m, e, c.Items, " OR ")
		return "(" + s + ")", err
	case model.Not:
		s, err := w.cond(m, e, c.Item)
		return "NOT (" + s + ")", err
	case model.Compare:
		if c.Left.Column == nil {
			return "", fmt.Errorf("condition without a column")
		}
		col, err := m.ResolveColumn(e, *c.Left.Column)
		if err != nil {
			return "", err
		}
		left := w.col(col)
		operand := func(o model.Operand) (string, error) {
			if o.Column != nil {
				rc, err := m.ResolveColumn(e, *o.Column)
				if err != nil {
					return "", err
				}
				return w.col(rc), nil
			}
			return w.param(literal(o.Literal, col)), nil
		}
		switch c.Op {
		case "is null":
			return left + " IS NULL", nil
		case "is not null":
			return left + " IS NOT NULL", nil
		case "in", "not in":
			parts := make([]string, len(c.Right))
			for i, o := range c.Right {
				s, err := operand(o)
				if err != nil {
					return "", err
				}
				parts[i] = s
			}
			return left + " " + strings.ToUpper(c.Op) + " (" + strings.Join(parts, ", ") + ")", nil
		case "=", "!=", "<", "<=", ">", ">=", "like":
			if len(c.Right) != 1 {
				return "", fmt.Errorf("operator %s needs one value", c.Op)
			}
			r, err := operand(c.Right[0])
			if err != nil {
				return "", err
			}
			op := c.Op
			switch op {
			case "!=":
				op = "<>"
			case "like":
				// a pattern matches whatever the case, in every dialect
				return "LOWER(" + left + ") LIKE LOWER(" + r + ")", nil
			}
			return left + " " + strings.ToUpper(op) + " " + r, nil
		}
		return "", fmt.Errorf("unknown operator %q", c.Op)
	}
	return "", fmt.Errorf("unknown condition %T", c)
}

func (w *writer) conds(m *model.Model, e *model.Entity, cs []model.Cond, sep string) (string, error) {
	parts := make([]string, len(cs))
	for i, c := range cs {
		s, err := w.cond(m, e, c)
		if err != nil {
			return "", err
		}
		parts[i] = s
	}
	return strings.Join(parts, sep), nil
}

// bucket renders a time bucket of a date or timestamp column as text:
// YYYY-MM-DD for days and weeks (the Monday), YYYY-MM, YYYY.
func (w *writer) bucket(c *model.Column, unit string) string {
	col := w.col(c)
	switch w.d {
	case model.Postgres:
		ts := "CAST(" + col + " AS timestamp)"
		switch unit {
		case "day":
			return "to_char(" + ts + ", 'YYYY-MM-DD')"
		case "week":
			return "to_char(date_trunc('week', " + ts + "), 'YYYY-MM-DD')"
		case "year":
			return "to_char(" + ts + ", 'YYYY')"
		}
		return "to_char(" + ts + ", 'YYYY-MM')"
	case model.MySQL:
		switch unit {
		case "day":
			return "DATE_FORMAT(" + col + ", '%Y-%m-%d')"
		case "week":
			return "DATE_FORMAT(DATE_SUB(DATE(" + col + "), INTERVAL WEEKDAY(" + col + ") DAY), '%Y-%m-%d')"
		case "year":
			return "DATE_FORMAT(" + col + ", '%Y')"
		}
		return "DATE_FORMAT(" + col + ", '%Y-%m')"
	}
	switch unit {
	case "day":
		return "strftime('%Y-%m-%d', " + col + ")"
	case "week":
		return "date(" + col + ", '-6 days', 'weekday 1')"
	case "year":
		return "strftime('%Y', " + col + ")"
	}
	return "strftime('%Y-%m', " + col + ")"
}

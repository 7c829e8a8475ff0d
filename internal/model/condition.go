package model

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode"
)

// Cond is a structured condition over columns: the small language of vague
// options, terms and free-text answers ("area_cm2 > 25", "status in ('Open',
// 'Healing') and not infected"). It compiles to SQL with bound parameters, so
// text typed by a user can safely become a Cond.
type Cond interface{ isCond() }

// And, Or and Not combine conditions.
type (
	And struct{ Items []Cond }
	Or  struct{ Items []Cond }
	Not struct{ Item Cond }
)

// Compare is "operand op operand"; Op is one of = != < <= > >= in "not in"
// "is null" "is not null" like.
type Compare struct {
	Left  Operand
	Op    string
	Right []Operand // one operand, several for in, none for is null
}

// Operand is a column reference or a literal.
type Operand struct {
	Column *ColumnRef
	// Literal is a string, float64, int64 or bool when Column is nil.
	Literal any
}

// ColumnRef names a column, optionally qualified by entity.
type ColumnRef struct {
	Entity string
	Column string
}

func (And) isCond()     {}
func (Or) isCond()      {}
func (Not) isCond()     {}
func (Compare) isCond() {}

// String returns the reference as entity.column or column.
func (r ColumnRef) String() string {
	if r.Entity == "" {
		return r.Column
	}
	return r.Entity + "." + r.Column
}

// ErrCondition is wrapped by every condition parse error.
var ErrCondition = errors.New("invalid condition")

// ParseCond parses a structured condition. Bare words that are flag columns
// ("infected", "not infected") are accepted as "flag = true".
func ParseCond(text string) (Cond, error) {
	toks, err := lexCond(text)
	if err != nil {
		return nil, err
	}
	p := &condParser{toks: toks}
	c, err := p.or()
	if err != nil {
		return nil, err
	}
	if p.pos < len(p.toks) {
		return nil, fmt.Errorf("%w: unexpected %q", ErrCondition, p.toks[p.pos].text)
	}
	return c, nil
}

type condTok struct {
	kind byte // 'i' ident, 'n' number, 's' string, 'o' operator, '(' ')' ','
	text string
}

func lexCond(s string) ([]condTok, error) {
	var out []condTok
	rs := []rune(s)
	for i := 0; i < len(rs); {
		r := rs[i]
		switch {
		case unicode.IsSpace(r):
			i++
		case r == '(' || r == ')' || r == ',':
			out = append(out, condTok{kind: byte(r), text: string(r)})
			i++
		case r == '\'' || r == '"':
			j := i + 1
			var b strings.Builder
			for ; j < len(rs); j++ {
				if rs[j] == r {
					if j+1 < len(rs) && rs[j+1] == r { // doubled quote
						b.WriteRune(r)
						j++
						continue
					}
					break
				}
				b.WriteRune(rs[j])
			}
			if j >= len(rs) {
				return nil, fmt.Errorf("%w: unterminated string", ErrCondition)
			}
			out = append(out, condTok{kind: 's', text: b.String()})
			i = j + 1
		case strings.ContainsRune("<>=!", r):
			j := i + 1
			if j < len(rs) && (rs[j] == '=' || (r == '<' && rs[j] == '>')) {
				j++
			}
			op := string(rs[i:j])
			switch op {
			case "<>", "!=":
				op = "!="
			case "==":
				op = "="
			case "!":
				return nil, fmt.Errorf("%w: unexpected \"!\"", ErrCondition)
			}
			out = append(out, condTok{kind: 'o', text: op})
			i = j
		case unicode.IsDigit(r) || ((r == '-' || r == '.') && i+1 < len(rs) && unicode.IsDigit(rs[i+1])):
			j := i + 1
			for j < len(rs) && (unicode.IsDigit(rs[j]) || rs[j] == '.' || (rs[j] == ',' && isThousands(rs[j+1:]))) {
				j++
			}
			out = append(out, condTok{kind: 'n', text: strings.ReplaceAll(string(rs[i:j]), ",", "")})
			i = j
		case unicode.IsLetter(r) || r == '_':
			j := i + 1
			for j < len(rs) && (unicode.IsLetter(rs[j]) || unicode.IsDigit(rs[j]) || rs[j] == '_' || rs[j] == '.') {
				j++
			}
			out = append(out, condTok{kind: 'i', text: string(rs[i:j])})
			i = j
		default:
			return nil, fmt.Errorf("%w: unexpected character %q", ErrCondition, r)
		}
	}
	return out, nil
}

func isThousands(rs []rune) bool {
	if len(rs) < 3 {
		return false
	}
	for _, r := range rs[:3] {
		if !unicode.IsDigit(r) {
			return false
		}
	}
	return len(rs) == 3 || !unicode.IsDigit(rs[3])
}

type condParser struct {
	toks []condTok
	pos  int
}

func (p *condParser) peekWord(w string) bool {
	return p.pos < len(p.toks) && p.toks[p.pos].kind == 'i' && strings.EqualFold(p.toks[p.pos].text, w)
}

func (p *condParser) or() (Cond, error) {
	first, err := p.and()
	if err != nil {
		return nil, err
	}
	items := []Cond{first}
	for p.peekWord("or") {
		p.pos++
		c, err := p.and()
		if err != nil {
			return nil, err
		}
		items = append(items, c)
	}
	if len(items) == 1 {
		return first, nil
	}
	return Or{Items: items}, nil
}

func (p *condParser) and() (Cond, error) {
	first, err := p.unary()
	if err != nil {
		return nil, err
	}
	items := []Cond{first}
	for p.peekWord("and") {
		p.pos++
		c, err := p.unary()
		if err != nil {
			return nil, err
		}
		items = append(items, c)
	}
	if len(items) == 1 {
		return first, nil
	}
	return And{Items: items}, nil
}

func (p *condParser) unary() (Cond, error) {
	if p.pos >= len(p.toks) {
		return nil, fmt.Errorf("%w: condition ends too early", ErrCondition)
	}
	if p.peekWord("not") {
		p.pos++
		c, err := p.unary()
		if err != nil {
			return nil, err
		}
		return Not{Item: c}, nil
	}
	if p.toks[p.pos].kind == '(' {
		p.pos++
		c, err := p.or()
		if err != nil {
			return nil, err
		}
		if p.pos >= len(p.toks) || p.toks[p.pos].kind != ')' {
			return nil, fmt.Errorf("%w: missing )", ErrCondition)
		}
		p.pos++
		return c, nil
	}
	return p.predicate()
}

func (p *condParser) operand() (Operand, error) {
	if p.pos >= len(p.toks) {
		return Operand{}, fmt.Errorf("%w: value expected", ErrCondition)
	}
	t := p.toks[p.pos]
	p.pos++
	switch t.kind {
	case 'n':
		if i, err := strconv.ParseInt(t.text, 10, 64); err == nil {
			return Operand{Literal: i}, nil
		}
		f, err := strconv.ParseFloat(t.text, 64)
		if err != nil {
			return Operand{}, fmt.Errorf("%w: bad number %q", ErrCondition, t.text)
		}
		return Operand{Literal: f}, nil
	case 's':
		return Operand{Literal: t.text}, nil
	case 'i':
		switch strings.ToLower(t.text) {
		case "true", "yes":
			return Operand{Literal: true}, nil
		case "false", "no":
			return Operand{Literal: false}, nil
		case "and", "or", "not", "in", "is", "null", "between", "like":
			return Operand{}, fmt.Errorf("%w: unexpected %q", ErrCondition, t.text)
		}
		ref := ColumnRef{Column: t.text}
		if i := strings.IndexByte(t.text, '.'); i > 0 {
			ref = ColumnRef{Entity: t.text[:i], Column: t.text[i+1:]}
		}
		return Operand{Column: &ref}, nil
	}
	return Operand{}, fmt.Errorf("%w: unexpected %q", ErrCondition, t.text)
}

func (p *condParser) predicate() (Cond, error) {
	left, err := p.operand()
	if err != nil {
		return nil, err
	}
	if left.Column == nil {
		return nil, fmt.Errorf("%w: a condition starts with a column", ErrCondition)
	}
	if p.pos >= len(p.toks) || p.peekWord("and") || p.peekWord("or") || p.toks[p.pos].kind == ')' {
		return Compare{Left: left, Op: "=", Right: []Operand{{Literal: true}}}, nil
	}
	t := p.toks[p.pos]
	switch {
	case t.kind == 'o':
		p.pos++
		right, err := p.operand()
		if err != nil {
			return nil, err
		}
		return Compare{Left: left, Op: t.text, Right: []Operand{right}}, nil
	case p.peekWord("is"):
		p.pos++
		op := "is null"
		if p.peekWord("not") {
			p.pos++
			op = "is not null"
		}
		if !p.peekWord("null") {
			return nil, fmt.Errorf("%w: IS must be followed by NULL", ErrCondition)
		}
		p.pos++
		return Compare{Left: left, Op: op}, nil
	case p.peekWord("between"):
		p.pos++
		lo, err := p.operand()
		if err != nil {
			return nil, err
		}
		if !p.peekWord("and") {
			return nil, fmt.Errorf("%w: BETWEEN needs AND", ErrCondition)
		}
		p.pos++
		hi, err := p.operand()
		if err != nil {
			return nil, err
		}
		return And{Items: []Cond{Compare{Left: left, Op: ">=", Right: []Operand{lo}}, Compare{Left: left, Op: "<=", Right: []Operand{hi}}}}, nil
	case p.peekWord("like"):
		p.pos++
		right, err := p.operand()
		if err != nil {
			return nil, err
		}
		return Compare{Left: left, Op: "like", Right: []Operand{right}}, nil
	case p.peekWord("in"), p.peekWord("not"):
		op := "in"
		if p.peekWord("not") {
			p.pos++
			if !p.peekWord("in") {
				return nil, fmt.Errorf("%w: NOT must be followed by IN here", ErrCondition)
			}
			op = "not in"
		}
		p.pos++
		if p.pos >= len(p.toks) || p.toks[p.pos].kind != '(' {
			return nil, fmt.Errorf("%w: IN needs a list in parentheses", ErrCondition)
		}
		p.pos++
		var list []Operand
		for {
			o, err := p.operand()
			if err != nil {
				return nil, err
			}
			if o.Column != nil {
				return nil, fmt.Errorf("%w: IN lists hold values, not columns", ErrCondition)
			}
			list = append(list, o)
			if p.pos < len(p.toks) && p.toks[p.pos].kind == ',' {
				p.pos++
				continue
			}
			break
		}
		if p.pos >= len(p.toks) || p.toks[p.pos].kind != ')' {
			return nil, fmt.Errorf("%w: missing ) after IN list", ErrCondition)
		}
		p.pos++
		return Compare{Left: left, Op: op, Right: list}, nil
	}
	return nil, fmt.Errorf("%w: operator expected after %s", ErrCondition, p.toks[p.pos-1].text)
}

// CondColumns returns every column a condition references.
func CondColumns(c Cond) []ColumnRef {
	var out []ColumnRef
	var walk func(Cond)
	walk = func(c Cond) {
		switch c := c.(type) {
		case And:
			for _, it := range c.Items {
				walk(it)
			}
		case Or:
			for _, it := range c.Items {
				walk(it)
			}
		case Not:
			walk(c.Item)
		case Compare:
			for _, o := range append([]Operand{c.Left}, c.Right...) {
				if o.Column != nil {
					out = append(out, *o.Column)
				}
			}
		}
	}
	walk(c)
	return out
}

// CondString renders a condition for people, using column labels from m
// when the columns resolve in entity e.
func CondString(m *Model, e *Entity, c Cond) string {
	switch c := c.(type) {
	case And:
		return joinConds(m, e, c.Items, " and ")
	case Or:
		return "(" + joinConds(m, e, c.Items, " or ") + ")"
	case Not:
		return "not " + CondString(m, e, c.Item)
	case Compare:
		left := operandString(m, e, c.Left)
		col := resolveOperandColumn(m, e, c.Left)
		if col != nil && col.Role == RoleFlag && c.Op == "=" && len(c.Right) == 1 {
			if b, ok := c.Right[0].Literal.(bool); ok {
				if b {
					return left
				}
				return "not " + left
			}
		}
		switch c.Op {
		case "is null", "is not null":
			return left + " " + c.Op
		case "in", "not in":
			parts := make([]string, len(c.Right))
			for i, o := range c.Right {
				parts[i] = operandString(m, e, o)
			}
			return left + " " + c.Op + " (" + strings.Join(parts, ", ") + ")"
		}
		s := left + " " + c.Op + " " + operandString(m, e, c.Right[0])
		if col != nil && col.Unit != "" && col.Unit != "fraction" && c.Right[0].Column == nil {
			s += " " + col.Unit
		}
		return s
	}
	return ""
}

func joinConds(m *Model, e *Entity, cs []Cond, sep string) string {
	parts := make([]string, len(cs))
	for i, c := range cs {
		parts[i] = CondString(m, e, c)
	}
	return strings.Join(parts, sep)
}

func resolveOperandColumn(m *Model, e *Entity, o Operand) *Column {
	if o.Column == nil || m == nil {
		return nil
	}
	c, err := m.ResolveColumn(e, *o.Column)
	if err != nil {
		return nil
	}
	return c
}

func operandString(m *Model, e *Entity, o Operand) string {
	if o.Column != nil {
		if c := resolveOperandColumn(m, e, o); c != nil {
			return c.Title()
		}
		return o.Column.String()
	}
	switch v := o.Literal.(type) {
	case string:
		return v
	case float64:
		return strconv.FormatFloat(v, 'f', -1, 64)
	case int64:
		return strconv.FormatInt(v, 10)
	case bool:
		if v {
			return "true"
		}
		return "false"
	}
	return fmt.Sprint(o.Literal)
}

package sqlfmt

import "strings"

// indent is one level of indentation.
const indent = "  "

// Format lays out a SQL statement: each clause (SELECT, FROM, each JOIN,
// WHERE, GROUP BY, HAVING, ORDER BY, LIMIT, UNION…) on a line of its own;
// the items of a select list of more than one item, and the AND and OR of
// a WHERE, HAVING or ON, on lines of their own, indented; a subquery on
// lines of its own, indented one level more than the line that opens it.
// Parentheses that are not subqueries (calls, IN lists, OVER) stay on one
// line.
//
// Only whitespace changes, and only outside string literals, quoted
// identifiers and comments: a run of whitespace becomes one space or a
// line break with indentation, whitespace next to a parenthesis or before
// a comma may go, and a line break may be put next to a parenthesis or
// after a comma where there was none. A line comment keeps the line break
// that ends it. Text that the dialects would split into tokens differently
// is returned unchanged (see the package comment).
func Format(sql string) string {
	toks, ambiguous := lex(sql)
	if ambiguous {
		return sql
	}
	f := &formatter{toks: toks, stack: []*frame{{query: true}}}
	var b strings.Builder
	b.Grow(len(sql) + len(sql)/8)
	for i := range toks {
		b.WriteString(f.sep(i))
		b.WriteString(toks[i].text)
	}
	return b.String()
}

// frame is the text between a pair of parentheses, or the whole text.
type frame struct {
	// query: the frame holds a statement (the top level, or a subquery),
	// so its clauses go on lines of their own. Other frames stay on one line.
	query bool
	// indent of the frame's clauses; close is the indent of the line its
	// opening parenthesis is on, where the closing one goes.
	indent, close string
	// clause is the keyword of the current clause (SELECT, WHERE…).
	clause string
	// items: the current select list has more than one item.
	items bool
	// between: a BETWEEN waits for its AND; cases: open CASE expressions.
	between bool
	cases   int
}

type formatter struct {
	toks  []token
	stack []*frame
	// line is the indent of the current output line.
	line string
}

func (f *formatter) top() *frame { return f.stack[len(f.stack)-1] }

// word returns the j-th token as a bare word in upper case ("" when it is
// not a word).
func (f *formatter) word(j int) string {
	if j < 0 || j >= len(f.toks) || f.toks[j].kind != word {
		return ""
	}
	return strings.ToUpper(f.toks[j].text)
}

// sep returns what goes before token i, and keeps the frames up to date.
func (f *formatter) sep(i int) string {
	t := f.toks[i]
	if i == 0 {
		f.note(i)
		f.open(i)
		return ""
	}
	prev := f.toks[i-1]
	// what the whitespace between the two tokens becomes, before layout
	sep := ""
	if t.gap != "" {
		sep = " "
	}
	if l, ok := f.layout(i, prev, t); ok {
		sep = l
	}
	if t.kind == line && t.gap != "" && !strings.ContainsAny(t.gap, "\n\r") {
		sep = " " // a comment at the end of a line stays there
	}
	// a line comment ends at a line break; two string literals with a
	// line break between them are one string in PostgreSQL
	needBreak := prev.kind == line || prev.kind == quoted && t.kind == quoted && strings.ContainsAny(t.gap, "\n\r")
	if needBreak && !strings.HasPrefix(sep, "\n") {
		sep = "\n" + f.line
	}
	if strings.HasPrefix(sep, "\n") {
		f.line = sep[1:]
	}
	f.open(i)
	return sep
}

// layout returns what to put before token i instead of the plain
// separator — a line break with indentation, or nothing — and whether
// there is such a layout. It breaks or squeezes where the text has no
// whitespace only next to a parenthesis or after a comma: elsewhere two
// tokens without whitespace between them may be one token to some dialect.
func (f *formatter) layout(i int, prev, t token) (string, bool) {
	if t.kind == punct && t.text == ")" {
		return f.closeParen(), true
	}
	if prev.kind == punct && prev.text == ";" {
		f.stack = []*frame{{query: true}}
		f.note(i)
		return "\n", true
	}
	fr := f.top()
	at := f.note(i)
	switch {
	case prev.kind == punct && prev.text == "(":
		if fr.query {
			return "\n" + fr.indent, true
		}
		return "", true
	case t.kind == punct && t.text == ",":
		return "", true
	case !fr.query:
		return "", false
	case prev.kind == punct && prev.text == "," && fr.clause == "SELECT" && fr.items && fr.cases == 0:
		return "\n" + fr.indent + indent, true
	case t.gap == "" && !(prev.kind == punct && prev.text == ")"):
		return "", false
	case at == atClause:
		return "\n" + fr.indent, true
	case at == atItem, at == atCondition:
		return "\n" + fr.indent + indent, true
	}
	return "", false
}

// A token's place in its frame, as note finds it.
const (
	atNothing   = iota
	atClause    // it starts a clause
	atItem      // it is the first item of a select list of several
	atCondition // it is an AND or OR between the conditions of a clause
)

// note updates the frame of token i (its clause, open CASEs, a pending
// BETWEEN) and returns the token's place in it.
func (f *formatter) note(i int) int {
	fr := f.top()
	if !fr.query {
		return atNothing
	}
	w := f.word(i)
	inCase := fr.cases > 0
	switch w {
	case "CASE":
		fr.cases++
	case "END":
		if inCase {
			fr.cases--
		}
	case "BETWEEN":
		fr.between = true
	}
	if inCase {
		return atNothing
	}
	if clause := f.clause(i); clause != "" {
		fr.clause, fr.between = clause, false
		if clause == "SELECT" {
			fr.items = f.manyItems(i)
		}
		return atClause
	}
	p := f.word(i - 1)
	if fr.clause == "SELECT" && fr.items && w != "DISTINCT" && w != "ALL" &&
		(p == "SELECT" || (p == "DISTINCT" || p == "ALL") && f.word(i-2) == "SELECT") {
		return atItem
	}
	if w == "AND" && fr.between {
		fr.between = false
		return atNothing
	}
	if w == "AND" || w == "OR" {
		switch fr.clause {
		case "WHERE", "HAVING", "JOIN":
			return atCondition
		}
	}
	return atNothing
}

// clause returns the clause token i starts at the top of its frame ("" for
// none): SELECT, FROM, WHERE, GROUP BY, HAVING, WINDOW, ORDER BY, LIMIT,
// OFFSET, FETCH, UNION, INTERSECT, EXCEPT, VALUES, RETURNING, or JOIN for
// every kind of join (LEFT OUTER JOIN starts at LEFT).
func (f *formatter) clause(i int) string {
	w := f.word(i)
	switch w {
	case "SELECT", "WHERE", "HAVING", "WINDOW", "LIMIT", "OFFSET", "FETCH", "UNION", "INTERSECT", "EXCEPT", "VALUES", "RETURNING":
		return w
	case "FROM":
		if f.word(i-1) == "DISTINCT" { // IS [NOT] DISTINCT FROM
			return ""
		}
		return w
	case "GROUP", "ORDER":
		if f.word(i+1) == "BY" {
			return w + " BY"
		}
	case "JOIN":
		switch f.word(i - 1) {
		case "LEFT", "RIGHT", "FULL", "INNER", "CROSS", "NATURAL", "OUTER", "LATERAL":
			return ""
		}
		return w
	case "LEFT", "RIGHT", "FULL", "INNER", "CROSS", "NATURAL":
		j := i + 1
		for f.word(j) == "OUTER" || f.word(j) == "INNER" || f.word(j) == "LEFT" || f.word(j) == "RIGHT" || f.word(j) == "FULL" {
			j++
		}
		if f.word(j) == "JOIN" {
			switch f.word(i - 1) {
			case "NATURAL":
				return ""
			}
			return "JOIN"
		}
	}
	return ""
}

// manyItems reports whether the select list starting after token i has
// more than one item: a comma before the clause that ends it.
func (f *formatter) manyItems(i int) bool {
	depth := 0
	for j := i + 1; j < len(f.toks); j++ {
		t := f.toks[j]
		switch {
		case t.kind == punct && t.text == "(":
			depth++
		case t.kind == punct && t.text == ")":
			depth--
			if depth < 0 {
				return false
			}
		case depth > 0:
		case t.kind == punct && t.text == ",":
			return true
		case t.kind == punct && t.text == ";":
			return false
		case f.clause(j) != "":
			return false
		}
	}
	return false
}

// open pushes a frame after an opening parenthesis: a query frame when a
// statement starts inside it.
func (f *formatter) open(i int) {
	t := f.toks[i]
	if t.kind != punct || t.text != "(" {
		return
	}
	j := i + 1
	for j < len(f.toks) && (f.toks[j].kind == line || f.toks[j].kind == block) {
		j++
	}
	w := f.word(j)
	query := w == "SELECT" || w == "WITH" || w == "VALUES"
	f.stack = append(f.stack, &frame{query: query, indent: f.line + indent, close: f.line})
}

// closeParen pops the frame a closing parenthesis ends and returns what
// goes before it: a line break back to the opening line's indent after a
// subquery, else nothing.
func (f *formatter) closeParen() string {
	if len(f.stack) == 1 { // unbalanced: nothing to close
		return ""
	}
	fr := f.top()
	f.stack = f.stack[:len(f.stack)-1]
	if fr.query {
		return "\n" + fr.close
	}
	return ""
}

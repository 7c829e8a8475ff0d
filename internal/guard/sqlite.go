package guard

import (
	"errors"
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"
	"sync"

	rq "github.com/rqlite/sql"

	"github.com/clarify-sql/clarify/internal/model"
	"github.com/clarify-sql/clarify/internal/sqlitelex"
)

// sqliteChecker checks SQLite statements: rqlite/sql parses them into a
// tree the guard walks and rewrites, and SQLite itself then compiles the
// printed result against an in-memory copy of the model's schema (see
// verify), so a statement rqlite/sql reads differently from SQLite cannot
// slip through.
type sqliteChecker struct {
	v *verifier

	mu       sync.Mutex
	wrappers map[wrapperKey]*rq.SelectStatement
}

// wrapperKey identifies a projection template: the entity and, for a
// scoped one, the scope's set (Scope.setKey).
type wrapperKey struct {
	e     *model.Entity
	value string
}

func newSQLiteChecker(g *Guard) (*sqliteChecker, error) {
	v, err := newVerifier(g.m)
	if err != nil {
		return nil, err
	}
	return &sqliteChecker{v: v, wrappers: map[wrapperKey]*rq.SelectStatement{}}, nil
}

// sqliteRun is the state of one check.
type sqliteRun struct {
	grow  growth
	g     *Guard
	c     *sqliteChecker
	scope *Scope
	args  []any
	// binds maps the offset of each ? in the text to its argument index.
	binds map[int]int
	// sentinels are the table names inside scoped projections, renamed
	// while the verifier compiles the statement.
	sentinels []*rq.Ident
}

func (c *sqliteChecker) check(g *Guard, sql string, args []any, sc *Scope) (*Statement, error) {
	if strings.Contains(strings.ToLower(sql), sentinelPrefix) {
		return nil, reject("names containing %s are reserved", sentinelPrefix)
	}
	p := rq.NewParser(strings.NewReader(sql))
	stmt, err := safely(p.ParseStatement)
	if errors.Is(err, errParserPanic) {
		return nil, reject("the statement could not be parsed as SQLite (the parser failed on it)")
	}
	if err != nil {
		return nil, reject("the statement does not parse as SQLite: %s", parseMessage(err))
	}
	if _, err := safely(p.ParseStatement); !errors.Is(err, io.EOF) {
		return nil, reject("exactly one statement is allowed")
	}
	sel, ok := stmt.(*rq.SelectStatement)
	if !ok {
		return nil, reject("only SELECT statements are allowed, not %s", statementKind(stmt))
	}
	r := &sqliteRun{g: g, c: c, scope: sc, args: args}
	if sc != nil {
		r.binds = sqliteBinds(sql)
	}
	if _, err := r.query(sel, nil, nil); err != nil {
		return nil, err
	}
	if err := r.limit(sel); err != nil {
		return nil, err
	}
	// Compile what SQLite will run, with scoped projections renamed to
	// sentinel tables: any read of a scoped table outside a projection is
	// then a read of the real table name, which the verifier refuses. The
	// sentinel prefix is reserved (refused in statements), so removing it
	// from the printed text gives the statement to run.
	for _, id := range r.sentinels {
		id.Name = sentinel(id.Name)
	}
	verify := sel.String()
	if err := sqliteSame(verify); err != nil {
		return nil, err
	}
	if err := bound(sqlitePlaceholders(verify), args); err != nil {
		return nil, err
	}
	if err := c.v.verify(verify, sc != nil); err != nil {
		return nil, err
	}
	return &Statement{SQL: strings.ReplaceAll(verify, `"`+sentinelPrefix, `"`), Args: args}, nil
}

// sqliteSame refuses a printed statement that SQLite would not read as
// the tree it was printed from: more than one statement, a comment, or a
// text that parses back to something that prints differently. (rqlite/sql
// prints "- -1" as "--1", which SQLite reads as a comment running to the
// end of the line; the verifier compiles only the first statement.)
func sqliteSame(printed string) error {
	if !sqlitelex.Scan(printed).Single() {
		return reject("the checked statement does not print back as one statement")
	}
	again, err := safely(rq.NewParser(strings.NewReader(printed)).ParseStatement)
	if err != nil || again.String() != printed {
		return reject("the checked statement does not print back to itself")
	}
	return nil
}

// sqliteBinds numbers the placeholders of a statement in text order, as
// SQLite binds them.
func sqliteBinds(sql string) map[int]int {
	out := map[int]int{}
	sc := rq.NewScanner(strings.NewReader(sql))
	for {
		pos, tok, _ := sc.Scan()
		switch tok {
		case rq.EOF, rq.ILLEGAL:
			return out
		case rq.BIND:
			out[pos.Offset] = len(out)
		}
	}
}

// sqlitePlaceholders lists the placeholders of a statement, read with
// rqlite/sql's scanner, with the argument index SQLite gives each: ? the
// next one, ?NNN index NNN, a name the index of its first use, else the
// next one.
func sqlitePlaceholders(sql string) []placeholder {
	var out []placeholder
	last := 0
	names := map[string]int{}
	sc := rq.NewScanner(strings.NewReader(sql))
	for {
		_, tok, lit := sc.Scan()
		switch tok {
		case rq.EOF, rq.ILLEGAL:
			return out
		case rq.BIND:
		default:
			continue
		}
		n := 0
		switch {
		case lit == "?":
			n = last + 1
		case lit[0] == '?':
			n, _ = strconv.Atoi(lit[1:]) // out of range: 0, never bound
		default:
			if n = names[lit]; n == 0 {
				n = last + 1
				names[lit] = n
			}
		}
		last = max(last, n)
		out = append(out, placeholder{n: n, text: lit})
	}
}

func statementKind(s rq.Statement) string {
	return kindWords(strings.TrimSuffix(typeName(s), "Statement"))
}

// kindWords turns a node type name into words: DropTable → DROP TABLE.
func kindWords(name string) string {
	var b strings.Builder
	for i, r := range name {
		if i > 0 && r >= 'A' && r <= 'Z' {
			b.WriteByte(' ')
		}
		b.WriteRune(r)
	}
	return strings.ToUpper(b.String())
}

// typeName is a node's Go type without package, for reasons.
func typeName(v any) string {
	n := fmt.Sprintf("%T", v)
	if i := strings.LastIndexByte(n, '.'); i >= 0 {
		n = n[i+1:]
	}
	return n
}

// parseMessage keeps a parser error's position and expectation but drops
// the offending token, which may be part of a literal.
func parseMessage(err error) string {
	msg := err.Error()
	if i := strings.Index(msg, ", found"); i >= 0 {
		msg = msg[:i]
	}
	if len(msg) > 120 {
		msg = msg[:120]
	}
	return msg
}

// query checks a SELECT (with its WITH clause and compound members) and
// returns its output columns. outer is the frame of the enclosing query
// for correlated subqueries; ctes are the CTEs visible around it.
func (r *sqliteRun) query(s *rq.SelectStatement, outer *frame, ctes *cteScope) ([]string, error) {
	if w := s.WithClause; w != nil {
		var err error
		if ctes, err = r.with(w, outer, ctes); err != nil {
			return nil, err
		}
	}
	if s.OffsetComma.IsValid() {
		return nil, reject("write LIMIT n OFFSET m instead of LIMIT m, n")
	}
	head, f, err := r.core(s, outer, ctes)
	if err != nil {
		return nil, err
	}
	for m := s.Compound; m != nil; m = m.Compound {
		if m.WithClause != nil || len(m.OrderingTerms) > 0 || m.LimitExpr != nil {
			return nil, reject("ORDER BY and LIMIT go after the last member of a compound SELECT")
		}
		cols, _, err := r.core(m, outer, ctes)
		if err != nil {
			return nil, err
		}
		if len(cols) != len(head) {
			return nil, reject("the members of a compound SELECT have different numbers of columns")
		}
	}
	// ORDER BY may name output columns, or columns of the (first) core.
	for _, c := range head {
		if c != "" {
			f.aliases[c] = true
		}
	}
	for _, t := range s.OrderingTerms {
		if err := r.expr(t.X, f, ctes); err != nil {
			return nil, err
		}
	}
	for _, e := range []rq.Expr{s.LimitExpr, s.OffsetExpr} {
		if e != nil {
			if err := r.expr(e, outer, ctes); err != nil {
				return nil, err
			}
		}
	}
	return head, nil
}

func (r *sqliteRun) with(w *rq.WithClause, outer *frame, ctes *cteScope) (*cteScope, error) {
	if w.Recursive.IsValid() {
		return nil, reject("recursive common table expressions are not allowed")
	}
	scope := newCTEScope(ctes, false)
	for _, cte := range w.CTEs {
		name := strings.ToLower(cte.TableName.Name)
		if err := r.cteName(name, scope); err != nil {
			return nil, err
		}
		// A CTE sees the CTEs before it, never itself: SQLite would read a
		// self-reference as recursion.
		cols, err := r.query(cte.Select, outer, scope)
		if err != nil {
			return nil, err
		}
		names := make([]string, len(cte.Columns))
		for i, c := range cte.Columns {
			names[i] = c.Name
		}
		if cols, err = renamed(cols, names); err != nil {
			return nil, err
		}
		scope.define(name, cols)
	}
	return scope, nil
}

// cteName refuses a CTE that would shadow a model table or another CTE.
func (r *sqliteRun) cteName(name string, scope *cteScope) error {
	return checkCTEName(r.g, name, scope, r.scope)
}

func checkCTEName(g *Guard, name string, scope *cteScope, sc *Scope) error {
	if e := g.entityByTable(name); e != nil {
		if sc != nil && g.scoped[e] != nil {
			return scopeViolation("a common table expression may not be named %s: it would shadow a scoped table", name)
		}
		return reject("a common table expression may not be named %s: it would shadow a model table", name)
	}
	if strings.HasPrefix(name, sentinelPrefix) {
		return reject("names starting with %s are reserved", sentinelPrefix)
	}
	if scope.definesFolded(name) {
		return reject("common table expression %s is defined twice", name)
	}
	return nil
}

// core checks one SELECT core (no compound members) and returns its
// output columns and its frame.
func (r *sqliteRun) core(s *rq.SelectStatement, outer *frame, ctes *cteScope) ([]string, *frame, error) {
	if len(s.ValueLists) > 0 {
		return nil, nil, reject("VALUES lists are not allowed")
	}
	f := newFrame(outer, false)
	if s.Source != nil {
		src, err := r.source(s.Source, f, ctes)
		if err != nil {
			return nil, nil, err
		}
		s.Source = src
	}
	// Aliases first: SQLite lets WHERE, GROUP BY and HAVING name them.
	for _, c := range s.Columns {
		if c.Alias != nil {
			f.aliases[strings.ToLower(c.Alias.Name)] = true
		}
	}
	var cols []string
	for _, c := range s.Columns {
		switch {
		case c.Star.IsValid():
			if len(f.rels) == 0 {
				return nil, nil, reject("SELECT * needs a FROM clause")
			}
			cols = append(cols, f.star()...)
		case isQualifiedStar(c.Expr):
			ref := c.Expr.(*rq.QualifiedRef)
			if ref.Schema != nil {
				return nil, nil, reject("schema-qualified names are not allowed")
			}
			rel := f.find(ref.Table.Name)
			if rel == nil {
				return nil, nil, reject("%s is not a table, alias or CTE of the statement", ref.Table.Name)
			}
			cols = append(cols, rel.cols...)
		default:
			if err := r.expr(c.Expr, f, ctes); err != nil {
				return nil, nil, err
			}
			cols = append(cols, outputName(c))
		}
	}
	for _, e := range append([]rq.Expr{s.WhereExpr, s.HavingExpr}, s.GroupByExprs...) {
		if e != nil {
			if err := r.expr(e, f, ctes); err != nil {
				return nil, nil, err
			}
		}
	}
	for _, w := range s.Windows {
		if err := r.window(w.Definition, f, ctes); err != nil {
			return nil, nil, err
		}
	}
	return cols, f, nil
}

func isQualifiedStar(e rq.Expr) bool {
	ref, ok := e.(*rq.QualifiedRef)
	return ok && ref.Star.IsValid()
}

func outputName(c *rq.ResultColumn) string {
	if c.Alias != nil {
		return strings.ToLower(c.Alias.Name)
	}
	switch x := c.Expr.(type) {
	case *rq.Ident:
		return strings.ToLower(x.Name)
	case *rq.QualifiedRef:
		return strings.ToLower(x.Column.Name)
	}
	return ""
}

// source checks a FROM item, adds what it makes visible to f, and returns
// the item to print in its place.
func (r *sqliteRun) source(src rq.Source, f *frame, ctes *cteScope) (rq.Source, error) {
	switch s := src.(type) {
	case *rq.QualifiedTableName:
		return r.table(s, f, ctes)
	case *rq.ParenSource:
		if sel, ok := s.X.(*rq.SelectStatement); ok {
			if s.Alias == nil {
				return nil, reject("a subquery in FROM needs an alias")
			}
			cols, err := r.query(sel, f.parent, ctes)
			if err != nil {
				return nil, err
			}
			f.add(newRelation(s.Alias.Name, cols, false))
			return s, nil
		}
		if s.Alias != nil {
			return nil, reject("a parenthesized join cannot have an alias")
		}
		x, err := r.source(s.X, f, ctes)
		if err != nil {
			return nil, err
		}
		s.X = x
		return s, nil
	case *rq.JoinClause:
		x, err := r.source(s.X, f, ctes)
		if err != nil {
			return nil, err
		}
		s.X = x
		y, err := r.source(s.Y, f, ctes)
		if err != nil {
			return nil, err
		}
		s.Y = y
		if s.Operator != nil && s.Operator.Natural.IsValid() {
			return nil, reject("NATURAL joins are not allowed; name the join columns with ON or USING")
		}
		switch c := s.Constraint.(type) {
		case nil:
		case *rq.OnConstraint:
			if err := r.expr(c.X, f, ctes); err != nil {
				return nil, err
			}
		case *rq.UsingConstraint:
			for _, id := range c.Columns {
				if err := f.column("", id.Name); err != nil {
					return nil, err
				}
			}
		default:
			return nil, reject("unsupported join constraint")
		}
		return s, nil
	case *rq.QualifiedTableFunctionName:
		return nil, reject("table-valued functions such as %s are not allowed", strings.ToLower(s.Name.Name))
	}
	return nil, reject("unsupported FROM item")
}

// table resolves a table name: a CTE, or a model table replaced by its
// projection (filtered to the scope value when scoped).
func (r *sqliteRun) table(s *rq.QualifiedTableName, f *frame, ctes *cteScope) (rq.Source, error) {
	name := s.Name.Name
	alias := name
	if s.Alias != nil {
		alias = s.Alias.Name
	}
	e := r.g.entityByTable(name)
	scoped := e != nil && r.scope != nil && r.g.scoped[e] != nil
	if s.Schema != nil {
		if scoped {
			return nil, scopeViolation("scoped table %s may not be qualified with a schema", name)
		}
		return nil, reject("schema-qualified table names are not allowed (%s.%s)", s.Schema.Name, name)
	}
	if s.Index != nil || s.NotIndexed.IsValid() {
		return nil, reject("INDEXED BY and NOT INDEXED are not allowed")
	}
	if cols, ok := ctes.lookup(name); ok {
		f.add(newRelation(alias, cols, false))
		return s, nil
	}
	if e == nil {
		return nil, reject("table %s is not in the model", name)
	}
	wrap, err := r.wrapper(e)
	if err != nil {
		return nil, err
	}
	f.add(tableRelation(alias, e))
	return &rq.ParenSource{X: wrap, Alias: &rq.Ident{Name: alias, Quoted: true}}, nil
}

// wrapper returns a fresh projection of entity e for this check.
func (r *sqliteRun) wrapper(e *model.Entity) (*rq.SelectStatement, error) {
	p, err := r.g.scopeFilterFor(e, r.scope)
	if err != nil {
		return nil, err
	}
	key := wrapperKey{e: e}
	var vals []string
	if p != nil {
		vals, key.value = r.scope.Values, r.scope.setKey()
	}
	r.c.mu.Lock()
	tmpl := r.c.wrappers[key]
	r.c.mu.Unlock()
	if tmpl == nil {
		text := projectionSQL(model.SQLite, e, p, vals)
		st, err := safely(rq.NewParser(strings.NewReader(text)).ParseStatement)
		if err != nil {
			return nil, scopeViolation("the scope value cannot be used in a SQLite statement")
		}
		tmpl = st.(*rq.SelectStatement)
		if p != nil && !sqliteLiteralIs(tmpl, vals) {
			return nil, scopeViolation("the scope value cannot be used in a SQLite statement")
		}
		r.c.mu.Lock()
		if len(r.c.wrappers) > 1024 {
			clear(r.c.wrappers)
		}
		r.c.wrappers[key] = tmpl
		r.c.mu.Unlock()
	}
	w := tmpl.Clone()
	if p != nil {
		r.sentinels = append(r.sentinels, sqliteTables(w)...)
	}
	return w, nil
}

// templateParts collects the string literals and table-name identifiers
// of a projection template (a SELECT whose WHERE is a comparison or an IN
// subquery of the same shape).
func templateParts(s *rq.SelectStatement, lits *[]string, tables *[]*rq.Ident) {
	if t, ok := s.Source.(*rq.QualifiedTableName); ok {
		*tables = append(*tables, t.Name)
	}
	var expr func(e rq.Expr)
	expr = func(e rq.Expr) {
		switch x := e.(type) {
		case *rq.StringLit:
			*lits = append(*lits, x.Value)
		case *rq.BinaryExpr:
			expr(x.X)
			expr(x.Y)
		case *rq.ParenExpr:
			expr(x.X)
		case *rq.ExprList:
			for _, y := range x.Exprs {
				expr(y)
			}
		case rq.SelectExpr:
			templateParts(x.SelectStatement, lits, tables)
		}
	}
	expr(s.WhereExpr)
}

// sqliteLiteralIs reports whether a projection template's string literals
// are exactly the scope values vals (each survived quoting intact, once,
// and there is no other).
func sqliteLiteralIs(s *rq.SelectStatement, vals []string) bool {
	var lits []string
	var tables []*rq.Ident
	templateParts(s, &lits, &tables)
	return sameValues(lits, vals)
}

// sqliteTables returns the table-name identifiers of a projection template.
func sqliteTables(s *rq.SelectStatement) []*rq.Ident {
	var lits []string
	var tables []*rq.Ident
	templateParts(s, &lits, &tables)
	return tables
}

var (
	sqliteNumber = regexp.MustCompile(`^(?:[0-9]+(?:\.[0-9]*)?(?:[eE][+-]?[0-9]+)?|\.[0-9]+(?:[eE][+-]?[0-9]+)?|0[xX][0-9a-fA-F]+)$`)
	sqliteBlob   = regexp.MustCompile(`^[0-9a-fA-F]*$`)
	sqliteType   = regexp.MustCompile(`^(?i)(integer|int|real|text|numeric|blob|float|double|decimal|date|datetime|varchar|char|boolean)$`)
)

func (r *sqliteRun) exprs(es []rq.Expr, f *frame, ctes *cteScope) error {
	for _, e := range es {
		if err := r.expr(e, f, ctes); err != nil {
			return err
		}
	}
	return nil
}

// expr checks an expression. Everything the printer writes verbatim
// (function and type names, numbers, placeholders) is checked against a
// strict form, so the printed statement says what the tree says.
func (r *sqliteRun) expr(e rq.Expr, f *frame, ctes *cteScope) error {
	switch x := e.(type) {
	case nil:
		return nil
	case *rq.Ident:
		switch strings.ToUpper(x.Name) {
		case "CURRENT_DATE", "CURRENT_TIME", "CURRENT_TIMESTAMP":
			if !x.Quoted {
				return reject("use date('now'), time('now') or datetime('now') instead of %s", strings.ToUpper(x.Name))
			}
		}
		return f.column("", x.Name)
	case *rq.QualifiedRef:
		if x.Schema != nil {
			return reject("schema-qualified names are not allowed")
		}
		if x.Star.IsValid() {
			return reject("%s.* is only allowed in the select list", x.Table.Name)
		}
		return f.column(x.Table.Name, x.Column.Name)
	case *rq.StringLit, *rq.NullLit, *rq.BoolLit:
		return nil
	case *rq.NumberLit:
		if !sqliteNumber.MatchString(x.Value) {
			return reject("malformed number")
		}
		return nil
	case *rq.BlobLit:
		if !sqliteBlob.MatchString(x.Value) {
			return reject("malformed blob literal")
		}
		return nil
	case *rq.TimestampLit:
		switch strings.ToUpper(x.Value) {
		case "CURRENT_DATE", "CURRENT_TIME", "CURRENT_TIMESTAMP":
			return nil
		}
		return reject("unsupported literal")
	case *rq.BindExpr:
		if x.Name != "?" {
			return reject("use ? placeholders, not numbered or named parameters")
		}
		return nil
	case *rq.ParenExpr:
		return r.expr(x.X, f, ctes)
	case *rq.ExprList:
		return r.exprs(x.Exprs, f, ctes)
	case *rq.UnaryExpr:
		switch x.Op {
		case rq.PLUS, rq.MINUS, rq.NOT, rq.BITNOT:
			return r.expr(x.X, f, ctes)
		}
		return reject("unsupported operator %s", x.Op)
	case *rq.BinaryExpr:
		return r.binary(x, f, ctes)
	case *rq.Range:
		return r.exprs([]rq.Expr{x.X, x.Y}, f, ctes)
	case *rq.Null:
		return r.expr(x.X, f, ctes)
	case *rq.CastExpr:
		if x.Type == nil || x.Type.Name == nil || !sqliteType.MatchString(x.Type.Name.Name) {
			return reject("CAST to this type is not allowed; use INTEGER, REAL, TEXT, NUMERIC or BLOB")
		}
		if x.Type.Precision != nil && !sqliteNumber.MatchString(x.Type.Precision.Value) ||
			x.Type.Scale != nil && !sqliteNumber.MatchString(x.Type.Scale.Value) {
			return reject("malformed type")
		}
		return r.expr(x.X, f, ctes)
	case *rq.CollateExpr:
		switch strings.ToUpper(x.Collation.Name.Name) {
		case "BINARY", "NOCASE", "RTRIM":
			return r.expr(x.X, f, ctes)
		}
		return reject("only the BINARY, NOCASE and RTRIM collations are allowed")
	case *rq.CaseExpr:
		if err := r.exprs([]rq.Expr{x.Operand, x.ElseExpr}, f, ctes); err != nil {
			return err
		}
		for _, b := range x.Blocks {
			if err := r.exprs([]rq.Expr{b.Condition, b.Body}, f, ctes); err != nil {
				return err
			}
		}
		return nil
	case *rq.Exists:
		_, err := r.query(x.Select, f, ctes)
		return err
	case rq.SelectExpr:
		_, err := r.query(x.SelectStatement, f, ctes)
		return err
	case *rq.Call:
		return r.call(x, f, ctes)
	case *rq.Raise:
		return reject("RAISE is only for triggers")
	}
	return reject("unsupported expression %s", typeName(e))
}

func (r *sqliteRun) binary(x *rq.BinaryExpr, f *frame, ctes *cteScope) error {
	switch x.Op {
	case rq.PLUS, rq.MINUS, rq.STAR, rq.SLASH, rq.REM, rq.CONCAT, rq.LT, rq.LE, rq.GT, rq.GE, rq.EQ, rq.NE,
		rq.IS, rq.ISNOT, rq.LIKE, rq.NOTLIKE, rq.GLOB, rq.NOTGLOB, rq.BETWEEN, rq.NOTBETWEEN, rq.AND, rq.OR,
		rq.BITAND, rq.BITOR, rq.LSHIFT, rq.RSHIFT:
	case rq.IN, rq.NOTIN:
		switch x.Y.(type) {
		case *rq.ExprList, rq.SelectExpr, *rq.ParenExpr:
		default:
			return reject("IN needs a list or a subquery, not a table or function name")
		}
	case rq.ESCAPE:
		return reject("LIKE … ESCAPE is not supported")
	default:
		return reject("operator %s is not allowed", x.Op)
	}
	if err := r.exprs([]rq.Expr{x.X, x.Y}, f, ctes); err != nil {
		return err
	}
	return r.scopeCheck(x, f)
}

// scopeCheck refuses a comparison of a scope key with another value.
func (r *sqliteRun) scopeCheck(x *rq.BinaryExpr, f *frame) error {
	if r.scope == nil {
		return nil
	}
	switch x.Op {
	case rq.EQ, rq.NE, rq.LT, rq.LE, rq.GT, rq.GE, rq.IS, rq.ISNOT, rq.IN, rq.NOTIN,
		rq.LIKE, rq.NOTLIKE, rq.GLOB, rq.NOTGLOB, rq.BETWEEN, rq.NOTBETWEEN:
	default:
		return nil
	}
	eq := x.Op == rq.EQ || x.Op == rq.IN || x.Op == rq.IS
	for _, pair := range [][2]rq.Expr{{x.X, x.Y}, {x.Y, x.X}} {
		table, col, ok := sqliteColumn(pair[0])
		if !ok {
			continue
		}
		if err := r.g.scopeComparison(r.scope, f.owner(table, col), col, eq, r.constants(pair[1], nil)); err != nil {
			return err
		}
	}
	return nil
}

func sqliteColumn(e rq.Expr) (table, col string, ok bool) {
	switch x := e.(type) {
	case *rq.Ident:
		return "", x.Name, true
	case *rq.QualifiedRef:
		if x.Column != nil && x.Schema == nil {
			return x.Table.Name, x.Column.Name, true
		}
	case *rq.ParenExpr:
		return sqliteColumn(x.X)
	}
	return "", "", false
}

// constants lists the literal and bound values an operand names.
func (r *sqliteRun) constants(e rq.Expr, out []constant) []constant {
	switch x := e.(type) {
	case *rq.StringLit:
		out = append(out, constant{value: x.Value, known: true})
	case *rq.NumberLit:
		out = append(out, constant{value: x.Value, known: true})
	case *rq.BindExpr:
		if i, ok := r.binds[x.NamePos.Offset]; ok && i < len(r.args) {
			out = append(out, constant{value: fmt.Sprint(r.args[i]), known: true})
		}
	case *rq.ParenExpr:
		out = r.constants(x.X, out)
	case *rq.ExprList:
		for _, y := range x.Exprs {
			out = r.constants(y, out)
		}
	case *rq.Range:
		out = r.constants(x.Y, r.constants(x.X, out))
	}
	return out
}

func (r *sqliteRun) call(x *rq.Call, f *frame, ctes *cteScope) error {
	if err := checkFunction(model.SQLite, x.Name.Name); err != nil {
		return err
	}
	consts := make([]*constant, len(x.Args))
	for i, a := range x.Args {
		consts[i] = oneConstant(r.constants(a, nil))
	}
	restore, err := r.grow.enter(x.Name.Name, consts)
	if err != nil {
		return err
	}
	defer restore()
	if err := r.exprs(x.Args, f, ctes); err != nil {
		return err
	}
	if x.Filter != nil {
		if err := r.expr(x.Filter.X, f, ctes); err != nil {
			return err
		}
	}
	if x.Over != nil && x.Over.Definition != nil {
		return r.window(x.Over.Definition, f, ctes)
	}
	return nil
}

func (r *sqliteRun) window(d *rq.WindowDefinition, f *frame, ctes *cteScope) error {
	if d == nil {
		return nil
	}
	if err := r.exprs(d.Partitions, f, ctes); err != nil {
		return err
	}
	for _, t := range d.OrderingTerms {
		if err := r.expr(t.X, f, ctes); err != nil {
			return err
		}
	}
	if fr := d.Frame; fr != nil {
		return r.exprs([]rq.Expr{fr.X, fr.Y}, f, ctes)
	}
	return nil
}

// decimalDigits reports whether s is a non-empty run of 0-9.
func decimalDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

// limit caps the top-level LIMIT: a literal above the cap is lowered, a
// missing one is added, anything else is wrapped in max(0, min(…, cap)).
// (SQLite reads a negative LIMIT as "no limit"; here it returns no rows.)
func (r *sqliteRun) limit(s *rq.SelectStatement) error {
	capN := r.g.limit()
	capLit := &rq.NumberLit{Value: strconv.FormatInt(capN, 10)}
	switch x := s.LimitExpr.(type) {
	case nil:
		s.LimitExpr = capLit
		return nil
	case *rq.NumberLit:
		// Plain decimal digits only: Go's base prefixes do not match
		// SQLite's (SQLite reads 01751 as 1751, not octal 1001).
		if decimalDigits(x.Value) {
			if n, err := strconv.ParseInt(x.Value, 10, 64); err == nil && n <= capN {
				return nil
			}
		}
		s.LimitExpr = capLit
		return nil
	}
	s.LimitExpr = &rq.Call{Name: &rq.Ident{Name: "max"}, Args: []rq.Expr{
		&rq.NumberLit{Value: "0"},
		&rq.Call{Name: &rq.Ident{Name: "min"}, Args: []rq.Expr{&rq.ParenExpr{X: s.LimitExpr}, capLit}},
	}}
	return nil
}

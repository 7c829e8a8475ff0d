package guard

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"

	pg "github.com/pganalyze/pg_query_go/v6"
	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/clarify-sql/clarify/internal/model"
)

// pgChecker checks PostgreSQL statements with PostgreSQL's own parser and
// lexer (pg_query, cgo). The statement to run is printed from the checked
// statement's tokens and verified against the checked tree (pgprint.go);
// replacement nodes come from parsing SQL templates, never built by hand.
type pgChecker struct {
	mu       sync.Mutex
	wrappers map[wrapperKey]*pgWrapper
	// limits are the LIMIT templates, parsed once.
	limits *pgLimitTemplates
}

type pgRun struct {
	grow  growth
	g     *Guard
	c     *pgChecker
	scope *Scope
	args  []any
	// replaced lists the model table references to print as projections.
	replaced []pgReplacement
}

func (c *pgChecker) check(g *Guard, sql string, args []any, sc *Scope) (*Statement, error) {
	tree, err := pgParse(sql, false)
	if err != nil {
		if errors.Is(err, errPGTree) {
			return nil, reject("the statement's parse tree cannot be read")
		}
		return nil, reject("the statement does not parse as PostgreSQL: %s", pgMessage(err))
	}
	stmts := tree.result.Stmts
	if len(stmts) != 1 {
		return nil, reject("exactly one statement is allowed")
	}
	sel := stmts[0].Stmt.GetSelectStmt()
	if sel == nil {
		return nil, reject("only SELECT statements are allowed, not %s", pgKind(stmts[0].Stmt))
	}
	r := &pgRun{g: g, c: c, scope: sc, args: args}
	if _, err := r.query(sel, nil, nil); err != nil {
		return nil, err
	}
	if err := bound(pgPlaceholders(tree), args); err != nil {
		return nil, err
	}
	lim, err := r.limit(sel)
	if err != nil {
		return nil, err
	}
	out, want, err := r.print(sql, tree, sel, lim)
	if err != nil {
		return nil, err
	}
	// What the server parses must be what was checked: the printed
	// statement's tree must be the checked one with the replacements.
	got, err := pg.ParseToJSON(out)
	if err != nil {
		return nil, reject("the checked statement does not parse back")
	}
	if !pgSameTree(got, want) {
		return nil, reject("the checked statement does not parse back as checked")
	}
	return &Statement{SQL: out, Args: args}, nil
}

// pgPlaceholders lists the statement's placeholders: its ParamRef nodes,
// which the decoder collects wherever they sit (a ParamRef is only ever
// held by a Node).
func pgPlaceholders(t *pgTree) []placeholder {
	out := make([]placeholder, len(t.params))
	for i, p := range t.params {
		out[i] = placeholder{n: int(p.Number), text: "$" + strconv.Itoa(int(p.Number))}
	}
	return out
}

func pgMessage(err error) string {
	msg := err.Error()
	if i := strings.Index(msg, " at or near"); i >= 0 {
		msg = msg[:i]
	}
	if len(msg) > 120 {
		msg = msg[:120]
	}
	return msg
}

func pgKind(n *pg.Node) string {
	name := typeName(n.GetNode())
	name = strings.TrimPrefix(name, "Node_")
	return kindWords(strings.TrimSuffix(name, "Stmt"))
}

// query checks a SELECT, its WITH clause and set operation branches, and
// returns its output columns.
func (r *pgRun) query(s *pg.SelectStmt, outer *frame, ctes *cteScope) ([]string, error) {
	if s.IntoClause != nil {
		return nil, reject("SELECT INTO is not allowed")
	}
	if len(s.LockingClause) > 0 {
		return nil, reject("locking clauses (FOR UPDATE, FOR SHARE …) are not allowed")
	}
	if s.LimitOption == pg.LimitOption_LIMIT_OPTION_WITH_TIES {
		return nil, reject("FETCH … WITH TIES is not allowed")
	}
	if w := s.WithClause; w != nil {
		var err error
		if ctes, err = r.with(w, outer, ctes); err != nil {
			return nil, err
		}
	}
	var cols []string
	var f *frame
	var err error
	if s.Op != pg.SetOperation_SETOP_NONE && s.Op != pg.SetOperation_SET_OPERATION_UNDEFINED {
		if s.Larg == nil || s.Rarg == nil {
			return nil, reject("malformed set operation")
		}
		if cols, err = r.query(s.Larg, outer, ctes); err != nil {
			return nil, err
		}
		right, err := r.query(s.Rarg, outer, ctes)
		if err != nil {
			return nil, err
		}
		if len(right) != len(cols) {
			return nil, reject("the branches of a set operation have different numbers of columns")
		}
		f = newFrame(outer, true)
		for _, c := range cols {
			if c != "" {
				f.aliases[c] = true
			}
		}
	} else if cols, f, err = r.core(s, outer, ctes); err != nil {
		return nil, err
	}
	for _, n := range s.SortClause {
		sb := n.GetSortBy()
		if sb == nil || len(sb.UseOp) > 0 {
			return nil, reject("ORDER BY … USING is not allowed")
		}
		if err := r.expr(sb.Node, f, ctes); err != nil {
			return nil, err
		}
	}
	for _, n := range []*pg.Node{s.LimitCount, s.LimitOffset} {
		if err := r.expr(n, outer, ctes); err != nil {
			return nil, err
		}
	}
	return cols, nil
}

func (r *pgRun) with(w *pg.WithClause, outer *frame, ctes *cteScope) (*cteScope, error) {
	if w.Recursive {
		return nil, reject("recursive common table expressions are not allowed")
	}
	scope := newCTEScope(ctes, true)
	for _, n := range w.Ctes {
		cte := n.GetCommonTableExpr()
		if cte == nil {
			return nil, reject("malformed WITH clause")
		}
		if cte.SearchClause != nil || cte.CycleClause != nil {
			return nil, reject("SEARCH and CYCLE clauses are not allowed")
		}
		name := cte.Ctename
		if err := checkCTEName(r.g, name, scope, r.scope); err != nil {
			return nil, err
		}
		sel := cte.Ctequery.GetSelectStmt()
		if sel == nil {
			return nil, reject("common table expression %s is not a SELECT (data-modifying CTEs are not allowed)", name)
		}
		cols, err := r.query(sel, outer, scope)
		if err != nil {
			return nil, err
		}
		if cols, err = renamed(cols, pgStrings(cte.Aliascolnames)); err != nil {
			return nil, err
		}
		scope.define(name, cols)
	}
	return scope, nil
}

func pgStrings(ns []*pg.Node) []string {
	out := make([]string, 0, len(ns))
	for _, n := range ns {
		out = append(out, n.GetString_().GetSval())
	}
	return out
}

func (r *pgRun) core(s *pg.SelectStmt, outer *frame, ctes *cteScope) ([]string, *frame, error) {
	if len(s.ValuesLists) > 0 {
		return nil, nil, reject("VALUES lists are not allowed")
	}
	f := newFrame(outer, true)
	for _, n := range s.FromClause {
		if err := r.from(n, f, ctes); err != nil {
			return nil, nil, err
		}
	}
	for _, n := range s.TargetList {
		if rt := n.GetResTarget(); rt != nil && rt.Name != "" {
			f.aliases[strings.ToLower(rt.Name)] = true
		}
	}
	var cols []string
	for _, n := range s.TargetList {
		rt := n.GetResTarget()
		if rt == nil || len(rt.Indirection) > 0 {
			return nil, nil, reject("malformed select list")
		}
		if star, ok := pgStar(rt.Val); ok {
			c, err := r.star(star, f)
			if err != nil {
				return nil, nil, err
			}
			cols = append(cols, c...)
			continue
		}
		if err := r.expr(rt.Val, f, ctes); err != nil {
			return nil, nil, err
		}
		cols = append(cols, pgOutputName(rt))
	}
	for _, n := range s.DistinctClause {
		if n.GetNode() != nil {
			if err := r.expr(n, f, ctes); err != nil {
				return nil, nil, err
			}
		}
	}
	for _, n := range append([]*pg.Node{s.WhereClause, s.HavingClause}, s.GroupClause...) {
		if err := r.expr(n, f, ctes); err != nil {
			return nil, nil, err
		}
	}
	for _, n := range s.WindowClause {
		if err := r.window(n.GetWindowDef(), f, ctes); err != nil {
			return nil, nil, err
		}
	}
	return cols, f, nil
}

// pgStar reports whether a target is * or t.* and returns the qualifier.
func pgStar(n *pg.Node) ([]*pg.Node, bool) {
	cr := n.GetColumnRef()
	if cr == nil || len(cr.Fields) == 0 {
		return nil, false
	}
	if cr.Fields[len(cr.Fields)-1].GetAStar() == nil {
		return nil, false
	}
	return cr.Fields[:len(cr.Fields)-1], true
}

func (r *pgRun) star(qual []*pg.Node, f *frame) ([]string, error) {
	switch len(qual) {
	case 0:
		if len(f.rels) == 0 {
			return nil, reject("SELECT * needs a FROM clause")
		}
		return f.star(), nil
	case 1:
		name := qual[0].GetString_().GetSval()
		rel := f.find(name)
		if rel == nil {
			return nil, reject("%s is not a table, alias or CTE of the statement", name)
		}
		return rel.cols, nil
	}
	return nil, reject("schema-qualified names are not allowed")
}

func pgOutputName(rt *pg.ResTarget) string {
	if rt.Name != "" {
		return strings.ToLower(rt.Name)
	}
	n := rt.Val
	for {
		switch {
		case n.GetColumnRef() != nil:
			fs := n.GetColumnRef().Fields
			return strings.ToLower(fs[len(fs)-1].GetString_().GetSval())
		case n.GetTypeCast() != nil:
			n = n.GetTypeCast().Arg
			continue
		case n.GetFuncCall() != nil:
			fs := n.GetFuncCall().Funcname
			return strings.ToLower(fs[len(fs)-1].GetString_().GetSval())
		}
		return ""
	}
}

// from checks a FROM item and replaces model tables by their projections.
func (r *pgRun) from(n *pg.Node, f *frame, ctes *cteScope) error {
	switch x := n.GetNode().(type) {
	case *pg.Node_RangeVar:
		return r.table(x.RangeVar, f, ctes)
	case *pg.Node_RangeSubselect:
		rs := x.RangeSubselect
		if rs.Lateral {
			return reject("LATERAL subqueries are not allowed")
		}
		sel := rs.Subquery.GetSelectStmt()
		if sel == nil {
			return reject("a subquery in FROM must be a SELECT")
		}
		cols, err := r.query(sel, f.parent, ctes)
		if err != nil {
			return err
		}
		if rs.Alias == nil {
			return reject("a subquery in FROM needs an alias")
		}
		if cols, err = renamed(cols, pgStrings(rs.Alias.Colnames)); err != nil {
			return err
		}
		f.add(newRelation(rs.Alias.Aliasname, cols, false))
		return nil
	case *pg.Node_JoinExpr:
		j := x.JoinExpr
		if j.IsNatural {
			return reject("NATURAL joins are not allowed; name the join columns with ON or USING")
		}
		if j.Alias != nil || j.JoinUsingAlias != nil {
			return reject("aliases on joins are not allowed")
		}
		if err := r.from(j.Larg, f, ctes); err != nil {
			return err
		}
		if err := r.from(j.Rarg, f, ctes); err != nil {
			return err
		}
		for _, c := range pgStrings(j.UsingClause) {
			if err := f.column("", c); err != nil {
				return err
			}
		}
		return r.expr(j.Quals, f, ctes)
	case *pg.Node_RangeFunction:
		return reject("functions in FROM are not allowed")
	}
	return reject("unsupported FROM item %s", pgKind(n))
}

func (r *pgRun) table(rv *pg.RangeVar, f *frame, ctes *cteScope) error {
	name := rv.Relname
	alias := name
	if rv.Alias != nil {
		if len(rv.Alias.Colnames) > 0 {
			return reject("column alias lists on tables are not allowed")
		}
		alias = rv.Alias.Aliasname
	}
	e := r.g.entityByTable(name)
	scoped := e != nil && r.scope != nil && r.g.scoped[e] != nil
	if rv.Schemaname != "" || rv.Catalogname != "" {
		if scoped {
			return scopeViolation("scoped table %s may not be qualified with a schema", name)
		}
		return reject("schema-qualified table names are not allowed (%s.%s)", rv.Schemaname, name)
	}
	if cols, ok := ctes.lookup(name); ok {
		f.add(newRelation(alias, cols, false))
		return nil
	}
	if e == nil {
		return reject("table %s is not in the model", name)
	}
	w, err := r.wrapper(e)
	if err != nil {
		return err
	}
	r.replaced = append(r.replaced, pgReplacement{rv: rv, w: w, alias: alias})
	f.add(tableRelation(alias, e))
	return nil
}

// wrapper returns the projection of entity e.
func (r *pgRun) wrapper(e *model.Entity) (*pgWrapper, error) {
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
	w := r.c.wrappers[key]
	r.c.mu.Unlock()
	if w != nil {
		return w, nil
	}
	bad := scopeViolation("the scope value cannot be used in a PostgreSQL statement")
	proj := projectionSQL(model.Postgres, e, p, vals)
	tree, err := pgParse("SELECT * FROM ("+proj+") AS clarify_w", true)
	if err != nil || len(tree.result.Stmts) != 1 {
		return nil, bad
	}
	sel := tree.result.Stmts[0].Stmt.GetSelectStmt()
	if sel == nil || len(sel.FromClause) != 1 {
		return nil, bad
	}
	node := sel.FromClause[0]
	if p != nil && !allStrings(node.ProtoReflect(), vals) {
		return nil, bad
	}
	// The node's JSON, around its alias: {"RangeSubselect":{…,"alias":{"aliasname":"clarify_w"}}}
	span, ok := tree.nodes[node]
	if !ok {
		return nil, bad
	}
	js := tree.json[span.start:span.end]
	const alias = `"aliasname":"clarify_w"`
	i := strings.LastIndex(js, alias)
	if i < 0 || js[i+len(alias):] != "}}}" {
		return nil, bad
	}
	w = &pgWrapper{sql: proj, jsonHead: js[:i+len(`"aliasname":`)], jsonTail: js[i+len(alias):]}
	r.c.mu.Lock()
	if r.c.wrappers == nil || len(r.c.wrappers) > 1024 {
		r.c.wrappers = map[wrapperKey]*pgWrapper{}
	}
	r.c.wrappers[key] = w
	r.c.mu.Unlock()
	return w, nil
}

// allStrings reports whether the string constants of a message are
// exactly the scope values vals: each once, and no other.
func allStrings(m protoreflect.Message, vals []string) bool {
	var found []string
	var walk func(m protoreflect.Message)
	walk = func(m protoreflect.Message) {
		if c, isConst := m.Interface().(*pg.A_Const); isConst {
			if sv := c.GetSval(); sv != nil {
				found = append(found, sv.Sval)
			}
		}
		m.Range(func(fd protoreflect.FieldDescriptor, val protoreflect.Value) bool {
			switch {
			case fd.IsList() && fd.Message() != nil:
				l := val.List()
				for i := 0; i < l.Len(); i++ {
					walk(l.Get(i).Message())
				}
			case fd.Message() != nil && !fd.IsMap():
				walk(val.Message())
			}
			return true
		})
	}
	walk(m)
	return sameValues(found, vals)
}

func (r *pgRun) nodes(ns []*pg.Node, f *frame, ctes *cteScope) error {
	for _, n := range ns {
		if err := r.expr(n, f, ctes); err != nil {
			return err
		}
	}
	return nil
}

// pgOperators are the operators allowed in expressions.
var pgOperators = set("=", "<>", "!=", "<", ">", "<=", ">=", "+", "-", "*", "/", "%", "^", "||",
	"~~", "!~~", "~~*", "!~~*", "~", "~*", "!~", "!~*")

// pgComparisons are the operators scopeCheck looks at.
var pgComparisons = set("=", "<>", "!=", "<", ">", "<=", ">=", "~~", "!~~", "~~*", "!~~*", "~", "~*", "!~", "!~*",
	"BETWEEN", "NOT BETWEEN", "BETWEEN SYMMETRIC", "NOT BETWEEN SYMMETRIC")

// pgTypes are the types a value may be cast to.
var pgTypes = set("int2", "int4", "int8", "smallint", "integer", "int", "bigint", "numeric", "decimal",
	"float4", "float8", "real", "text", "varchar", "bpchar", "char", "date", "timestamp", "timestamptz",
	"time", "timetz", "interval", "bool", "boolean")

func (r *pgRun) expr(n *pg.Node, f *frame, ctes *cteScope) error {
	if n == nil || n.GetNode() == nil {
		return nil
	}
	switch x := n.GetNode().(type) {
	case *pg.Node_ColumnRef:
		return r.columnRef(x.ColumnRef, f)
	case *pg.Node_AConst, *pg.Node_ParamRef:
		return nil
	case *pg.Node_AExpr:
		return r.aExpr(x.AExpr, f, ctes)
	case *pg.Node_BoolExpr:
		return r.nodes(x.BoolExpr.Args, f, ctes)
	case *pg.Node_FuncCall:
		return r.funcCall(x.FuncCall, f, ctes)
	case *pg.Node_TypeCast:
		if err := pgType(x.TypeCast.TypeName); err != nil {
			return err
		}
		return r.expr(x.TypeCast.Arg, f, ctes)
	case *pg.Node_SubLink:
		return r.subLink(x.SubLink, f, ctes)
	case *pg.Node_CaseExpr:
		c := x.CaseExpr
		if err := r.nodes([]*pg.Node{c.Arg, c.Defresult}, f, ctes); err != nil {
			return err
		}
		for _, w := range c.Args {
			cw := w.GetCaseWhen()
			if cw == nil {
				return reject("malformed CASE")
			}
			if err := r.nodes([]*pg.Node{cw.Expr, cw.Result}, f, ctes); err != nil {
				return err
			}
		}
		return nil
	case *pg.Node_CoalesceExpr:
		return r.nodes(x.CoalesceExpr.Args, f, ctes)
	case *pg.Node_MinMaxExpr:
		return r.nodes(x.MinMaxExpr.Args, f, ctes)
	case *pg.Node_NullTest:
		return r.expr(x.NullTest.Arg, f, ctes)
	case *pg.Node_BooleanTest:
		return r.expr(x.BooleanTest.Arg, f, ctes)
	case *pg.Node_SqlvalueFunction:
		switch x.SqlvalueFunction.Op {
		case pg.SQLValueFunctionOp_SVFOP_CURRENT_DATE, pg.SQLValueFunctionOp_SVFOP_CURRENT_TIME,
			pg.SQLValueFunctionOp_SVFOP_CURRENT_TIME_N, pg.SQLValueFunctionOp_SVFOP_CURRENT_TIMESTAMP,
			pg.SQLValueFunctionOp_SVFOP_CURRENT_TIMESTAMP_N, pg.SQLValueFunctionOp_SVFOP_LOCALTIME,
			pg.SQLValueFunctionOp_SVFOP_LOCALTIME_N, pg.SQLValueFunctionOp_SVFOP_LOCALTIMESTAMP,
			pg.SQLValueFunctionOp_SVFOP_LOCALTIMESTAMP_N:
			return nil
		}
		return reject("user, role, catalog and schema functions are not allowed")
	case *pg.Node_CollateClause:
		return r.expr(x.CollateClause.Arg, f, ctes)
	case *pg.Node_List:
		return r.nodes(x.List.Items, f, ctes)
	case *pg.Node_RowExpr:
		return r.nodes(x.RowExpr.Args, f, ctes)
	case *pg.Node_AArrayExpr:
		return r.nodes(x.AArrayExpr.Elements, f, ctes)
	case *pg.Node_GroupingSet:
		return r.nodes(x.GroupingSet.Content, f, ctes)
	case *pg.Node_SortBy:
		// ORDER BY inside an aggregate or a window: USING names an
		// operator, which the allow-list never sees.
		if len(x.SortBy.UseOp) > 0 {
			return reject("ORDER BY … USING is not allowed")
		}
		return r.expr(x.SortBy.Node, f, ctes)
	}
	return reject("unsupported expression %s", pgKind(n))
}

func (r *pgRun) columnRef(c *pg.ColumnRef, f *frame) error {
	var parts []string
	for _, fl := range c.Fields {
		if fl.GetAStar() != nil {
			return reject("* is only allowed in the select list and in count(*)")
		}
		parts = append(parts, fl.GetString_().GetSval())
	}
	switch len(parts) {
	case 1:
		return f.column("", parts[0])
	case 2:
		return f.column(parts[0], parts[1])
	}
	return reject("schema-qualified names are not allowed")
}

func (r *pgRun) aExpr(a *pg.A_Expr, f *frame, ctes *cteScope) error {
	switch a.Kind {
	case pg.A_Expr_Kind_AEXPR_OP, pg.A_Expr_Kind_AEXPR_OP_ANY, pg.A_Expr_Kind_AEXPR_OP_ALL:
		if err := pgOperator(a.Name); err != nil {
			return err
		}
	case pg.A_Expr_Kind_AEXPR_DISTINCT, pg.A_Expr_Kind_AEXPR_NOT_DISTINCT, pg.A_Expr_Kind_AEXPR_NULLIF,
		pg.A_Expr_Kind_AEXPR_IN, pg.A_Expr_Kind_AEXPR_LIKE, pg.A_Expr_Kind_AEXPR_ILIKE,
		pg.A_Expr_Kind_AEXPR_BETWEEN, pg.A_Expr_Kind_AEXPR_NOT_BETWEEN,
		pg.A_Expr_Kind_AEXPR_BETWEEN_SYM, pg.A_Expr_Kind_AEXPR_NOT_BETWEEN_SYM:
	default:
		return reject("SIMILAR TO and other special operators are not allowed")
	}
	if err := r.nodes([]*pg.Node{a.Lexpr, a.Rexpr}, f, ctes); err != nil {
		return err
	}
	return r.scopeCheck(a, f)
}

// scopeCheck refuses a comparison of a scope key with another value.
func (r *pgRun) scopeCheck(a *pg.A_Expr, f *frame) error {
	if r.scope == nil {
		return nil
	}
	op := ""
	if len(a.Name) == 1 {
		op = a.Name[0].GetString_().GetSval()
	}
	if !pgComparisons[op] {
		return nil
	}
	eq := op == "=" && (a.Kind == pg.A_Expr_Kind_AEXPR_OP || a.Kind == pg.A_Expr_Kind_AEXPR_IN ||
		a.Kind == pg.A_Expr_Kind_AEXPR_OP_ANY || a.Kind == pg.A_Expr_Kind_AEXPR_NOT_DISTINCT)
	for _, pair := range [][2]*pg.Node{{a.Lexpr, a.Rexpr}, {a.Rexpr, a.Lexpr}} {
		cr := pair[0].GetColumnRef()
		if cr == nil {
			continue
		}
		parts := pgStrings(cr.Fields)
		table, col := "", parts[len(parts)-1]
		if len(parts) == 2 {
			table = parts[0]
		}
		if err := r.g.scopeComparison(r.scope, f.owner(table, col), col, eq, r.constants(pair[1], nil)); err != nil {
			return err
		}
	}
	return nil
}

// constants lists the literal and bound values an operand names.
func (r *pgRun) constants(n *pg.Node, out []constant) []constant {
	switch x := n.GetNode().(type) {
	case *pg.Node_AConst:
		c := x.AConst
		switch {
		case c.GetSval() != nil:
			out = append(out, constant{value: c.GetSval().Sval, known: true})
		case c.GetIval() != nil:
			out = append(out, constant{value: strconv.FormatInt(int64(c.GetIval().Ival), 10), known: true})
		case c.GetFval() != nil:
			out = append(out, constant{value: c.GetFval().Fval, known: true})
		}
	case *pg.Node_ParamRef:
		if i := int(x.ParamRef.Number) - 1; i >= 0 && i < len(r.args) {
			out = append(out, constant{value: fmt.Sprint(r.args[i]), known: true})
		}
	case *pg.Node_TypeCast:
		out = r.constants(x.TypeCast.Arg, out)
	case *pg.Node_List:
		for _, y := range x.List.Items {
			out = r.constants(y, out)
		}
	case *pg.Node_AArrayExpr:
		for _, y := range x.AArrayExpr.Elements {
			out = r.constants(y, out)
		}
	}
	return out
}

func pgOperator(name []*pg.Node) error {
	if len(name) != 1 {
		return reject("schema-qualified operators are not allowed")
	}
	op := name[0].GetString_().GetSval()
	if !pgOperators[op] {
		return reject("operator %s is not allowed", op)
	}
	return nil
}

func pgType(t *pg.TypeName) error {
	if t == nil || t.Setof || t.PctType || len(t.ArrayBounds) > 0 || len(t.Names) == 0 || len(t.Names) > 2 {
		return reject("casts to this type are not allowed")
	}
	if len(t.Names) == 2 && t.Names[0].GetString_().GetSval() != "pg_catalog" {
		return reject("casts to types outside pg_catalog are not allowed")
	}
	name := strings.ToLower(t.Names[len(t.Names)-1].GetString_().GetSval())
	if !pgTypes[name] {
		return reject("casts to %s are not allowed", name)
	}
	for _, m := range t.Typmods {
		if m.GetAConst() == nil {
			return reject("type modifiers must be constants")
		}
	}
	return nil
}

func (r *pgRun) funcCall(fc *pg.FuncCall, f *frame, ctes *cteScope) error {
	names := pgStrings(fc.Funcname)
	switch {
	case len(names) == 2 && names[0] == "pg_catalog" && fc.Funcformat == pg.CoercionForm_COERCE_SQL_SYNTAX:
	case len(names) != 1:
		return reject("schema-qualified functions are not allowed")
	}
	if err := checkFunction(model.Postgres, names[len(names)-1]); err != nil {
		return err
	}
	if fc.FuncVariadic {
		return reject("VARIADIC calls are not allowed")
	}
	consts := make([]*constant, len(fc.Args))
	for i, a := range fc.Args {
		consts[i] = oneConstant(r.constants(a, nil))
	}
	restore, err := r.grow.enter(names[len(names)-1], consts)
	if err != nil {
		return err
	}
	defer restore()
	if err := r.nodes(fc.Args, f, ctes); err != nil {
		return err
	}
	if err := r.nodes(fc.AggOrder, f, ctes); err != nil {
		return err
	}
	if err := r.expr(fc.AggFilter, f, ctes); err != nil {
		return err
	}
	return r.window(fc.Over, f, ctes)
}

func (r *pgRun) window(w *pg.WindowDef, f *frame, ctes *cteScope) error {
	if w == nil {
		return nil
	}
	if err := r.nodes(w.PartitionClause, f, ctes); err != nil {
		return err
	}
	if err := r.nodes(w.OrderClause, f, ctes); err != nil {
		return err
	}
	return r.nodes([]*pg.Node{w.StartOffset, w.EndOffset}, f, ctes)
}

func (r *pgRun) subLink(s *pg.SubLink, f *frame, ctes *cteScope) error {
	switch s.SubLinkType {
	case pg.SubLinkType_EXISTS_SUBLINK, pg.SubLinkType_EXPR_SUBLINK, pg.SubLinkType_ARRAY_SUBLINK:
	case pg.SubLinkType_ANY_SUBLINK, pg.SubLinkType_ALL_SUBLINK:
		if len(s.OperName) > 0 {
			if err := pgOperator(s.OperName); err != nil {
				return err
			}
		}
	default:
		return reject("this kind of subquery is not allowed")
	}
	if err := r.expr(s.Testexpr, f, ctes); err != nil {
		return err
	}
	sel := s.Subselect.GetSelectStmt()
	if sel == nil {
		return reject("a subquery must be a SELECT")
	}
	_, err := r.query(sel, f, ctes)
	return err
}

// limit decides how the top-level LIMIT is capped: a constant above the
// cap is lowered, a missing one (or LIMIT ALL) is added, anything else
// becomes LEAST(…, cap).
func (r *pgRun) limit(s *pg.SelectStmt) (pgLimitKind, error) {
	capN := r.g.limit()
	r.c.mu.Lock()
	if r.c.limits == nil {
		t, err := newPGLimitTemplates(strconv.FormatInt(capN, 10))
		if err != nil {
			r.c.mu.Unlock()
			return 0, reject("internal template does not parse")
		}
		r.c.limits = t
	}
	r.c.mu.Unlock()
	c := s.LimitCount.GetAConst()
	switch {
	case s.LimitCount == nil:
		return limitAdd, nil
	case c != nil && c.Isnull:
		return limitCap, nil
	case c != nil && c.GetIval() != nil:
		if n := int64(c.GetIval().Ival); n >= 0 && n <= capN {
			return limitKeep, nil
		}
		return limitCap, nil
	}
	return limitLeast, nil
}

package guard

import (
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"

	vt "vitess.io/vitess/go/vt/sqlparser"

	"github.com/clarify-sql/clarify/internal/model"
)

// mysqlChecker checks MySQL/MariaDB statements with Vitess's MySQL 8
// grammar and prints the statement to run from the checked tree, with
// every identifier back-quoted, comments (and so optimizer hints) dropped
// and placeholders written back as ?.
type mysqlChecker struct {
	p *vt.Parser

	mu       sync.Mutex
	wrappers map[wrapperKey]*vt.Select
}

func newMySQLChecker() (*mysqlChecker, error) {
	p, err := vt.New(vt.Options{MySQLServerVersion: "8.0.40"})
	if err != nil {
		return nil, err
	}
	return &mysqlChecker{p: p, wrappers: map[wrapperKey]*vt.Select{}}, nil
}

// parse parses one statement; a parser panic comes back as errParserPanic.
func (c *mysqlChecker) parse(sql string) (vt.Statement, error) {
	return safely(func() (vt.Statement, error) { return c.p.Parse(sql) })
}

type mysqlRun struct {
	grow  growth
	g     *Guard
	c     *mysqlChecker
	scope *Scope
	args  []any
	// copied is set once args is a private copy the run may change.
	copied bool
}

func (c *mysqlChecker) check(g *Guard, sql string, args []any, sc *Scope) (*Statement, error) {
	stmt, err := c.parse(sql)
	if err != nil {
		if errors.Is(err, errParserPanic) {
			return nil, reject("the statement could not be parsed as MySQL (the parser failed on it)")
		}
		if strings.Contains(err.Error(), "single statement") {
			return nil, reject("exactly one statement is allowed")
		}
		return nil, reject("the statement does not parse as MySQL: %s", mysqlMessage(err))
	}
	ts, ok := stmt.(vt.TableStatement)
	if !ok {
		return nil, reject("only SELECT statements are allowed, not %s", kindWords(typeName(stmt)))
	}
	r := &mysqlRun{g: g, c: c, scope: sc, args: args}
	if _, err := r.query(ts, nil, nil); err != nil {
		return nil, err
	}
	if err := r.limit(ts); err != nil {
		return nil, err
	}
	out, n, err := printMySQL(ts)
	if err != nil {
		return nil, err
	}
	if err := bound(positional(n), r.args); err != nil {
		return nil, err
	}
	// The printed statement must parse back to the same text.
	again, err := c.parse(out)
	if err != nil {
		return nil, reject("the checked statement does not parse back")
	}
	if out2, _, err := printMySQL(again); err != nil || out2 != out {
		return nil, reject("the checked statement does not print back identically")
	}
	return &Statement{SQL: out, Args: r.args}, nil
}

// printMySQL prints a checked statement with ? placeholders, which must
// appear in their original order (v1, v2, …), and returns how many there
// are.
func printMySQL(n vt.SQLNode) (string, int, error) {
	var names []string
	buf := vt.NewTrackedBuffer(func(buf *vt.TrackedBuffer, node vt.SQLNode) {
		if a, ok := node.(*vt.Argument); ok {
			names = append(names, a.Name)
			buf.WriteString("?")
			return
		}
		node.Format(buf)
	})
	buf.SetEscapeAllIdentifiers()
	buf.Myprintf("%v", n)
	for i, name := range names {
		if name != "v"+strconv.Itoa(i+1) {
			return "", 0, reject("use ? placeholders, not named parameters")
		}
	}
	return buf.String(), len(names), nil
}

func mysqlMessage(err error) string {
	msg := err.Error()
	if i := strings.Index(msg, " near "); i >= 0 {
		msg = msg[:i]
	}
	msg = strings.TrimPrefix(strings.TrimSpace(strings.TrimPrefix(msg, "Code: INVALID_ARGUMENT")), "\n")
	if len(msg) > 120 {
		msg = msg[:120]
	}
	return msg
}

func (r *mysqlRun) query(ts vt.TableStatement, outer *frame, ctes *cteScope) ([]string, error) {
	switch s := ts.(type) {
	case *vt.Select:
		if s.Into != nil {
			return nil, reject("SELECT … INTO is not allowed")
		}
		if s.Lock != vt.NoLock {
			return nil, reject("locking clauses (FOR UPDATE, LOCK IN SHARE MODE …) are not allowed")
		}
		if s.SQLCalcFoundRows {
			return nil, reject("SQL_CALC_FOUND_ROWS is not allowed")
		}
		s.Comments = nil
		if s.With != nil {
			var err error
			if ctes, err = r.with(s.With, outer, ctes); err != nil {
				return nil, err
			}
		}
		cols, f, err := r.core(s, outer, ctes)
		if err != nil {
			return nil, err
		}
		return cols, r.orderLimit(s.OrderBy, s.Limit, f, outer, ctes)
	case *vt.Union:
		if s.Into != nil {
			return nil, reject("SELECT … INTO is not allowed")
		}
		if s.Lock != vt.NoLock {
			return nil, reject("locking clauses are not allowed")
		}
		if s.With != nil {
			var err error
			if ctes, err = r.with(s.With, outer, ctes); err != nil {
				return nil, err
			}
		}
		cols, err := r.query(s.Left, outer, ctes)
		if err != nil {
			return nil, err
		}
		right, err := r.query(s.Right, outer, ctes)
		if err != nil {
			return nil, err
		}
		if len(right) != len(cols) {
			return nil, reject("the branches of a UNION have different numbers of columns")
		}
		f := newFrame(outer, true)
		for _, c := range cols {
			if c != "" {
				f.aliases[c] = true
			}
		}
		return cols, r.orderLimit(s.OrderBy, s.Limit, f, outer, ctes)
	}
	return nil, reject("only SELECT statements are allowed")
}

func (r *mysqlRun) orderLimit(ob vt.OrderBy, l *vt.Limit, f, outer *frame, ctes *cteScope) error {
	for _, o := range ob {
		if err := r.expr(o.Expr, f, ctes); err != nil {
			return err
		}
	}
	if l != nil {
		return r.exprs([]vt.Expr{l.Offset, l.Rowcount}, outer, ctes)
	}
	return nil
}

func (r *mysqlRun) with(w *vt.With, outer *frame, ctes *cteScope) (*cteScope, error) {
	if w.Recursive {
		return nil, reject("recursive common table expressions are not allowed")
	}
	scope := newCTEScope(ctes, true)
	for _, cte := range w.CTEs {
		name := cte.ID.String()
		if err := checkCTEName(r.g, name, scope, r.scope); err != nil {
			return nil, err
		}
		cols, err := r.query(cte.Subquery, outer, scope)
		if err != nil {
			return nil, err
		}
		names := make([]string, len(cte.Columns))
		for i, c := range cte.Columns {
			names[i] = c.String()
		}
		if cols, err = renamed(cols, names); err != nil {
			return nil, err
		}
		scope.define(name, cols)
	}
	return scope, nil
}

func (r *mysqlRun) core(s *vt.Select, outer *frame, ctes *cteScope) ([]string, *frame, error) {
	f := newFrame(outer, true)
	for i, te := range s.From {
		out, err := r.from(te, f, ctes)
		if err != nil {
			return nil, nil, err
		}
		s.From[i] = out
	}
	if s.SelectExprs == nil {
		return nil, nil, reject("empty select list")
	}
	for _, se := range s.SelectExprs.Exprs {
		if ae, ok := se.(*vt.AliasedExpr); ok && !ae.As.IsEmpty() {
			f.aliases[ae.As.Lowered()] = true
		}
	}
	var cols []string
	for _, se := range s.SelectExprs.Exprs {
		switch x := se.(type) {
		case *vt.StarExpr:
			if !x.TableName.Qualifier.IsEmpty() {
				return nil, nil, reject("database-qualified names are not allowed")
			}
			if x.TableName.Name.IsEmpty() {
				if len(f.rels) == 0 {
					return nil, nil, reject("SELECT * needs a FROM clause")
				}
				cols = append(cols, f.star()...)
				continue
			}
			rel := f.find(x.TableName.Name.String())
			if rel == nil {
				return nil, nil, reject("%s is not a table, alias or CTE of the statement", x.TableName.Name.String())
			}
			cols = append(cols, rel.cols...)
		case *vt.AliasedExpr:
			if err := r.expr(x.Expr, f, ctes); err != nil {
				return nil, nil, err
			}
			switch {
			case !x.As.IsEmpty():
				cols = append(cols, x.As.Lowered())
			case isColName(x.Expr):
				cols = append(cols, x.Expr.(*vt.ColName).Name.Lowered())
			default:
				cols = append(cols, "")
			}
		default:
			return nil, nil, reject("unsupported select expression")
		}
	}
	if s.Where != nil {
		if err := r.expr(s.Where.Expr, f, ctes); err != nil {
			return nil, nil, err
		}
	}
	if s.GroupBy != nil {
		if err := r.exprs(s.GroupBy.Exprs, f, ctes); err != nil {
			return nil, nil, err
		}
	}
	if s.Having != nil {
		if err := r.expr(s.Having.Expr, f, ctes); err != nil {
			return nil, nil, err
		}
	}
	for _, nw := range s.Windows {
		for _, wd := range nw.Windows {
			if err := r.windowSpec(wd.WindowSpec, f, ctes); err != nil {
				return nil, nil, err
			}
		}
	}
	return cols, f, nil
}

func isColName(e vt.Expr) bool {
	_, ok := e.(*vt.ColName)
	return ok
}

func (r *mysqlRun) from(te vt.TableExpr, f *frame, ctes *cteScope) (vt.TableExpr, error) {
	switch t := te.(type) {
	case *vt.AliasedTableExpr:
		if len(t.Partitions) > 0 {
			return nil, reject("PARTITION clauses are not allowed")
		}
		if len(t.Hints) > 0 {
			return nil, reject("index hints are not allowed")
		}
		switch x := t.Expr.(type) {
		case vt.TableName:
			return r.table(t, x, f, ctes)
		case *vt.DerivedTable:
			if x.Lateral {
				return nil, reject("LATERAL subqueries are not allowed")
			}
			cols, err := r.query(x.Select, f.parent, ctes)
			if err != nil {
				return nil, err
			}
			if t.As.IsEmpty() {
				return nil, reject("a subquery in FROM needs an alias")
			}
			names := make([]string, len(t.Columns))
			for i, c := range t.Columns {
				names[i] = c.String()
			}
			if cols, err = renamed(cols, names); err != nil {
				return nil, err
			}
			f.add(newRelation(t.As.String(), cols, false))
			return t, nil
		}
	case *vt.JoinTableExpr:
		switch t.Join {
		case vt.NormalJoinType, vt.StraightJoinType, vt.LeftJoinType, vt.RightJoinType:
		default:
			return nil, reject("NATURAL joins are not allowed; name the join columns with ON or USING")
		}
		var err error
		if t.LeftExpr, err = r.from(t.LeftExpr, f, ctes); err != nil {
			return nil, err
		}
		if t.RightExpr, err = r.from(t.RightExpr, f, ctes); err != nil {
			return nil, err
		}
		if c := t.Condition; c != nil {
			for _, col := range c.Using {
				if err := f.column("", col.String()); err != nil {
					return nil, err
				}
			}
			if err := r.expr(c.On, f, ctes); err != nil {
				return nil, err
			}
		}
		return t, nil
	case *vt.ParenTableExpr:
		for i, x := range t.Exprs {
			out, err := r.from(x, f, ctes)
			if err != nil {
				return nil, err
			}
			t.Exprs[i] = out
		}
		return t, nil
	case *vt.JSONTableExpr:
		return nil, reject("JSON_TABLE is not allowed")
	}
	return nil, reject("unsupported FROM item")
}

func (r *mysqlRun) table(t *vt.AliasedTableExpr, tn vt.TableName, f *frame, ctes *cteScope) (vt.TableExpr, error) {
	name := tn.Name.String()
	alias := name
	if !t.As.IsEmpty() {
		alias = t.As.String()
	}
	// SELECT without FROM, as Vitess prints it. Only the spelling Vitess
	// prints as the keyword: `DUAL` back-quoted stays a table name, and on
	// a case-sensitive server that can be a real table.
	if name == "dual" && tn.Qualifier.IsEmpty() && t.As.IsEmpty() {
		return t, nil
	}
	e := r.g.entityByTable(name)
	scoped := e != nil && r.scope != nil && r.g.scoped[e] != nil
	if !tn.Qualifier.IsEmpty() {
		if scoped {
			return nil, scopeViolation("scoped table %s may not be qualified with a database", name)
		}
		return nil, reject("database-qualified table names are not allowed (%s.%s)", tn.Qualifier.String(), name)
	}
	if len(t.Columns) > 0 {
		return nil, reject("column alias lists on tables are not allowed")
	}
	if cols, ok := ctes.lookup(name); ok {
		f.add(newRelation(alias, cols, false))
		return t, nil
	}
	if e == nil {
		return nil, reject("table %s is not in the model", name)
	}
	w, err := r.wrapper(e)
	if err != nil {
		return nil, err
	}
	f.add(tableRelation(alias, e))
	return &vt.AliasedTableExpr{Expr: &vt.DerivedTable{Select: w}, As: vt.NewIdentifierCS(alias)}, nil
}

func (r *mysqlRun) wrapper(e *model.Entity) (*vt.Select, error) {
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
		st, err := r.c.parse(projectionSQL(model.MySQL, e, p, vals))
		sel, ok := st.(*vt.Select)
		if err != nil || !ok {
			return nil, scopeViolation("the scope value cannot be used in a MySQL statement")
		}
		if p != nil && !mysqlLiteralIs(sel, vals) {
			return nil, scopeViolation("the scope value cannot be used in a MySQL statement")
		}
		tmpl = sel
		r.c.mu.Lock()
		if len(r.c.wrappers) > 1024 {
			clear(r.c.wrappers)
		}
		r.c.wrappers[key] = tmpl
		r.c.mu.Unlock()
	}
	return vt.CloneRefOfSelect(tmpl), nil
}

// mysqlLiteralIs reports whether a projection's string literals are
// exactly the scope values vals: each once, and no other.
func mysqlLiteralIs(s *vt.Select, vals []string) bool {
	var found []string
	_ = vt.Walk(func(n vt.SQLNode) (bool, error) {
		if lit, isLit := n.(*vt.Literal); isLit && lit.Type == vt.StrVal {
			found = append(found, lit.Val)
		}
		return true, nil
	}, s)
	return sameValues(found, vals)
}

func (r *mysqlRun) exprs(es []vt.Expr, f *frame, ctes *cteScope) error {
	for _, e := range es {
		if err := r.expr(e, f, ctes); err != nil {
			return err
		}
	}
	return nil
}

var (
	mysqlInt     = regexp.MustCompile(`^[0-9]+$`)
	mysqlFloat   = regexp.MustCompile(`^(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?$`)
	mysqlHex     = regexp.MustCompile(`^[0-9a-fA-F]*$`)
	mysqlHexNum  = regexp.MustCompile(`^0x[0-9a-fA-F]+$`)
	mysqlBitNum  = regexp.MustCompile(`^0b[01]+$`)
	mysqlDate    = regexp.MustCompile(`^[0-9:. -]+$`)
	mysqlWord    = regexp.MustCompile(`^[A-Za-z0-9_]+$`)
	mysqlCharset = regexp.MustCompile(`^_[A-Za-z0-9]+$`)
	mysqlSep     = regexp.MustCompile(`^'[^'\\]*'$`)
)

// mysqlTypes are the CAST/CONVERT targets allowed.
var mysqlTypes = set("signed", "unsigned", "signed integer", "unsigned integer", "decimal", "double", "float",
	"real", "char", "date", "datetime", "time", "year", "binary", "nchar")

// expr checks an expression. Strings the printer writes verbatim
// (numbers, collations, character sets, cast types) are checked against a
// strict form so the printed statement says what the tree says.
func (r *mysqlRun) expr(e vt.Expr, f *frame, ctes *cteScope) error {
	switch x := e.(type) {
	case nil:
		return nil
	case *vt.ColName:
		if !x.Qualifier.Qualifier.IsEmpty() {
			return reject("database-qualified names are not allowed")
		}
		return f.column(x.Qualifier.Name.String(), x.Name.String())
	case *vt.Literal:
		return mysqlLiteral(x)
	case *vt.Argument, *vt.NullVal, vt.BoolVal:
		return nil
	case *vt.AndExpr:
		return r.exprs([]vt.Expr{x.Left, x.Right}, f, ctes)
	case *vt.OrExpr:
		return r.exprs([]vt.Expr{x.Left, x.Right}, f, ctes)
	case *vt.XorExpr:
		return r.exprs([]vt.Expr{x.Left, x.Right}, f, ctes)
	case *vt.NotExpr:
		return r.expr(x.Expr, f, ctes)
	case *vt.ComparisonExpr:
		if err := r.exprs([]vt.Expr{x.Left, x.Right, x.Escape}, f, ctes); err != nil {
			return err
		}
		eq := x.Operator == vt.EqualOp || x.Operator == vt.InOp || x.Operator == vt.NullSafeEqualOp
		if err := r.scopeCheck(x.Left, x.Right, eq, f); err != nil {
			return err
		}
		return r.scopeCheck(x.Right, x.Left, eq, f)
	case *vt.BetweenExpr:
		if err := r.exprs([]vt.Expr{x.Left, x.From, x.To}, f, ctes); err != nil {
			return err
		}
		return r.scopeCheck(x.Left, vt.ValTuple{x.From, x.To}, false, f)
	case *vt.IsExpr:
		return r.expr(x.Left, f, ctes)
	case *vt.BinaryExpr:
		return r.exprs([]vt.Expr{x.Left, x.Right}, f, ctes)
	case *vt.UnaryExpr:
		return r.expr(x.Expr, f, ctes)
	case *vt.IntroducerExpr:
		if !mysqlCharset.MatchString(x.CharacterSet) {
			return reject("malformed character set introducer")
		}
		return r.expr(x.Expr, f, ctes)
	case *vt.CollateExpr:
		if !mysqlWord.MatchString(x.Collation) {
			return reject("malformed collation name")
		}
		return r.expr(x.Expr, f, ctes)
	case vt.ValTuple:
		return r.exprs([]vt.Expr(x), f, ctes)
	case *vt.Subquery:
		_, err := r.query(x.Select, f, ctes)
		return err
	case *vt.ExistsExpr:
		_, err := r.query(x.Subquery.Select, f, ctes)
		return err
	case *vt.CaseExpr:
		if err := r.exprs([]vt.Expr{x.Expr, x.Else}, f, ctes); err != nil {
			return err
		}
		for _, w := range x.Whens {
			if err := r.exprs([]vt.Expr{w.Cond, w.Val}, f, ctes); err != nil {
				return err
			}
		}
		return nil
	case *vt.CastExpr:
		if x.Array {
			return reject("CAST … ARRAY is not allowed")
		}
		if err := mysqlType(x.Type); err != nil {
			return err
		}
		return r.expr(x.Expr, f, ctes)
	case *vt.ConvertExpr:
		if err := mysqlType(x.Type); err != nil {
			return err
		}
		return r.expr(x.Expr, f, ctes)
	case *vt.FuncExpr:
		if !x.Qualifier.IsEmpty() {
			return reject("database-qualified functions are not allowed")
		}
		if err := checkFunction(model.MySQL, x.Name.Lowered()); err != nil {
			return err
		}
		consts := make([]*constant, len(x.Exprs))
		for i, a := range x.Exprs {
			consts[i] = oneConstant(r.constants(a, nil))
		}
		restore, err := r.grow.enter(x.Name.Lowered(), consts)
		if err != nil {
			return err
		}
		defer restore()
		return r.exprs(x.Exprs, f, ctes)
	case *vt.CurTimeFuncExpr:
		switch x.Name.Lowered() {
		case "now", "current_timestamp", "current_date", "curdate", "current_time", "curtime",
			"localtime", "localtimestamp", "utc_date", "utc_time", "utc_timestamp", "sysdate":
			return nil
		}
		return reject("function %s is not allowed", x.Name.Lowered())
	case *vt.ExtractFuncExpr:
		return r.expr(x.Expr, f, ctes)
	case *vt.TimestampDiffExpr:
		return r.exprs([]vt.Expr{x.Expr1, x.Expr2}, f, ctes)
	case *vt.IntervalDateExpr:
		return r.exprs([]vt.Expr{x.Date, x.Interval}, f, ctes)
	case *vt.SubstrExpr:
		return r.exprs([]vt.Expr{x.Name, x.From, x.To}, f, ctes)
	case *vt.LocateExpr:
		return r.exprs([]vt.Expr{x.SubStr, x.Str, x.Pos}, f, ctes)
	case *vt.TrimFuncExpr:
		return r.exprs([]vt.Expr{x.TrimArg, x.StringArg}, f, ctes)
	case *vt.CountStar:
		return nil
	case *vt.Count:
		return r.aggregate(x.Args, x.OverClause, f, ctes)
	case *vt.Sum:
		return r.aggregate([]vt.Expr{x.Arg}, x.OverClause, f, ctes)
	case *vt.Avg:
		return r.aggregate([]vt.Expr{x.Arg}, x.OverClause, f, ctes)
	case *vt.Min:
		return r.aggregate([]vt.Expr{x.Arg}, x.OverClause, f, ctes)
	case *vt.Max:
		return r.aggregate([]vt.Expr{x.Arg}, x.OverClause, f, ctes)
	case *vt.Std:
		return r.aggregate([]vt.Expr{x.Arg}, x.OverClause, f, ctes)
	case *vt.StdDev:
		return r.aggregate([]vt.Expr{x.Arg}, x.OverClause, f, ctes)
	case *vt.StdPop:
		return r.aggregate([]vt.Expr{x.Arg}, x.OverClause, f, ctes)
	case *vt.StdSamp:
		return r.aggregate([]vt.Expr{x.Arg}, x.OverClause, f, ctes)
	case *vt.VarPop:
		return r.aggregate([]vt.Expr{x.Arg}, x.OverClause, f, ctes)
	case *vt.VarSamp:
		return r.aggregate([]vt.Expr{x.Arg}, x.OverClause, f, ctes)
	case *vt.Variance:
		return r.aggregate([]vt.Expr{x.Arg}, x.OverClause, f, ctes)
	case *vt.AnyValue:
		return r.expr(x.Arg, f, ctes)
	case *vt.GroupConcatExpr:
		if x.Separator != "" && !mysqlSep.MatchString(x.Separator) {
			return reject("GROUP_CONCAT separators must be plain strings")
		}
		if x.Limit != nil {
			return reject("GROUP_CONCAT … LIMIT is not allowed")
		}
		if err := r.exprs(x.Exprs, f, ctes); err != nil {
			return err
		}
		for _, o := range x.OrderBy {
			if err := r.expr(o.Expr, f, ctes); err != nil {
				return err
			}
		}
		return nil
	case *vt.ArgumentLessWindowExpr:
		return r.over(x.OverClause, f, ctes)
	case *vt.FirstOrLastValueExpr:
		return r.aggregate([]vt.Expr{x.Expr}, x.OverClause, f, ctes)
	case *vt.NtileExpr:
		return r.aggregate([]vt.Expr{x.N}, x.OverClause, f, ctes)
	case *vt.NTHValueExpr:
		return r.aggregate([]vt.Expr{x.Expr, x.N}, x.OverClause, f, ctes)
	case *vt.LagLeadExpr:
		return r.aggregate([]vt.Expr{x.Expr, x.N, x.Default}, x.OverClause, f, ctes)
	case *vt.Variable, *vt.AssignmentExpr:
		return reject("user and system variables are not allowed")
	case *vt.LockingFunc:
		return reject("lock functions (GET_LOCK …) are not allowed")
	}
	return reject("unsupported expression %s", typeName(e))
}

// scopeCheck refuses a comparison of a scope key with another value.
func (r *mysqlRun) scopeCheck(colSide, other vt.Expr, eq bool, f *frame) error {
	if r.scope == nil {
		return nil
	}
	c, ok := colSide.(*vt.ColName)
	if !ok {
		return nil
	}
	table, col := c.Qualifier.Name.String(), c.Name.String()
	return r.g.scopeComparison(r.scope, f.owner(table, col), col, eq, r.constants(other, nil))
}

// constants lists the literal and bound values an operand names.
func (r *mysqlRun) constants(e vt.Expr, out []constant) []constant {
	switch x := e.(type) {
	case *vt.Literal:
		out = append(out, constant{value: x.Val, known: true})
	case *vt.Argument:
		if i, err := strconv.Atoi(strings.TrimPrefix(x.Name, "v")); err == nil && i >= 1 && i <= len(r.args) {
			out = append(out, constant{value: fmt.Sprint(r.args[i-1]), known: true})
		}
	case vt.ValTuple:
		for _, y := range x {
			out = r.constants(y, out)
		}
	case *vt.IntroducerExpr:
		out = r.constants(x.Expr, out)
	}
	return out
}

func mysqlLiteral(x *vt.Literal) error {
	ok := true
	switch x.Type {
	case vt.StrVal:
	case vt.IntVal:
		ok = mysqlInt.MatchString(x.Val)
	case vt.FloatVal, vt.DecimalVal:
		ok = mysqlFloat.MatchString(x.Val)
	case vt.HexVal:
		ok = mysqlHex.MatchString(x.Val)
	case vt.HexNum:
		ok = mysqlHexNum.MatchString(x.Val)
	case vt.BitNum:
		ok = mysqlBitNum.MatchString(x.Val)
	case vt.DateVal, vt.TimeVal, vt.TimestampVal:
		ok = mysqlDate.MatchString(x.Val)
	default:
		ok = false
	}
	if !ok {
		return reject("malformed literal")
	}
	return nil
}

func mysqlType(t *vt.ConvertType) error {
	if t == nil || !mysqlTypes[strings.ToLower(t.Type)] {
		return reject("casts to this type are not allowed")
	}
	if t.Charset.Name != "" && !mysqlWord.MatchString(t.Charset.Name) {
		return reject("malformed character set")
	}
	return nil
}

func (r *mysqlRun) aggregate(args []vt.Expr, over *vt.OverClause, f *frame, ctes *cteScope) error {
	if err := r.exprs(args, f, ctes); err != nil {
		return err
	}
	return r.over(over, f, ctes)
}

func (r *mysqlRun) over(o *vt.OverClause, f *frame, ctes *cteScope) error {
	if o == nil {
		return nil
	}
	return r.windowSpec(o.WindowSpec, f, ctes)
}

func (r *mysqlRun) windowSpec(w *vt.WindowSpecification, f *frame, ctes *cteScope) error {
	if w == nil {
		return nil
	}
	if err := r.exprs(w.PartitionClause, f, ctes); err != nil {
		return err
	}
	for _, o := range w.OrderClause {
		if err := r.expr(o.Expr, f, ctes); err != nil {
			return err
		}
	}
	if fc := w.FrameClause; fc != nil {
		for _, p := range []*vt.FramePoint{fc.Start, fc.End} {
			if p != nil {
				if err := r.expr(p.Expr, f, ctes); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// limit caps the top-level LIMIT. MySQL accepts only a number or a
// placeholder there: a number above the cap is lowered, a placeholder's
// argument is lowered in a copy of the arguments.
func (r *mysqlRun) limit(ts vt.TableStatement) error {
	capN := r.g.limit()
	capLit := vt.NewIntLiteral(strconv.FormatInt(capN, 10))
	var l **vt.Limit
	switch s := ts.(type) {
	case *vt.Select:
		l = &s.Limit
	case *vt.Union:
		l = &s.Limit
	}
	if *l == nil {
		*l = &vt.Limit{Rowcount: capLit}
		return nil
	}
	switch x := (*l).Rowcount.(type) {
	case nil:
		(*l).Rowcount = capLit
	case *vt.Literal:
		if n, err := strconv.ParseInt(x.Val, 10, 64); x.Type != vt.IntVal || err != nil || n > capN {
			(*l).Rowcount = capLit
		}
	case *vt.Argument:
		i, err := strconv.Atoi(strings.TrimPrefix(x.Name, "v"))
		if err != nil || i < 1 || i > len(r.args) {
			return reject("the LIMIT placeholder has no argument")
		}
		if n, ok := asInt(r.args[i-1]); !ok || n < 0 || n > capN {
			if !r.copied {
				r.args = append([]any(nil), r.args...)
				r.copied = true
			}
			r.args[i-1] = capN
		}
	default:
		return reject("LIMIT must be a number or a placeholder")
	}
	return nil
}

// asInt reads an integer argument.
func asInt(v any) (int64, bool) {
	switch n := v.(type) {
	case int:
		return int64(n), true
	case int64:
		return n, true
	case int32:
		return int64(n), true
	case uint32:
		return int64(n), true
	}
	return 0, false
}

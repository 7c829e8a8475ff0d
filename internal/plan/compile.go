package plan

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/clarify-sql/clarify/internal/model"
	"github.com/clarify-sql/clarify/internal/query"
)

// Plan is one compiled query.
type Plan struct {
	SQL  string
	Args []any
	// Columns describe the result columns in order.
	Columns []Column
	Chart   Chart
	// Statement says in plain language what is computed.
	Statement string
	// Count is the query counting the rows the plan returns (for previews
	// and relaxed-filter suggestions), with its own arguments.
	CountSQL  string
	CountArgs []any
	// Ties is set for the top N rows: the statement fetches up to TieProbe
	// rows more, so that rows tying with the last one kept can be told.
	Ties *Ties
}

// TieProbe is how many rows past a top-N cut-off a plan fetches to see
// whether they tie with the last row kept.
const TieProbe = 20

// Ties describes a top-N answer whose cut-off may fall inside a tie.
type Ties struct {
	// Limit is the number of rows asked for.
	Limit int
	// Column is the index among the columns of the value ranked by.
	Column int
	// Label says what the rows are ranked by ("units sold"); Singular and
	// Plural what they are ("product", "products").
	Label, Singular, Plural string
}

// newTies describes the ties of the top limit rows of e by label, whose
// value is the column at index col.
func newTies(limit, col int, label string, e *model.Entity) *Ties {
	for _, p := range []string{"highest ", "lowest ", "maximum ", "minimum "} {
		label = strings.TrimPrefix(label, p)
	}
	return &Ties{Limit: limit, Column: col, Label: label, Singular: e.Singular(), Plural: e.PluralLabel()}
}

// Column is a result column: its name and type (text, integer, real,
// boolean, date or timestamp).
type Column struct {
	Name string `json:"name"`
	Type string `json:"type"`
	// Label is the column's heading for people ("Assessed area").
	Label string `json:"label,omitempty"`
	// Kind says what the values mean, for formatting: id, name, category,
	// date, timestamp, period, year, measure, count, bool or text.
	Kind string `json:"kind,omitempty"`
	// Grain is a period's length: day, week, month, quarter or year.
	Grain string `json:"grain,omitempty"`
	// Unit of the values ("USD", "cm²", "days"), from the model.
	Unit string `json:"unit,omitempty"`
	// RangeLow and RangeHigh name the columns of the same rows that hold
	// this column's reference range (a lab value's normal limits).
	RangeLow  string `json:"range_low,omitempty"`
	RangeHigh string `json:"range_high,omitempty"`
	// Display names the column of the same rows that holds the name of
	// the row this foreign key points at: people see the name, the id
	// stays for matching and download.
	Display string `json:"display,omitempty"`
}

// Chart is how an answer is best drawn.
type Chart struct {
	Type   string `json:"type"` // line, bar or none
	X      string `json:"x,omitempty"`
	Y      string `json:"y,omitempty"`
	Series string `json:"series,omitempty"`
	// Partial lists the x values whose period the answer covers only in
	// part (a month cut by the window, the month still running).
	Partial []string `json:"partial,omitempty"`
}

// Options tune compilation.
type Options struct {
	// RowCap bounds list queries (LIMIT RowCap+1, so execution can tell a
	// truncated answer). Default 1000.
	RowCap int
	// Now is the clock date placeholders are computed from.
	Now time.Time
}

// ErrUnsupported is returned for a query shape the compiler cannot express.
var ErrUnsupported = errors.New("unsupported query")

// compiler holds the state of one compilation.
type compiler struct {
	m    *model.Model
	q    *query.Query
	w    *writer
	opt  Options
	base *model.Entity
	// joined entities (many-to-one from base), in join order
	joins  []model.Edge
	joined map[*model.Entity]bool
	// named are parents joined only to show their names beside a foreign
	// key: LEFT JOINs, so rows without a parent stay
	named map[*model.Entity]bool
	where []string
	cols  []Column
	sel   []string
	names map[string]int
	// colOf is the index of each model column shown
	colOf map[*model.Column]int
	// orderErr is an order the statement could not follow
	orderErr error
}

// Compile compiles a query for a dialect.
func Compile(m *model.Model, q *query.Query, d model.Dialect, opt Options) (*Plan, error) {
	if q == nil || q.Base == nil {
		return nil, fmt.Errorf("%w: the question has no subject", ErrUnsupported)
	}
	if opt.RowCap <= 0 {
		opt.RowCap = 1000
	}
	c := &compiler{m: m, q: q, w: &writer{d: d}, opt: opt, base: q.Base, joined: map[*model.Entity]bool{q.Base: true}, names: map[string]int{}, colOf: map[*model.Column]int{}}
	p, err := c.compile()
	if err == nil {
		err = c.w.err
	}
	if err != nil {
		return nil, err
	}
	p.Statement = Statement(m, q)
	p.Chart = chartFor(q, p.Columns)
	return p, nil
}

func (c *compiler) compile() (*Plan, error) {
	q := c.q
	switch {
	case q.Rank != nil:
		return c.rank()
	case q.Agg != nil && len(q.Group) > 0:
		return c.grouped()
	case q.Agg != nil:
		return c.aggregate()
	}
	return c.list()
}

// reach makes entity e available in the outer query: it must be the base
// or reachable through many-to-one joins, which are added once each.
func (c *compiler) reach(e *model.Entity) bool {
	if c.joined[e] {
		return true
	}
	path, ok := c.m.Path(c.base, e)
	if !ok || !model.ToOnePath(path) {
		return false
	}
	for _, ed := range path {
		if !c.joined[ed.To] {
			c.joined[ed.To] = true
			c.joins = append(c.joins, ed)
		}
	}
	return true
}

func (c *compiler) from() string {
	var b strings.Builder
	b.WriteString(" FROM " + c.w.table(c.base))
	for _, ed := range c.joins {
		kind := "JOIN"
		if c.named[ed.To] {
			kind = "LEFT JOIN"
		}
		b.WriteString(" " + kind + " " + c.joinOn(ed))
	}
	return b.String()
}

// joinOn renders the table a many-to-one step reaches and its join
// condition: "t ON t.key = from.fk", after JOIN or LEFT JOIN.
func (c *compiler) joinOn(ed model.Edge) string {
	return fmt.Sprintf("%s ON %s.%s = %s.%s", c.w.table(ed.To), c.w.table(ed.To), c.w.quote(ed.ToCol), c.w.table(ed.From), c.w.quote(ed.FromCol))
}

func (c *compiler) whereSQL() string {
	where := c.whereConds()
	if len(where) == 0 {
		return ""
	}
	return " WHERE " + strings.Join(where, " AND ")
}

// whereConds are the conditions of the statement's WHERE, ANDed.
func (c *compiler) whereConds() []string {
	where := c.where
	if c.q.Current {
		// the base and every table joined hold today
		where = append(append([]string{}, where...), c.currentConds(c.base)...)
		for _, ed := range c.joins {
			if c.named[ed.To] {
				continue
			}
			where = append(where, c.currentConds(ed.To)...)
		}
	}
	return where
}

// currentConds keeps the rows of e that hold today when e has a validity
// period and the question asks what is current: no end, or an end not yet
// passed (a far-future end such as 9999-01-01 is open).
func (c *compiler) currentConds(e *model.Entity) []string {
	vd := e.Validity
	if !c.q.Current || vd == nil {
		return nil
	}
	to := e.Column(vd.To)
	if to == nil {
		return nil
	}
	col := c.w.col(to)
	conds := []string{"(" + col + " IS NULL OR " + col + " >= " + c.w.param(c.today()) + ")"}
	if vd.From != "" {
		if from := e.Column(vd.From); from != nil {
			conds = append(conds, "("+c.w.col(from)+" IS NULL OR "+c.w.col(from)+" <= "+c.w.param(c.today())+")")
		}
	}
	return conds
}

// today is the date a current row holds on, as the dialects compare dates.
func (c *compiler) today() string {
	now := c.opt.Now
	if now.IsZero() {
		now = time.Now()
	}
	return now.UTC().Format("2006-01-02")
}

// filterSQL renders one filter's condition against its entity ("" when
// the filter only asks for related rows to exist or not).
func (c *compiler) filterSQL(f query.Filter) (string, error) {
	if f.LatestOf != nil {
		return c.latestOf(f.LatestOf), nil
	}
	if f.Cond == nil && f.Predicate.IsZero() {
		return "", nil
	}
	if f.Cond != nil {
		return c.w.cond(c.m, f.Entity, f.Cond)
	}
	s, err := c.w.fragment(f.Predicate, c.opt.Now)
	if err != nil {
		return "", err
	}
	return "(" + s + ")", nil
}

// restrict adds the filters, the time window and the scope to WHERE.
// Conditions on entities reached through one-to-many steps are grouped
// per entity into one EXISTS, so one child row must satisfy them all.
func (c *compiler) restrict() error {
	q := c.q
	type child struct {
		e     *model.Entity
		conds []string
	}
	var children []*child
	childOf := map[*model.Entity]*child{}
	addChild := func(e *model.Entity, s string) {
		ch := childOf[e]
		if ch == nil {
			ch = &child{e: e}
			childOf[e] = ch
			children = append(children, ch)
		}
		if s != "" {
			ch.conds = append(ch.conds, s)
		}
	}
	// "customers who have not placed orders in the last 90 days": the period
	// dates the excluded rows
	excluded := map[*model.Entity]int{}
	for i, f := range q.Filters {
		if f.Exclude && f.Entity != c.base && f.Cond == nil && f.Predicate.IsZero() && f.LatestOf == nil {
			excluded[f.Entity] = i
		}
	}
	var windowIn *model.Entity
	var windowConds []string
	if tw := q.Window; tw != nil {
		if _, ok := excluded[tw.Column.Entity()]; ok {
			windowIn = tw.Column.Entity()
			windowConds = c.windowConds(tw)
		}
	}
	for _, f := range q.Filters {
		if f.Via != nil {
			s, err := c.viaFilter(f)
			if err != nil {
				return err
			}
			if e := f.Via.Entity(); c.reach(e) {
				c.where = append(c.where, s)
			} else {
				addChild(e, s)
			}
			continue
		}
		if f.Count != nil {
			s, err := c.countOfChildren(f)
			if err != nil {
				return err
			}
			c.where = append(c.where, s)
			continue
		}
		if f.Exclude && f.Entity != c.base {
			s, err := c.filterSQL(f)
			if err != nil {
				return err
			}
			var conds []string
			if s != "" {
				conds = append(conds, s)
			}
			if f.Entity == windowIn {
				conds = append(conds, windowConds...)
			}
			ex, err := c.exists(f.Entity, conds)
			if err != nil {
				return err
			}
			c.where = append(c.where, "NOT "+ex)
			continue
		}
		// a condition on a parent's key alone reads the foreign key instead
		if fk, ok := c.viaForeignKey(f); ok {
			f = fk
		}
		if s, ok, err := c.parentIn(f); err != nil {
			return err
		} else if ok {
			c.where = append(c.where, s)
			continue
		}
		// filters on a many-to-one neighbour are joined; others go to EXISTS
		if !c.reach(f.Entity) {
			s, err := c.filterSQL(f)
			if err != nil {
				return err
			}
			addChild(f.Entity, s)
			continue
		}
		s, err := c.filterSQL(f)
		if err != nil {
			return err
		}
		if s == "" {
			// a filter that names its rows but no condition on them: kept,
			// it limits nothing; excluded, it would be "NOT ()"
			if f.Exclude {
				return fmt.Errorf("%w: excluding %s without a condition leaves nothing to count", ErrUnsupported, f.Entity.PluralLabel())
			}
			continue
		}
		if f.Exclude {
			s = "NOT (" + s + ")"
		}
		c.where = append(c.where, s)
	}
	if tw := q.Window; tw != nil && windowIn == nil {
		e := tw.Column.Entity()
		for _, p := range c.windowConds(tw) {
			if c.reach(e) {
				c.where = append(c.where, p)
			} else {
				addChild(e, p)
			}
		}
	}
	// "students who got an F in Physics": a condition on enrollments and
	// one on the course reached through them hold for the same enrollment,
	// so a child on the way to another joins that one's EXISTS
	var merged []*child
	for _, ch := range children {
		into := false
		for _, other := range children {
			if other != ch && c.onPath(ch.e, other.e) {
				other.conds = append(other.conds, ch.conds...)
				into = true
				break
			}
		}
		if !into {
			merged = append(merged, ch)
		}
	}
	children = merged
	for _, ch := range children {
		ex, err := c.exists(ch.e, ch.conds)
		if err != nil {
			return err
		}
		c.where = append(c.where, ex)
	}
	return c.scope()
}

// viaFilter keeps the rows whose foreign key f.Via refers to a row of
// f.Entity matching the filter. The rows referred to are read in a
// subquery over their own table, whose name there shadows the outer one,
// so a table may refer to itself (employees.reports_to).
func (c *compiler) viaFilter(f query.Filter) (string, error) {
	ref := f.Via.References
	i := strings.IndexByte(ref, '.')
	if i < 0 || c.m.Entity(ref[:i]) != f.Entity {
		return "", fmt.Errorf("%w: %s does not refer to %s", ErrUnsupported, f.Via.Name, f.Entity.Name)
	}
	cond, err := c.filterSQL(query.Filter{Entity: f.Entity, Cond: f.Cond, Predicate: f.Predicate})
	if err != nil {
		return "", err
	}
	if cond == "" {
		return "", fmt.Errorf("%w: nothing to refer to through %s", ErrUnsupported, f.Via.Name)
	}
	if cur := c.currentConds(f.Entity); len(cur) > 0 {
		cond += " AND " + strings.Join(cur, " AND ")
	}
	s := c.w.col(f.Via) + " IN (SELECT " + c.w.table(f.Entity) + "." + c.w.quote(ref[i+1:]) + " FROM " + c.w.table(f.Entity) + " WHERE " + cond + ")"
	if f.Referenced {
		// the rows the matching rows refer to: key IN (SELECT fk …)
		target := c.m.Entity(ref[:i]).Column(ref[i+1:])
		if target == nil {
			return "", fmt.Errorf("%w: %s refers to no column", ErrUnsupported, f.Via.Name)
		}
		s = c.w.col(target) + " IN (SELECT " + c.w.col(f.Via) + " FROM " + c.w.table(f.Entity) + " WHERE " + cond + ")"
	}
	if f.Exclude {
		s = "NOT (" + s + ")"
	}
	return s, nil
}

// latestOf keeps rows on the newest date of a time column, within the
// scope value when the question is scoped (one patient's latest test date).
func (c *compiler) latestOf(tc *model.Column) string {
	e := tc.Entity()
	sub := "(SELECT MAX(clarify_l." + c.w.quote(tc.Name) + ") FROM " + c.w.table(e) + " AS clarify_l"
	if s := c.q.Scope; s != nil && s.Entity != e {
		if path, ok := c.m.Path(e, s.Entity); ok && len(path) == 1 && path[0].ToOne {
			fk := c.w.quote(path[0].FromCol)
			sub += " WHERE clarify_l." + fk + " = " + c.w.table(e) + "." + fk
		}
	}
	return c.w.col(tc) + " = " + sub + ")"
}

// viaForeignKey rewrites a condition that only reads the key of an entity
// one many-to-one step from the base onto the base's foreign key, saving
// the join ("trades for AAPL": trades.symbol = ?).
func (c *compiler) viaForeignKey(f query.Filter) (query.Filter, bool) {
	if f.Cond == nil || f.Entity == c.base || f.Exclude {
		return f, false
	}
	path, ok := c.m.Path(c.base, f.Entity)
	if !ok || len(path) != 1 || !path[0].ToOne {
		return f, false
	}
	ed := path[0]
	for _, ref := range model.CondColumns(f.Cond) {
		col, err := c.m.ResolveColumn(f.Entity, ref)
		if err != nil || col.Entity() != f.Entity || col.Name != ed.ToCol {
			return f, false
		}
	}
	f.Cond = retarget(f.Cond, c.base.Name, ed.FromCol)
	f.Entity = c.base
	return f, true
}

// parentIn renders, on SQLite, a condition on a parent of the base rows
// (an entity many-to-one steps away: "trades for Mastercard") as a
// semi-join on the base's foreign key instead of a join:
//
//	trades.symbol IN (SELECT symbols.symbol FROM symbols WHERE symbols.company = ?)
//
// Without sqlite_stat1, which a database Clarify opens read-only cannot
// be given, SQLite's planner takes every table to be the same size: it
// scans the big child table and looks each row's parent up by key (213 ms
// on 2,000,000 trades) rather than find the few matching parents and read
// their children through an index that leads with the foreign key (39 ms).
// An IN list is estimated small, so the index is used when there is one;
// without one, the table is scanned as before and the list is probed
// instead of the parent's key. Each base row has at most one parent, so
// the rows kept are those the join kept. Only a condition on the columns
// of the entities on the path moves into the subquery (a model fragment
// or a condition reading other tables stays a join), and the other
// dialects, whose planners read statistics, keep the join.
//
// restrict has already taken the filters counted among children, read
// through a foreign key (Via) or excluding related rows.
func (c *compiler) parentIn(f query.Filter) (string, bool, error) {
	if c.w.d != model.SQLite || f.Cond == nil || f.Entity == c.base || f.LatestOf != nil {
		return "", false, nil
	}
	path, ok := c.m.Path(c.base, f.Entity)
	if !ok || len(path) == 0 || !model.ToOnePath(path) {
		return "", false, nil
	}
	// the subquery's tables are named as the outer ones: none may be the
	// base or come twice, or a column would read the wrong row
	along := map[*model.Entity]bool{}
	for _, ed := range path {
		if ed.To == c.base || along[ed.To] {
			return "", false, nil
		}
		along[ed.To] = true
	}
	for _, ref := range model.CondColumns(f.Cond) {
		col, err := c.m.ResolveColumn(f.Entity, ref)
		if err != nil || !along[col.Entity()] {
			return "", false, nil
		}
	}
	cond, err := c.filterSQL(f)
	if err != nil || cond == "" {
		return "", false, err
	}
	first := path[0]
	var b strings.Builder
	fmt.Fprintf(&b, "%s.%s IN (SELECT %s.%s FROM %s", c.w.table(c.base), c.w.quote(first.FromCol), c.w.table(first.To), c.w.quote(first.ToCol), c.w.table(first.To))
	for _, ed := range path[1:] {
		b.WriteString(" JOIN " + c.joinOn(ed))
	}
	all := []string{cond}
	for _, ed := range path {
		// a joined parent kept only current rows (whereConds); so does
		// the subquery
		all = append(all, c.currentConds(ed.To)...)
	}
	b.WriteString(" WHERE " + strings.Join(all, " AND ") + ")")
	return b.String(), true, nil
}

// retarget points every column of a condition at entity.column.
func retarget(cd model.Cond, entity, column string) model.Cond {
	switch x := cd.(type) {
	case model.And:
		out := model.And{}
		for _, it := range x.Items {
			out.Items = append(out.Items, retarget(it, entity, column))
		}
		return out
	case model.Or:
		out := model.Or{}
		for _, it := range x.Items {
			out.Items = append(out.Items, retarget(it, entity, column))
		}
		return out
	case model.Not:
		return model.Not{Item: retarget(x.Item, entity, column)}
	case model.Compare:
		ref := &model.ColumnRef{Entity: entity, Column: column}
		out := model.Compare{Left: model.Operand{Column: ref}, Op: x.Op}
		for _, r := range x.Right {
			if r.Column != nil {
				r = model.Operand{Column: ref}
			}
			out.Right = append(out.Right, r)
		}
		return out
	}
	return cd
}

// onPath reports whether entity a lies on the join path from the base to
// entity b (b reached through a), which makes them one EXISTS.
func (c *compiler) onPath(a, b *model.Entity) bool { return onPath(c.m, c.base, a, b) }

// onPath reports whether a lies on the join path from base to b.
func onPath(m *model.Model, base, a, b *model.Entity) bool {
	pa, ok := m.Path(base, a)
	if !ok {
		return false
	}
	pb, ok := m.Path(base, b)
	if !ok || len(pb) <= len(pa) {
		return false
	}
	for i := range pa {
		if pa[i] != pb[i] {
			return false
		}
	}
	return true
}

// exists renders EXISTS (SELECT 1 FROM path-to-e WHERE link AND conds).
func (c *compiler) exists(e *model.Entity, conds []string) (string, error) {
	sub, err := c.related(e, "1", conds)
	if err != nil {
		return "", err
	}
	return "EXISTS " + sub, nil
}

// countOfChildren renders (SELECT COUNT(*) FROM path-to-e WHERE link AND
// the filter's condition) op ?: a condition on the rows counted counts
// only those ("more than 1 delivered order").
func (c *compiler) countOfChildren(f query.Filter) (string, error) {
	cond, err := c.filterSQL(query.Filter{Entity: f.Entity, Cond: f.Cond, Predicate: f.Predicate})
	if err != nil {
		return "", err
	}
	var conds []string
	if cond != "" {
		conds = append(conds, cond)
	}
	sub, err := c.related(f.Entity, "COUNT(*)", conds)
	if err != nil {
		return "", err
	}
	op := f.Count.Op
	switch op {
	case "=", "<", "<=", ">", ">=":
	default:
		return "", fmt.Errorf("%w: count comparison %q", ErrUnsupported, op)
	}
	return sub + " " + op + " " + c.w.param(f.Count.N), nil
}

// related renders (SELECT what FROM the path from the base to e WHERE the
// link to the outer base row AND conds).
func (c *compiler) related(e *model.Entity, what string, conds []string) (string, error) {
	// related rows are the base row's children: a department's employees,
	// not the employee who manages it
	path, ok := c.m.ChildPath(c.base, e)
	if !ok {
		path, ok = c.m.Path(c.base, e)
	}
	if !ok || len(path) == 0 {
		return "", fmt.Errorf("%w: %s is not connected to %s", ErrUnsupported, e.Name, c.base.Name)
	}
	var b strings.Builder
	first := path[0]
	b.WriteString("(SELECT " + what + " FROM " + c.w.table(first.To))
	for _, ed := range path[1:] {
		b.WriteString(" JOIN " + c.joinOn(ed))
	}
	link := fmt.Sprintf("%s.%s = %s.%s", c.w.table(first.To), c.w.quote(first.ToCol), c.w.table(c.base), c.w.quote(first.FromCol))
	all := append([]string{link}, conds...)
	for _, ed := range path {
		all = append(all, c.currentConds(ed.To)...)
	}
	b.WriteString(" WHERE " + strings.Join(all, " AND ") + ")")
	return b.String(), nil
}

// scope limits the base rows to one scope value. A single foreign key to
// the scope entity is compared directly; longer paths are joined.
func (c *compiler) scope() error {
	s := c.q.Scope
	if s == nil {
		return nil
	}
	if s.Entity == c.base {
		c.where = append(c.where, c.w.key(c.base)+" = "+c.w.param(s.Key))
		return nil
	}
	path, ok := c.m.Path(c.base, s.Entity)
	if !ok || !model.ToOnePath(path) {
		return fmt.Errorf("%w: %s cannot be limited to one %s", ErrUnsupported, c.base.PluralLabel(), s.Entity.Singular())
	}
	if len(path) == 1 && path[0].ToCol == s.Entity.Key {
		c.where = append(c.where, c.w.table(c.base)+"."+c.w.quote(path[0].FromCol)+" = "+c.w.param(s.Key))
		return nil
	}
	c.reach(s.Entity)
	c.where = append(c.where, c.w.key(s.Entity)+" = "+c.w.param(s.Key))
	return nil
}

// addMeta appends a select expression with a unique output name,
// described by meta.
func (c *compiler) addMeta(expr, name string, meta Column) string {
	name = strings.ToLower(name)
	if n := c.names[name]; n > 0 {
		c.names[name] = n + 1
		name = fmt.Sprintf("%s_%d", name, n+1)
	} else {
		c.names[name] = 1
	}
	c.sel = append(c.sel, expr+" AS "+c.w.quote(name))
	meta.Name = name
	c.cols = append(c.cols, meta)
	return name
}

// colType is the type of the values an answer holds for a column, as the
// model declares them: a flag stored as "Y"/"N" is text and one stored as
// 0/1 an integer (their Kind, bool, says they mean yes or no), a declared
// boolean is boolean.
func colType(col *model.Column) string {
	switch {
	case col.Type == "date":
		return "date"
	case col.Type == "timestamp":
		return "timestamp"
	case col.Type == "boolean":
		return "boolean"
	case col.Type == "text":
		return "text"
	case col.Type == "integer" || col.Role == model.RoleFlag && col.TrueValue == "":
		return "integer"
	case col.Type == "real" || col.Type == "numeric" || (col.Type == "" && col.Role == model.RoleMeasure):
		return "real"
	}
	return "text"
}

// addColumn selects a column, naming it after the column (entity-prefixed
// when another entity's column of the same name is already selected).
func (c *compiler) addColumn(col *model.Column) string {
	name := col.Name
	if c.names[name] > 0 && col.Entity() != c.base {
		name = col.Entity().Singular() + "_" + col.Name
		name = strings.ReplaceAll(name, " ", "_")
	}
	if c.colOf != nil {
		if _, ok := c.colOf[col]; !ok {
			c.colOf[col] = len(c.cols)
		}
	}
	return c.addMeta(c.w.col(col), name, columnMeta(col))
}

// topLimit is the LIMIT of a top-N statement: the N rows and the rows
// that may tie with the last of them, within the row cap.
func (c *compiler) topLimit(n int) int64 {
	return int64(min(n+TieProbe, c.opt.RowCap+1))
}

// listColumns are the columns a list of base rows shows.
func (c *compiler) listColumns() []*model.Column {
	e := c.base
	var out []*model.Column
	seen := map[*model.Column]bool{}
	push := func(col *model.Column) {
		if col != nil && !seen[col] {
			seen[col] = true
			out = append(out, col)
		}
	}
	if len(c.q.Columns) > 0 {
		push(e.KeyColumn())
		if e.Display != "" {
			push(e.DisplayColumn())
		}
		// rows over time keep their date ("vitamin D3 levels over time")
		if tc := c.m.TimeColumn(e); tc != nil && tc.Entity() == e {
			push(tc)
		}
		for _, col := range c.q.Columns {
			push(col)
		}
		return out
	}
	if len(e.ListColumns) > 0 {
		for _, n := range e.ListColumns {
			push(e.Column(n))
		}
		return out
	}
	push(e.KeyColumn())
	push(e.DisplayColumn())
	for _, col := range e.Columns {
		if len(out) >= 8 {
			break
		}
		switch col.Role {
		case model.RoleName, model.RoleDimension, model.RoleMeasure, model.RoleTime, model.RoleFlag:
			push(col)
		}
	}
	return out
}

func (c *compiler) finish(sql string, countable bool) *Plan {
	c.ranges()
	p := &Plan{Columns: c.cols}
	p.SQL, p.Args = c.w.bind(sql)
	return p
}

// list compiles a list of base rows.
func (c *compiler) list() (*Plan, error) {
	q := c.q
	if err := c.restrict(); err != nil {
		return nil, err
	}
	cols := c.listColumns()
	for _, col := range cols {
		if !c.reach(col.Entity()) {
			continue
		}
	}
	if q.Latest != nil && q.Latest.Time != nil && q.Latest.Per != nil {
		return c.latestPerGroup(cols)
	}
	for _, col := range cols {
		if c.joined[col.Entity()] {
			c.addColumn(col)
		}
	}
	for _, col := range cols {
		c.nameReference(col)
	}
	// the top rows by a column ("the 3 most expensive products") show it,
	// and may stop inside a tie
	var ties *Ties
	if q.Intent == query.IntentTop && q.Limit > 0 && q.Limit <= c.opt.RowCap && len(q.Order) > 0 && c.reach(q.Order[0].Column.Entity()) {
		oc := q.Order[0].Column
		if _, shown := c.colOf[oc]; !shown {
			c.addColumn(oc)
		}
		ties = newTies(q.Limit, c.colOf[oc], strings.ToLower(oc.Title()), c.base)
	}
	order := c.orderBy()
	if c.orderErr != nil {
		return nil, c.orderErr
	}
	limit := q.Limit
	if q.Latest != nil && q.Latest.Per == nil {
		limit = 1
	}
	if limit == 0 || limit > c.opt.RowCap {
		limit = c.opt.RowCap + 1
	}
	lim := int64(limit)
	if ties != nil {
		lim = c.topLimit(limit)
	}
	body := c.from() + c.whereSQL()
	sql := "SELECT " + strings.Join(c.sel, ", ") + body + order + " LIMIT " + c.w.param(lim)
	p := c.finish(sql, true)
	p.Ties = ties
	p.CountSQL, p.CountArgs = c.w.bind(countOf(body, q.Limit))
	return p, nil
}

// countOf builds the row-count query of a list body.
func countOf(body string, limit int) string {
	if limit > 0 {
		return fmt.Sprintf("SELECT COUNT(*) FROM (SELECT 1 AS one%s LIMIT %d) AS clarify_count", body, limit)
	}
	return "SELECT COUNT(*)" + body
}

// orderBy sorts lists: the question's order, else newest first when the
// base has its own time column, else by key.
func (c *compiler) orderBy() string {
	q := c.q
	var parts []string
	for _, o := range q.Order {
		if !c.reach(o.Column.Entity()) {
			// an order the rows cannot follow would list them in another
			// order under a statement that says this one
			c.orderErr = fmt.Errorf("%w: %s cannot be ordered by %s", ErrUnsupported, c.base.PluralLabel(), o.Column.Title())
			continue
		}
		parts = append(parts, c.w.nullsLast(c.w.col(o.Column), o.Desc))
	}
	if q.Latest != nil && q.Latest.Time != nil {
		parts = append(parts, c.w.col(q.Latest.Time)+" DESC")
	} else if tc := c.m.TimeColumn(c.base); tc != nil && tc.Entity() == c.base && len(parts) == 0 {
		parts = append(parts, c.w.col(tc)+" DESC")
	}
	parts = append(parts, c.tiebreak(c.base)...)
	return " ORDER BY " + strings.Join(parts, ", ")
}

// tiebreak orders rows that tie on everything asked, so answers are
// stable: by the entity's key, or for an entity without one by its
// display column.
func (c *compiler) tiebreak(e *model.Entity) []string {
	if e.KeyColumn() != nil {
		return []string{c.w.key(e) + " ASC"}
	}
	if d := e.DisplayColumn(); d != nil {
		return []string{c.w.nullsLast(c.w.col(d), false)}
	}
	return nil
}

func dir(desc bool) string {
	if desc {
		return " DESC"
	}
	return " ASC"
}

// latestPerGroup keeps the newest base row per value of Latest.Per, with a
// window function over the filtered rows; the derived table takes the base
// table's name so the outer select reads the same qualified columns.
func (c *compiler) latestPerGroup(cols []*model.Column) (*Plan, error) {
	q := c.q
	base := c.w.table(c.base)
	newest := c.w.col(q.Latest.Time) + " DESC"
	if c.base.KeyColumn() != nil {
		newest += ", " + c.w.key(c.base) + " DESC"
	}
	inner := "SELECT " + base + ".*, ROW_NUMBER() OVER (PARTITION BY " + c.w.col(q.Latest.Per) + " ORDER BY " +
		newest + ") AS clarify_rn" + c.from() + c.whereSQL()
	for _, col := range cols {
		if col.Entity() == c.base {
			c.addColumn(col)
		}
	}
	body := " FROM (" + inner + ") AS " + base + " WHERE clarify_rn = 1"
	sql := "SELECT " + strings.Join(c.sel, ", ") + body + " ORDER BY " + c.w.col(q.Latest.Per) + " ASC LIMIT " + c.w.param(int64(c.opt.RowCap+1))
	p := c.finish(sql, true)
	p.CountSQL, p.CountArgs = c.w.bind("SELECT COUNT(*)" + body)
	return p, nil
}

// aggExpr renders an aggregate and the measure's own filter.
func (c *compiler) aggExpr(a query.Agg) (string, error) {
	f, err := c.aggParts(a)
	if err != nil {
		return "", err
	}
	return f.render(c.w.d, ""), nil
}

// aggCall is an aggregate call taken apart, so that it can be made
// conditional: fn over arg ("" for COUNT(*)), DISTINCT or not.
type aggCall struct {
	fn       string
	arg      string
	distinct bool
}

// render writes the call; cond, when set, limits the rows it reads
// (a conditional aggregate): FILTER (WHERE cond) on PostgreSQL and
// SQLite, a CASE inside the call on MySQL, which has no FILTER. Either
// way an aggregate over no rows is what it is unconditionally: 0 for a
// count, NULL for the others.
func (f aggCall) render(d model.Dialect, cond string) string {
	arg := f.arg
	if cond != "" && d == model.MySQL {
		if arg == "" {
			arg = "1"
		}
		arg = "CASE WHEN " + cond + " THEN " + arg + " END"
		cond = ""
	}
	if arg == "" {
		arg = "*"
	}
	if f.distinct {
		arg = "DISTINCT " + arg
	}
	s := f.fn + "(" + arg + ")"
	if cond != "" {
		s += " FILTER (WHERE " + cond + ")"
	}
	return s
}

// aggParts is aggExpr's call before rendering; it adds the measure's own
// filter to the statement's conditions.
func (c *compiler) aggParts(a query.Agg) (aggCall, error) {
	count := aggCall{fn: "COUNT"}
	var arg string
	switch {
	case a.Measure != nil:
		ms := a.Measure
		if !ms.Filter.IsZero() {
			f, err := c.w.fragment(ms.Filter, c.opt.Now)
			if err != nil {
				return aggCall{}, err
			}
			c.where = append(c.where, "("+f+")")
		}
		if ms.Expr.IsZero() {
			if a.Func == "count" || a.Func == "count_distinct" {
				return count, nil
			}
			return aggCall{}, fmt.Errorf("%w: measure %s has no expression", ErrUnsupported, ms.Name)
		}
		var err error
		arg, err = c.w.fragment(ms.Expr, c.opt.Now)
		if err != nil {
			return aggCall{}, err
		}
	case a.Column != nil:
		if !c.reach(a.Column.Entity()) {
			return aggCall{}, fmt.Errorf("%w: %s is not reachable from %s", ErrUnsupported, a.Column.Entity().Name, c.base.Name)
		}
		arg = c.w.col(a.Column)
	default:
		if len(c.manyJoins()) > 0 && c.base.KeyColumn() != nil {
			return aggCall{fn: "COUNT", arg: c.w.key(c.base), distinct: true}, nil
		}
		return count, nil
	}
	switch a.Func {
	case "count":
		return aggCall{fn: "COUNT", arg: arg}, nil
	case "count_distinct":
		return aggCall{fn: "COUNT", arg: arg, distinct: true}, nil
	case "avg":
		// MySQL averages integers as DECIMAL with 4 places; DOUBLE keeps precision
		if c.w.d == model.MySQL {
			arg = "CAST(" + arg + " AS DOUBLE)"
		}
		return aggCall{fn: "AVG", arg: arg}, nil
	case "sum", "min", "max":
		return aggCall{fn: strings.ToUpper(a.Func), arg: arg}, nil
	}
	return aggCall{}, fmt.Errorf("%w: aggregate %q", ErrUnsupported, a.Func)
}

// manyJoins lists joined steps that multiply rows (only grouping by a
// child's column adds them).
func (c *compiler) manyJoins() []model.Edge {
	var out []model.Edge
	for _, ed := range c.joins {
		if !ed.ToOne {
			out = append(out, ed)
		}
	}
	return out
}

func aggName(a query.Agg) string {
	name := strings.ToLower(strings.ReplaceAll(strings.TrimSpace(a.Label), " ", "_"))
	name = strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '_' || r > 127 {
			return r
		}
		return -1
	}, name)
	if name == "" {
		return "value"
	}
	return name
}

func aggType(a query.Agg) string {
	switch a.Func {
	case "count", "count_distinct":
		return "integer"
	case "min", "max":
		if a.Column != nil {
			return colType(a.Column)
		}
	}
	return "real"
}

// aggregate compiles a single aggregate over the filtered base rows.
func (c *compiler) aggregate() (*Plan, error) {
	if err := c.restrict(); err != nil {
		return nil, err
	}
	expr, err := c.aggExpr(*c.q.Agg)
	if err != nil {
		return nil, err
	}
	c.addMeta(expr, aggName(*c.q.Agg), aggMeta(*c.q.Agg))
	sql := "SELECT " + strings.Join(c.sel, ", ") + c.from() + c.whereSQL()
	return c.finish(sql, false), nil
}

// groupExprs adds the group-by expressions to the select list.
func (c *compiler) groupExprs() ([]string, error) {
	var groups []string
	for _, g := range c.q.Group {
		switch {
		case g.Bucket != "" && g.Column != nil:
			if !c.joinAny(g.Column.Entity()) {
				return nil, fmt.Errorf("%w: cannot group %s by %s", ErrUnsupported, c.base.PluralLabel(), g.Column.Title())
			}
			e := c.w.bucket(g.Column, g.Bucket)
			c.addMeta(e, g.Bucket, bucketMeta(g.Bucket))
			groups = append(groups, e)
		case g.Entity != nil:
			if !c.joinAny(g.Entity) {
				return nil, fmt.Errorf("%w: cannot group %s by %s", ErrUnsupported, c.base.PluralLabel(), g.Entity.Singular())
			}
			k := g.Entity.KeyColumn()
			d := g.Entity.DisplayColumn()
			if k == nil {
				k = d // no key: rows with one display are one group
			}
			if d != k {
				c.addMeta(c.w.col(k), strings.ReplaceAll(g.Entity.Singular(), " ", "_")+"_"+k.Name, columnMeta(k))
			}
			c.addMeta(c.w.col(d), d.Name, columnMeta(d))
			groups = append(groups, c.w.col(k))
			if d != k {
				groups = append(groups, c.w.col(d))
			}
		case g.Column != nil:
			if !c.joinAny(g.Column.Entity()) {
				return nil, fmt.Errorf("%w: cannot group %s by %s", ErrUnsupported, c.base.PluralLabel(), g.Column.Title())
			}
			c.addColumn(g.Column)
			groups = append(groups, c.w.col(g.Column))
		}
	}
	return groups, nil
}

// joinAny joins e through many-to-one steps, or through one-to-many steps
// when grouping by a child's column (rows multiply; counts then use
// COUNT(DISTINCT key)).
func (c *compiler) joinAny(e *model.Entity) bool {
	if c.reach(e) {
		return true
	}
	path, ok := c.m.Path(c.base, e)
	if !ok {
		return false
	}
	for _, ed := range path {
		if !c.joined[ed.To] {
			c.joined[ed.To] = true
			c.joins = append(c.joins, ed)
		}
	}
	return true
}

// grouped compiles an aggregate per group or per time bucket.
func (c *compiler) grouped() (*Plan, error) {
	if g := c.q.Group; len(g) == 1 && g[0].Entity != nil && g[0].Bucket == "" {
		// per parent by a count or sum of its children: those with none too
		if p, ok, err := c.groupParents(); err != nil || ok {
			return p, err
		}
	}
	if err := c.restrict(); err != nil {
		return nil, err
	}
	groups, err := c.groupExprs()
	if err != nil {
		return nil, err
	}
	expr, err := c.aggExpr(*c.q.Agg)
	if err != nil {
		return nil, err
	}
	name := c.addMeta(expr, aggName(*c.q.Agg), aggMeta(*c.q.Agg))
	order := " ORDER BY " + c.w.quote(name) + dir(!c.q.SortAsc) + ", " + strings.Join(groups, ", ")
	if c.q.Group[0].Bucket != "" {
		order = " ORDER BY " + strings.Join(groups, ", ")
	}
	limit := c.opt.RowCap + 1
	if c.q.Limit > 0 && c.q.Limit < limit {
		limit = c.q.Limit
	}
	sql := "SELECT " + strings.Join(c.sel, ", ") + c.from() + c.whereSQL() + " GROUP BY " + strings.Join(groups, ", ") + order +
		" LIMIT " + c.w.param(int64(limit))
	return c.finish(sql, false), nil
}

// rank compiles top/bottom N entities by a metric.
func (c *compiler) rank() (*Plan, error) {
	r := c.q.Rank
	// ranking rows by one of their own columns: no grouping
	if r.Metric.Column != nil && r.Metric.Column.Entity() == r.Entity && c.base == r.Entity {
		if err := c.restrict(); err != nil {
			return nil, err
		}
		cols := c.listColumns()
		for _, col := range cols {
			// a parent's column asked to be shown joins the parent
			if c.reach(col.Entity()) {
				c.addColumn(col)
			}
		}
		if !contains(cols, r.Metric.Column) {
			c.addColumn(r.Metric.Column)
		}
		order := append([]string{c.w.nullsLast(c.w.col(r.Metric.Column), r.Desc)}, c.tiebreak(r.Entity)...)
		sql := "SELECT " + strings.Join(c.sel, ", ") + c.from() + c.whereSQL() + " ORDER BY " + strings.Join(order, ", ") +
			" LIMIT " + c.w.param(c.topLimit(r.Limit))
		p := c.finish(sql, false)
		p.Ties = newTies(r.Limit, c.colOf[r.Metric.Column], r.Metric.Label, r.Entity)
		return p, nil
	}
	if !c.reach(r.Entity) {
		return nil, fmt.Errorf("%w: %s cannot be ranked by %s", ErrUnsupported, r.Entity.PluralLabel(), r.Metric.Label)
	}
	// parents by a count or sum of their children: those with none too
	if p, ok, err := c.rankParents(); err != nil || ok {
		return p, err
	}
	if err := c.restrict(); err != nil {
		return nil, err
	}
	k := r.Entity.KeyColumn()
	d := r.Entity.DisplayColumn()
	if k == nil {
		return nil, fmt.Errorf("%w: %s have no key to tell them apart, so they cannot be ranked", ErrUnsupported, r.Entity.PluralLabel())
	}
	c.addColumn(k)
	groups := []string{c.w.col(k)}
	if d != k {
		c.addColumn(d)
		groups = append(groups, c.w.col(d))
	}
	expr, err := c.aggExpr(r.Metric)
	if err != nil {
		return nil, err
	}
	name := c.addMeta(expr, aggName(r.Metric), aggMeta(r.Metric))
	sql := "SELECT " + strings.Join(c.sel, ", ") + c.from() + c.whereSQL() + " GROUP BY " + strings.Join(groups, ", ") +
		" ORDER BY " + c.w.quote(name) + dir(r.Desc) + ", " + c.w.col(k) + " ASC LIMIT " + c.w.param(c.topLimit(r.Limit))
	p := c.finish(sql, false)
	p.Ties = newTies(r.Limit, len(c.cols)-1, r.Metric.Label, r.Entity)
	return p, nil
}

func contains(cs []*model.Column, c *model.Column) bool {
	for _, x := range cs {
		if x == c {
			return true
		}
	}
	return false
}

// CompileCount compiles the number of base rows a query's restrictions
// keep (filters, time window and scope, not its aggregation or limit): the
// preview of a clarification option and the test of a relaxed filter.
func CompileCount(m *model.Model, q *query.Query, d model.Dialect, opt Options) (string, []any, error) {
	if q == nil || q.Base == nil {
		return "", nil, fmt.Errorf("%w: the question has no subject", ErrUnsupported)
	}
	c := &compiler{m: m, q: q, w: &writer{d: d}, opt: opt, base: q.Base, joined: map[*model.Entity]bool{q.Base: true}, names: map[string]int{}}
	if err := c.restrict(); err != nil {
		return "", nil, err
	}
	if q.Agg != nil && q.Agg.Measure != nil {
		// the rows a measure is computed from: its own filter too
		// (healing time only over healed wounds)
		if _, err := c.aggExpr(*q.Agg); err != nil {
			return "", nil, err
		}
	}
	sql, args := c.w.bind("SELECT COUNT(*)" + c.from() + c.whereSQL())
	if c.w.err != nil {
		return "", nil, c.w.err
	}
	return sql, args, nil
}

// windowConds are the conditions a period puts on its column: dates from
// From (inclusive) to To (exclusive), or, for a column holding calendar
// years, the years the period touches ("before 1980" on a year column is
// year < 1980; "since March 2020" keeps 2020).
func (c *compiler) windowConds(tw *query.TimeFilter) []string {
	var out []string
	col := c.w.col(tw.Column)
	if !tw.Column.HoldsYears() {
		if tw.Window.From != "" {
			out = append(out, col+" >= "+c.w.param(tw.Window.From))
		}
		if tw.Window.To != "" {
			out = append(out, col+" < "+c.w.param(tw.Window.To))
		}
		return out
	}
	year := func(d string) any {
		y, _ := strconv.Atoi(d[:min(4, len(d))])
		if tw.Column.Numeric() {
			return int64(y)
		}
		return fmt.Sprintf("%04d", y) // a text column of years compares as text
	}
	if tw.Window.From != "" {
		out = append(out, col+" >= "+c.w.param(year(tw.Window.From)))
	}
	if to := tw.Window.To; to != "" {
		if strings.HasSuffix(to, "-01-01") {
			out = append(out, col+" < "+c.w.param(year(to)))
		} else {
			out = append(out, col+" <= "+c.w.param(year(to)))
		}
	}
	return out
}

package guard

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/clarify-sql/clarify/internal/apperr"
	"github.com/clarify-sql/clarify/internal/model"
)

// Error is a statement the guard refuses. Code is
// apperr.CodeValidationFailed (not one read-only SELECT over the model, or
// something the guard does not allow) or apperr.CodeScopeViolation (it
// would read a scoped table in a way the guard cannot restrict to the
// conversation's scope value). Reason says what to change; it names
// tables, columns, functions and constructs but never repeats a literal of
// the statement or anything read from a database, so it is safe to show.
//
// It stays the guard's own type rather than an *apperr.Error: the guard
// is a step used on its own too (`clarify guard` prints its verdicts), and
// the engine decides what a rejection means for a turn — a statement to
// mend, or a right the user lacks (SCOPE_FORBIDDEN) — when it turns it
// into the *apperr.Error a user sees.
type Error struct {
	Code   apperr.Code
	Reason string
}

func (e *Error) Error() string { return string(e.Code) + ": " + e.Reason }

func reject(format string, args ...any) error {
	return &Error{Code: apperr.CodeValidationFailed, Reason: fmt.Sprintf(format, args...)}
}

func scopeViolation(format string, args ...any) error {
	return &Error{Code: apperr.CodeScopeViolation, Reason: fmt.Sprintf(format, args...)}
}

// Options tune a guard. The zero value means the defaults.
type Options struct {
	// RowCap is the most rows an answer may show (default 1000). Every
	// accepted statement has LIMIT RowCap+1 or lower, so execution can tell
	// that an answer was truncated.
	RowCap int
	// MaxLength is the longest statement accepted, in bytes (default
	// 32 KiB). Longer statements are rejected before parsing.
	MaxLength int
	// MaxDepth is the deepest parenthesis nesting accepted (default 64).
	MaxDepth int
	// MaxSelects is the most SELECT keywords (queries and subqueries) a
	// statement may hold (default 64); MaxSetOps the most UNION, INTERSECT
	// and EXCEPT (default 32). Both bound the parsers' and printers' work.
	MaxSelects int
	MaxSetOps  int
}

func (o *Options) defaults() {
	if o.RowCap <= 0 {
		o.RowCap = 1000
	}
	if o.MaxLength <= 0 {
		o.MaxLength = 32 << 10
	}
	if o.MaxSelects <= 0 {
		o.MaxSelects = 64
	}
	if o.MaxSetOps <= 0 {
		o.MaxSetOps = 32
	}
	if o.MaxDepth <= 0 {
		o.MaxDepth = 64
	}
}

// Scope limits a conversation to scope values: keys of rows of the
// model's scope entity (labs: patients' ids). Set exactly one of:
//
//   - Value: one scope value (the patient a question names). Every scoped
//     table reads only that value's rows.
//   - Values: a set of scope values (the patients a user may see, when the
//     question names none), at most MaxScopeValues of them; duplicates
//     count once. Every scoped table reads only the rows of values in the
//     set, and a comparison of a scope key with a value outside it is
//     refused. A set of one behaves exactly as Value; an empty, non-nil
//     set as None.
//   - None: a user limited to some scope values who may see none of them:
//     every scoped table is refused, unscoped tables (reference data such
//     as the list of analytes) are read as usual.
type Scope struct {
	Value  string
	Values []string
	None   bool
}

// MaxScopeValues is the most values a Scope's set may hold: each becomes a
// literal of every scoped projection, so a larger set is refused with a
// scope violation rather than printed into statements of unbounded size.
const MaxScopeValues = 1000

// normScope checks a scope and returns it in the one form the checkers
// read: nil for an unscoped check, None for the empty set, else Values
// sorted and without duplicates (Value unset).
func (g *Guard) normScope(sc *Scope) (*Scope, error) {
	if sc == nil {
		return nil, nil
	}
	forms := 0
	for _, set := range []bool{sc.Value != "", sc.Values != nil, sc.None} {
		if set {
			forms++
		}
	}
	if forms > 1 {
		return nil, scopeViolation("a scope is one value, a set of values or none, not several of these")
	}
	vals := sc.Values
	if sc.Values == nil && !sc.None {
		vals = []string{sc.Value} // "" is refused below, as before sets
	}
	if len(vals) > MaxScopeValues {
		return nil, scopeViolation("this user may see %d %s; a statement can be limited to at most %d",
			len(vals), g.scopeLabel(true), MaxScopeValues)
	}
	for _, v := range vals {
		if err := checkScopeValue(v); err != nil {
			return nil, err
		}
	}
	if len(vals) == 0 {
		if g.m.Scope == nil {
			return nil, nil // nothing is scoped: nothing to refuse
		}
		return &Scope{None: true}, nil
	}
	if g.m.Scope == nil {
		return nil, scopeViolation("the model has no scope entity, so a statement cannot be scoped")
	}
	vals = slices.Clone(vals)
	slices.Sort(vals)
	return &Scope{Values: slices.Compact(vals)}, nil
}

// scopeLabel names the model's scope entity for people: "patient",
// "patients".
func (g *Guard) scopeLabel(plural bool) string {
	if g.m.Scope != nil {
		if se := g.m.Entity(g.m.Scope.Entity); se != nil {
			if plural {
				return strings.ToLower(se.PluralLabel())
			}
			return strings.ToLower(se.Singular())
		}
	}
	if plural {
		return "scope values"
	}
	return "scope value"
}

// contains reports whether a normalised scope's set holds v.
func (sc *Scope) contains(v string) bool {
	_, ok := slices.BinarySearch(sc.Values, v)
	return ok
}

// setKey renders a normalised scope's set for cache keys: the values
// cannot hold control characters, so NUL separates them unambiguously.
func (sc *Scope) setKey() string { return strings.Join(sc.Values, "\x00") }

// Statement is an accepted statement: the SQL to execute, printed from the
// checked tree, and its arguments (a copy when the guard changed one).
type Statement struct {
	SQL  string
	Args []any
}

// Guard checks statements for one model and dialect. It is safe for
// concurrent use.
type Guard struct {
	m   *model.Model
	d   model.Dialect
	opt Options
	// scoped maps each entity whose rows belong to one scope value to how
	// its rows are filtered; nil when the model has no scope.
	scoped map[*model.Entity]*scopePath
	// unscopable names scoped entities without a many-to-one path to the
	// scope entity (a model mistake CheckModel reports).
	unscopable map[*model.Entity]bool

	initOnce sync.Once
	initErr  error
	impl     checker

	// cache remembers recent verdicts: Clarify checks the same compiled
	// statements again and again (previews, repeated questions).
	cacheMu sync.Mutex
	cache   map[string]verdict

	// skipParser is a test-only hook (export_test.go): Check then returns
	// the statement unchanged, so tests can show what execution alone stops.
	skipParser bool
	// panics is a test-only hook for fuzzing: parser panics propagate.
	panics bool
}

// verdict is a cached result of Check.
type verdict struct {
	st  *Statement
	err error
}

// cacheSize bounds the verdict cache; it is cleared when full.
const cacheSize = 1024

// cacheKey identifies a verdict: the normalised scope (no scope, none, or
// the set), the statement and its arguments.
func cacheKey(sql string, args []any, sc *Scope) string {
	var b strings.Builder
	switch {
	case sc == nil:
		b.WriteByte('-')
	case sc.None:
		b.WriteByte('0')
	default:
		b.WriteByte('1')
		for _, v := range sc.Values {
			b.WriteString(v)
			b.WriteByte(0)
		}
	}
	b.WriteByte(1)
	b.WriteString(sql)
	for _, a := range args {
		fmt.Fprintf(&b, "\x00%T:%v", a, a)
	}
	return b.String()
}

// checker is one dialect's parser, rules and printer.
type checker interface {
	check(g *Guard, sql string, args []any, sc *Scope) (*Statement, error)
}

// New returns a guard for a model's statements in a dialect.
func New(m *model.Model, d model.Dialect, opt Options) *Guard {
	opt.defaults()
	g := &Guard{m: m, d: d, opt: opt}
	g.scoped, g.unscopable = scopePaths(m)
	return g
}

// Dialect returns the dialect the guard checks.
func (g *Guard) Dialect() model.Dialect { return g.d }

// Check parses sql and returns the statement to execute in its place, or an
// *Error saying why it may not run. args are the statement's bound
// arguments (placeholders: ? for SQLite and MySQL, $1… for PostgreSQL); a
// statement with a placeholder that args hold no value for is refused.
// A nil scope means the conversation is not scoped.
func (g *Guard) Check(sql string, args []any, scope *Scope) (st *Statement, err error) {
	g.initOnce.Do(g.init)
	if g.initErr != nil {
		return nil, g.initErr
	}
	if g.skipParser {
		return &Statement{SQL: sql, Args: args}, nil
	}
	if err := g.precheck(sql); err != nil {
		return nil, err
	}
	scope, err = g.normScope(scope)
	if err != nil {
		return nil, err
	}
	key := cacheKey(sql, args, scope)
	g.cacheMu.Lock()
	v, hit := g.cache[key]
	g.cacheMu.Unlock()
	if hit {
		if v.err != nil {
			return nil, v.err
		}
		return &Statement{SQL: v.st.SQL, Args: append([]any(nil), v.st.Args...)}, nil
	}
	st, err = g.check(sql, args, scope)
	if _, rejected := IsRejection(err); err == nil || rejected {
		g.cacheMu.Lock()
		if g.cache == nil || len(g.cache) >= cacheSize {
			g.cache = make(map[string]verdict, cacheSize)
		}
		if st != nil {
			g.cache[key] = verdict{st: &Statement{SQL: st.SQL, Args: append([]any(nil), st.Args...)}}
		} else {
			g.cache[key] = verdict{err: err}
		}
		g.cacheMu.Unlock()
	}
	return st, err
}

// placeholder is one parameter placeholder of a statement: the index of
// the argument it takes (from 1) and how it is written.
type placeholder struct {
	n    int
	text string
}

// positional lists n ? placeholders, which take arguments in order.
func positional(n int) []placeholder {
	out := make([]placeholder, n)
	for i := range out {
		out[i] = placeholder{n: i + 1, text: "?"}
	}
	return out
}

// bound refuses a statement with a placeholder that args hold no value
// for. A language model's statement never carries arguments, so a
// placeholder in it would otherwise reach the database and fail there.
// More arguments than placeholders are left to the database.
func bound(ps []placeholder, args []any) error {
	need, first := 0, ""
	for _, p := range ps {
		if p.n >= 1 && p.n <= len(args) {
			continue
		}
		if first == "" {
			first = p.text
		}
		need = max(need, p.n)
	}
	switch {
	case first == "":
		return nil
	case len(args) == 0 || need <= len(args): // none given, or $0
		return reject("the statement has a parameter placeholder (%s) with no value; write the value into the statement instead", first)
	}
	return reject("the statement has a parameter placeholder (%s) with no value: it needs %d values, %d given", first, need, len(args))
}

// errParserPanic marks a third-party parser that panicked on its input.
var errParserPanic = errors.New("the parser failed on the statement")

// safely runs a third-party parser and turns a panic into errParserPanic:
// a parser's bug must not take the process down, and fuzzing, which lets
// panics in the guard's own code escape, must not stop at a bug in code we
// do not own (Vitess panics on "@@global." with no name, for one).
func safely[T any](parse func() (T, error)) (v T, err error) {
	defer func() {
		if r := recover(); r != nil {
			var zero T
			v, err = zero, fmt.Errorf("%w: %v", errParserPanic, r)
		}
	}()
	return parse()
}

// check checks one statement, uncached, with a scope normScope returned.
func (g *Guard) check(sql string, args []any, scope *Scope) (st *Statement, err error) {
	defer func() {
		// Parsers are third-party code: never let one take the process down.
		if !g.panics {
			if r := recover(); r != nil {
				st, err = nil, reject("the statement could not be checked (parser failure)")
			}
		}
	}()
	return g.impl.check(g, sql, args, scope)
}

func (g *Guard) init() {
	switch g.d {
	case model.SQLite:
		g.impl, g.initErr = newSQLiteChecker(g)
	case model.Postgres:
		g.impl = &pgChecker{}
	case model.MySQL:
		g.impl, g.initErr = newMySQLChecker()
	default:
		g.initErr = fmt.Errorf("guard: unknown dialect %q", g.d)
	}
}

// limit is the LIMIT every accepted statement stays at or under.
func (g *Guard) limit() int64 { return int64(g.opt.RowCap) + 1 }

// precheck bounds the work the parsers are given: length, nesting, and
// bytes no SQL needs.
func (g *Guard) precheck(sql string) error {
	if strings.TrimSpace(sql) == "" {
		return reject("the statement is empty")
	}
	if len(sql) > g.opt.MaxLength {
		return reject("the statement is %d bytes long; at most %d are accepted", len(sql), g.opt.MaxLength)
	}
	if !utf8.ValidString(sql) {
		return reject("the statement is not valid UTF-8")
	}
	if strings.IndexByte(sql, 0) >= 0 {
		return reject("the statement contains a NUL byte")
	}
	if d := nesting(sql, g.d); d > g.opt.MaxDepth {
		return reject("the statement nests parentheses %d deep; at most %d are accepted", d, g.opt.MaxDepth)
	}
	words := countWords(sql, "select", "union", "intersect", "except")
	if n := words["select"]; n > g.opt.MaxSelects {
		return reject("the statement has %d SELECTs; at most %d are accepted", n, g.opt.MaxSelects)
	}
	if n := words["union"] + words["intersect"] + words["except"]; n > g.opt.MaxSetOps {
		return reject("the statement has %d set operations (UNION …); at most %d are accepted", n, g.opt.MaxSetOps)
	}
	return nil
}

// countWords counts whole-word occurrences of words (lower case) anywhere
// in s, quotes and comments included: an over-count only refuses sooner.
func countWords(s string, words ...string) map[string]int {
	out := make(map[string]int, len(words))
	isWord := func(c byte) bool {
		return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
	}
	for i := 0; i < len(s); {
		if !isWord(s[i]) {
			i++
			continue
		}
		j := i
		for j < len(s) && isWord(s[j]) {
			j++
		}
		for _, w := range words {
			if len(w) == j-i && strings.EqualFold(s[i:j], w) {
				out[w]++
				break
			}
		}
		i = j
	}
	return out
}

// nesting returns the deepest parenthesis nesting outside quotes and
// comments. It is a bound on parser work, not a parser: a miscount only
// moves the point where a deep statement is refused.
func nesting(s string, d model.Dialect) int {
	depth, deepest := 0, 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '(':
			depth++
			deepest = max(deepest, depth)
		case c == ')':
			depth--
		case c == '\'' || c == '"' || c == '`' || (c == '[' && d == model.SQLite):
			end := c
			if c == '[' {
				end = ']'
			}
			for i++; i < len(s); i++ {
				if s[i] == '\\' && d == model.MySQL {
					i++
					continue
				}
				if s[i] == end {
					break
				}
			}
		case c == '-' && i+1 < len(s) && s[i+1] == '-', c == '#' && d == model.MySQL:
			for i < len(s) && s[i] != '\n' {
				i++
			}
		case c == '/' && i+1 < len(s) && s[i+1] == '*':
			if j := strings.Index(s[i+2:], "*/"); j >= 0 {
				i += j + 3
			} else {
				i = len(s)
			}
		}
	}
	return deepest
}

// checkScopeValue refuses scope values that are not plain printable text.
func checkScopeValue(v string) error {
	if v == "" {
		return scopeViolation("the scope value is empty")
	}
	if len(v) > 200 || !utf8.ValidString(v) {
		return scopeViolation("the scope value must be printable text of at most 200 bytes")
	}
	for _, r := range v {
		if unicode.IsControl(r) {
			return scopeViolation("the scope value must be printable text of at most 200 bytes")
		}
	}
	return nil
}

// entityByTable finds the model entity of a table name, case-insensitively.
func (g *Guard) entityByTable(name string) *model.Entity { return g.m.EntityByTable(name) }

// modelColumns returns an entity's stored column names in model order,
// lower case: a computed column is an expression over them, never a
// column of the table.
func modelColumns(e *model.Entity) []string {
	cols := storedColumns(e)
	out := make([]string, 0, len(cols))
	for _, c := range cols {
		out = append(out, strings.ToLower(c.Name))
	}
	return out
}

// storedColumns are the columns of an entity that exist in its table.
func storedColumns(e *model.Entity) []*model.Column {
	out := make([]*model.Column, 0, len(e.Columns))
	for _, c := range e.Columns {
		if !c.Computed() {
			out = append(out, c)
		}
	}
	return out
}

// scopeFilterFor returns how a reference to entity e is filtered: by its
// path to the scope entity when the conversation is scoped and e is a
// scoped entity, else nil (a projection of the model's columns only).
func (g *Guard) scopeFilterFor(e *model.Entity, sc *Scope) (*scopePath, error) {
	if sc == nil {
		return nil, nil
	}
	if sc.None && (g.scoped[e] != nil || g.unscopable[e]) {
		return nil, scopeViolation("this user may not see any %s's records, and the question needs them", g.scopeLabel(false))
	}
	if g.unscopable[e] {
		return nil, scopeViolation("table %s belongs to the scope but has no many-to-one path to %s in the model", e.TableName(), g.m.Scope.Entity)
	}
	return g.scoped[e], nil
}

// IsRejection reports whether err is a guard rejection (as opposed to a
// failure to check at all) and returns it.
func IsRejection(err error) (*Error, bool) {
	var ge *Error
	ok := errors.As(err, &ge)
	return ge, ok
}

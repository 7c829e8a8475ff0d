package guard

import (
	"sort"
	"strings"

	pg "github.com/pganalyze/pg_query_go/v6"
	pgparser "github.com/pganalyze/pg_query_go/v6/parser"
	"google.golang.org/protobuf/encoding/protowire"

	"github.com/clarify-sql/clarify/internal/model"
)

// The PostgreSQL statement to run is printed from PostgreSQL's own tokens of
// the checked statement, one space apart: comments and semicolons dropped,
// string and bit-string constants printed again from the values the parser
// read, every replaced model table swapped for its projection and the
// top-level LIMIT capped. Then it is verified: PostgreSQL parses the printed
// statement, and its tree must equal the checked tree with exactly those
// replacements (positions aside), node for node. pg_query's deparser is not
// used: moving a tree into it costs more than everything else together.

// pgToken is one token of PostgreSQL's lexer: sql[start:end].
type pgToken struct {
	start, end int
	tok        pg.Token
}

// pgScan lexes sql with PostgreSQL's lexer (comments included). The
// protobuf it returns is flat, so it is read here without reflection.
func pgScan(sql string) ([]pgToken, error) {
	b, err := pgparser.ScanToProtobuf(sql)
	if err != nil {
		return nil, err
	}
	toks := make([]pgToken, 0, len(sql)/4+8)
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 {
			return nil, errPGTree
		}
		b = b[n:]
		if num == 2 && typ == protowire.BytesType {
			v, n := protowire.ConsumeBytes(b)
			if n < 0 {
				return nil, errPGTree
			}
			b = b[n:]
			t, ok := pgScanToken(v)
			if !ok {
				return nil, errPGTree
			}
			toks = append(toks, t)
			continue
		}
		if n = protowire.ConsumeFieldValue(num, typ, b); n < 0 {
			return nil, errPGTree
		}
		b = b[n:]
	}
	prev := 0
	for _, t := range toks {
		if t.start < prev || t.end <= t.start || t.end > len(sql) {
			return nil, errPGTree
		}
		prev = t.end
	}
	return toks, nil
}

// pgScanToken reads a ScanToken message: start = 1, end = 2, token = 4.
func pgScanToken(b []byte) (pgToken, bool) {
	var t pgToken
	for len(b) > 0 {
		num, typ, n := protowire.ConsumeTag(b)
		if n < 0 {
			return t, false
		}
		b = b[n:]
		if typ != protowire.VarintType {
			if n = protowire.ConsumeFieldValue(num, typ, b); n < 0 {
				return t, false
			}
			b = b[n:]
			continue
		}
		v, n := protowire.ConsumeVarint(b)
		if n < 0 {
			return t, false
		}
		b = b[n:]
		switch num {
		case 1:
			t.start = int(int32(v))
		case 2:
			t.end = int(int32(v))
		case 4:
			t.tok = pg.Token(int32(v))
		}
	}
	return t, true
}

// pgReplacement is a model table reference the check replaced.
type pgReplacement struct {
	rv    *pg.RangeVar
	w     *pgWrapper
	alias string
}

// pgWrapper is the projection replacing one entity (for one scope value):
// its SQL and the JSON of its parse tree around the alias name.
type pgWrapper struct {
	sql                string
	jsonHead, jsonTail string
}

// pgLimitKind is what the printer does to the top-level LIMIT.
type pgLimitKind int

const (
	limitKeep  pgLimitKind = iota // a constant within the cap
	limitAdd                      // none: LIMIT cap is added
	limitCap                      // the expression becomes the cap
	limitLeast                    // the expression becomes LEAST(expr, cap)
)

// pgLimitTemplates are the JSON trees of the cap and of LEAST(…, cap).
type pgLimitTemplates struct {
	text                 string // the cap, as SQL
	cap                  string
	leastHead, leastTail string
}

func newPGLimitTemplates(capText string) (*pgLimitTemplates, error) {
	capTree, err := pgParse("SELECT "+capText, true)
	if err != nil {
		return nil, err
	}
	least, err := pgParse("SELECT LEAST(NULL, "+capText+")", true)
	if err != nil {
		return nil, err
	}
	capSpan, ok1 := capTree.nodes[pgTemplateVal(capTree)]
	val := pgTemplateVal(least)
	leastSpan, ok2 := least.nodes[val]
	if !ok1 || !ok2 || val.GetMinMaxExpr() == nil || len(val.GetMinMaxExpr().Args) != 2 {
		return nil, errPGTree
	}
	arg, ok := least.nodes[val.GetMinMaxExpr().Args[0]]
	if !ok {
		return nil, errPGTree
	}
	return &pgLimitTemplates{
		text:      capText,
		cap:       capTree.json[capSpan.start:capSpan.end],
		leastHead: least.json[leastSpan.start:arg.start],
		leastTail: least.json[arg.end:leastSpan.end],
	}, nil
}

// pgTemplateVal returns the expression of "SELECT expr".
func pgTemplateVal(t *pgTree) *pg.Node {
	if len(t.result.Stmts) != 1 {
		return nil
	}
	sel := t.result.Stmts[0].Stmt.GetSelectStmt()
	if sel == nil || len(sel.TargetList) != 1 {
		return nil
	}
	return sel.TargetList[0].GetResTarget().GetVal()
}

// pgSplice replaces tokens [i, end) of the printed statement by text.
type pgSplice struct {
	i, end int
	text   string
}

// pgPrinter prints a checked statement from its tokens.
type pgPrinter struct {
	sql    string
	toks   []pgToken // without comments and semicolons
	tree   *pgTree
	consts map[int]*pg.A_Const
	splice []pgSplice // sorted, not overlapping
	next   int        // the next splice to apply
	b      strings.Builder
	err    error
}

// print prints the statement to execute and the JSON of the tree it must
// parse to.
func (r *pgRun) print(sql string, t *pgTree, sel *pg.SelectStmt, lim pgLimitKind) (string, string, error) {
	all, err := pgScan(sql)
	if err != nil {
		return "", "", reject("the statement cannot be printed back")
	}
	p := &pgPrinter{sql: sql, tree: t, toks: make([]pgToken, 0, len(all))}
	for _, tk := range all {
		switch tk.tok {
		case pg.Token_SQL_COMMENT, pg.Token_C_COMMENT, pg.Token_ASCII_59:
			continue
		case pg.Token_USCONST, pg.Token_UIDENT, pg.Token_UESCAPE:
			return "", "", reject("Unicode escapes (U&'…', U&\"…\") are not allowed")
		}
		p.toks = append(p.toks, tk)
	}
	for _, rp := range r.replaced {
		if err := p.table(rp); err != nil {
			return "", "", err
		}
	}
	sort.Slice(p.splice, func(i, j int) bool { return p.splice[i].i < p.splice[j].i })
	for i := 1; i < len(p.splice); i++ {
		if p.splice[i].i < p.splice[i-1].end {
			return "", "", reject("the statement cannot be printed back")
		}
	}
	p.b.Grow(len(sql) + len(r.replaced)*200 + 32)
	caps := r.c.limits
	switch lim {
	case limitKeep:
		p.tokens(0, len(p.toks))
	case limitAdd:
		at := p.limitEnd()
		p.tokens(0, at)
		p.word("LIMIT " + caps.text)
		p.tokens(at, len(p.toks))
	default:
		from, to, ok := p.limitSpan()
		if !ok {
			return "", "", reject("the LIMIT of the statement cannot be capped")
		}
		p.tokens(0, from)
		if lim == limitCap {
			p.word(caps.text)
		} else {
			p.word("LEAST(")
			p.tokens(from, to)
			p.word(", " + caps.text + ")")
		}
		p.tokens(to, len(p.toks))
	}
	if p.err != nil {
		return "", "", p.err
	}
	out := p.b.String()
	if pgHasComment(out) {
		return "", "", reject("the statement cannot be printed back without comments")
	}
	want, err := r.expected(t, sel, lim)
	if err != nil {
		return "", "", err
	}
	return out, want, nil
}

// table splices a projection in place of a table reference: the tokens
// [TABLE] [ONLY [(]] name [)] [*] [[AS] alias].
func (p *pgPrinter) table(rp pgReplacement) error {
	bad := reject("the reference to table %s cannot be printed back", rp.rv.Relname)
	i := sort.Search(len(p.toks), func(i int) bool { return p.toks[i].start >= int(rp.rv.Location) })
	if i == len(p.toks) || p.toks[i].start != int(rp.rv.Location) {
		return bad
	}
	name, from, end := i, i, i+1
	is := func(k int, tok pg.Token) bool { return k >= 0 && k < len(p.toks) && p.toks[k].tok == tok }
	switch {
	case rp.rv.Inh && is(end, pg.Token_ASCII_42):
		end++
	case rp.rv.Inh:
	case is(from-1, pg.Token_ONLY):
		from--
	case is(from-1, pg.Token_ASCII_40) && is(from-2, pg.Token_ONLY) && is(end, pg.Token_ASCII_41):
		from, end = from-2, end+1
	default:
		return bad
	}
	alias := name
	if rp.rv.Alias != nil {
		if is(end, pg.Token_AS) {
			end++
		}
		if end >= len(p.toks) {
			return bad
		}
		alias, end = end, end+1
	}
	a := p.toks[alias]
	text := "(" + rp.w.sql + ") AS " + p.sql[a.start:a.end]
	if is(from-1, pg.Token_TABLE) {
		// TABLE t is the same tree as SELECT * FROM t
		from, text = from-1, "SELECT * FROM "+text
	}
	p.splice = append(p.splice, pgSplice{i: from, end: end, text: text})
	return nil
}

func (p *pgPrinter) word(s string) {
	if p.b.Len() > 0 {
		p.b.WriteByte(' ')
	}
	p.b.WriteString(s)
}

// tokens prints tokens [from, to), applying the splices that start there.
func (p *pgPrinter) tokens(from, to int) {
	for i := from; i < to && p.err == nil; i++ {
		if p.next < len(p.splice) && p.splice[p.next].i == i {
			s := p.splice[p.next]
			p.next++
			if s.end > to {
				p.err = reject("the statement cannot be printed back")
				return
			}
			p.word(s.text)
			i = s.end - 1
			continue
		}
		p.token(p.toks[i])
	}
}

// token prints one token. String and bit-string constants are printed from
// the values the parser read, in one form: their text can be dollar-quoted,
// hold escapes or continue over lines.
func (p *pgPrinter) token(t pgToken) {
	switch t.tok {
	case pg.Token_SCONST, pg.Token_BCONST, pg.Token_XCONST:
	default:
		p.word(p.sql[t.start:t.end])
		return
	}
	if p.consts == nil {
		p.consts = make(map[int]*pg.A_Const, len(p.tree.consts))
		for _, c := range p.tree.consts {
			p.consts[int(c.Location)] = c
		}
	}
	c := p.consts[t.start]
	switch {
	case c != nil && t.tok == pg.Token_SCONST && c.GetSval() != nil:
		p.word(quoteString(model.Postgres, c.GetSval().Sval))
		return
	case c != nil && t.tok != pg.Token_SCONST && c.GetBsval() != nil:
		if s, ok := pgBitString(c.GetBsval().Bsval); ok {
			p.word(s)
			return
		}
	}
	p.err = reject("a constant of the statement cannot be printed back")
}

// pgBitString prints a bit-string constant as the parser holds it ("b0101",
// "x1F") in SQL (B'0101', X'1F').
func pgBitString(v string) (string, bool) {
	if len(v) == 0 {
		return "", false
	}
	digits := "01"
	if v[0] == 'x' {
		digits = "0123456789abcdefABCDEF"
	} else if v[0] != 'b' {
		return "", false
	}
	for i := 1; i < len(v); i++ {
		if strings.IndexByte(digits, v[i]) < 0 {
			return "", false
		}
	}
	return strings.ToUpper(v[:1]) + "'" + v[1:] + "'", true
}

// outer returns the token range of the statement inside parentheses that
// enclose all of it.
func (p *pgPrinter) outer() (int, int) {
	a, b := 0, len(p.toks)
	for b-a >= 2 && p.toks[a].tok == pg.Token_ASCII_40 && p.toks[b-1].tok == pg.Token_ASCII_41 {
		depth := 0
		for i := a; i < b; i++ {
			switch p.toks[i].tok {
			case pg.Token_ASCII_40:
				depth++
			case pg.Token_ASCII_41:
				depth--
			}
			if depth == 0 && i < b-1 {
				return a, b // the first parenthesis closes early
			}
		}
		a, b = a+1, b-1
	}
	return a, b
}

// limitEnd is where a LIMIT is added: the end of the statement, inside the
// parentheses enclosing all of it.
func (p *pgPrinter) limitEnd() int {
	_, b := p.outer()
	return b
}

// limitSpan finds the tokens of the top-level LIMIT (or FETCH FIRST) count.
func (p *pgPrinter) limitSpan() (int, int, bool) {
	a, b := p.outer()
	depth := 0
	// top lists the statement's own clause keywords (outside parentheses).
	var top []int
	for i := a; i < b; i++ {
		switch p.toks[i].tok {
		case pg.Token_ASCII_40:
			depth++
		case pg.Token_ASCII_41:
			depth--
		case pg.Token_LIMIT, pg.Token_OFFSET, pg.Token_FETCH, pg.Token_ROW, pg.Token_ROWS:
			if depth == 0 {
				top = append(top, i)
			}
		}
	}
	for k, i := range top {
		var from int
		var ends []pg.Token
		switch p.toks[i].tok {
		case pg.Token_LIMIT:
			from, ends = i+1, []pg.Token{pg.Token_OFFSET, pg.Token_FETCH}
		case pg.Token_FETCH:
			if i+1 >= b || (p.toks[i+1].tok != pg.Token_FIRST_P && p.toks[i+1].tok != pg.Token_NEXT) {
				return 0, 0, false
			}
			from, ends = i+2, []pg.Token{pg.Token_ROW, pg.Token_ROWS}
		default:
			continue
		}
		to := b
		for _, j := range top[k+1:] {
			if tok := p.toks[j].tok; tok == ends[0] || tok == ends[1] {
				to = j
				break
			}
		}
		return from, to, from < to
	}
	return 0, 0, false
}

// pgHasComment reports whether a printed statement holds a comment. The
// printer only copies tokens, so this cannot happen; it is checked anyway.
// Quotes in printed statements are only '…' and "…" with doubled quotes
// (E'…' strings hold no \').
func pgHasComment(s string) bool {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '\'', '"':
			j := strings.IndexByte(s[i+1:], c)
			if j < 0 {
				return true // unbalanced: refuse
			}
			i += j + 1
		case '-':
			if i+1 < len(s) && s[i+1] == '-' {
				return true
			}
		case '/':
			if i+1 < len(s) && s[i+1] == '*' {
				return true
			}
		}
	}
	return false
}

// expected returns the JSON of the tree the printed statement must parse
// to: the checked tree's JSON with each replaced table's node swapped for
// its projection's and the LIMIT capped.
func (r *pgRun) expected(t *pgTree, sel *pg.SelectStmt, lim pgLimitKind) (string, error) {
	bad := reject("the checked statement cannot be verified")
	type edit struct {
		pgSpan
		text string
	}
	edits := make([]edit, 0, len(r.replaced))
	for _, rp := range r.replaced {
		k := -1
		for j := range t.rangeVars {
			if t.rangeVars[j].rv == rp.rv {
				k = j
				break
			}
		}
		if k < 0 {
			return "", bad
		}
		edits = append(edits, edit{t.rangeVars[k].pgSpan, rp.w.jsonHead + pgJSONString(rp.alias) + rp.w.jsonTail})
	}
	sort.Slice(edits, func(i, j int) bool { return edits[i].start < edits[j].start })
	var b strings.Builder
	b.Grow(len(t.json) + len(edits)*1500)
	// copy writes t.json[from:to] with the edits inside it.
	copyJSON := func(from, to int) {
		for _, e := range edits {
			if e.start >= from && e.end <= to {
				b.WriteString(t.json[from:e.start])
				b.WriteString(e.text)
				from = e.end
			}
		}
		b.WriteString(t.json[from:to])
	}
	if lim == limitKeep {
		copyJSON(0, len(t.json))
		return b.String(), nil
	}
	var ss *pgSelectSpans
	for j := range t.selects {
		if t.selects[j].sel == sel {
			ss = &t.selects[j]
		}
	}
	if ss == nil || ss.option.end == 0 {
		return "", bad
	}
	option := t.json[ss.option.start:ss.option.end]
	if option == `"limitOption":"LIMIT_OPTION_DEFAULT"` {
		option = `"limitOption":"LIMIT_OPTION_COUNT"`
	}
	caps := r.c.limits
	if lim == limitAdd {
		if ss.count.end != 0 {
			return "", bad
		}
		copyJSON(0, ss.option.start)
		b.WriteString(`"limitCount":` + caps.cap + `,` + option)
		copyJSON(ss.option.end, len(t.json))
		return b.String(), nil
	}
	if ss.count.end == 0 || t.json[ss.count.end:ss.option.start] != "," {
		return "", bad
	}
	copyJSON(0, ss.count.start)
	if lim == limitCap {
		b.WriteString(caps.cap)
	} else {
		b.WriteString(caps.leastHead)
		copyJSON(ss.count.start, ss.count.end)
		b.WriteString(caps.leastTail)
	}
	b.WriteString("," + option)
	copyJSON(ss.option.end, len(t.json))
	return b.String(), nil
}

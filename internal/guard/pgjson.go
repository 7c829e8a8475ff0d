package guard

import (
	"errors"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	pg "github.com/pganalyze/pg_query_go/v6"
	"google.golang.org/protobuf/reflect/protoreflect"
)

//go:generate go run pggen.go

// PostgreSQL parse trees cross from C to Go as JSON, not protobuf.
//
// pg_query's protobuf path costs far more than parsing: its C packer
// recomputes the size of every subtree at every level (quadratic in depth,
// and each Node costs a pass over ~270 oneof fields), then Go unpacks it by
// reflection. libpg_query's JSON printer is linear and its output is the
// protobuf JSON mapping of the same messages, so pgDecoder reads it straight
// into pg_query's Go types: the tree the guard checks is PostgreSQL's own,
// field for field (TestPostgresJSONTree compares it with pg.Parse on every
// corpus statement, and FuzzPostgres on every input). The decoder is strict:
// an unknown key, enum name or value shape is an error, never skipped.

// pgTree is a parsed statement and the byte spans of its JSON that the
// printer and the verifier use.
type pgTree struct {
	json   string
	result *pg.ParseResult
	// rangeVars are the Node objects holding a RangeVar.
	rangeVars []pgNodeSpan
	// consts are the A_Const nodes, in document order.
	consts []*pg.A_Const
	// params are the ParamRef nodes ($1 …), in document order: every
	// placeholder of the statement, wherever in the tree it sits.
	params []*pg.ParamRef
	// selects has the LIMIT members of each SelectStmt.
	selects []pgSelectSpans
	// nodes has the span of every Node when the decoder was asked for it
	// (templates only).
	nodes map[*pg.Node]pgSpan
}

type pgSpan struct{ start, end int }

type pgNodeSpan struct {
	rv *pg.RangeVar
	pgSpan
}

// pgSelectSpans locates the LIMIT members of one SelectStmt object:
// limitCount's value (zero when absent) and the whole limitOption member,
// which libpg_query always prints, right after limitCount.
type pgSelectSpans struct {
	sel    *pg.SelectStmt
	count  pgSpan
	option pgSpan
}

var (
	pgNodeDesc   = (&pg.Node{}).ProtoReflect().Descriptor()
	pgConstDesc  = (&pg.A_Const{}).ProtoReflect().Descriptor()
	pgSelectDesc = (&pg.SelectStmt{}).ProtoReflect().Descriptor()
)

// pgParse parses sql with PostgreSQL's parser. Parser errors are returned
// as they are; a tree the decoder cannot read is errPGTree.
func pgParse(sql string, allNodes bool) (*pgTree, error) {
	j, err := pg.ParseToJSON(sql)
	if err != nil {
		return nil, err
	}
	return pgDecodeJSON(j, allNodes)
}

var errPGTree = errors.New("unreadable parse tree")

// pgDecodeJSON reads libpg_query's JSON parse tree.
func pgDecodeJSON(j string, allNodes bool) (*pgTree, error) {
	t := &pgTree{json: j, result: &pg.ParseResult{}}
	if allNodes {
		t.nodes = map[*pg.Node]pgSpan{}
	}
	d := pgDecoder{s: j, t: t}
	d.decodeParseResult(t.result)
	if d.err != nil || d.i != len(j) {
		return nil, errPGTree
	}
	return t, nil
}

// pgDecoder reads libpg_query's JSON. Errors are sticky: after the first,
// every reader returns a zero value and every object loop ends.
type pgDecoder struct {
	s     string
	i     int
	depth int
	err   error
	t     *pgTree
	// k is the key of the member being read; keyStart where it starts.
	k        string
	keyStart int
}

// pgMaxDepth bounds the decoder's recursion; the statement bounds keep
// real trees far below it.
const pgMaxDepth = 10000

func (d *pgDecoder) fail() {
	if d.err == nil {
		d.err = errPGTree
	}
}

func (d *pgDecoder) peek() byte {
	if d.err == nil && d.i < len(d.s) {
		return d.s[d.i]
	}
	return 0
}

func (d *pgDecoder) eat(c byte) bool {
	if d.peek() != c {
		d.fail()
		return false
	}
	d.i++
	return true
}

// begin reads the start of an object and its first key; false for an
// empty object (or an error).
func (d *pgDecoder) begin() bool {
	if !d.eat('{') {
		return false
	}
	if d.depth++; d.depth > pgMaxDepth {
		d.fail()
		return false
	}
	if d.peek() == '}' {
		d.i++
		d.depth--
		return false
	}
	d.key()
	return d.err == nil
}

// next reads the next key of an object; false at its end (or an error).
func (d *pgDecoder) next() bool {
	switch d.peek() {
	case ',':
		d.i++
		d.key()
		return d.err == nil
	case '}':
		d.i++
		d.depth--
		return false
	}
	d.fail()
	return false
}

// key reads `"name":`; libpg_query's keys never hold escapes.
func (d *pgDecoder) key() {
	d.keyStart = d.i
	if !d.eat('"') {
		return
	}
	end := strings.IndexByte(d.s[d.i:], '"')
	if end < 0 {
		d.fail()
		return
	}
	d.k = d.s[d.i : d.i+end]
	d.i += end + 1
	if strings.IndexByte(d.k, '\\') >= 0 {
		d.fail()
	}
	d.eat(':')
}

func (d *pgDecoder) null() bool {
	if d.err == nil && strings.HasPrefix(d.s[d.i:], "null") {
		d.i += 4
		return true
	}
	return false
}

// array reads a JSON array, calling elem for each element.
func (d *pgDecoder) array(elem func()) {
	if d.null() || !d.eat('[') {
		return
	}
	if d.peek() == ']' {
		d.i++
		return
	}
	for d.err == nil {
		elem()
		if d.peek() == ',' {
			d.i++
			continue
		}
		d.eat(']')
		return
	}
}

// node reads a Node object: {} or {"Type":{…}}.
func (d *pgDecoder) node() *pg.Node {
	if d.null() {
		return nil
	}
	start := d.i
	var n *pg.Node
	if d.begin() {
		n = d.nodeMember()
		if d.next() {
			d.fail() // a Node holds one member
		}
	} else {
		n = &pg.Node{}
	}
	if rv := n.GetRangeVar(); rv != nil {
		d.t.rangeVars = append(d.t.rangeVars, pgNodeSpan{rv, pgSpan{start, d.i}})
	}
	if p := n.GetParamRef(); p != nil {
		d.t.params = append(d.t.params, p)
	}
	if d.t.nodes != nil {
		d.t.nodes[n] = pgSpan{start, d.i}
	}
	return n
}

func (d *pgDecoder) nodes() []*pg.Node {
	if d.null() || !d.eat('[') {
		return nil
	}
	if d.peek() == ']' {
		d.i++
		return nil
	}
	out := make([]*pg.Node, 0, 4)
	for d.err == nil {
		out = append(out, d.node())
		if d.peek() == ',' {
			d.i++
			continue
		}
		d.eat(']')
		break
	}
	return out
}

// nodeGeneric decodes a Node member of a type without a typed decoder.
func (d *pgDecoder) nodeGeneric(n *pg.Node) {
	fd := pgNodeDesc.Fields().ByJSONName(d.k)
	if fd == nil || fd.Message() == nil {
		d.fail()
		return
	}
	m := n.ProtoReflect()
	d.message(m.Mutable(fd).Message())
}

// selectStarted notes a SelectStmt so its LIMIT members can be located.
func (d *pgDecoder) selectStarted(x *pg.SelectStmt) int {
	d.t.selects = append(d.t.selects, pgSelectSpans{sel: x})
	return len(d.t.selects) - 1
}

// message decodes any message through protoreflect: the path for node
// types without a typed decoder.
func (d *pgDecoder) message(m protoreflect.Message) {
	md := m.Descriptor()
	switch md {
	case pgNodeDesc, pgConstDesc, pgSelectDesc:
		// These have typed decoders that record spans; a generic path
		// reaching them would lose that.
		d.fail()
		return
	}
	fields := md.Fields()
	for ok := d.begin(); ok; ok = d.next() {
		fd := fields.ByJSONName(d.k)
		if fd == nil {
			fd = fields.ByName(protoreflect.Name(d.k))
		}
		if fd == nil || fd.IsMap() {
			d.fail()
			return
		}
		d.field(m, fd)
	}
}

func (d *pgDecoder) field(m protoreflect.Message, fd protoreflect.FieldDescriptor) {
	switch {
	case d.null():
	case fd.IsList():
		l := m.Mutable(fd).List()
		d.array(func() {
			switch {
			case fd.Message() == pgNodeDesc:
				l.Append(protoreflect.ValueOfMessage(d.node().ProtoReflect()))
			case fd.Message() != nil:
				v := l.NewElement()
				d.message(v.Message())
				l.Append(v)
			default:
				l.Append(d.scalar(fd))
			}
		})
	case fd.Message() == pgNodeDesc:
		m.Set(fd, protoreflect.ValueOfMessage(d.node().ProtoReflect()))
	case fd.Message() != nil:
		d.message(m.Mutable(fd).Message())
	default:
		m.Set(fd, d.scalar(fd))
	}
}

func (d *pgDecoder) scalar(fd protoreflect.FieldDescriptor) protoreflect.Value {
	switch fd.Kind() {
	case protoreflect.StringKind:
		return protoreflect.ValueOfString(d.str())
	case protoreflect.EnumKind:
		ev := fd.Enum().Values().ByName(protoreflect.Name(d.str()))
		if ev == nil {
			d.fail()
			return protoreflect.ValueOfEnum(0)
		}
		return protoreflect.ValueOfEnum(ev.Number())
	case protoreflect.BoolKind:
		return protoreflect.ValueOfBool(d.bool())
	case protoreflect.Int32Kind:
		return protoreflect.ValueOfInt32(d.int32())
	case protoreflect.Int64Kind:
		return protoreflect.ValueOfInt64(d.int64())
	case protoreflect.Uint32Kind:
		return protoreflect.ValueOfUint32(d.uint32())
	case protoreflect.Uint64Kind:
		return protoreflect.ValueOfUint64(d.uint64())
	case protoreflect.DoubleKind:
		return protoreflect.ValueOfFloat64(d.float64())
	}
	d.fail()
	return protoreflect.ValueOfInt32(0)
}

func (d *pgDecoder) bool() bool {
	switch {
	case d.err != nil:
	case strings.HasPrefix(d.s[d.i:], "true"):
		d.i += 4
		return true
	case strings.HasPrefix(d.s[d.i:], "false"):
		d.i += 5
	default:
		d.fail()
	}
	return false
}

func (d *pgDecoder) enum(values map[string]int32) int32 {
	v, ok := values[d.str()]
	if !ok {
		d.fail()
	}
	return v
}

func (d *pgDecoder) number() string {
	start := d.i
	for d.err == nil && d.i < len(d.s) {
		c := d.s[d.i]
		if c >= '0' && c <= '9' || c == '-' || c == '+' || c == '.' || c == 'e' || c == 'E' {
			d.i++
			continue
		}
		break
	}
	return d.s[start:d.i]
}

func (d *pgDecoder) int64() int64 {
	n, err := strconv.ParseInt(d.number(), 10, 64)
	if err != nil {
		d.fail()
	}
	return n
}

func (d *pgDecoder) int32() int32 {
	n, err := strconv.ParseInt(d.number(), 10, 32)
	if err != nil {
		d.fail()
	}
	return int32(n)
}

func (d *pgDecoder) uint64() uint64 {
	n, err := strconv.ParseUint(d.number(), 10, 64)
	if err != nil {
		d.fail()
	}
	return n
}

func (d *pgDecoder) uint32() uint32 {
	n, err := strconv.ParseUint(d.number(), 10, 32)
	if err != nil {
		d.fail()
	}
	return uint32(n)
}

func (d *pgDecoder) float64() float64 {
	f, err := strconv.ParseFloat(d.number(), 64)
	if err != nil {
		d.fail()
	}
	return f
}

// str reads a JSON string as libpg_query's _outToken writes it.
func (d *pgDecoder) str() string {
	if d.null() || !d.eat('"') {
		return ""
	}
	start := d.i
	for d.i < len(d.s) {
		switch d.s[d.i] {
		case '"':
			s := d.s[start:d.i]
			d.i++
			return s
		case '\\':
			return d.unescape(start)
		}
		d.i++
	}
	d.fail()
	return ""
}

func (d *pgDecoder) unescape(start int) string {
	var b strings.Builder
	b.WriteString(d.s[start:d.i])
	for d.i < len(d.s) {
		c := d.s[d.i]
		switch {
		case c == '"':
			d.i++
			return b.String()
		case c != '\\':
			b.WriteByte(c)
			d.i++
			continue
		}
		if d.i+1 >= len(d.s) {
			break
		}
		e := d.s[d.i+1]
		d.i += 2
		switch e {
		case '"', '\\', '/':
			b.WriteByte(e)
		case 'b':
			b.WriteByte('\b')
		case 'f':
			b.WriteByte('\f')
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		case 't':
			b.WriteByte('\t')
		case 'u':
			r, ok := d.hex4()
			if ok && utf16.IsSurrogate(r) {
				ok = strings.HasPrefix(d.s[d.i:], `\u`)
				d.i += 2
				r2, ok2 := d.hex4()
				r = utf16.DecodeRune(r, r2)
				ok = ok && ok2 && r != utf8.RuneError
			}
			if !ok {
				d.fail()
				return ""
			}
			b.WriteRune(r)
		default:
			d.fail()
			return ""
		}
	}
	d.fail()
	return ""
}

func (d *pgDecoder) hex4() (rune, bool) {
	if d.i+4 > len(d.s) {
		return 0, false
	}
	n, err := strconv.ParseUint(d.s[d.i:d.i+4], 16, 32)
	if err != nil {
		return 0, false
	}
	d.i += 4
	return rune(n), true
}

// pgJSONString prints s as libpg_query's _outToken does.
func pgJSONString(s string) string {
	var b strings.Builder
	b.Grow(len(s) + 2)
	b.WriteByte('"')
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '\b':
			b.WriteString(`\b`)
		case '\f':
			b.WriteString(`\f`)
		case '\n':
			b.WriteString(`\n`)
		case '\r':
			b.WriteString(`\r`)
		case '\t':
			b.WriteString(`\t`)
		case '"':
			b.WriteString(`\"`)
		case '\\':
			b.WriteString(`\\`)
		default:
			if c < ' ' || c == '<' || c == '>' {
				b.WriteString(`\u00`)
				b.WriteByte("0123456789abcdef"[c>>4])
				b.WriteByte("0123456789abcdef"[c&15])
			} else {
				b.WriteByte(c)
			}
		}
	}
	b.WriteByte('"')
	return b.String()
}

// pgSameTree reports whether two of libpg_query's JSON trees are the same
// but for the members that say where a node was in the text (location,
// stmt_location, stmt_len).
func pgSameTree(a, b string) bool {
	ca, cb := pgChunks{s: a}, pgChunks{s: b}
	var x, y string
	for {
		if x == "" {
			x = ca.next()
		}
		if y == "" {
			y = cb.next()
		}
		if x == "" || y == "" {
			return x == "" && y == ""
		}
		n := min(len(x), len(y))
		if x[:n] != y[:n] {
			return false
		}
		x, y = x[n:], y[n:]
	}
}

// pgChunks yields a JSON tree's text without its position members.
type pgChunks struct {
	s string
	i int
}

// next returns the next piece of text, "" at the end.
func (c *pgChunks) next() string {
	for c.i < len(c.s) {
		key, end := c.position()
		from := key
		switch {
		case key == len(c.s):
		case c.s[key-1] == ',' && key-1 >= c.i:
			from = key - 1 // drop the comma before the member
		case end < len(c.s) && c.s[end] == ',':
			end++ // the member opens its object: drop the comma after it
		}
		chunk := c.s[c.i:from]
		c.i = end
		if chunk != "" {
			return chunk
		}
	}
	return ""
}

// position finds the next position member from c.i: where its key starts
// and where its value ends (len(s) twice when there is none). It relies on
// the printer's fixed form: no whitespace, and a quote inside a string is
// always escaped, so `n":` only ever ends a key.
func (c *pgChunks) position() (int, int) {
	s := c.s
	for from := c.i; ; {
		k := strings.Index(s[from:], `n":`)
		if k < 0 {
			return len(s), len(s)
		}
		p := from + k + 1 // the key's closing quote
		from = p + 2
		var q int // the key's opening quote
		switch {
		case strings.HasSuffix(s[:p], `"location`):
			q = p - len(`"location`)
		case strings.HasSuffix(s[:p], `"stmt_location`):
			q = p - len(`"stmt_location`)
		case strings.HasSuffix(s[:p], `"stmt_len`):
			q = p - len(`"stmt_len`)
		default:
			continue
		}
		e := p + 2
		if e < len(s) && s[e] == '-' {
			e++
		}
		digits := e
		for e < len(s) && s[e] >= '0' && s[e] <= '9' {
			e++
		}
		if e > digits && q > 0 && (s[q-1] == ',' || s[q-1] == '{') {
			return q, e
		}
	}
}

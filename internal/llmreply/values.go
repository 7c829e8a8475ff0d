package llmreply

import (
	"slices"
	"strings"

	"github.com/clarify-sql/clarify/internal/model"
)

// sqlTok is one token of a statement, as far as reading its literals needs.
type sqlTok struct {
	kind byte // 'i' identifier or keyword, 's' string literal, 'o' operator or punctuation, 'n' number
	text string
}

// maxValues bounds how many literals a reply's values report.
const maxValues = 32

// CheckValues finds the literals a statement compares columns with
// (col = 'X', col <> 'X', col IN ('X', 'Y'), 'X' = col) and checks each
// against its column's allowed values: vals' for database-sourced columns,
// the model's listed values otherwise. Columns without allowed values are
// not reported. It reads; it never changes or runs the statement.
func CheckValues(sql string, m *model.Model, vals Values) []Value {
	if m == nil || len(sql) > MaxSQL {
		return nil
	}
	toks := lexSQL(sql)
	aliases := tableAliases(m, toks)
	var out []Value
	seen := map[string]bool{}
	report := func(colTok string, lit string) {
		c := resolveColumn(m, aliases, colTok)
		if c == nil || len(out) >= maxValues {
			return
		}
		key := c.Entity().Name + "." + c.Name + "\x00" + lit
		if seen[key] {
			return
		}
		allowed, items, ok := allowedOf(c, vals)
		if !ok {
			return
		}
		seen[key] = true
		v := Value{Column: c.Entity().Name + "." + c.Name, Literal: lit, Valid: slices.Contains(allowed, lit)}
		v.Confidence = InvalidValue
		if v.Valid {
			v.Confidence = ValidValue
		} else {
			v.Alternatives = closest(lit, allowed, items)
		}
		out = append(out, v)
	}
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		// col op 'lit'
		if t.kind == 'i' && i+2 < len(toks) && isEq(toks[i+1]) && toks[i+2].kind == 's' {
			report(t.text, toks[i+2].text)
			continue
		}
		// 'lit' op col
		if t.kind == 's' && i+2 < len(toks) && isEq(toks[i+1]) && toks[i+2].kind == 'i' {
			report(toks[i+2].text, t.text)
			continue
		}
		// col [NOT] IN ('a', 'b')
		if t.kind == 'i' && i+2 < len(toks) {
			j := i + 1
			if strings.EqualFold(toks[j].text, "not") {
				j++
			}
			if j+1 < len(toks) && strings.EqualFold(toks[j].text, "in") && toks[j+1].text == "(" {
				for k := j + 2; k < len(toks) && toks[k].text != ")"; k++ {
					if toks[k].kind == 's' {
						report(t.text, toks[k].text)
					} else if toks[k].text != "," {
						break
					}
				}
			}
		}
	}
	return out
}

func isEq(t sqlTok) bool {
	return t.kind == 'o' && (t.text == "=" || t.text == "<>" || t.text == "!=" || t.text == "==")
}

// lexSQL splits a statement into identifiers (dotted names joined, quotes
// removed), string literals (unescaped), numbers and operators; comments
// are skipped.
func lexSQL(s string) []sqlTok {
	var out []sqlTok
	i := 0
	for i < len(s) {
		c := s[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			i++
		case c == '-' && i+1 < len(s) && s[i+1] == '-':
			for i < len(s) && s[i] != '\n' {
				i++
			}
		case c == '/' && i+1 < len(s) && s[i+1] == '*':
			end := strings.Index(s[i+2:], "*/")
			if end < 0 {
				return out
			}
			i += end + 4
		case c == '\'':
			var b strings.Builder
			j := i + 1
			for j < len(s) {
				if s[j] == '\'' {
					if j+1 < len(s) && s[j+1] == '\'' {
						b.WriteByte('\'')
						j += 2
						continue
					}
					break
				}
				b.WriteByte(s[j])
				j++
			}
			out = append(out, sqlTok{kind: 's', text: b.String()})
			i = j + 1
		case c == '"' || c == '`' || c == '[' || isIdentStart(c):
			name, j := readName(s, i)
			// dotted: a.b, "a"."b"
			for j+1 < len(s) && s[j] == '.' && (s[j+1] == '"' || s[j+1] == '`' || s[j+1] == '[' || isIdentStart(s[j+1])) {
				var part string
				part, j = readName(s, j+1)
				name += "." + part
			}
			out = append(out, sqlTok{kind: 'i', text: name})
			i = j
		case c >= '0' && c <= '9':
			j := i
			for j < len(s) && (s[j] >= '0' && s[j] <= '9' || s[j] == '.') {
				j++
			}
			out = append(out, sqlTok{kind: 'n', text: s[i:j]})
			i = j
		default:
			j := i + 1
			if j < len(s) && strings.ContainsRune("<>!=", rune(c)) && strings.ContainsRune("=>", rune(s[j])) {
				j++
			}
			out = append(out, sqlTok{kind: 'o', text: s[i:j]})
			i = j
		}
	}
	return out
}

func isIdentStart(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= 0x80
}

// readName reads one identifier at s[i], quoted or not, and returns it and
// the offset after it.
func readName(s string, i int) (string, int) {
	closer := map[byte]byte{'"': '"', '`': '`', '[': ']'}[s[i]]
	if closer != 0 {
		end := strings.IndexByte(s[i+1:], closer)
		if end < 0 {
			return s[i+1:], len(s)
		}
		return s[i+1 : i+1+end], i + 2 + end
	}
	j := i
	for j < len(s) && (isIdentStart(s[j]) || s[j] >= '0' && s[j] <= '9' || s[j] == '$') {
		j++
	}
	return s[i:j], j
}

// tableAliases maps the names a statement uses for its tables (the table
// and its alias, lower case) to their entities.
func tableAliases(m *model.Model, toks []sqlTok) map[string]*model.Entity {
	out := map[string]*model.Entity{}
	for i := 0; i+1 < len(toks); i++ {
		if !strings.EqualFold(toks[i].text, "from") && !strings.EqualFold(toks[i].text, "join") {
			continue
		}
		if toks[i+1].kind != 'i' {
			continue
		}
		name := toks[i+1].text
		if k := strings.LastIndexByte(name, '.'); k >= 0 {
			name = name[k+1:] // schema.table
		}
		e := m.EntityByTable(name)
		if e == nil {
			continue
		}
		out[strings.ToLower(name)] = e
		j := i + 2
		if j < len(toks) && strings.EqualFold(toks[j].text, "as") {
			j++
		}
		if j < len(toks) && toks[j].kind == 'i' && !sqlKeyword(toks[j].text) {
			out[strings.ToLower(toks[j].text)] = e
		}
	}
	return out
}

func sqlKeyword(w string) bool {
	switch strings.ToLower(w) {
	case "where", "join", "inner", "left", "right", "full", "cross", "on", "group", "order", "limit", "having",
		"union", "except", "intersect", "natural", "using", "offset", "window", "fetch", "for", "lateral":
		return true
	}
	return false
}

// resolveColumn finds the column a (possibly qualified) name means: by its
// qualifier, else the one table of the statement that has it, else the one
// entity of the model that has it.
func resolveColumn(m *model.Model, aliases map[string]*model.Entity, name string) *model.Column {
	qual, col := "", name
	if k := strings.LastIndexByte(name, '.'); k >= 0 {
		qual, col = name[:k], name[k+1:]
		if j := strings.LastIndexByte(qual, '.'); j >= 0 {
			qual = qual[j+1:]
		}
	}
	find := func(e *model.Entity) *model.Column {
		if c := e.Column(col); c != nil {
			return c
		}
		return e.Column(strings.ToLower(col))
	}
	if qual != "" {
		e := aliases[strings.ToLower(qual)]
		if e == nil {
			e = m.EntityByTable(qual)
		}
		if e == nil {
			return nil
		}
		return find(e)
	}
	unique := func(es []*model.Entity) *model.Column {
		var hit *model.Column
		for _, e := range es {
			if c := find(e); c != nil {
				if hit != nil && hit != c {
					return nil
				}
				hit = c
			}
		}
		return hit
	}
	var used []*model.Entity
	for _, e := range aliases {
		if !slices.Contains(used, e) {
			used = append(used, e)
		}
	}
	if len(used) > 0 {
		return unique(used)
	}
	return unique(m.Entities)
}

// allowedOf returns a column's allowed values and its model items; ok is
// false when there are none to check against.
func allowedOf(c *model.Column, vals Values) ([]string, []*model.Value, bool) {
	var items []*model.Value
	if c.Values != nil {
		items = c.Values.Items
	}
	if vals != nil {
		if vs, ok := vals.Allowed(c); ok && len(vs) > 0 {
			return vs, items, true
		}
	}
	if c.FromDatabase() || len(items) == 0 {
		// Listed items of a database-sourced column are synonyms of some
		// values, not all of them: nothing to judge by.
		return nil, nil, false
	}
	vs := make([]string, len(items))
	for i, it := range items {
		vs[i] = it.Value
	}
	return vs, items, true
}

// closest returns the allowed values a wrong literal may have meant: the
// same letters in another case, a value whose label or synonym it is, or a
// value containing it as a word; at most three.
func closest(lit string, allowed []string, items []*model.Value) []string {
	var out []string
	add := func(v string) {
		if len(out) < 3 && slices.Contains(allowed, v) && !slices.Contains(out, v) {
			out = append(out, v)
		}
	}
	for _, v := range allowed {
		if strings.EqualFold(v, lit) {
			add(v)
		}
	}
	for _, it := range items {
		if strings.EqualFold(it.Label, lit) || slices.ContainsFunc(it.Synonyms, func(s string) bool { return strings.EqualFold(s, lit) }) {
			add(it.Value)
		}
	}
	low := strings.ToLower(strings.TrimSpace(lit))
	if len(low) >= 2 {
		for _, v := range allowed {
			if slices.Contains(strings.Fields(strings.ToLower(v)), low) {
				add(v)
			}
		}
	}
	return out
}

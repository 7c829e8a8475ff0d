package sqlfmt

import "strings"

// kind is the kind of a token.
type kind int

const (
	word   kind = iota // a keyword, name, number or parameter ($1, ?1, :name)
	quoted             // a string literal or quoted identifier: kept as it is
	line               // a line comment (-- or #), without its newline
	block              // a block comment
	punct              // ( ) , ;  — never part of another token
	other              // anything else, an operator character or a lone ?
)

// token is one token of a statement and the whitespace before it.
type token struct {
	kind kind
	text string
	gap  string // the whitespace before the token ("" when none)
}

// lex splits sql into tokens. ambiguous is set when the dialects would
// split the text differently: a backslash in a quoted token (an escape in
// MySQL, a character in PostgreSQL and SQLite), a comment opened inside a
// block comment (nested in PostgreSQL only), a bracket outside quotes (a
// quoted name in SQLite, an array subscript in PostgreSQL) or a named
// parameter called like a function (see paramCall), or a dollar-quoted
// string (a parameter to SQLite).
func lex(sql string) (toks []token, ambiguous bool) {
	i := 0
	for i < len(sql) {
		start := i
		for i < len(sql) && isSpace(sql[i]) {
			i++
		}
		gap := sql[start:i]
		if i == len(sql) {
			break
		}
		k, end := next(sql, i)
		text := sql[i:end]
		switch {
		case k == quoted && text[0] == '$', // a string to PostgreSQL, a parameter to SQLite
			k == quoted && strings.IndexByte(text, '\\') >= 0,
			k == block && strings.Contains(text[2:], "/*"),
			text == "[":
			ambiguous = true
		}
		toks = append(toks, token{kind: k, text: text, gap: gap})
		i = end
	}
	return toks, ambiguous || paramCall(toks)
}

// paramCall reports a parenthesis right after text that may be a named
// parameter ("$a(", "@a::b(", "x::a("): SQLite reads the parenthesis and
// what follows it up to white space as part of the parameter's name.
func paramCall(toks []token) bool {
	for k, t := range toks {
		if t.text != "(" || t.gap != "" {
			continue
		}
		// the words and operators written together before it
		for j := k - 1; j >= 0 && (toks[j].kind == word || toks[j].kind == other); j-- {
			if strings.ContainsAny(toks[j].text, "$@:") {
				return true
			}
			if toks[j].gap != "" {
				break
			}
		}
	}
	return false
}

// next returns the kind and the end of the token starting at i.
func next(sql string, i int) (kind, int) {
	c := sql[i]
	at := func(j int) byte {
		if j < len(sql) {
			return sql[j]
		}
		return 0
	}
	switch {
	case c == '-' && at(i+1) == '-', c == '#':
		if j := strings.IndexByte(sql[i:], '\n'); j >= 0 {
			return line, i + j
		}
		return line, len(sql)
	case c == '/' && at(i+1) == '*':
		if j := strings.Index(sql[i+2:], "*/"); j >= 0 {
			return block, i + 2 + j + 2
		}
		return block, len(sql)
	case c == '\'' || c == '"' || c == '`':
		return quoted, closeQuote(sql, i, c)
	case c == '$':
		if tag, ok := dollarTag(sql, i); ok {
			if j := strings.Index(sql[i+len(tag):], tag); j >= 0 {
				return quoted, i + len(tag) + j + len(tag)
			}
			return quoted, len(sql)
		}
		if isWord(at(i + 1)) {
			return word, wordEnd(sql, i+1)
		}
		return other, i + 1
	case c == ':' && at(i+1) == ':': // a cast, never a parameter
		return other, i + 2
	case c == '?' || c == ':' || c == '@':
		if isWord(at(i+1)) && at(i+1) != '$' {
			return word, wordEnd(sql, i+1)
		}
		return other, i + 1
	case c == '(' || c == ')' || c == ',' || c == ';':
		return punct, i + 1
	case isWord(c) && c != '$':
		return word, wordEnd(sql, i)
	}
	return other, i + 1
}

// closeQuote returns the end of the quoted token opened at i by q, where
// a doubled q stands for itself; an unclosed one runs to the end.
func closeQuote(sql string, i int, q byte) int {
	for j := i + 1; j < len(sql); j++ {
		if sql[j] != q {
			continue
		}
		if j+1 < len(sql) && sql[j+1] == q {
			j++
			continue
		}
		return j + 1
	}
	return len(sql)
}

// dollarTag returns the opening tag of a PostgreSQL dollar-quoted string
// at i ($$ or $name$).
func dollarTag(sql string, i int) (string, bool) {
	j := i + 1
	if j < len(sql) && (sql[j] == '_' || isLetter(sql[j])) {
		for j < len(sql) && (sql[j] == '_' || isLetter(sql[j]) || isDigit(sql[j])) {
			j++
		}
	}
	if j < len(sql) && sql[j] == '$' {
		return sql[i : j+1], true
	}
	return "", false
}

func wordEnd(sql string, i int) int {
	for i < len(sql) && isWord(sql[i]) {
		i++
	}
	return i
}

// isSpace reports the characters every dialect reads as whitespace (not
// \v: SQLite does not, nor PostgreSQL before 16).
func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f'
}

func isLetter(c byte) bool { return c|0x20 >= 'a' && c|0x20 <= 'z' }
func isDigit(c byte) bool  { return c >= '0' && c <= '9' }

// isWord reports the bytes of names, keywords and numbers (any byte of a
// multi-byte character counts: names may be in any script).
func isWord(c byte) bool { return isLetter(c) || isDigit(c) || c == '_' || c == '$' || c >= 0x80 }

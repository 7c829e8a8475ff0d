// Package sqlitelex splits SQLite text the way SQLite's own tokenizer
// does, as far as statement boundaries and comments go: string literals,
// quoted identifiers, bracketed names, parameter tokens, comments and
// semicolons. The guard and the SQLite execution path use it to make sure
// that what runs is one statement with no comment in it: a printer that
// writes "- -1" as "--1" turns the rest of a line into a comment, and the
// SQLite driver runs every statement of a text it is given.
package sqlitelex

// Shape is what Scan found in a text.
type Shape struct {
	// Statements is the number of non-empty statements.
	Statements int
	// Comments is set when the text holds a comment outside literals.
	Comments bool
	// Unterminated is set when a literal, quoted name or block comment
	// runs to the end of the text.
	Unterminated bool
}

// Single reports whether the text is exactly one statement with no
// comment and nothing left open.
func (s Shape) Single() bool { return s.Statements == 1 && !s.Comments && !s.Unterminated }

// Scan reads sql with the token rules of SQLite's tokenizer (tokenize.c).
// Where a rule is uncertain it errs towards more statements or a comment,
// never fewer.
func Scan(sql string) Shape {
	var sh Shape
	inStmt := false
	for i := 0; i < len(sql); {
		c := sql[i]
		switch {
		case isSpace(c):
			i++
			continue
		case c == ';':
			if inStmt {
				sh.Statements++
			}
			inStmt = false
			i++
			continue
		case c == '-' && i+1 < len(sql) && sql[i+1] == '-':
			sh.Comments = true
			for i < len(sql) && sql[i] != '\n' {
				i++
			}
			continue
		case c == '/' && i+1 < len(sql) && sql[i+1] == '*':
			sh.Comments = true
			end := indexFrom(sql, i+2, "*/")
			if end < 0 {
				sh.Unterminated = true
				i = len(sql)
			} else {
				i = end + 2
			}
			continue
		}
		inStmt = true
		switch {
		case c == '\'' || c == '"' || c == '`':
			i = quoted(sql, i, c, &sh)
		case c == '[':
			end := indexFrom(sql, i+1, "]")
			if end < 0 {
				sh.Unterminated = true
				i = len(sql)
			} else {
				i = end + 1
			}
		case c == '$' || c == '@' || c == ':' || c == '#':
			i = parameter(sql, i)
		default:
			i++
		}
	}
	if inStmt {
		sh.Statements++
	}
	return sh
}

// quoted skips a literal or quoted name opened by q at i, where a doubled
// q stands for itself.
func quoted(sql string, i int, q byte, sh *Shape) int {
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
	sh.Unterminated = true
	return len(sql)
}

// parameter skips a named parameter ($name, @name, :name, #name), which
// SQLite lets carry "::" and a parenthesised suffix holding any character
// but white space up to ")": "$a(')" is one token, not the start of a
// string.
func parameter(sql string, i int) int {
	j := i + 1
	n := 0
	for j < len(sql) {
		c := sql[j]
		switch {
		case isIDChar(c):
			n++
			j++
		case c == '(' && n > 0:
			j++
			for j < len(sql) && !isSpace(sql[j]) && sql[j] != ')' {
				j++
			}
			if j < len(sql) && sql[j] == ')' {
				j++
			}
			return j
		case c == ':' && j+1 < len(sql) && sql[j+1] == ':':
			j += 2
		default:
			return j
		}
	}
	return j
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r'
}

// isIDChar is SQLite's IdChar: letters, digits, _, $ and every byte of a
// multi-byte UTF-8 character.
func isIDChar(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '$' || c >= 0x80
}

func indexFrom(s string, from int, sub string) int {
	for j := from; j+len(sub) <= len(s); j++ {
		if s[j:j+len(sub)] == sub {
			return j
		}
	}
	return -1
}

package sqlfmt

// Tokens returns the texts of sql's tokens, without the whitespace
// between them, and whether the dialects would split it differently.
func Tokens(sql string) ([]string, bool) {
	toks, ambiguous := lex(sql)
	out := make([]string, len(toks))
	for i, t := range toks {
		out[i] = t.text
	}
	return out, ambiguous
}

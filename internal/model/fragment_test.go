package model

import "testing"

// TestQuoteIdent: every dialect wraps a name in its own quote character
// and doubles that character inside the name, so a table called
// odd"name (or odd`name on MySQL) cannot end the identifier early; the
// other dialect's quote character is left as it is.
func TestQuoteIdent(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		dialect Dialect
		ident   string
		want    string
	}{
		{"sqlite plain", SQLite, "orders", `"orders"`},
		{"sqlite embedded quote", SQLite, `odd"name`, `"odd""name"`},
		{"sqlite only quotes", SQLite, `""`, `""""""`},
		{"sqlite backquote kept", SQLite, "a`b", "\"a`b\""},
		{"postgres plain", Postgres, "Order Lines", `"Order Lines"`},
		{"postgres embedded quote", Postgres, `x"; DROP TABLE t; --`, `"x""; DROP TABLE t; --"`},
		{"postgres backquote kept", Postgres, "a`b", "\"a`b\""},
		{"mysql plain", MySQL, "orders", "`orders`"},
		{"mysql embedded backquote", MySQL, "odd`name", "`odd``name`"},
		{"mysql two backquotes", MySQL, "a``b", "`a````b`"},
		{"mysql double quote kept", MySQL, `a"b`, "`a\"b`"},
		{"mysql empty", MySQL, "", "``"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			if got := tc.dialect.QuoteIdent(tc.ident); got != tc.want {
				t.Errorf("%s.QuoteIdent(%q) = %s, want %s", tc.dialect, tc.ident, got, tc.want)
			}
		})
	}
}

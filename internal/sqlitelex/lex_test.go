package sqlitelex

import "testing"

func TestScan(t *testing.T) {
	tests := []struct {
		name string
		sql  string
		want Shape
	}{
		{"one", "SELECT 1", Shape{Statements: 1}},
		{"trailing semicolon", "SELECT 1;  ", Shape{Statements: 1}},
		{"two", "SELECT 1; SELECT 2", Shape{Statements: 2}},
		{"semicolon in string", "SELECT 'a;b'", Shape{Statements: 1}},
		{"doubled quote", "SELECT 'it''s;' AS x", Shape{Statements: 1}},
		{"semicolon in quoted name", `SELECT 1 AS "a;b"`, Shape{Statements: 1}},
		{"backquoted", "SELECT 1 AS `a;b`", Shape{Statements: 1}},
		{"bracketed", "SELECT 1 AS [a;b]", Shape{Statements: 1}},
		{"blob literal", "SELECT x'3b'", Shape{Statements: 1}},
		{"line comment", "SELECT 1 -- x", Shape{Statements: 1, Comments: true}},
		{"block comment", "SELECT /* ; */ 1", Shape{Statements: 1, Comments: true}},
		{"unterminated block comment", "SELECT 1 /* ;", Shape{Statements: 1, Comments: true, Unterminated: true}},
		{"unterminated string", "SELECT 'abc", Shape{Statements: 1, Unterminated: true}},
		{"minus minus smuggles a statement", "SELECT --1 AS x, '\n 1 AS a; SELECT id FROM patients --' AS y", Shape{Statements: 2, Comments: true}},
		{"minus space minus", "SELECT - -1", Shape{Statements: 1}},
		{"division then star", "SELECT 4 / 2 * 3", Shape{Statements: 1}},
		{"parameter suffix holds a quote", "SELECT $a(') ; DELETE FROM t; SELECT '", Shape{Statements: 3, Unterminated: true}},
		{"numbered parameter", "SELECT ?1, :name, @v, $w::x", Shape{Statements: 1}},
		{"only semicolons", " ; ; ", Shape{}},
		{"empty", "", Shape{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := Scan(tt.sql); got != tt.want {
				t.Errorf("Scan(%q) = %+v, want %+v", tt.sql, got, tt.want)
			}
		})
	}
}

func TestSingle(t *testing.T) {
	if !Scan("SELECT 1").Single() {
		t.Error("SELECT 1 is a single statement")
	}
	for _, q := range []string{"SELECT 1; SELECT 2", "SELECT 1 -- c", "SELECT 'x", ""} {
		if Scan(q).Single() {
			t.Errorf("%q is not a single statement", q)
		}
	}
}

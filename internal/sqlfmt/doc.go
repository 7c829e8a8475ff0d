// Package sqlfmt lays out a SQL statement for people: one clause per
// line, the items of a select list and the conditions of a WHERE on lines
// of their own, subqueries indented. It sits at the end of a turn, after
// the guard has printed the statement that runs: the CLI shows the
// statement laid out, and so can any client that shows SQL.
//
// Format changes only whitespace outside string literals, quoted
// identifiers and comments, so the laid-out statement is the statement
// that ran, token for token. Text whose tokens the dialects would read
// differently (a backslash in a literal, a nested comment, brackets) is
// returned as it is.
package sqlfmt

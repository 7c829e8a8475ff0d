package model

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"

	"go.yaml.in/yaml/v3"
)

// Dialect is a SQL dialect Clarify compiles for.
type Dialect string

// The dialects Clarify supports.
const (
	SQLite   Dialect = "sqlite"
	Postgres Dialect = "postgres"
	MySQL    Dialect = "mysql"
)

// Dialects lists the supported dialects in a fixed order.
func Dialects() []Dialect { return []Dialect{SQLite, Postgres, MySQL} }

// QuoteIdent quotes a table or column name for the dialect, doubling the
// quote character inside it: "odd""name" (backticks, doubled the same
// way, on MySQL).
func (d Dialect) QuoteIdent(name string) string {
	if d == MySQL {
		return "`" + strings.ReplaceAll(name, "`", "``") + "`"
	}
	return `"` + strings.ReplaceAll(name, `"`, `""`) + `"`
}

// Fragment is a SQL fragment written by the model's author, with optional
// per-dialect overrides. In YAML it is a string or a mapping with keys sql
// (the default), sqlite, postgres and mysql.
//
// A fragment may contain date placeholders that compile to bound
// parameters computed from the engine's clock: {{today}}, {{tomorrow}},
// {{days_ago N}}, {{weeks_ago N}}, {{months_ago N}}, {{years_ago N}}.
// User text never enters a fragment.
type Fragment struct {
	SQL      string
	SQLite   string
	Postgres string
	MySQL    string
}

// IsZero reports whether no SQL is set.
func (f Fragment) IsZero() bool {
	return f.SQL == "" && f.SQLite == "" && f.Postgres == "" && f.MySQL == ""
}

// For returns the fragment's text for a dialect.
func (f Fragment) For(d Dialect) string {
	switch {
	case d == SQLite && f.SQLite != "":
		return f.SQLite
	case d == Postgres && f.Postgres != "":
		return f.Postgres
	case d == MySQL && f.MySQL != "":
		return f.MySQL
	}
	return f.SQL
}

// UnmarshalYAML accepts a string or a mapping of dialect overrides.
func (f *Fragment) UnmarshalYAML(n *yaml.Node) error {
	switch n.Kind {
	case yaml.ScalarNode:
		f.SQL = n.Value
		return nil
	case yaml.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			if v.Kind != yaml.ScalarNode {
				return fmt.Errorf("line %d: %s must be a string", v.Line, k.Value)
			}
			switch k.Value {
			case "sql":
				f.SQL = v.Value
			case "sqlite":
				f.SQLite = v.Value
			case "postgres":
				f.Postgres = v.Value
			case "mysql":
				f.MySQL = v.Value
			default:
				return fmt.Errorf("line %d: field %s not found in a SQL fragment (want sql, sqlite, postgres or mysql)", k.Line, k.Value)
			}
		}
		if f.SQL == "" && (f.SQLite == "" || f.Postgres == "" || f.MySQL == "") {
			return fmt.Errorf("line %d: a SQL fragment needs sql or all of sqlite, postgres and mysql", n.Line)
		}
		return nil
	}
	return fmt.Errorf("line %d: a SQL fragment must be a string or a mapping", n.Line)
}

// MarshalYAML writes a plain string when there are no overrides.
func (f Fragment) MarshalYAML() (any, error) {
	if f.SQLite == "" && f.Postgres == "" && f.MySQL == "" {
		return f.SQL, nil
	}
	m := map[string]string{}
	for k, v := range map[string]string{"sql": f.SQL, "sqlite": f.SQLite, "postgres": f.Postgres, "mysql": f.MySQL} {
		if v != "" {
			m[k] = v
		}
	}
	return m, nil
}

// Piece is a part of a fragment: SQL text, or a date parameter.
type Piece struct {
	SQL   string
	Param bool
	Date  string // the parameter value, YYYY-MM-DD
}

var placeholder = regexp.MustCompile(`\{\{\s*([a-z_]+)(?:\s+(\d+))?\s*\}\}`)

// Expand splits fragment text into SQL and date parameters computed from now.
func Expand(text string, now time.Time) ([]Piece, error) {
	var out []Piece
	last := 0
	for _, m := range placeholder.FindAllStringSubmatchIndex(text, -1) {
		if m[0] > last {
			out = append(out, Piece{SQL: text[last:m[0]]})
		}
		name := text[m[2]:m[3]]
		n := 0
		if m[4] >= 0 {
			n, _ = strconv.Atoi(text[m[4]:m[5]])
		}
		d, err := placeholderDate(name, n, now)
		if err != nil {
			return nil, err
		}
		out = append(out, Piece{Param: true, Date: d})
		last = m[1]
	}
	if last < len(text) {
		out = append(out, Piece{SQL: text[last:]})
	}
	if rest := strings.Join(sqlOf(out), ""); strings.Contains(rest, "{{") {
		return nil, fmt.Errorf("unknown placeholder in %q", text)
	}
	return out, nil
}

func sqlOf(ps []Piece) []string {
	s := make([]string, 0, len(ps))
	for _, p := range ps {
		s = append(s, p.SQL)
	}
	return s
}

func placeholderDate(name string, n int, now time.Time) (string, error) {
	day := time.Date(now.Year(), now.Month(), now.Day(), 0, 0, 0, 0, time.UTC)
	switch name {
	case "today":
		return day.Format(time.DateOnly), nil
	case "tomorrow":
		return day.AddDate(0, 0, 1).Format(time.DateOnly), nil
	case "days_ago":
		return day.AddDate(0, 0, -n).Format(time.DateOnly), nil
	case "weeks_ago":
		return day.AddDate(0, 0, -7*n).Format(time.DateOnly), nil
	case "months_ago":
		return day.AddDate(0, -n, 0).Format(time.DateOnly), nil
	case "years_ago":
		return day.AddDate(-n, 0, 0).Format(time.DateOnly), nil
	}
	return "", fmt.Errorf("unknown placeholder {{%s}}", name)
}

// fixedNow is the clock used only to check placeholders when a model loads.
var fixedNow = time.Date(2000, 1, 1, 0, 0, 0, 0, time.UTC)

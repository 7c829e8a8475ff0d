package model

import (
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestLoadValid(t *testing.T) {
	m, err := Load("testdata/valid.yaml")
	if err != nil {
		t.Fatal(err)
	}
	lines := m.Entity("lines")
	if tc := m.TimeColumn(lines); tc == nil || tc.Entity().Name != "orders" {
		t.Errorf("time column of lines = %v, want orders.ordered_on", tc)
	}
	path, ok := m.Path(lines, m.Entity("customers"))
	if !ok || len(path) != 2 || !ToOnePath(path) {
		t.Fatalf("path lines→customers = %v %v, want two many-to-one steps", path, ok)
	}
	back, ok := m.Path(m.Entity("customers"), lines)
	if !ok || ToOnePath(back) {
		t.Errorf("path customers→lines should be one-to-many, got %v", back)
	}
	if m.Line("entities[1].columns[1]") == 0 {
		t.Error("no line recorded for entities[1].columns[1]")
	}
}

// TestLoadErrors checks that every kind of mistake names the file, the
// line and the field.
func TestLoadErrors(t *testing.T) {
	valid, err := os.ReadFile("testdata/valid.yaml")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name  string
		edit  func(string) string
		wants []string // substrings of the error
	}{
		{"yaml syntax", func(s string) string { return s + "\n  - {broken: [1, 2}\n" }, []string{"bad.yaml:"}},
		{"unknown field", func(s string) string {
			return strings.Replace(s, "    key: id\n    display: name", "    key: id\n    dispaly: name", 1)
		}, []string{"bad.yaml:5:", `unknown field "dispaly"`}},
		{"missing reference", func(s string) string {
			return strings.Replace(s, "references: customers.id", "references: customers.idx", 1)
		},
			[]string{"bad.yaml:16:", "entities[1].columns[1].references", `unknown column "idx" in customers`}},
		{"unknown entity in reference", func(s string) string {
			return strings.Replace(s, "references: customers.id", "references: clients.id", 1)
		},
			[]string{"bad.yaml:16:", `unknown entity "clients"`}},
		{"bad role", func(s string) string {
			return strings.Replace(s, "{name: total, role: measure", "{name: total, role: amount", 1)
		},
			[]string{"bad.yaml:17:", "entities[1].columns[2].role", `role "amount"`}},
		{"key not a column", func(s string) string {
			return strings.Replace(s, "  - name: orders\n    key: id", "  - name: orders\n    key: order_id", 1)
		},
			[]string{"entities[1].key", `key "order_id" is not a column of orders`}},
		{"condition on missing column", func(s string) string { return strings.Replace(s, "condition: total > 100", "condition: totl > 100", 1) },
			[]string{"bad.yaml:35:", "vague_terms[0].options[0].condition", `unknown column "totl" in orders`}},
		{"bad condition syntax", func(s string) string {
			return strings.Replace(s, "condition: total > 1000", "condition: total >> 1000", 1)
		},
			[]string{"vague_terms[0].options[1].condition", "invalid condition"}},
		{"too few options", func(s string) string {
			return strings.Replace(s, "      - {id: gt_1000, label: Total > 1000, condition: total > 1000}\n", "", 1)
		}, []string{"vague_terms[0].options", "2 to 4 options, has 1"}},
		{"duplicate entity", func(s string) string { return strings.Replace(s, "  - name: lines", "  - name: orders", 1) },
			[]string{"entities[2].name", `duplicate entity "orders"`}},
		{"time column unreachable", func(s string) string {
			return strings.Replace(s, "time_column: orders.ordered_on", "time_column: orders.shipped_on", 1)
		},
			[]string{"entities[2].time_column", "does not resolve"}},
		{"control character in a name", func(s string) string {
			return strings.Replace(s, "  - name: orders\n", "  - name: \"ord\\0ers\"\n", 1)
		}, []string{"entities[1].name", "control character U+0000"}},
		{"empty", func(string) string { return "" }, []string{"bad.yaml:1:", "empty"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse("bad.yaml", []byte(tc.edit(string(valid))))
			if err == nil {
				t.Fatal("Parse succeeded, want an error")
			}
			var me *Error
			if !errors.As(err, &me) {
				t.Fatalf("error %T is not *model.Error: %v", err, err)
			}
			for _, w := range tc.wants {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not mention %q", err, w)
				}
			}
		})
	}
}

func TestParseCond(t *testing.T) {
	tests := []struct {
		in   string
		want string // CondString without a model
		bad  bool
	}{
		{in: "area_cm2 > 25", want: "area_cm2 > 25"},
		{in: "area > 15 and infected", want: "area > 15 and infected = true"},
		{in: "status in ('Open', 'Healing')", want: "status in (Open, Healing)"},
		{in: "not (a = 1 or b != 'x')", want: "not (a = 1 or b != x)"},
		{in: "qty between 10 and 20", want: "qty >= 10 and qty <= 20"},
		{in: "x is not null", want: "x is not null"},
		{in: "price >= 10,000.5", want: "price >= 10000.5"},
		{in: "name = 'O''Brien'", want: "name = O'Brien"},
		{in: "a > ", bad: true},
		{in: "a >> 1", bad: true},
		{in: "a in (b)", bad: true},
		{in: "'x' = 1", bad: true},
		{in: "a = 'open", bad: true},
		{in: "a = 1; DROP TABLE x", bad: true},
	}
	for _, tc := range tests {
		t.Run(tc.in, func(t *testing.T) {
			c, err := ParseCond(tc.in)
			if tc.bad {
				if err == nil {
					t.Fatalf("ParseCond(%q) = %v, want an error", tc.in, c)
				}
				if !errors.Is(err, ErrCondition) {
					t.Errorf("error %v is not ErrCondition", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := CondString(nil, nil, c); got != tc.want {
				t.Errorf("CondString = %q, want %q", got, tc.want)
			}
		})
	}
}

func TestExpand(t *testing.T) {
	now := time.Date(2026, 3, 31, 15, 0, 0, 0, time.UTC)
	ps, err := Expand("d >= {{days_ago 30}} AND d < {{today}} AND m >= {{months_ago 1}} AND y >= {{ years_ago 1 }}", now)
	if err != nil {
		t.Fatal(err)
	}
	var dates []string
	var sql strings.Builder
	for _, p := range ps {
		if p.Param {
			dates = append(dates, p.Date)
			sql.WriteString("?")
		} else {
			sql.WriteString(p.SQL)
		}
	}
	// months_ago follows SQLite's date(x, '-1 month'): 2026-02-31 → 2026-03-03
	want := []string{"2026-03-01", "2026-03-31", "2026-03-03", "2025-03-31"}
	if d := cmp.Diff(want, dates); d != "" {
		t.Errorf("dates (-want +got):\n%s", d)
	}
	if got := sql.String(); got != "d >= ? AND d < ? AND m >= ? AND y >= ?" {
		t.Errorf("sql = %q", got)
	}
	if _, err := Expand("x > {{week_ago 1}}", now); err == nil {
		t.Error("unknown placeholder accepted")
	}
}

func TestParseSpan(t *testing.T) {
	for in, want := range map[string]Span{"30 days": {30, "day"}, "1 month": {1, "month"}, "12 months": {12, "month"}, "2 weeks": {2, "week"}} {
		got, err := ParseSpan(in)
		if err != nil || got != want {
			t.Errorf("ParseSpan(%q) = %v, %v; want %v", in, got, err, want)
		}
	}
	for _, bad := range []string{"", "30", "days 30", "-1 days", "3 fortnights"} {
		if _, err := ParseSpan(bad); err == nil {
			t.Errorf("ParseSpan(%q) accepted", bad)
		}
	}
}

func FuzzParseCond(f *testing.F) {
	for _, s := range []string{"a > 1", "x in ('a','b') and not y", "(a=1 or b<2) and c is null", "q between 1 and 2"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		c, err := ParseCond(s)
		if err == nil && c == nil {
			t.Fatal("nil condition without error")
		}
	})
}

// TestDocExample keeps the complete example of docs/model.md valid.
func TestDocExample(t *testing.T) {
	doc, err := os.ReadFile("../../docs/model.md")
	if err != nil {
		t.Fatal(err)
	}
	s := string(doc)
	i := strings.Index(s, "```yaml\n")
	j := strings.Index(s[i+8:], "```")
	if i < 0 || j < 0 {
		t.Fatal("no yaml block in docs/model.md")
	}
	if _, err := Parse("docs/model.md", []byte(s[i+8:i+8+j])); err != nil {
		t.Fatal(err)
	}
}

// TestPathPrefersManyToOne: employees reach their department through
// their own department_id, not through the department they manage,
// whichever of the two the YAML declares first.
func TestPathPrefersManyToOne(t *testing.T) {
	departments := `  - name: departments
    key: id
    columns:
      - {name: id, role: id}
      - {name: manager_id, role: id, references: employees.id}
`
	employees := `  - name: employees
    key: id
    columns:
      - {name: id, role: id}
      - {name: department_id, role: id, references: departments.id}
`
	for name, ents := range map[string]string{"departments first": departments + employees, "employees first": employees + departments} {
		t.Run(name, func(t *testing.T) {
			m, err := Parse("m.yaml", []byte("source: m\nentities:\n"+ents))
			if err != nil {
				t.Fatal(err)
			}
			p, ok := m.Path(m.Entity("employees"), m.Entity("departments"))
			if !ok || len(p) != 1 || p[0].FromCol != "department_id" || !p[0].ToOne {
				t.Errorf("path %+v, want employees.department_id → departments.id", p)
			}
			if !m.ToOne(m.Entity("employees"), m.Entity("departments")) {
				t.Error("departments are not many-to-one from employees")
			}
		})
	}
}

// TestSyntaxErrorLine checks that a YAML syntax error names the line of
// the mistake, not the line before it or the start of the enclosing block.
func TestSyntaxErrorLine(t *testing.T) {
	valid, err := os.ReadFile("testdata/valid.yaml")
	if err != nil {
		t.Fatal(err)
	}
	// lineOf is the 1-based line of the first line of valid.yaml equal to s.
	lineOf := func(s string) int {
		for i, l := range strings.Split(string(valid), "\n") {
			if l == s {
				return i + 1
			}
		}
		t.Fatalf("valid.yaml has no line %q", s)
		return 0
	}
	tests := []struct {
		name string
		from string // a line of valid.yaml
		to   string // what it becomes
		// line is the mistake's line relative to from's.
		line int
	}{
		{"key outdented by one inside a list item", "    time_column: ordered_on", "   time_column: ordered_on", 0},
		{"list item inside a mapping", "    display: name", "    - display: name", 0},
		{"unclosed flow mapping", "      - {name: qty, role: measure, type: integer}", "      - {name: qty, role: measure, type: integer", 0},
		{"unclosed flow sequence", "          items: [{value: open}, {value: shipped}]", "          items: [{value: open}, {value: shipped}", 0},
		{"mapping value in a plain scalar", "    key: id", "    key: id: x", 0},
		{"character that cannot start a token", "source: shop", "source: @shop", 0},
		{"tab in indentation", "    key: id", "\tkey: id", 0},
		{"key indented under a scalar", "    display: name", "      display: name", 0},
		{"unclosed quote", "    key: id", "    key: \"id", 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			want := lineOf(tc.from) + tc.line
			data := strings.Replace(string(valid), tc.from+"\n", tc.to+"\n", 1)
			_, err := Parse("bad.yaml", []byte(data))
			var me *Error
			if !errors.As(err, &me) {
				t.Fatalf("Parse error = %v, want a *model.Error", err)
			}
			if len(me.Problems) != 1 {
				t.Fatalf("problems = %v, want one", me.Problems)
			}
			if got := me.Problems[0].Line; got != want {
				t.Errorf("line = %d, want %d (%s)", got, want, me.Problems[0])
			}
		})
	}
}

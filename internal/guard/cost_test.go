package guard_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/clarify-sql/clarify/internal/demo/demotest"
	"github.com/clarify-sql/clarify/internal/guard"
	"github.com/clarify-sql/clarify/internal/model"
)

// nested wraps expr in n calls made by wrap.
func nested(n int, expr string, wrap func(string) string) string {
	for range n {
		expr = wrap(expr)
	}
	return expr
}

// TestBoundedCost: string functions that can build a value far larger
// than their inputs are refused on every dialect — the nested-replace
// family (28 levels of replace(…, 'a', 'aa') ran on MariaDB for over an
// hour), pads and printf widths beyond a bound — while the string work a
// question does (a few replacements that keep or shrink a value) passes.
func TestBoundedCost(t *testing.T) {
	m := demotest.Model(t, "clinic")
	double := func(e string) string { return "replace(" + e + ", 'a', 'aa')" }
	same := func(e string) string { return "replace(" + e + ", '-', ' ')" }
	unknown := func(e string) string { return "replace(" + e + ", location, wound_type)" }
	for _, tc := range []struct {
		name    string
		expr    string
		ok      bool
		dialect []model.Dialect // nil: every dialect
	}{
		{"28 doubling replaces", nested(28, "location", double), false, nil},
		{"11 doubling replaces", nested(11, "location", double), false, nil},
		{"10 doubling replaces (1,024 times)", nested(10, "location", double), true, nil},
		{"20 replaces that keep the size", nested(20, "location", same), true, nil},
		{"3 replaces of unknown growth", nested(3, "location", unknown), true, nil},
		{"4 replaces of unknown growth", nested(4, "location", unknown), false, nil},
		{"doubling inside concat", "concat('x', " + nested(12, "location", double) + ")", false, []model.Dialect{model.Postgres, model.MySQL}},
		{"regexp_replace nested", nested(7, "location", func(e string) string { return "regexp_replace(" + e + ", 'x*', 'yy')" }), false, []model.Dialect{model.Postgres}},
		{"lpad to a million", "lpad(location, 1000000, 'a')", false, []model.Dialect{model.MySQL}},
		{"lpad to ten", "lpad(location, 10, ' ')", true, []model.Dialect{model.MySQL}},
		{"lpad to a column's length", "lpad(location, area_cm2, ' ')", false, []model.Dialect{model.MySQL}},
		{"printf width from an argument", "printf('%.*c', 1000000000, 'x')", false, []model.Dialect{model.SQLite}},
		{"printf wide field", "printf('%5000d', 1)", false, []model.Dialect{model.SQLite}},
		{"printf plain", "printf('%.2f cm²', area_cm2)", true, []model.Dialect{model.SQLite}},
	} {
		for _, d := range model.Dialects() {
			if tc.dialect != nil && !contains(tc.dialect, d) {
				continue
			}
			t.Run(fmt.Sprintf("%s/%s", d, tc.name), func(t *testing.T) {
				g := guard.New(m, d, guard.Options{})
				sql := "SELECT length(" + tc.expr + ") FROM wounds"
				_, err := g.Check(sql, nil, nil)
				ge, rejected := guard.IsRejection(err)
				switch {
				case err != nil && !rejected:
					t.Fatalf("the guard failed: %v", err)
				case tc.ok && rejected:
					t.Errorf("refused: %s", ge.Reason)
				case !tc.ok && !rejected:
					t.Errorf("accepted %d bytes of %s", len(sql), strings.SplitN(tc.expr, "(", 2)[0])
				}
			})
		}
	}
}

func contains(ds []model.Dialect, d model.Dialect) bool {
	for _, x := range ds {
		if x == d {
			return true
		}
	}
	return false
}

package plan

import (
	"testing"

	"github.com/clarify-sql/clarify/internal/model"
)

// TestLoosest: the options' narrowing condition is the loosest cut only
// when every option cuts the same stored column at a number with the
// same comparison.
func TestLoosest(t *testing.T) {
	for _, tc := range []struct {
		name  string
		conds func(w *writer) []string
		want  int // index of the condition kept, -1 for none
	}{
		{"greater: the smallest", func(w *writer) []string {
			return []string{`"t"."q" > ` + w.param(int64(5000)), `"t"."q" > ` + w.param(int64(1000)), `"t"."q" > ` + w.param(10000.5)}
		}, 1},
		{"at most: the largest", func(w *writer) []string {
			return []string{`"t"."q" <= ` + w.param(1.5), `"t"."q" <= ` + w.param(int64(3))}
		}, 1},
		{"mixed comparisons", func(w *writer) []string {
			return []string{`"t"."q" > ` + w.param(int64(5)), `"t"."q" >= ` + w.param(int64(1))}
		}, -1},
		{"unqualified", func(w *writer) []string {
			return []string{`"q" > ` + w.param(int64(5)), `"q" > ` + w.param(int64(1))}
		}, -1},
		{"other columns", func(w *writer) []string {
			return []string{"`t`.`q` > " + w.param(int64(5)), "`t`.`p` > " + w.param(int64(1))}
		}, -1},
		{"text", func(w *writer) []string {
			return []string{`"t"."q" > ` + w.param("2024-01-01"), `"t"."q" > ` + w.param("2023-01-01")}
		}, -1},
		{"numbers in a text column (compared as text: 10000 before 5000)", func(w *writer) []string {
			return []string{`"t"."d" > ` + w.param(int64(5000)), `"t"."d" > ` + w.param(int64(10000))}
		}, -1},
		{"a computed column", func(w *writer) []string {
			return []string{`("t"."a" * "t"."b") > ` + w.param(int64(5)), `("t"."a" * "t"."b") > ` + w.param(int64(1))}
		}, -1},
		{"a conjunction", func(w *writer) []string {
			return []string{`"t"."a" = "t"."b" AND "t"."q" > ` + w.param(int64(5)), `"t"."a" = "t"."b" AND "t"."q" > ` + w.param(int64(1))}
		}, -1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := &writer{d: model.SQLite}
			conds := tc.conds(w)
			// every stored column but t.d holds numbers
			got, ok := w.loosest(conds, func(col string) bool {
				_, c, ok := splitColumn(col)
				return ok && c != "d"
			})
			switch {
			case tc.want < 0 && ok:
				t.Errorf("kept %q, want the OR", got)
			case tc.want >= 0 && (!ok || got != conds[tc.want]):
				t.Errorf("kept %q (%v), want %q", got, ok, conds[tc.want])
			}
		})
	}
}

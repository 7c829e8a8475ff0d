package guard_test

import (
	"strings"
	"testing"

	"github.com/clarify-sql/clarify/internal/apperr"
	"github.com/clarify-sql/clarify/internal/demo/demotest"
	"github.com/clarify-sql/clarify/internal/guard"
	"github.com/clarify-sql/clarify/internal/model"
)

// TestPlaceholderValues checks that a statement is refused when one of its
// placeholders has no argument — a language model's statement never
// carries arguments, and without this the database, not the guard, would
// refuse it — and accepted, arguments and all, when every one has.
func TestPlaceholderValues(t *testing.T) {
	t.Parallel()
	type check struct {
		name string
		sql  string
		args []any
		// reason is a part of the refusal's reason; "" means accepted.
		reason string
	}
	const byResult = "SELECT analyte, value FROM lab_results WHERE patient_id = "
	cases := map[model.Dialect][]check{
		model.SQLite: {
			{name: "unbound", sql: byResult + "?", reason: "parameter placeholder (?) with no value"},
			{name: "bound", sql: byResult + "?", args: []any{"L2"}},
			{name: "second unbound", sql: byResult + "? AND analyte = ?", args: []any{"L2"}, reason: "needs 2 values, 1 given"},
			{name: "both bound", sql: byResult + "? AND analyte = ?", args: []any{"L2", "Glucose"}},
			{name: "in a subquery", sql: "SELECT full_name FROM patients WHERE id IN (SELECT patient_id FROM lab_results WHERE value > ?)", reason: "(?) with no value"},
			{name: "in LIMIT", sql: "SELECT id FROM patients LIMIT ?", reason: "(?) with no value"},
			{name: "LIMIT bound", sql: "SELECT id FROM patients LIMIT ?", args: []any{int64(3)}},
			// Numbered and named parameters are refused with or without
			// a value: only ? is accepted.
			{name: "numbered", sql: byResult + "?1", reason: "use ? placeholders"},
			{name: "numbered bound", sql: byResult + "?1", args: []any{"L2"}, reason: "use ? placeholders"},
			{name: "colon name", sql: byResult + ":p", reason: "use ? placeholders"},
			{name: "at name", sql: byResult + "@p", reason: "use ? placeholders"},
			{name: "dollar name", sql: byResult + "$p", reason: "use ? placeholders"},
			{name: "question mark in a string", sql: "SELECT value FROM lab_results WHERE analyte = '?'"},
		},
		model.Postgres: {
			{name: "unbound", sql: byResult + "$1", reason: "parameter placeholder ($1) with no value"},
			{name: "bound", sql: byResult + "$1", args: []any{"L2"}},
			{name: "beyond the arguments", sql: byResult + "$2", args: []any{"L2"}, reason: "($2) with no value: it needs 2 values, 1 given"},
			{name: "both bound", sql: byResult + "$1 AND analyte = $2", args: []any{"L2", "Glucose"}},
			{name: "repeated", sql: byResult + "$1 OR patient_id = $1", args: []any{"L2"}},
			{name: "zero", sql: byResult + "$0", args: []any{"L2"}, reason: "($0) with no value"},
			{name: "in a subquery", sql: "SELECT full_name FROM patients WHERE id IN (SELECT patient_id FROM lab_results WHERE value > $1)", reason: "($1) with no value"},
			{name: "in a CTE", sql: "WITH r AS (SELECT value FROM lab_results WHERE analyte = $1) SELECT count(*) FROM r", reason: "($1) with no value"},
			{name: "in a cast", sql: "SELECT $1::text AS x FROM patients", reason: "($1) with no value"},
			{name: "in LIMIT", sql: "SELECT id FROM patients LIMIT $1", reason: "($1) with no value"},
			{name: "LIMIT bound", sql: "SELECT id FROM patients LIMIT $1", args: []any{int64(3)}},
			{name: "dollar in a string", sql: "SELECT value FROM lab_results WHERE analyte = '$1'"},
		},
		model.MySQL: {
			{name: "unbound", sql: byResult + "?", reason: "parameter placeholder (?) with no value"},
			{name: "bound", sql: byResult + "?", args: []any{"L2"}},
			{name: "second unbound", sql: byResult + "? AND analyte = ?", args: []any{"L2"}, reason: "needs 2 values, 1 given"},
			{name: "both bound", sql: byResult + "? AND analyte = ?", args: []any{"L2", "Glucose"}},
			{name: "in a subquery", sql: "SELECT full_name FROM patients WHERE id IN (SELECT patient_id FROM lab_results WHERE value > ?)", reason: "(?) with no value"},
			{name: "in LIMIT", sql: "SELECT id FROM patients LIMIT ?", reason: "LIMIT placeholder has no argument"},
			{name: "LIMIT bound", sql: "SELECT id FROM patients LIMIT ?", args: []any{int64(3)}},
			{name: "named", sql: byResult + ":p", args: []any{"L2"}, reason: "use ? placeholders"},
			{name: "question mark in a string", sql: "SELECT value FROM lab_results WHERE analyte = '?'"},
		},
	}
	scopes := []*guard.Scope{nil, {Value: "L2"}}
	for _, d := range model.Dialects() {
		g := guardFor(t, "labs", d)
		for _, tc := range cases[d] {
			for _, sc := range scopes {
				t.Run(string(d)+"/"+tc.name+"/"+scopeName(sc), func(t *testing.T) {
					t.Parallel()
					st, err := g.Check(tc.sql, tc.args, sc)
					if tc.reason == "" {
						if err != nil {
							t.Fatalf("refused: %v\n  %s", err, tc.sql)
						}
						if len(st.Args) != len(tc.args) {
							t.Errorf("accepted with %d arguments, want %d", len(st.Args), len(tc.args))
						}
						return
					}
					ge, ok := guard.IsRejection(err)
					if !ok || ge.Code != apperr.CodeValidationFailed {
						t.Fatalf("got %v, want a %s refusal\n  %s", err, apperr.CodeValidationFailed, tc.sql)
					}
					if !strings.Contains(ge.Reason, tc.reason) {
						t.Errorf("reason %q, want it to say %q", ge.Reason, tc.reason)
					}
				})
			}
		}
	}
}

// TestPlaceholderSurplusArguments pins what the guard does with more
// arguments than placeholders: it accepts the statement and passes the
// arguments on, leaving the surplus to the database driver.
func TestPlaceholderSurplusArguments(t *testing.T) {
	t.Parallel()
	stmts := map[model.Dialect]string{
		model.SQLite:   "SELECT id FROM patients WHERE id = ?",
		model.Postgres: "SELECT id FROM patients WHERE id = $1",
		model.MySQL:    "SELECT id FROM patients WHERE id = ?",
	}
	for _, d := range model.Dialects() {
		t.Run(string(d), func(t *testing.T) {
			t.Parallel()
			st, err := guardFor(t, "labs", d).Check(stmts[d], []any{"L2", "surplus"}, nil)
			if err != nil {
				t.Fatal(err)
			}
			if len(st.Args) != 2 {
				t.Errorf("got %d arguments, want both passed on", len(st.Args))
			}
		})
	}
}

// TestCheckModelBindsDates: a model fragment's date placeholders
// ({{days_ago 90}}) become bound parameters with their dates as arguments,
// as plan compiles them, so the demo models' fragments pass CheckModel
// now that a placeholder without a value is refused.
func TestCheckModelBindsDates(t *testing.T) {
	t.Parallel()
	for _, name := range []string{"clinic", "labs", "retail", "trades"} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			if err := guard.CheckModel(demotest.Model(t, name)); err != nil {
				t.Fatal(err)
			}
		})
	}
}

package engine_test

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/clarify-sql/clarify/internal/apperr"
	"github.com/clarify-sql/clarify/internal/demo/demotest"
	"github.com/clarify-sql/clarify/internal/engine"
	"github.com/clarify-sql/clarify/internal/understand"
)

// TestScopeRights: a user limited to some patients is offered only those,
// answered for the only one when there is one, and refused — with the
// same words whether or not the patient exists — for any other, named,
// answered or with none named. The labs demo: L1 Ivan Petrov, L2 John
// Doe, L3 Maria Rodriguez.
func TestScopeRights(t *testing.T) {
	e := demotest.Engine(t, "labs")
	a := understand.NewScopeLimit([]string{"L1", "L2"})
	b := understand.NewScopeLimit([]string{"L3"})
	none := understand.NewScopeLimit(nil)
	run := func(q string, lim *understand.ScopeLimit, res map[string]understand.Resolution) (*engine.Outcome, error) {
		return e.Turn(context.Background(), engine.Request{Question: q, Interactive: res == nil && q == "show my lab results" && lim != b, AskScope: true, Scope: lim, Resolved: res})
	}

	t.Run("offered only what the user may see", func(t *testing.T) {
		for _, tc := range []struct {
			name string
			lim  *understand.ScopeLimit
			want []string
		}{
			{"A", a, []string{"L1", "L2"}},
			{"no limit", nil, []string{"L1", "L2", "L3"}},
		} {
			out, err := run("show my lab results", tc.lim, nil)
			if err != nil || out.Clarification == nil || out.Clarification.Slot != "scope" {
				t.Fatalf("%s: %v %+v, want the scope asked", tc.name, err, out)
			}
			var got []string
			for _, o := range out.Clarification.Options {
				got = append(got, o.ID)
				if strings.Contains(o.Label, "Maria") && tc.lim != nil {
					t.Errorf("%s: offered %q", tc.name, o.Label)
				}
			}
			if strings.Join(got, ",") != strings.Join(tc.want, ",") {
				t.Errorf("%s: options %v, want %v", tc.name, got, tc.want)
			}
		}
	})

	t.Run("the only one is answered", func(t *testing.T) {
		out, err := run("show my lab results", b, nil)
		if err != nil || out.Answer == nil {
			t.Fatalf("B: %v %+v, want an answer for L3", err, out)
		}
		for _, p := range out.Answer.Params {
			if p == "L1" || p == "L2" {
				t.Errorf("B's answer is bound to %v", p)
			}
		}
		// the model's suggested questions that name other patients are not shown
		for _, sg := range out.Answer.Suggestions {
			if strings.Contains(sg.Prompt, "Ivan") || strings.Contains(sg.Prompt, "John") {
				t.Errorf("B is suggested %q", sg.Prompt)
			}
		}
	})

	for _, tc := range []struct {
		name string
		q    string
		lim  *understand.ScopeLimit
		res  map[string]understand.Resolution
	}{
		{"named by A", "show lab results for Maria Rodriguez", a, nil},
		{"answered with an option not offered", "show my lab results", a, map[string]understand.Resolution{"scope": {OptionID: "L3"}}},
		{"granted none", "show my lab results", none, nil},
		{"granted none, no first person", "how many lab results are there", none, nil},
	} {
		t.Run("refused/"+tc.name, func(t *testing.T) {
			out, err := run(tc.q, tc.lim, tc.res)
			if apperr.CodeOf(err) != apperr.CodeScopeForbidden {
				t.Fatalf("%q: %v %+v, want %s", tc.q, err, out, apperr.CodeScopeForbidden)
			}
			if strings.Contains(err.Error(), "Maria") || strings.Contains(err.Error(), "L3") {
				t.Errorf("the refusal names the patient: %v", err)
			}
		})
	}

	// Naming no patient, a limited user is answered over their own
	// patients, all of them; a user who may see none is still refused, and
	// an unlimited user sees everyone.
	for _, tc := range []struct {
		name string
		q    string
		lim  *understand.ScopeLimit
		want string // the answer's rows, "|"-joined and sorted
		code apperr.Code
	}{
		{"list, A", "list patients", a, "Ivan Petrov;John Doe", ""},
		{"names, A", "names of patients", a, "Ivan Petrov;John Doe", ""},
		{"count, A", "how many patients are there", a, "2", ""},
		{"count, B", "how many patients are there", b, "1", ""},
		{"list, granted none", "list patients", none, "", apperr.CodeScopeForbidden},
		{"count, granted none", "how many patients are there", none, "", apperr.CodeScopeForbidden},
		{"list, no limit", "list patients", nil, "Ivan Petrov;John Doe;Maria Rodriguez", ""},
		{"count, no limit", "how many patients are there", nil, "3", ""},
	} {
		t.Run("no patient named/"+tc.name, func(t *testing.T) {
			out, err := e.Turn(context.Background(), engine.Request{Question: tc.q, Scope: tc.lim})
			if tc.code != "" {
				var ee *apperr.Error
				if apperr.CodeOf(err) != tc.code || !errors.As(err, &ee) {
					t.Fatalf("%v %+v, want %s", err, out, tc.code)
				}
				// what the user reads says why, in words, naming no table
				if !strings.Contains(ee.Message, "may not see any patient's data") || strings.Contains(ee.Message, "lab_results") {
					t.Errorf("message %q", ee.Message)
				}
				return
			}
			if err != nil || out.Answer == nil {
				t.Fatalf("%v %+v, want an answer", err, out)
			}
			if got := nameCells(out.Answer); got != tc.want {
				t.Errorf("answered %q, want %q\n  %s", got, tc.want, out.Answer.Ran.SQL)
			}
		})
	}

	t.Run("a value A may see, named", func(t *testing.T) {
		out, err := run("show lab results for John Doe", a, nil)
		if err != nil || out.Answer == nil {
			t.Fatalf("%v %+v, want an answer", err, out)
		}
	})
}

// nameCells is an answer's patient names (its full_name column) or, when
// it has none, its single number, sorted and ";"-joined.
func nameCells(a *engine.Answer) string {
	col := -1
	for i, c := range a.Columns {
		if c.Name == "full_name" {
			col = i
		}
	}
	if col < 0 {
		if len(a.Rows) == 1 && len(a.Rows[0]) == 1 {
			return fmt.Sprint(a.Rows[0][0])
		}
		return fmt.Sprintf("no full_name column in %+v", a.Columns)
	}
	var out []string
	for _, r := range a.Rows {
		out = append(out, fmt.Sprint(r[col]))
	}
	sort.Strings(out)
	return strings.Join(out, ";")
}

// TestRunEnforcesRights: whatever understanding produced, a statement
// runs only limited to a value the user may see, or, naming none, limited
// to the values the user may see (none: reading no scoped table).
func TestRunEnforcesRights(t *testing.T) {
	e := demotest.Engine(t, "labs")
	ctx := context.Background()
	a := understand.NewScopeLimit([]string{"L1", "L2"})
	for _, tc := range []struct {
		name  string
		lim   *understand.ScopeLimit
		scope string
		sql   string
		code  apperr.Code
	}{
		{"another patient", a, "L3", "SELECT count(*) FROM lab_results", apperr.CodeScopeForbidden},
		// Naming no patient once refused every scoped table; it now reads
		// the user's own patients (L1 and L2): answered, over them only.
		{"no patient named", a, "", "SELECT count(*) FROM lab_results", ""},
		{"no patient named, the patients table", a, "", "SELECT count(*) FROM patients", ""},
		{"no patient named, another patient's id", a, "", "SELECT count(*) FROM lab_results WHERE patient_id = 'L3'", apperr.CodeScopeViolation},
		{"granted none, no patient named", understand.NewScopeLimit(nil), "", "SELECT count(*) FROM patients", apperr.CodeScopeForbidden},
		{"granted none, no scoped table", understand.NewScopeLimit(nil), "", "SELECT 1 AS x", ""},
		{"a permitted patient", a, "L2", "SELECT count(*) FROM lab_results", ""},
		{"no limit, no patient", nil, "", "SELECT count(*) FROM lab_results", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, err := engine.Run(ctx, e, tc.lim, tc.scope, tc.sql)
			if got := apperr.CodeOf(err); got != tc.code {
				t.Fatalf("code %q (%v), want %q", got, err, tc.code)
			}
			if tc.code == "" && (res == nil || len(res.Rows) != 1) {
				t.Fatalf("result %+v", res)
			}
			if tc.code == apperr.CodeScopeViolation && strings.Contains(err.Error(), "L3") {
				t.Errorf("the refusal repeats the value: %v", err)
			}
		})
	}
}

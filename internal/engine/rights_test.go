package engine_test

import (
	"context"
	"strings"
	"testing"

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
			if engine.Code(err) != engine.CodeScopeForbidden {
				t.Fatalf("%q: %v %+v, want %s", tc.q, err, out, engine.CodeScopeForbidden)
			}
			if strings.Contains(err.Error(), "Maria") || strings.Contains(err.Error(), "L3") {
				t.Errorf("the refusal names the patient: %v", err)
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

// TestRunEnforcesRights: whatever understanding produced, a statement
// runs only limited to a value the user may see, or, limited to none,
// reading no scoped table.
func TestRunEnforcesRights(t *testing.T) {
	e := demotest.Engine(t, "labs")
	ctx := context.Background()
	a := understand.NewScopeLimit([]string{"L1", "L2"})
	for _, tc := range []struct {
		name  string
		lim   *understand.ScopeLimit
		scope string
		sql   string
		code  string
	}{
		{"another patient", a, "L3", "SELECT count(*) FROM lab_results", engine.CodeScopeForbidden},
		{"no patient named", a, "", "SELECT count(*) FROM lab_results", engine.CodeScopeViolation},
		{"no patient named, the patients table", a, "", "SELECT full_name FROM patients", engine.CodeScopeViolation},
		{"a permitted patient", a, "L2", "SELECT count(*) FROM lab_results", ""},
		{"no limit, no patient", nil, "", "SELECT count(*) FROM lab_results", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, err := engine.Run(ctx, e, tc.lim, tc.scope, tc.sql)
			if got := engine.Code(err); got != tc.code {
				t.Fatalf("code %q (%v), want %q", got, err, tc.code)
			}
			if tc.code == "" && (res == nil || len(res.Rows) != 1) {
				t.Fatalf("result %+v", res)
			}
		})
	}
}

package guard_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/clarify-sql/clarify/internal/apperr"
	"github.com/clarify-sql/clarify/internal/demo/demotest"
	"github.com/clarify-sql/clarify/internal/guard"
	"github.com/clarify-sql/clarify/internal/model"
)

// placeholder is a dialect's first bound-parameter placeholder.
func placeholder(d model.Dialect) string {
	if d == model.Postgres {
		return "$1"
	}
	return "?"
}

// inFilter is the scope filter a projection prints for a set, lower case.
func inFilter(d model.Dialect, col string, vals ...string) string {
	return strings.ToLower(d.QuoteIdent(col) + " IN ('" + strings.Join(vals, "', '") + "')")
}

// TestScopeSet: a set of scope values (the patients a user may see) makes
// every scoped table a projection filtered to key IN (the set) — each
// value once, whatever order or repetition the set was given in — accepts
// comparisons of a scope key with values of the set only, refuses a set
// over the bound, and never serves one set's verdict to another.
func TestScopeSet(t *testing.T) {
	set := &guard.Scope{Values: []string{"L2", "L1", "L2"}}
	for _, d := range []model.Dialect{model.SQLite, model.Postgres, model.MySQL} {
		t.Run(string(d), func(t *testing.T) {
			g := guardFor(t, "labs", d)
			ph := placeholder(d)
			for _, tc := range []struct {
				name    string
				sql     string
				args    []any
				filters int // scoped projections the statement holds
				refused bool
			}{
				{name: "patients", sql: "SELECT id FROM patients", filters: 1},
				{name: "count", sql: "SELECT count(*) FROM lab_results", filters: 1},
				{name: "join", sql: "SELECT p.full_name, r.value FROM patients p JOIN lab_results r ON r.patient_id = p.id", filters: 2},
				{name: "a value of the set", sql: "SELECT count(*) FROM lab_results WHERE patient_id = 'L1'", filters: 1},
				{name: "the set itself", sql: "SELECT count(*) FROM lab_results WHERE patient_id IN ('L2', 'L1')", filters: 1},
				{name: "a bound value of the set", sql: "SELECT count(*) FROM lab_results WHERE patient_id = " + ph, args: []any{"L2"}, filters: 1},
				{name: "unscoped subquery", sql: "SELECT id FROM patients WHERE id IN (SELECT patient_id FROM lab_results)", filters: 2},
				{name: "a value outside the set", sql: "SELECT count(*) FROM lab_results WHERE patient_id = 'L3'", refused: true},
				{name: "a list reaching outside", sql: "SELECT count(*) FROM lab_results WHERE patient_id IN ('L1', 'L3')", refused: true},
				{name: "a bound value outside", sql: "SELECT count(*) FROM lab_results WHERE patient_id = " + ph, args: []any{"L3"}, refused: true},
				{name: "not equal", sql: "SELECT full_name FROM patients WHERE id <> 'L1'", refused: true},
				{name: "the scope table by id", sql: "SELECT full_name FROM patients WHERE id = 'L3'", refused: true},
			} {
				st, err := g.Check(tc.sql, tc.args, set)
				if tc.refused {
					if ge, ok := guard.IsRejection(err); !ok || ge.Code != apperr.CodeScopeViolation {
						t.Errorf("%s: %v %v, want a scope violation", tc.name, st, err)
					}
					continue
				}
				if err != nil {
					t.Errorf("%s: %v", tc.name, err)
					continue
				}
				got := strings.ToLower(st.SQL)
				n := strings.Count(got, inFilter(d, "patient_id", "L1", "L2")) + strings.Count(got, inFilter(d, "id", "L1", "L2"))
				if n != tc.filters || strings.Contains(st.SQL, "L3") {
					t.Errorf("%s: %d projections filtered to IN ('L1', 'L2'), want %d:\n  %s", tc.name, n, tc.filters, st.SQL)
				}
			}
		})
	}
}

// TestScopeSetForms: a set of one is Value, an empty set is None, sets
// over the bound or with a value that is not plain text are refused, and
// a scope is one of value, set or none.
func TestScopeSetForms(t *testing.T) {
	for _, d := range []model.Dialect{model.SQLite, model.Postgres, model.MySQL} {
		t.Run(string(d), func(t *testing.T) {
			g := guardFor(t, "labs", d)
			const q = "SELECT full_name FROM patients"
			one, err1 := g.Check(q, nil, &guard.Scope{Value: "L1"})
			setOfOne, err2 := g.Check(q, nil, &guard.Scope{Values: []string{"L1"}})
			if err1 != nil || err2 != nil || one.SQL != setOfOne.SQL {
				t.Errorf("a set of one differs from its value:\n  %v %v\n  %v %v", one, err1, setOfOne, err2)
			}
			if _, err := g.Check(q, nil, &guard.Scope{Values: []string{}}); !isScopeViolation(err) {
				t.Errorf("the empty set read patients: %v", err)
			}
			if _, err := g.Check("SELECT 1 AS x", nil, &guard.Scope{Values: []string{}}); err != nil {
				t.Errorf("the empty set, no table: %v", err)
			}
			big := make([]string, guard.MaxScopeValues+1)
			for i := range big {
				big[i] = fmt.Sprintf("P%d", i)
			}
			if _, err := g.Check(q, nil, &guard.Scope{Values: big[:guard.MaxScopeValues]}); err != nil {
				t.Errorf("a set at the bound: %v", err)
			}
			for _, tc := range []struct {
				name string
				sc   *guard.Scope
			}{
				{"over the bound", &guard.Scope{Values: big}},
				{"a control character", &guard.Scope{Values: []string{"L1", "L2\n"}}},
				{"an empty value", &guard.Scope{Values: []string{"L1", ""}}},
				{"value and set", &guard.Scope{Value: "L1", Values: []string{"L2"}}},
				{"set and none", &guard.Scope{Values: []string{"L2"}, None: true}},
			} {
				if _, err := g.Check(q, nil, tc.sc); !isScopeViolation(err) {
					t.Errorf("%s: %v, want a scope violation", tc.name, err)
				}
			}
		})
	}
}

func isScopeViolation(err error) bool {
	ge, ok := guard.IsRejection(err)
	return ok && ge.Code == apperr.CodeScopeViolation
}

// TestScopeSetCache: verdicts and projections are remembered per set —
// the same statement checked for another set, a single value or none is
// checked for that scope, in either order.
func TestScopeSetCache(t *testing.T) {
	for _, d := range []model.Dialect{model.SQLite, model.Postgres, model.MySQL} {
		t.Run(string(d), func(t *testing.T) {
			g := guard.New(demotest.Model(t, "labs"), d, guard.Options{})
			const q = "SELECT full_name FROM patients"
			const probe = "SELECT full_name FROM patients WHERE id = 'L3'"
			for _, step := range []struct {
				sc      *guard.Scope
				sql     string
				want    string // a filter the printed statement holds
				refused bool
			}{
				{sc: &guard.Scope{Values: []string{"L1", "L2"}}, sql: q, want: inFilter(d, "id", "L1", "L2")},
				{sc: &guard.Scope{Values: []string{"L1", "L3"}}, sql: q, want: inFilter(d, "id", "L1", "L3")},
				{sc: &guard.Scope{Value: "L1"}, sql: q, want: strings.ToLower(d.QuoteIdent("id") + " = 'L1'")},
				{sc: &guard.Scope{None: true}, sql: q, refused: true},
				{sc: &guard.Scope{Values: []string{"L2", "L1"}}, sql: q, want: inFilter(d, "id", "L1", "L2")},
				{sc: &guard.Scope{Values: []string{"L1", "L2"}}, sql: probe, refused: true},
				{sc: &guard.Scope{Values: []string{"L1", "L3"}}, sql: probe, want: inFilter(d, "id", "L1", "L3")},
				{sc: &guard.Scope{Values: []string{"L2"}}, sql: probe, refused: true},
				{sc: &guard.Scope{Values: []string{"L3"}}, sql: probe, want: strings.ToLower(d.QuoteIdent("id") + " = 'L3'")},
			} {
				st, err := g.Check(step.sql, nil, step.sc)
				if step.refused {
					if !isScopeViolation(err) {
						t.Errorf("%+v %s: %v %v, want a scope violation", *step.sc, step.sql, st, err)
					}
					continue
				}
				if err != nil || !strings.Contains(strings.ToLower(st.SQL), step.want) {
					t.Errorf("%+v %s: %v %v, want %s", *step.sc, step.sql, st, err, step.want)
				}
			}
		})
	}
}

// chainModel scopes a table two joins away from the scope entity.
const chainModel = `source: chain
entities:
  - name: patients
    key: id
    columns:
      - {name: id, role: id, type: text}
  - name: visits
    key: id
    columns:
      - {name: id, role: id, type: integer}
      - {name: patient_id, role: id, type: text, references: patients.id}
  - name: notes
    key: id
    columns:
      - {name: id, role: id, type: integer}
      - {name: visit_id, role: id, type: integer, references: visits.id}
      - {name: body, role: text, type: text}
scope:
  entity: patients
  applies_to: [visits, notes]
`

// TestScopeSetPath: a table more than one join away is filtered through
// its many-to-one path, the set at its end.
func TestScopeSetPath(t *testing.T) {
	m, err := model.Parse("chain.yaml", []byte(chainModel))
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range []model.Dialect{model.SQLite, model.Postgres, model.MySQL} {
		st, err := guard.New(m, d, guard.Options{}).Check("SELECT body FROM notes", nil, &guard.Scope{Values: []string{"P2", "P1"}})
		if err != nil {
			t.Errorf("%s: %v", d, err)
			continue
		}
		q := d.QuoteIdent
		want := strings.ToLower(q("visit_id") + " IN (SELECT " + q("id") + " FROM " + q("visits") + " WHERE " + q("patient_id") + " IN ('P1', 'P2'))")
		if !strings.Contains(strings.ToLower(st.SQL), want) {
			t.Errorf("%s: %s\n  want it to hold %s", d, st.SQL, want)
		}
	}
}

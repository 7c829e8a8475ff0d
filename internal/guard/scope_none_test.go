package guard_test

import (
	"testing"

	"github.com/clarify-sql/clarify/internal/apperr"
	"github.com/clarify-sql/clarify/internal/guard"
	"github.com/clarify-sql/clarify/internal/model"
)

// TestScopeNone: a user limited to some scope values who named none may
// read no scoped table, in any dialect and however the table is reached;
// a model without a scope has nothing to refuse.
func TestScopeNone(t *testing.T) {
	none := &guard.Scope{None: true}
	for _, d := range []model.Dialect{model.SQLite, model.Postgres, model.MySQL} {
		t.Run(string(d), func(t *testing.T) {
			for _, q := range []string{
				"SELECT id FROM patients",
				"SELECT count(*) FROM lab_results",
				"SELECT analyte FROM lab_results WHERE patient_id = 'L2'",
				"SELECT 1 AS x WHERE EXISTS (SELECT 1 FROM patients)",
				"WITH p AS (SELECT id FROM patients) SELECT id FROM p",
			} {
				_, err := guardFor(t, "labs", d).Check(q, nil, none)
				ge, ok := guard.IsRejection(err)
				if !ok || ge.Code != apperr.CodeScopeViolation {
					t.Errorf("%s: %v, want a scope violation", q, err)
				}
			}
			if _, err := guardFor(t, "clinic", d).Check("SELECT count(*) FROM wounds", nil, none); err != nil {
				t.Errorf("a model without a scope: %v", err)
			}
			if _, err := guardFor(t, "labs", d).Check("SELECT 1 AS x", nil, none); err != nil {
				t.Errorf("a statement reading no table: %v", err)
			}
			_, err := guardFor(t, "labs", d).Check("SELECT id FROM patients", nil, &guard.Scope{Value: "L1", None: true})
			if _, ok := guard.IsRejection(err); !ok {
				t.Errorf("a scope with a value and None: %v, want a rejection", err)
			}
		})
	}
}

package plan

import (
	"errors"
	"strings"
	"testing"

	"github.com/clarify-sql/clarify/internal/model"
	"github.com/clarify-sql/clarify/internal/query"
)

// TestFilterWithoutCondition: a filter that names its rows but no
// condition limits nothing when kept, and cannot be compiled when excluded
// (it printed "WHERE NOT ()", which no database parses; found by FuzzTurn).
func TestFilterWithoutCondition(t *testing.T) {
	m, err := model.Parse("shop.yaml", []byte(`source: shop
entities:
  - name: invoices
    key: id
    columns:
      - {name: id, role: id, type: integer}
      - {name: total, role: measure, type: real}
`))
	if err != nil {
		t.Fatal(err)
	}
	inv := m.Entity("invoices")
	for _, d := range []model.Dialect{model.SQLite, model.Postgres, model.MySQL} {
		q := &query.Query{Intent: query.IntentList, Base: inv, Subject: inv, Filters: []query.Filter{{Entity: inv}}}
		pl, err := Compile(m, q, d, Options{RowCap: 10})
		if err != nil || strings.Contains(pl.SQL, "WHERE") {
			t.Errorf("%s: kept: %q, %v; want no condition", d, pl.SQL, err)
		}
		q.Filters[0].Exclude = true
		pl, err = Compile(m, q, d, Options{RowCap: 10})
		if !errors.Is(err, ErrUnsupported) {
			t.Errorf("%s: excluded: %q, %v; want ErrUnsupported", d, pl.SQL, err)
		}
	}
}

package llmreply_test

import (
	"fmt"

	"github.com/clarify-sql/clarify/internal/llmreply"
	"github.com/clarify-sql/clarify/internal/model"
)

// ExampleParse reads two replies to "how many orders have shipped?": one
// in the JSON the prompt asks for, and one in prose with the statement in
// a code block, as models often answer. Both give a sql reply. The literal
// each statement compares status with is checked against the column's
// allowed values: the prose one, in another case, is not valid, and the
// value it may have meant is offered. The SQL is not checked yet: the
// engine sends it through the guard.
func ExampleParse() {
	m, err := model.Parse("shop.yaml", []byte(`source: shop
entities:
  - name: orders
    key: id
    columns:
      - {name: id, role: id, type: integer}
      - name: status
        role: dimension
        type: text
        values:
          items: [{value: pending}, {value: shipped}]
`))
	if err != nil {
		fmt.Println(err)
		return
	}
	replies := []string{
		`{"kind": "sql", "sql": "SELECT COUNT(*) FROM orders WHERE status = 'shipped'"}`,
		"Here is the query:\n\n```sql\nSELECT COUNT(*) FROM orders WHERE status = 'Shipped'\n```\n",
	}
	for _, raw := range replies {
		r, err := llmreply.Parse(raw, m)
		if err != nil {
			fmt.Println(err)
			continue
		}
		fmt.Printf("kind %s, prose %t: %s\n", r.Kind, r.Prose, r.SQL)
		for _, v := range r.Values {
			fmt.Printf("  %s = %q: valid %t, alternatives %v\n", v.Column, v.Literal, v.Valid, v.Alternatives)
		}
	}
	// Output:
	// kind sql, prose false: SELECT COUNT(*) FROM orders WHERE status = 'shipped'
	//   orders.status = "shipped": valid true, alternatives []
	// kind sql, prose true: SELECT COUNT(*) FROM orders WHERE status = 'Shipped'
	//   orders.status = "Shipped": valid false, alternatives [shipped]
}

package guard_test

import (
	"errors"
	"fmt"

	"github.com/clarify-sql/clarify/internal/guard"
	"github.com/clarify-sql/clarify/internal/model"
)

// ExampleGuard_Check checks statements for a model that exposes two
// columns of one table. A read of those columns is accepted and comes back
// as the statement to run in its place, reading the table through a
// projection of the model's columns with the row cap as its LIMIT; a
// statement that writes, or reads a column the model does not expose, is
// refused with a stable code and a reason, read with errors.As.
func ExampleGuard_Check() {
	m, err := model.Parse("shop.yaml", []byte(`source: shop
entities:
  - name: customers
    key: id
    display: name
    columns:
      - {name: id, role: id, type: integer}
      - {name: name, role: name, type: text}
`))
	if err != nil {
		fmt.Println(err)
		return
	}
	g := guard.New(m, model.SQLite, guard.Options{RowCap: 50})

	st, err := g.Check("SELECT name FROM customers WHERE id = ?", []any{7}, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("accepted:", st.SQL, st.Args)

	for _, sql := range []string{
		"DELETE FROM customers",
		"SELECT password FROM customers",
	} {
		_, err := g.Check(sql, nil, nil)
		var ge *guard.Error
		if errors.As(err, &ge) {
			fmt.Printf("refused: %s: %s\n", ge.Code, ge.Reason)
		}
	}
	// Output:
	// accepted: SELECT "name" FROM (SELECT "id", "name" FROM "customers") AS "customers" WHERE "id" = ? LIMIT 51 [7]
	// refused: VALIDATION_FAILED: only SELECT statements are allowed, not DELETE
	// refused: VALIDATION_FAILED: column password is not in the model or in any table of the statement
}

package plan_test

import (
	"fmt"

	"github.com/clarify-sql/clarify/internal/model"
	"github.com/clarify-sql/clarify/internal/plan"
	"github.com/clarify-sql/clarify/internal/query"
)

// ExampleCompile compiles "how many shipped orders per customer" for each
// dialect: identifiers are quoted for the dialect, the value and the row
// cap are bound parameters, and the orders counted per customer are
// joined to the customers along the model's foreign key, so a customer
// without shipped orders is counted 0 rather than left out.
func ExampleCompile() {
	m, err := model.Parse("shop.yaml", []byte(`source: shop
entities:
  - name: customers
    key: id
    display: name
    columns:
      - {name: id, role: id, type: integer}
      - {name: name, role: name, type: text}
  - name: orders
    key: id
    columns:
      - {name: id, role: id, type: integer}
      - {name: customer_id, role: id, type: integer, references: customers.id}
      - {name: status, role: dimension, type: text}
`))
	if err != nil {
		fmt.Println(err)
		return
	}
	orders, customers := m.Entity("orders"), m.Entity("customers")
	shipped, err := model.ParseCond("status = 'shipped'")
	if err != nil {
		fmt.Println(err)
		return
	}
	q := &query.Query{
		Intent:  query.IntentGroup,
		Subject: orders,
		Base:    orders,
		Filters: []query.Filter{{Entity: orders, Cond: shipped, Label: "shipped"}},
		Agg:     &query.Agg{Func: "count", Label: "number of orders"},
		Group:   []query.Group{{Entity: customers}},
	}
	for _, d := range model.Dialects() {
		p, err := plan.Compile(m, q, d, plan.Options{RowCap: 100})
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Printf("%s: %s\n%v\n", d, p.SQL, p.Args)
	}
	// Output:
	// sqlite: SELECT "customers"."id" AS "customer_id", "customers"."name" AS "name", COUNT(*) AS "number_of_orders" FROM "orders" JOIN "customers" ON "customers"."id" = "orders"."customer_id" WHERE "orders"."status" = ? GROUP BY "customers"."id", "customers"."name" ORDER BY "number_of_orders" DESC, "customers"."id", "customers"."name" LIMIT ?
	// [shipped 101]
	// postgres: SELECT "customers"."id" AS "customer_id", "customers"."name" AS "name", COUNT(*) AS "number_of_orders" FROM "orders" JOIN "customers" ON "customers"."id" = "orders"."customer_id" WHERE "orders"."status" = $1 GROUP BY "customers"."id", "customers"."name" ORDER BY "number_of_orders" DESC, "customers"."id", "customers"."name" LIMIT $2
	// [shipped 101]
	// mysql: SELECT `customers`.`id` AS `customer_id`, `customers`.`name` AS `name`, COUNT(*) AS `number_of_orders` FROM `orders` JOIN `customers` ON `customers`.`id` = `orders`.`customer_id` WHERE `orders`.`status` = ? GROUP BY `customers`.`id`, `customers`.`name` ORDER BY `number_of_orders` DESC, `customers`.`id`, `customers`.`name` LIMIT ?
	// [shipped 101]
}

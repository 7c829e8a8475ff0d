package plan_test

import (
	"context"
	"database/sql"
	"strings"
	"testing"

	"github.com/clarify-sql/clarify/internal/model"
	"github.com/clarify-sql/clarify/internal/plan"
	"github.com/clarify-sql/clarify/internal/query"
)

// TestParentInReadsChildrenThroughIndex: on SQLite without statistics, a
// condition on the base rows' parent ("orders of customers in Oslo",
// "order lines of Oslo customers' orders") reads the base table through
// the index its foreign key leads, not by scanning it and looking every
// row's parent up. The join SQLite planned before scanned the base table
// whatever its size (the planner takes every table to be the same size
// without sqlite_stat1). The rows are those the join kept.
func TestParentInReadsChildrenThroughIndex(t *testing.T) {
	s := loadShop(t)
	db := openShop(t)
	oslo := func() query.Filter { return s.filter("customers", "city = 'Oslo'") }
	for _, tc := range []struct {
		name, index string
		q           *query.Query
		joined      string // the same rows, read through a join
	}{
		{"one step", "orders_customer", s.list("orders", oslo()),
			`SELECT COUNT(*) FROM orders JOIN customers ON customers.id = orders.customer_id WHERE customers.city = 'Oslo'`},
		{"two steps", "order_lines_order", s.list("order_lines", oslo()),
			`SELECT COUNT(*) FROM order_lines JOIN orders ON orders.id = order_lines.order_id JOIN customers ON customers.id = orders.customer_id WHERE customers.city = 'Oslo'`},
		{"with a condition of its own", "orders_customer", s.list("orders", oslo(), s.filter("orders", "status = 'delivered'")),
			`SELECT COUNT(*) FROM orders JOIN customers ON customers.id = orders.customer_id WHERE customers.city = 'Oslo' AND orders.status = 'delivered'`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, err := plan.Compile(s.m, tc.q, model.SQLite, plan.Options{Now: now})
			if err != nil {
				t.Fatal(err)
			}
			base := tc.q.Base.TableName()
			steps := explain(t, db, p.SQL, p.Args)
			if !strings.Contains(steps, "SEARCH "+base+" USING INDEX "+tc.index) || strings.Contains(steps, "SCAN "+base+"\n") {
				t.Errorf("%s is not read through %s:\n%s\n  %s", base, tc.index, steps, p.SQL)
			}
			got := run(t, db, p.CountSQL, p.CountArgs)
			want := run(t, db, tc.joined, nil)
			if strings.Join(got, ";") != strings.Join(want, ";") {
				t.Errorf("count %v, the join counts %v\n  %s", got, want, p.CountSQL)
			}
		})
	}
}

// TestParentInOnlyOnSQLite: the other dialects' planners read statistics
// and keep the join; a condition the subquery could not read (a model
// fragment) keeps it on SQLite too.
func TestParentInOnlyOnSQLite(t *testing.T) {
	s := loadShop(t)
	q := s.list("orders", s.filter("customers", "city = 'Oslo'"))
	for _, d := range []model.Dialect{model.Postgres, model.MySQL} {
		p, err := plan.Compile(s.m, q, d, plan.Options{Now: now})
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(p.SQL, " IN (SELECT") || !strings.Contains(p.SQL, " JOIN ") {
			t.Errorf("%s: %s", d, p.SQL)
		}
	}
	frag := query.Filter{Entity: s.entity("customers"), Predicate: model.Fragment{SQL: "customers.city = 'Oslo'"}}
	p, err := plan.Compile(s.m, s.list("orders", frag), model.SQLite, plan.Options{Now: now})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(p.SQL, " IN (SELECT") {
		t.Errorf("a fragment moved into a subquery: %s", p.SQL)
	}
}

// TestParentInSharesBase: the options of a clarification that differ by
// a condition on a parent read the same table, so their previews are one
// statement on SQLite, and each figure is the count of its own rows.
func TestParentInSharesBase(t *testing.T) {
	s := loadShop(t)
	db := openShop(t)
	qs := []*query.Query{s.list("orders"), s.list("orders", s.filter("customers", "city = 'Oslo'"))}
	f, err := plan.CompileFigures(s.m, qs, model.SQLite, plan.Options{Now: now})
	if err != nil {
		t.Fatal(err)
	}
	got := run(t, db, f.SQL, f.Args)
	want := run(t, db, `SELECT (SELECT COUNT(*) FROM orders), (SELECT COUNT(*) FROM orders JOIN customers ON customers.id = orders.customer_id WHERE customers.city = 'Oslo')`, nil)
	if strings.Join(got, ";") != strings.Join(want, ";") {
		t.Errorf("figures %v, want %v\n  %s", got, want, f.SQL)
	}
}

// explain returns SQLite's query plan for a statement, a step a line.
func explain(t *testing.T, db *sql.DB, q string, args []any) string {
	t.Helper()
	rows, err := db.QueryContext(context.Background(), "EXPLAIN QUERY PLAN "+q, args...)
	if err != nil {
		t.Fatalf("explain %s: %v", q, err)
	}
	defer rows.Close()
	var b strings.Builder
	for rows.Next() {
		var id, parent, unused int
		var detail string
		if err := rows.Scan(&id, &parent, &unused, &detail); err != nil {
			t.Fatal(err)
		}
		b.WriteString(detail + "\n")
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

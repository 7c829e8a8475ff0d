package plan_test

import (
	"database/sql"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/clarify-sql/clarify/internal/guard"
	"github.com/clarify-sql/clarify/internal/model"
	"github.com/clarify-sql/clarify/internal/plan"
	"github.com/clarify-sql/clarify/internal/query"
	"github.com/clarify-sql/clarify/internal/understand/timeexpr"
)

// window returns q limited to orders placed from from to to.
func window(s shop, q *query.Query, from, to string) *query.Query {
	q.Window = &query.TimeFilter{Column: s.col("orders.ordered_at"), Window: timeexpr.Window{From: from, To: to, Label: from + " to " + to}}
	return q
}

// figuresCases are the options of one clarification each, as understand
// gives them: the same question with one slot answered differently.
func figuresCases() []struct {
	name string
	qs   func(s shop) []*query.Query
} {
	return []struct {
		name string
		qs   func(s shop) []*query.Query
	}{
		{"figures_time_windows", func(s shop) []*query.Query {
			// "orders from Oslo": today, this month, this quarter, all time
			oslo := func() *query.Query { return s.list("orders", s.filter("customers", "city = 'Oslo'")) }
			return []*query.Query{
				window(s, oslo(), "2024-04-15", "2024-04-16"),
				window(s, oslo(), "2024-04-01", "2024-04-16"),
				window(s, oslo(), "2024-01-01", "2024-04-16"),
				oslo(),
			}
		}},
		{"figures_thresholds", func(s shop) []*query.Query {
			// "expensive products": over 100, over 500, over 1000, with a limit
			q := func(cond string) *query.Query { return s.list("products", s.filter("products", cond)) }
			limited := q("price > 100")
			limited.Limit = 2
			return []*query.Query{limited, q("price > 500"), q("price > 1000")}
		}},
		{"figures_children", func(s shop) []*query.Query {
			// "customers with big orders": each option a condition on
			// their orders, an EXISTS per option
			q := func(status string) *query.Query {
				return s.list("customers", s.filter("orders", "status = '"+status+"'"))
			}
			return []*query.Query{q("delivered"), q("shipped"), q("cancelled")}
		}},
		{"figures_aggregates", func(s shop) []*query.Query {
			// "average line revenue of delivered orders": per window; and a
			// count of distinct products, a measure with its own filter
			rev := func(from, to string) *query.Query {
				q := s.list("order_lines", s.filter("orders", "status = 'delivered'"))
				q.Intent = query.IntentAggregate
				q.Agg = &query.Agg{Func: "avg", Measure: s.measure("revenue"), Label: "average revenue"}
				return window(s, q, from, to)
			}
			distinct := rev("2024-01-01", "2024-04-16")
			distinct.Agg = &query.Agg{Func: "count_distinct", Column: s.col("order_lines.product_id"), Label: "products"}
			count := rev("2024-03-01", "2024-04-01")
			count.Agg = &query.Agg{Func: "count", Label: "number of order lines"}
			return []*query.Query{rev("2024-04-01", "2024-04-16"), rev("2024-01-01", "2024-04-16"), distinct, count}
		}},
	}
}

// TestCompileFiguresGolden compiles each clarification's options into one
// statement in every dialect, checks that the guard accepts it, and on
// SQLite checks every column against the option's own statement: the
// figure a card shows is the answer's.
func TestCompileFiguresGolden(t *testing.T) {
	s := loadShop(t)
	db := openShop(t)
	for _, tc := range figuresCases() {
		t.Run(tc.name, func(t *testing.T) {
			qs := tc.qs(s)
			for _, d := range model.Dialects() {
				t.Run(string(d), func(t *testing.T) {
					f, err := plan.CompileFigures(s.m, qs, d, plan.Options{Now: now})
					if err != nil {
						t.Fatalf("compile: %v", err)
					}
					var b strings.Builder
					b.WriteString("-- sql\n" + f.SQL + "\n")
					writeArgs(&b, "-- args", f.Args)
					st := checkGuard(t, guard.New(s.m, d, guard.Options{}), f.SQL, f.Args, nil)
					if d == model.SQLite && st != nil {
						got := strings.Split(run(t, db, st.SQL, st.Args)[0], " | ")
						for i, q := range qs {
							if want := alone(t, db, s, q); got[i] != want {
								t.Errorf("option %d: figure %s, its own statement gives %s", i, got[i], want)
							}
						}
						b.WriteString("-- rows\n" + strings.Join(got, " | ") + "\n")
					}
					golden(t, filepath.Join("testdata", "golden", "figures", tc.name+"."+string(d)+".txt"), b.String())
				})
			}
		})
	}
}

// alone is the figure of one query from its own statement: a list's rows
// before its limit, a single aggregate's value.
func alone(t *testing.T, db *sql.DB, s shop, q *query.Query) string {
	t.Helper()
	unlimited := *q
	unlimited.Limit = 0
	p, err := plan.Compile(s.m, &unlimited, model.SQLite, plan.Options{RowCap: 100, Now: now})
	if err != nil {
		t.Fatal(err)
	}
	if q.Agg != nil {
		rows := run(t, db, p.SQL, p.Args)
		cells := strings.Split(rows[0], " | ")
		return cells[len(cells)-1]
	}
	return run(t, db, p.CountSQL, p.CountArgs)[0]
}

// TestCompileFiguresNoOrOfSubqueries checks that options whose own
// conditions read another table are not also ORed into the WHERE: no
// index serves that OR, and PostgreSQL hashes each subquery over the
// whole other table (a full scan per option) before counting.
func TestCompileFiguresNoOrOfSubqueries(t *testing.T) {
	s := loadShop(t)
	for _, tc := range figuresCases() {
		t.Run(tc.name, func(t *testing.T) {
			for _, d := range model.Dialects() {
				f, err := plan.CompileFigures(s.m, tc.qs(s), d, plan.Options{Now: now})
				if err != nil {
					t.Fatalf("%s: compile: %v", d, err)
				}
				// the outer WHERE is what follows the base's FROM, past
				// the columns' subqueries
				_, where, _ := strings.Cut(f.SQL[strings.LastIndex(f.SQL, " AS figure_"):], " WHERE ")
				if strings.Contains(where, "EXISTS") {
					t.Errorf("%s: the WHERE reads another table per option: %s", d, where)
				}
			}
		})
	}
}

func TestCompileFiguresRefuses(t *testing.T) {
	s := loadShop(t)
	grouped := s.list("orders")
	grouped.Intent = query.IntentAggregate
	grouped.Agg = &query.Agg{Func: "count", Label: "orders"}
	grouped.Group = []query.Group{{Column: s.col("orders.status")}}
	for _, tc := range []struct {
		name string
		d    model.Dialect
		qs   []*query.Query
		want error
	}{
		{"none", model.SQLite, nil, plan.ErrUnsupported},
		{"grouped", model.SQLite, []*query.Query{s.list("orders"), grouped}, plan.ErrUnsupported},
		{"other tables", model.SQLite, []*query.Query{s.list("orders"), s.list("customers")}, plan.ErrNoSharedBase},
		// on SQLite a parent's condition is a semi-join on the base's
		// foreign key, not a join (TestParentInSharesBase)
		{"other joins", model.Postgres, []*query.Query{s.list("orders"), s.list("orders", s.filter("customers", "city = 'Oslo'"))}, plan.ErrNoSharedBase},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := plan.CompileFigures(s.m, tc.qs, tc.d, plan.Options{Now: now})
			if !errors.Is(err, tc.want) {
				t.Fatalf("error %v, want %v", err, tc.want)
			}
		})
	}
}

package introspect_test

import (
	"context"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/clarify-sql/clarify/internal/demo"
	"github.com/clarify-sql/clarify/internal/model"
)

// TestDraftDemos drafts the four demo databases, as an evaluation suite
// pointed at a demo file without its model would, and checks that the
// drafts load and get the shape of the hand-written models right.
func TestDraftDemos(t *testing.T) {
	t.Parallel()
	checks := map[string][]fieldCheck{
		"clinic": {
			{"patients", "", "time_column", "created_at"},
			{"patients", "gender", "role", "dimension"},
			{"patients", "date_of_birth", "role", "time"},
			{"wounds", "", "time_column", "created_date"},
			{"wounds", "infected", "role", "flag"},
			{"wounds", "wound_type", "role", "dimension"},
			{"wounds", "area_cm2", "aggregate", "avg"},
			{"wounds", "area_cm2", "unit", "cm²"},
			{"wounds", "patient_id", "references", "patients.id"},
			{"assessments", "", "time_column", "assessed_on"},
		},
		"labs": {
			{"patients", "", "display", "full_name"},
			{"patients", "gender", "role", "dimension"},
			{"lab_results", "analyte", "role", "dimension"},
			{"lab_results", "", "time_column", "test_date"},
		},
		"trades": {
			{"symbols", "symbol", "role", "name"},
			{"daily_bars", "", "key", ""}, // (symbol, trade_date): no column alone tells bars apart
			{"daily_bars", "", "time_column", "trade_date"},
			{"daily_bars", "high_price", "aggregate", "max"},
			{"trades", "", "time_column", "traded_at"},
			{"trades", "traded_at", "type", "timestamp"},
			{"trades", "side", "role", "dimension"},
		},
		"retail": {
			{"sales_customers", "", "label", "customer"},
			{"sales_customers", "", "area", "Sales"},
			{"sales_customers", "", "time_column", "account_opened"},
			{"sales_customers", "customer_category", "role", "dimension"},
			{"application_people", "", "label", "person"},
			{"application_people", "", "plural", "people"},
			{"application_people", "is_salesperson", "role", "flag"},
			{"sales_orders", "", "time_column", "order_date"},
			{"sales_order_lines", "", "time_column", "sales_orders.order_date"},
			{"purchasing_purchase_order_lines", "", "time_column", "purchasing_purchase_orders.order_date"},
			{"warehouse_stock_items", "", "display", "stock_item_name"},
			// REFERENCES application_cities names no column: the primary key
			{"sales_customers", "city_id", "references", "application_cities.city_id"},
			{"warehouse_stock_item_holdings", "stock_item_id", "references", "warehouse_stock_items.stock_item_id"},
		},
	}
	opt := demo.Options{AsOf: time.Date(2026, 11, 20, 0, 0, 0, 0, time.UTC)}
	for _, name := range demo.Names() {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			path := filepath.Join(t.TempDir(), name+".db")
			if err := demo.WriteSQLite(context.Background(), name, path, opt); err != nil {
				t.Fatal(err)
			}
			s := inspect(t, openSQLite(t, path), model.SQLite)
			if s.Table("clarify_meta") != nil {
				t.Error("clarify_meta was inspected")
			}
			_, m := draft(t, s, name)
			if name == "retail" {
				var areas []string
				for _, a := range m.Areas {
					areas = append(areas, a.Name)
				}
				if want := []string{"Application", "Purchasing", "Sales", "Warehouse"}; !slices.Equal(areas, want) {
					t.Errorf("areas = %q, want %q", areas, want)
				}
			} else if len(m.Areas) > 0 {
				t.Errorf("areas %v in a schema without shared prefixes", m.Areas)
			}
			checkFields(t, m, checks[name])
		})
	}
}

package demo_test

import (
	"context"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/clarify-sql/clarify/internal/demo"
)

// specTables is every table of the demo data contract (docs/demo.md), as
// CREATE TABLE column lists.
var specTables = map[string][]string{
	"clinic": {
		"clinics(id INTEGER PRIMARY KEY, name TEXT NOT NULL)",
		`patients(id TEXT PRIMARY KEY, full_name TEXT NOT NULL, gender TEXT NOT NULL CHECK (gender IN
  ('M','F')), date_of_birth TEXT NOT NULL, clinic_id INTEGER NOT NULL REFERENCES clinics(id),
  created_at TEXT NOT NULL)`,
		`wounds(id INTEGER PRIMARY KEY, patient_id TEXT NOT NULL REFERENCES patients(id), wound_type
  TEXT NOT NULL, location TEXT NOT NULL, depth TEXT NOT NULL, area_cm2 REAL NOT NULL, infected
  INTEGER NOT NULL, status TEXT NOT NULL, created_date TEXT NOT NULL, healed_date TEXT)`,
		`assessments(id INTEGER PRIMARY KEY, wound_id INTEGER NOT NULL REFERENCES wounds(id),
  patient_id TEXT NOT NULL REFERENCES patients(id), assessed_on TEXT NOT NULL, area_cm2 REAL
  NOT NULL, depth TEXT NOT NULL, infected INTEGER NOT NULL, pain_score INTEGER NOT NULL CHECK
  (pain_score BETWEEN 0 AND 10), clinician TEXT NOT NULL)`,
	},
	"labs": {
		`patients(id TEXT PRIMARY KEY, full_name TEXT NOT NULL, gender TEXT NOT NULL, date_of_birth
  TEXT NOT NULL)`,
		`lab_results(id INTEGER PRIMARY KEY, patient_id TEXT NOT NULL REFERENCES patients(id),
  analyte TEXT NOT NULL, value REAL NOT NULL, unit TEXT NOT NULL, reference_low REAL,
  reference_high REAL, test_date TEXT NOT NULL)`,
	},
	"trades": {
		`symbols(symbol TEXT PRIMARY KEY, company TEXT NOT NULL, sector TEXT NOT NULL, exchange TEXT
  NOT NULL)`,
		`trades(id INTEGER PRIMARY KEY, symbol TEXT NOT NULL REFERENCES symbols(symbol), traded_at
  TEXT NOT NULL, price REAL NOT NULL, quantity INTEGER NOT NULL, side TEXT NOT NULL CHECK (side
  IN ('BUY','SELL')), venue TEXT NOT NULL)`,
		`quotes(id INTEGER PRIMARY KEY, symbol TEXT NOT NULL REFERENCES symbols(symbol), quoted_at
  TEXT NOT NULL, bid_price REAL NOT NULL, ask_price REAL NOT NULL, last_price REAL NOT NULL,
  bid_size INTEGER NOT NULL, ask_size INTEGER NOT NULL)`,
		`daily_bars(symbol TEXT NOT NULL REFERENCES symbols(symbol), trade_date TEXT NOT NULL,
  open_price REAL NOT NULL, high_price REAL NOT NULL, low_price REAL NOT NULL, close_price
  REAL NOT NULL, volume INTEGER NOT NULL, PRIMARY KEY (symbol, trade_date))`,
	},
	"retail": {
		`application_cities(city_id INTEGER PRIMARY KEY, city_name TEXT NOT NULL, state_province TEXT
  NOT NULL, country TEXT NOT NULL)`,
		`application_people(person_id INTEGER PRIMARY KEY, full_name TEXT NOT NULL, email TEXT NOT
  NULL, is_employee INTEGER NOT NULL, is_salesperson INTEGER NOT NULL)`,
		`sales_customers(customer_id INTEGER PRIMARY KEY, customer_name TEXT NOT NULL,
  customer_category TEXT NOT NULL, city_id INTEGER NOT NULL REFERENCES application_cities,
  credit_limit REAL, account_opened TEXT NOT NULL)`,
		`sales_orders(order_id INTEGER PRIMARY KEY, customer_id INTEGER NOT NULL REFERENCES
  sales_customers, salesperson_person_id INTEGER NOT NULL REFERENCES application_people,
  order_date TEXT NOT NULL, expected_delivery_date TEXT NOT NULL)`,
		`sales_order_lines(order_line_id INTEGER PRIMARY KEY, order_id INTEGER NOT NULL REFERENCES
  sales_orders, stock_item_id INTEGER NOT NULL REFERENCES warehouse_stock_items, quantity
  INTEGER NOT NULL, unit_price REAL NOT NULL)`,
		`sales_invoices(invoice_id INTEGER PRIMARY KEY, order_id INTEGER NOT NULL REFERENCES
  sales_orders, customer_id INTEGER NOT NULL REFERENCES sales_customers, invoice_date TEXT NOT
  NULL, total_amount REAL NOT NULL)`,
		`warehouse_stock_groups(stock_group_id INTEGER PRIMARY KEY, stock_group_name TEXT NOT NULL)`,
		`warehouse_stock_items(stock_item_id INTEGER PRIMARY KEY, stock_item_name TEXT NOT NULL,
  stock_group_id INTEGER NOT NULL REFERENCES warehouse_stock_groups, supplier_id INTEGER NOT
  NULL REFERENCES purchasing_suppliers, unit_price REAL NOT NULL, recommended_retail_price REAL
  NOT NULL, color TEXT, size TEXT)`,
		`warehouse_stock_item_holdings(stock_item_id INTEGER PRIMARY KEY REFERENCES
  warehouse_stock_items, quantity_on_hand INTEGER NOT NULL, reorder_level INTEGER NOT NULL,
  bin_location TEXT NOT NULL)`,
		`purchasing_suppliers(supplier_id INTEGER PRIMARY KEY, supplier_name TEXT NOT NULL,
  supplier_category TEXT NOT NULL, city_id INTEGER NOT NULL REFERENCES application_cities)`,
		`purchasing_purchase_orders(purchase_order_id INTEGER PRIMARY KEY, supplier_id INTEGER NOT
  NULL REFERENCES purchasing_suppliers, order_date TEXT NOT NULL, expected_delivery_date TEXT
  NOT NULL, is_finalized INTEGER NOT NULL)`,
		`purchasing_purchase_order_lines(purchase_order_line_id INTEGER PRIMARY KEY,
  purchase_order_id INTEGER NOT NULL REFERENCES purchasing_purchase_orders, stock_item_id
  INTEGER NOT NULL REFERENCES warehouse_stock_items, ordered_outers INTEGER NOT NULL,
  received_outers INTEGER NOT NULL, expected_unit_price REAL NOT NULL)`,
	},
}

var spaces = regexp.MustCompile(`\s+`)

// canonical reduces a table definition to "name(col, ...)" on one line.
func canonical(ddl string) string {
	ddl = strings.TrimPrefix(strings.TrimSpace(ddl), "CREATE TABLE ")
	ddl = spaces.ReplaceAllString(ddl, " ")
	name, cols, _ := strings.Cut(ddl, "(")
	return strings.TrimSpace(name) + "(" + cols
}

// TestSchema checks that every SQLite table is exactly the spec's (plus
// clarify_meta), with no other tables.
func TestSchema(t *testing.T) {
	t.Parallel()
	for _, name := range demo.Names() {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			skipSlowUnderRace(t, name)
			want := map[string]string{"clarify_meta": "clarify_meta(key TEXT PRIMARY KEY, value TEXT)"}
			for _, ddl := range specTables[name] {
				c := canonical(ddl)
				want[c[:strings.IndexByte(c, '(')]] = c
			}
			db := openSQLite(t, source(t, name, defaultOpt))
			rows, err := db.QueryContext(context.Background(), "SELECT name, sql FROM sqlite_master WHERE type = 'table'")
			if err != nil {
				t.Fatal(err)
			}
			defer rows.Close()
			got := map[string]string{}
			for rows.Next() {
				var n, ddl string
				if err := rows.Scan(&n, &ddl); err != nil {
					t.Fatal(err)
				}
				got[n] = canonical(ddl)
			}
			if err := rows.Err(); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("tables differ from the spec (-want +got):\n%s", diff)
			}
		})
	}
}

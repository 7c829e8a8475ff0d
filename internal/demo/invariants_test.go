package demo_test

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/clarify-sql/clarify/internal/demo"
)

// invariant is one rule of docs/demo.md (or of the realism the
// evaluation suites rely on), checked with SQL against a generated file.
// Queries return one value; {{as_of}} and the other placeholders are
// replaced by dates computed here independently of the generator.
type invariant struct {
	source string
	name   string
	query  string
	want   string
}

// weekdaysBack returns the n-th weekday counting back from asOf (n = 1 is
// the last weekday at or before asOf).
func weekdaysBack(asOf time.Time, n int) string {
	d := asOf
	for {
		if d.Weekday() != time.Saturday && d.Weekday() != time.Sunday {
			n--
			if n == 0 {
				return d.Format("2006-01-02")
			}
		}
		d = d.AddDate(0, 0, -1)
	}
}

var invariants = []invariant{
	// Every source.
	{"*", "integrity", "PRAGMA integrity_check", "ok"},
	{"*", "foreign keys hold", "SELECT COUNT(*) FROM pragma_foreign_key_check", "0"},
	{"*", "as_of stored", "SELECT value FROM clarify_meta WHERE key = 'as_of'", "{{as_of}}"},

	// clinic
	{"clinic", "fixed clinics", "SELECT group_concat(id || ':' || name, '|') FROM (SELECT * FROM clinics ORDER BY id)",
		"1:AML Clinic|2:Northside Wound Center|3:Riverside Clinic|4:Harbor Health"},
	{"clinic", "120 patients", "SELECT COUNT(*) FROM patients", "120"},
	{"clinic", "patient ids P0001-P0120", "SELECT COUNT(*) FROM patients WHERE id NOT GLOB 'P[0-9][0-9][0-9][0-9]' OR CAST(substr(id, 2) AS INTEGER) NOT BETWEEN 1 AND 120", "0"},
	{"clinic", "unique full names", "SELECT COUNT(DISTINCT full_name) FROM patients", "120"},
	{"clinic", "full names have two parts", "SELECT COUNT(*) FROM patients WHERE full_name NOT LIKE '% %'", "0"},
	{"clinic", "both genders", "SELECT group_concat(gender) FROM (SELECT DISTINCT gender FROM patients ORDER BY gender)", "F,M"},
	{"clinic", "born 1930-2005", "SELECT COUNT(*) FROM patients WHERE date(date_of_birth) IS NOT date_of_birth OR date_of_birth NOT BETWEEN '1930-01-01' AND '2005-12-31'", "0"},
	{"clinic", "patients spread over the clinics", "SELECT COUNT(*) = 4 AND MIN(n) >= 15 FROM (SELECT COUNT(*) AS n FROM patients GROUP BY clinic_id)", "1"},
	{"clinic", "patient created at or before first wound", `SELECT COUNT(*) FROM patients p WHERE datetime(created_at) IS NOT created_at
		OR date(created_at) > (SELECT MIN(created_date) FROM wounds w WHERE w.patient_id = p.id)`, "0"},
	{"clinic", "1-5 wounds per patient", "SELECT COUNT(*) FROM patients p WHERE (SELECT COUNT(*) FROM wounds w WHERE w.patient_id = p.id) NOT BETWEEN 1 AND 5", "0"},
	{"clinic", "about 300 wounds", "SELECT COUNT(*) BETWEEN 270 AND 330 FROM wounds", "1"},
	{"clinic", "wound types", "SELECT group_concat(wound_type, '|') FROM (SELECT DISTINCT wound_type FROM wounds ORDER BY 1)",
		"Diabetic Foot Ulcer|Pressure Injury|Surgical Wound|Traumatic Wound|Venous Leg Ulcer"},
	{"clinic", "depths, every one used", "SELECT group_concat(depth, '|') FROM (SELECT DISTINCT depth FROM wounds ORDER BY 1)",
		"Full Thickness|Partial Thickness|Stage 3|Stage 4|Superficial"},
	{"clinic", "locations", "SELECT COUNT(*) FROM wounds WHERE location NOT IN ('Left Foot', 'Right Foot', 'Left Heel', 'Right Heel', 'Sacrum', 'Left Leg', 'Right Leg', 'Abdomen')", "0"},
	{"clinic", "statuses", "SELECT group_concat(status, '|') FROM (SELECT DISTINCT status FROM wounds ORDER BY 1)", "Healed|Healing|Open"},
	{"clinic", "every type with every status", "SELECT COUNT(*) FROM (SELECT DISTINCT wound_type, status FROM wounds)", "15"},
	{"clinic", "area 0.5-80", "SELECT COUNT(*) FROM wounds WHERE area_cm2 < 0.5 OR area_cm2 > 80", "0"},
	{"clinic", "large wounds", "SELECT SUM(area_cm2 > 25) >= 20 AND SUM(area_cm2 > 50) >= 5 AND SUM(area_cm2 > 60) >= 3 FROM wounds", "1"},
	{"clinic", "about 15% infected", "SELECT AVG(infected) BETWEEN 0.12 AND 0.18 AND MIN(infected) = 0 AND MAX(infected) = 1 FROM wounds", "1"},
	{"clinic", "every clinic has infected wounds", "SELECT COUNT(DISTINCT p.clinic_id) FROM wounds w JOIN patients p ON p.id = w.patient_id WHERE w.infected = 1", "4"},
	{"clinic", "created within 730 days", "SELECT COUNT(*) FROM wounds WHERE date(created_date) IS NOT created_date OR created_date > '{{as_of}}' OR created_date < date('{{as_of}}', '-730 days')", "0"},
	{"clinic", "30 wounds in the last 30 days", "SELECT COUNT(*) >= 30 FROM wounds WHERE created_date >= date('{{as_of}}', '-30 days')", "1"},
	{"clinic", "5 wounds in the last 7 days", "SELECT COUNT(*) >= 5 FROM wounds WHERE created_date >= date('{{as_of}}', '-7 days')", "1"},
	{"clinic", "healed_date iff Healed", "SELECT COUNT(*) FROM wounds WHERE (status = 'Healed') != (healed_date IS NOT NULL)", "0"},
	{"clinic", "healed after created, by as_of", "SELECT COUNT(*) FROM wounds WHERE date(healed_date) IS NOT healed_date OR healed_date <= created_date OR healed_date > '{{as_of}}'", "0"},
	{"clinic", "first assessment on created_date at the wound's area", `SELECT COUNT(*) FROM wounds w WHERE NOT EXISTS (SELECT 1 FROM assessments a
		WHERE a.wound_id = w.id AND a.assessed_on = w.created_date AND a.area_cm2 = w.area_cm2)
		OR EXISTS (SELECT 1 FROM assessments a WHERE a.wound_id = w.id AND a.assessed_on < w.created_date)`, "0"},
	{"clinic", "assessed weekly", `SELECT COUNT(*) FROM (SELECT julianday(assessed_on) - julianday(LAG(assessed_on)
		OVER (PARTITION BY wound_id ORDER BY assessed_on)) AS gap FROM assessments) WHERE gap NOT BETWEEN 1 AND 7`, "0"},
	{"clinic", "healed wounds assessed until healed_date", `SELECT COUNT(*) FROM wounds w WHERE status = 'Healed'
		AND (SELECT MAX(assessed_on) FROM assessments a WHERE a.wound_id = w.id) IS NOT healed_date`, "0"},
	{"clinic", "unhealed wounds assessed until as_of", `SELECT COUNT(*) FROM wounds w WHERE status != 'Healed'
		AND (SELECT MAX(assessed_on) FROM assessments a WHERE a.wound_id = w.id) NOT BETWEEN date('{{as_of}}', '-6 days') AND '{{as_of}}'`, "0"},
	{"clinic", "assessment dates valid", "SELECT COUNT(*) FROM assessments WHERE date(assessed_on) IS NOT assessed_on OR assessed_on > '{{as_of}}'", "0"},
	{"clinic", "assessments agree with their wound", `SELECT COUNT(*) FROM assessments a JOIN wounds w ON w.id = a.wound_id
		WHERE a.patient_id != w.patient_id OR a.depth != w.depth OR a.infected != w.infected`, "0"},
	{"clinic", "area shrinks for healing and healed wounds", `SELECT COUNT(*) FROM (SELECT w.status, a.area_cm2 - LAG(a.area_cm2)
		OVER (PARTITION BY a.wound_id ORDER BY a.assessed_on) AS change FROM assessments a JOIN wounds w ON w.id = a.wound_id)
		WHERE status IN ('Healing', 'Healed') AND change > 0`, "0"},
	{"clinic", "worsening open wounds", `WITH fl AS (SELECT DISTINCT wound_id, FIRST_VALUE(area_cm2) OVER w AS first, LAST_VALUE(area_cm2) OVER w AS last
		FROM assessments WINDOW w AS (PARTITION BY wound_id ORDER BY assessed_on ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING))
		SELECT COUNT(*) >= 10 FROM fl JOIN wounds ON wounds.id = fl.wound_id WHERE status = 'Open' AND last > first`, "1"},
	{"clinic", "improving unhealed wounds", `WITH fl AS (SELECT DISTINCT wound_id, FIRST_VALUE(area_cm2) OVER w AS first, LAST_VALUE(area_cm2) OVER w AS last
		FROM assessments WINDOW w AS (PARTITION BY wound_id ORDER BY assessed_on ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING))
		SELECT COUNT(*) >= 10 FROM fl JOIN wounds ON wounds.id = fl.wound_id WHERE status = 'Healing' AND last < first`, "1"},
	{"clinic", "some patients active, some not", `SELECT COUNT(*) BETWEEN 20 AND 100 FROM patients p WHERE EXISTS (SELECT 1 FROM assessments a
		WHERE a.patient_id = p.id AND a.assessed_on >= date('{{as_of}}', '-90 days'))`, "1"},
	{"clinic", "every clinic has active patients", `SELECT COUNT(DISTINCT p.clinic_id) FROM patients p WHERE EXISTS (SELECT 1 FROM assessments a
		WHERE a.patient_id = p.id AND a.assessed_on >= date('{{as_of}}', '-90 days'))`, "4"},
	{"clinic", "a few clinicians", "SELECT COUNT(DISTINCT clinician) BETWEEN 3 AND 12 FROM assessments", "1"},
	{"clinic", "pain varies", "SELECT MIN(pain_score) = 0 AND MAX(pain_score) >= 8 FROM assessments", "1"},

	// labs
	{"labs", "fixed patients", "SELECT group_concat(id || '|' || full_name || '|' || gender || '|' || date_of_birth, ';') FROM (SELECT * FROM patients ORDER BY id)",
		"L1|Ivan Petrov|M|1985-03-15;L2|John Doe|M|1978-06-10;L3|Maria Rodriguez|F|1992-11-20"},
	{"labs", "analytes", "SELECT group_concat(analyte, '|') FROM (SELECT DISTINCT analyte FROM lab_results ORDER BY 1)",
		"25-OH Vitamin D|Ferritin|Folate|Glucose|HDL Cholesterol|HbA1c|Hemoglobin|LDL Cholesterol|TSH|Total Cholesterol|Triglycerides|Vitamin B12|Vitamin D2 (Ergocalciferol)|Vitamin D3 (Cholecalciferol)"},
	{"labs", "full panel per test date", `SELECT COUNT(*) FROM (SELECT COUNT(*) AS n, COUNT(DISTINCT analyte) AS d FROM lab_results
		GROUP BY patient_id, test_date) WHERE n != 14 OR d != 14`, "0"},
	{"labs", "every patient tested", "SELECT COUNT(DISTINCT patient_id) FROM lab_results", "3"},
	{"labs", "tests 80-100 days apart", `SELECT COUNT(*) FROM (SELECT julianday(test_date) - julianday(LAG(test_date) OVER (PARTITION BY patient_id ORDER BY test_date)) AS gap
		FROM (SELECT DISTINCT patient_id, test_date FROM lab_results)) WHERE gap NOT BETWEEN 80 AND 100`, "0"},
	{"labs", "tests span the 3 years before as_of", `SELECT COUNT(*) FROM (SELECT MIN(test_date) AS f, MAX(test_date) AS l FROM lab_results GROUP BY patient_id)
		WHERE l > '{{as_of}}' OR l < date('{{as_of}}', '-100 days') OR f < date('{{as_of}}', '-3 years') OR f > date('{{as_of}}', '-3 years', '+100 days')`, "0"},
	{"labs", "test dates valid", "SELECT COUNT(*) FROM lab_results WHERE date(test_date) IS NOT test_date", "0"},
	{"labs", "units", `WITH u(analyte, unit) AS (VALUES ('HDL Cholesterol', 'mg/dL'), ('LDL Cholesterol', 'mg/dL'), ('Total Cholesterol', 'mg/dL'),
		('Triglycerides', 'mg/dL'), ('Glucose', 'mg/dL'), ('HbA1c', '%'), ('Vitamin D2 (Ergocalciferol)', 'ng/mL'),
		('Vitamin D3 (Cholecalciferol)', 'ng/mL'), ('25-OH Vitamin D', 'ng/mL'), ('Vitamin B12', 'pg/mL'), ('Folate', 'ng/mL'),
		('Ferritin', 'ng/mL'), ('TSH', 'mIU/L'), ('Hemoglobin', 'g/dL'))
		SELECT COUNT(*) FROM lab_results r LEFT JOIN u ON u.analyte = r.analyte WHERE u.unit IS NOT r.unit`, "0"},
	{"labs", "values positive, references ordered", "SELECT COUNT(*) FROM lab_results WHERE value <= 0 OR reference_low >= reference_high", "0"},
	{"labs", "plausible values", `SELECT COUNT(*) FROM lab_results WHERE (analyte = 'HbA1c' AND value NOT BETWEEN 4 AND 9)
		OR (analyte = 'Glucose' AND value NOT BETWEEN 60 AND 200) OR (analyte = 'Hemoglobin' AND value NOT BETWEEN 9 AND 19)
		OR (analyte = 'TSH' AND value NOT BETWEEN 0.1 AND 10) OR (analyte = 'LDL Cholesterol' AND value NOT BETWEEN 40 AND 250)`, "0"},
	{"labs", "25-OH vitamin D is D2 + D3", `SELECT COUNT(*) FROM lab_results t JOIN lab_results d2 ON d2.patient_id = t.patient_id AND d2.test_date = t.test_date
		AND d2.analyte = 'Vitamin D2 (Ergocalciferol)' JOIN lab_results d3 ON d3.patient_id = t.patient_id AND d3.test_date = t.test_date
		AND d3.analyte = 'Vitamin D3 (Cholecalciferol)' WHERE t.analyte = '25-OH Vitamin D' AND abs(t.value - d2.value - d3.value) > 0.051`, "0"},

	// trades
	{"trades", "fixed symbols", "SELECT group_concat(symbol || '|' || company || '|' || sector || '|' || exchange, ';') FROM (SELECT * FROM symbols ORDER BY symbol)",
		"AAPL|Apple Inc.|Technology|NASDAQ;AMZN|Amazon.com, Inc.|Consumer Discretionary|NASDAQ;CSCO|Cisco Systems, Inc.|Technology|NASDAQ;" +
			"GOOGL|Alphabet Inc.|Communication Services|NASDAQ;HD|The Home Depot, Inc.|Consumer Discretionary|NYSE;INTC|Intel Corporation|Technology|NASDAQ;" +
			"JNJ|Johnson & Johnson|Health Care|NYSE;JPM|JPMorgan Chase & Co.|Financials|NYSE;KO|The Coca-Cola Company|Consumer Staples|NYSE;" +
			"MA|Mastercard Incorporated|Financials|NYSE;META|Meta Platforms, Inc.|Communication Services|NASDAQ;MSFT|Microsoft Corporation|Technology|NASDAQ;" +
			"NVDA|NVIDIA Corporation|Technology|NASDAQ;ORCL|Oracle Corporation|Technology|NYSE;PEP|PepsiCo, Inc.|Consumer Staples|NASDAQ;" +
			"PG|The Procter & Gamble Company|Consumer Staples|NYSE;TSLA|Tesla, Inc.|Consumer Discretionary|NASDAQ;V|Visa Inc.|Financials|NYSE;" +
			"WMT|Walmart Inc.|Consumer Staples|NYSE;XOM|Exxon Mobil Corporation|Energy|NYSE"},
	{"trades", "200,000 trades", "SELECT COUNT(*) FROM trades", "200000"},
	{"trades", "100,000 quotes", "SELECT COUNT(*) FROM quotes", "100000"},
	{"trades", "every symbol trades", "SELECT COUNT(DISTINCT symbol) FROM trades", "20"},
	{"trades", "trades over the 60 weekdays ending at as_of", "SELECT COUNT(DISTINCT substr(traded_at, 1, 10)) || ' ' || MIN(substr(traded_at, 1, 10)) || ' ' || MAX(substr(traded_at, 1, 10)) FROM trades",
		"60 {{weekday_60}} {{weekday_1}}"},
	{"trades", "no weekend trades", "SELECT COUNT(*) FROM trades WHERE strftime('%w', substr(traded_at, 1, 10)) IN ('0', '6')", "0"},
	{"trades", "trade timestamps 13:30-20:00", "SELECT COUNT(*) FROM trades WHERE datetime(traded_at) IS NOT traded_at OR substr(traded_at, 12) NOT BETWEEN '13:30:00' AND '20:00:00'", "0"},
	{"trades", "quantity heavy-tailed", "SELECT AVG(quantity < 500) > 0.7 AND SUM(quantity > 10000) >= 50 AND MIN(quantity) >= 1 FROM trades", "1"},
	{"trades", "both sides", "SELECT group_concat(side) FROM (SELECT DISTINCT side FROM trades ORDER BY 1)", "BUY,SELL"},
	{"trades", "venues", "SELECT group_concat(venue) FROM (SELECT DISTINCT venue FROM trades ORDER BY 1)", "ARCA,BATS,IEX,NASDAQ,NYSE"},
	{"trades", "trades within their day's bar", `SELECT COUNT(*) FROM trades t LEFT JOIN daily_bars b ON b.symbol = t.symbol AND b.trade_date = substr(t.traded_at, 1, 10)
		WHERE b.symbol IS NULL OR t.price NOT BETWEEN b.low_price AND b.high_price`, "0"},
	{"trades", "quotes over the same window", "SELECT COUNT(DISTINCT substr(quoted_at, 1, 10)) || ' ' || MIN(substr(quoted_at, 1, 10)) || ' ' || MAX(substr(quoted_at, 1, 10)) FROM quotes",
		"60 {{weekday_60}} {{weekday_1}}"},
	{"trades", "quote timestamps 13:30-20:00", "SELECT COUNT(*) FROM quotes WHERE datetime(quoted_at) IS NOT quoted_at OR substr(quoted_at, 12) NOT BETWEEN '13:30:00' AND '20:00:00'", "0"},
	{"trades", "bid below ask, last near them", "SELECT COUNT(*) FROM quotes WHERE bid_price >= ask_price OR bid_price <= 0 OR last_price < bid_price - 0.05 OR last_price > ask_price + 0.05", "0"},
	{"trades", "quote sizes", "SELECT COUNT(*) FROM quotes WHERE bid_size <= 0 OR ask_size <= 0", "0"},
	{"trades", "250 bars per symbol", "SELECT COUNT(*) = 20 AND MIN(n) = 250 AND MAX(n) = 250 FROM (SELECT COUNT(*) AS n FROM daily_bars GROUP BY symbol)", "1"},
	{"trades", "bars over the 250 weekdays ending at as_of", "SELECT COUNT(DISTINCT trade_date) || ' ' || MIN(trade_date) || ' ' || MAX(trade_date) FROM daily_bars",
		"250 {{weekday_250}} {{weekday_1}}"},
	{"trades", "no weekend bars", "SELECT COUNT(*) FROM daily_bars WHERE date(trade_date) IS NOT trade_date OR strftime('%w', trade_date) IN ('0', '6')", "0"},
	{"trades", "consistent OHLC", `SELECT COUNT(*) FROM daily_bars WHERE low_price <= 0 OR low_price > MIN(open_price, close_price)
		OR high_price < MAX(open_price, close_price) OR volume <= 0`, "0"},
	{"trades", "bars agree with trades", `SELECT COUNT(*) FROM (SELECT t.symbol, AVG(t.price) AS p FROM trades t GROUP BY t.symbol) t
		JOIN (SELECT symbol, AVG(close_price) AS c FROM daily_bars WHERE trade_date >= '{{weekday_60}}' GROUP BY symbol) b ON b.symbol = t.symbol
		WHERE abs(t.p / b.c - 1) > 0.05`, "0"},
	{"trades", "realistic price levels", `WITH l(symbol, lo, hi) AS (VALUES ('AAPL', 120, 400), ('MSFT', 250, 700), ('NVDA', 60, 300), ('INTC', 10, 50), ('KO', 40, 100), ('MA', 300, 900))
		SELECT COUNT(*) FROM daily_bars b JOIN l ON l.symbol = b.symbol WHERE b.trade_date = '{{weekday_1}}' AND b.close_price NOT BETWEEN l.lo AND l.hi`, "0"},

	// retail
	{"retail", "100 cities", "SELECT COUNT(*) || ' ' || COUNT(DISTINCT city_name || state_province) FROM application_cities", "100 100"},
	{"retail", "cities in the United States", "SELECT group_concat(DISTINCT country) FROM application_cities", "United States"},
	{"retail", "60 people, 10 salespeople", "SELECT COUNT(*) || ' ' || SUM(is_salesperson) || ' ' || SUM(is_salesperson AND NOT is_employee) FROM application_people", "60 10 0"},
	{"retail", "people have names and e-mails", "SELECT COUNT(*) FROM application_people WHERE full_name NOT LIKE '% %' OR email NOT LIKE '%_@_%._%'", "0"},
	{"retail", "600 customers, unique names", "SELECT COUNT(*) || ' ' || COUNT(DISTINCT customer_name) FROM sales_customers", "600 600"},
	{"retail", "customer categories", "SELECT group_concat(customer_category, '|') FROM (SELECT DISTINCT customer_category FROM sales_customers ORDER BY 1)",
		"Computer Store|Corporate|Gift Store|Novelty Shop|Supermarket"},
	{"retail", "accounts opened before first order", `SELECT COUNT(*) FROM sales_customers c WHERE date(account_opened) IS NOT account_opened
		OR account_opened > (SELECT MIN(order_date) FROM sales_orders o WHERE o.customer_id = c.customer_id)`, "0"},
	{"retail", "fixed stock groups", "SELECT group_concat(stock_group_id || ':' || stock_group_name, '|') FROM (SELECT * FROM warehouse_stock_groups ORDER BY 1)",
		"1:Novelty Items|2:Clothing|3:Mugs|4:T-Shirts|5:Computing Novelties|6:USB Novelties|7:Toys|8:Packaging Materials|9:Furry Footwear|10:Airline Novelties"},
	{"retail", "220 stock items, unique names", "SELECT COUNT(*) || ' ' || COUNT(DISTINCT stock_item_name) FROM warehouse_stock_items", "220 220"},
	{"retail", "every group has 5 items", "SELECT COUNT(*) = 10 AND MIN(n) >= 5 FROM (SELECT COUNT(*) AS n FROM warehouse_stock_items GROUP BY stock_group_id)", "1"},
	{"retail", "15 suppliers, each supplying 3 items", "SELECT (SELECT COUNT(*) FROM purchasing_suppliers) || ' ' || COUNT(*) || ' ' || (MIN(n) >= 3) FROM (SELECT COUNT(*) AS n FROM warehouse_stock_items GROUP BY supplier_id)", "15 15 1"},
	{"retail", "colors and sizes sometimes NULL", "SELECT SUM(color IS NULL) > 0 AND SUM(color IS NOT NULL) > 0 AND SUM(size IS NULL) > 0 AND SUM(size IS NOT NULL) > 0 FROM warehouse_stock_items", "1"},
	{"retail", "prices", "SELECT COUNT(*) FROM warehouse_stock_items WHERE unit_price <= 0 OR recommended_retail_price <= unit_price", "0"},
	{"retail", "one holding per item", "SELECT COUNT(*) FROM warehouse_stock_items i LEFT JOIN warehouse_stock_item_holdings h USING (stock_item_id) WHERE h.bin_location IS NULL", "0"},
	{"retail", "about 10% below reorder level", "SELECT COUNT(*) BETWEEN 15 AND 30 FROM warehouse_stock_item_holdings WHERE quantity_on_hand < reorder_level", "1"},
	{"retail", "20,000 orders over 3 years", `SELECT COUNT(*) || ' ' || SUM(date(order_date) IS NOT order_date OR order_date > '{{as_of}}' OR order_date <= date('{{as_of}}', '-3 years'))
		|| ' ' || (MIN(order_date) < date('{{as_of}}', '-3 years', '+30 days')) FROM sales_orders`, "20000 0 1"},
	{"retail", "orders in the last 7 and 30 days", `SELECT SUM(order_date >= date('{{as_of}}', '-7 days')) >= 20 AND SUM(order_date >= date('{{as_of}}', '-30 days')) >= 200 FROM sales_orders`, "1"},
	{"retail", "delivery after order", "SELECT COUNT(*) FROM sales_orders WHERE date(expected_delivery_date) IS NOT expected_delivery_date OR expected_delivery_date <= order_date", "0"},
	{"retail", "orders taken by salespeople", "SELECT COUNT(*) FROM sales_orders o JOIN application_people p ON p.person_id = o.salesperson_person_id WHERE p.is_salesperson = 0", "0"},
	{"retail", "60,000 order lines, every order has lines", `SELECT (SELECT COUNT(*) FROM sales_order_lines) || ' ' ||
		(SELECT COUNT(*) FROM sales_orders o WHERE NOT EXISTS (SELECT 1 FROM sales_order_lines l WHERE l.order_id = o.order_id))`, "60000 0"},
	{"retail", "line quantities and prices", "SELECT COUNT(*) FROM sales_order_lines WHERE quantity <= 0 OR unit_price <= 0", "0"},
	{"retail", "one invoice per order but the last 7 days'", `SELECT COUNT(*) FROM sales_orders o WHERE
		(SELECT COUNT(*) FROM sales_invoices i WHERE i.order_id = o.order_id) != (o.order_date < date('{{as_of}}', '-7 days'))`, "0"},
	{"retail", "invoices match their order", `SELECT COUNT(*) FROM sales_invoices i JOIN sales_orders o USING (order_id) WHERE i.customer_id != o.customer_id
		OR date(i.invoice_date) IS NOT i.invoice_date OR i.invoice_date < o.order_date OR i.invoice_date > '{{as_of}}'`, "0"},
	{"retail", "invoice totals are the lines' revenue", `SELECT COUNT(*) FROM sales_invoices i WHERE abs(i.total_amount -
		(SELECT SUM(l.quantity * l.unit_price) FROM sales_order_lines l WHERE l.order_id = i.order_id)) > 0.005`, "0"},
	{"retail", "2,000 purchase orders over 3 years", `SELECT COUNT(*) || ' ' || SUM(date(order_date) IS NOT order_date OR order_date > '{{as_of}}' OR order_date <= date('{{as_of}}', '-3 years'))
		|| ' ' || SUM(expected_delivery_date <= order_date) FROM purchasing_purchase_orders`, "2000 0 0"},
	{"retail", "only the last 30 days' purchase orders are open", `SELECT SUM(is_finalized != (order_date < date('{{as_of}}', '-30 days'))) || ' ' || (SUM(is_finalized = 0) > 0)
		FROM purchasing_purchase_orders`, "0 1"},
	{"retail", "8,000 purchase order lines", "SELECT COUNT(*) FROM purchasing_purchase_order_lines", "8000"},
	{"retail", "purchase order lines from the order's supplier", `SELECT COUNT(*) FROM purchasing_purchase_order_lines l JOIN purchasing_purchase_orders p USING (purchase_order_id)
		JOIN warehouse_stock_items i USING (stock_item_id) WHERE i.supplier_id != p.supplier_id`, "0"},
	{"retail", "received outers", `SELECT COUNT(*) FROM purchasing_purchase_order_lines l JOIN purchasing_purchase_orders p USING (purchase_order_id)
		WHERE l.ordered_outers <= 0 OR l.received_outers < 0 OR l.received_outers > l.ordered_outers OR (p.is_finalized = 1 AND l.received_outers != l.ordered_outers)`, "0"},
}

func TestInvariants(t *testing.T) {
	t.Parallel()
	for _, asOf := range []time.Time{friday, sunday} {
		t.Run(asOf.Format("2006-01-02"), func(t *testing.T) {
			t.Parallel()
			repl := strings.NewReplacer(
				"{{as_of}}", asOf.Format("2006-01-02"),
				"{{weekday_1}}", weekdaysBack(asOf, 1),
				"{{weekday_60}}", weekdaysBack(asOf, 60),
				"{{weekday_250}}", weekdaysBack(asOf, 250),
			)
			for _, name := range demo.Names() {
				t.Run(name, func(t *testing.T) {
					t.Parallel()
					skipSlowUnderRace(t, name)
					db := openSQLite(t, source(t, name, demo.Options{AsOf: asOf}))
					for _, inv := range invariants {
						if inv.source != name && inv.source != "*" {
							continue
						}
						t.Run(inv.name, func(t *testing.T) {
							got := queryString(t, db, repl.Replace(inv.query))
							if want := repl.Replace(inv.want); got != want {
								t.Errorf("%s: got %q, want %q", inv.name, got, want)
							}
						})
					}
				})
			}
		})
	}
}

// TestRankings checks the spec's ranking rule on the SQL the evaluation
// suites use: products by quantity and by revenue, and customers by revenue
// and by number of orders, have different top-3, top-5 and top-10 sets and no
// ties at ranks 3, 5 and 10.
func TestRankings(t *testing.T) {
	t.Parallel()
	for _, asOf := range []time.Time{friday, sunday} {
		t.Run(asOf.Format("2006-01-02"), func(t *testing.T) {
			t.Parallel()
			skipSlowUnderRace(t, "retail")
			db := openSQLite(t, source(t, "retail", demo.Options{AsOf: asOf}))
			rank := func(query string) ([]int64, []float64) {
				rows, err := db.QueryContext(context.Background(), query)
				if err != nil {
					t.Fatal(err)
				}
				defer rows.Close()
				var ids []int64
				var vals []float64
				for rows.Next() {
					var id int64
					var v float64
					if err := rows.Scan(&id, &v); err != nil {
						t.Fatal(err)
					}
					ids, vals = append(ids, id), append(vals, v)
				}
				if err := rows.Err(); err != nil {
					t.Fatal(err)
				}
				return ids, vals
			}
			pairs := []struct{ name, a, b string }{
				{
					"products by quantity vs revenue",
					"SELECT stock_item_id, SUM(quantity) AS v FROM sales_order_lines GROUP BY stock_item_id ORDER BY v DESC",
					"SELECT stock_item_id, SUM(quantity * unit_price) AS v FROM sales_order_lines GROUP BY stock_item_id ORDER BY v DESC",
				},
				{
					"customers by revenue vs orders",
					"SELECT o.customer_id, SUM(l.quantity * l.unit_price) AS v FROM sales_orders o JOIN sales_order_lines l ON l.order_id = o.order_id GROUP BY o.customer_id ORDER BY v DESC",
					"SELECT customer_id, COUNT(*) AS v FROM sales_orders GROUP BY customer_id ORDER BY v DESC",
				},
			}
			for _, p := range pairs {
				aIDs, aVals := rank(p.a)
				bIDs, bVals := rank(p.b)
				for _, k := range []int{3, 5, 10} {
					if aVals[k-1] == aVals[k] || bVals[k-1] == bVals[k] {
						t.Errorf("%s: tie at rank %d (%v / %v)", p.name, k, aVals[k-1:k+1], bVals[k-1:k+1])
					}
					aTop, bTop := slices.Clone(aIDs[:k]), slices.Clone(bIDs[:k])
					slices.Sort(aTop)
					slices.Sort(bTop)
					if slices.Equal(aTop, bTop) {
						t.Errorf("%s: the top %d are the same: %v", p.name, k, aTop)
					}
				}
			}
		})
	}
}

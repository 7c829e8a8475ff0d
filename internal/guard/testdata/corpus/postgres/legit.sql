-- Legitimate analytical postgres statements over the demo models: every one must be accepted.
-- Format: "-- name:" starts an entry; "-- model:", "-- scope:" (a value, none or both), "-- args:"
-- (| separated, #N for integers) and "-- code:" may follow; the statement runs to the next entry.

-- name: all-results
-- scope: both
SELECT * FROM lab_results

-- name: count-per-analyte
-- scope: both
SELECT analyte, count(*) AS n FROM lab_results GROUP BY analyte ORDER BY n DESC

-- name: stats-having
-- scope: both
SELECT analyte, avg(value) AS mean, min(value) AS lo, max(value) AS hi FROM lab_results GROUP BY analyte HAVING count(*) > 2

-- name: join-latest-glucose
-- scope: both
SELECT p.full_name, r.analyte, r.value FROM lab_results r JOIN patients p ON p.id = r.patient_id WHERE r.analyte = 'Glucose' ORDER BY r.test_date DESC LIMIT 5

-- name: above-range
-- scope: both
SELECT r.analyte, r.value, r.test_date FROM lab_results r WHERE r.value > r.reference_high

-- name: latest-per-analyte
-- scope: both
SELECT analyte, test_date, value FROM (SELECT analyte, test_date, value, ROW_NUMBER() OVER (PARTITION BY analyte ORDER BY test_date DESC) AS rn FROM lab_results) t WHERE rn = 1

-- name: cte-latest
-- scope: both
WITH latest AS (SELECT analyte, max(test_date) AS d FROM lab_results GROUP BY analyte) SELECT l.analyte, r.value FROM latest l JOIN lab_results r ON r.analyte = l.analyte AND r.test_date = l.d

-- name: lag
-- scope: both
SELECT analyte, value, lag(value) OVER (PARTITION BY analyte ORDER BY test_date) AS previous FROM lab_results

-- name: deviation
-- scope: both
SELECT analyte, value - avg(value) OVER (PARTITION BY analyte) AS deviation FROM lab_results

-- name: count-distinct
-- scope: both
SELECT count(DISTINCT analyte) FROM lab_results

-- name: union-out-of-range
-- scope: both
SELECT analyte FROM lab_results WHERE value < reference_low UNION SELECT analyte FROM lab_results WHERE value > reference_high

-- name: in-between
-- scope: both
SELECT * FROM lab_results WHERE analyte IN ('HDL Cholesterol', 'LDL Cholesterol') AND test_date BETWEEN '2025-01-01' AND '2025-12-31'

-- name: case-flag
-- scope: both
SELECT analyte, CASE WHEN value > reference_high THEN 'high' WHEN value < reference_low THEN 'low' ELSE 'normal' END AS flag FROM lab_results

-- name: scalar-subquery
-- scope: both
SELECT full_name, (SELECT count(*) FROM lab_results r WHERE r.patient_id = p.id) AS tests FROM patients p

-- name: exists
-- scope: both
SELECT * FROM patients p WHERE EXISTS (SELECT 1 FROM lab_results r WHERE r.patient_id = p.id AND r.value > r.reference_high)

-- name: not-exists
-- scope: both
SELECT * FROM patients p WHERE NOT EXISTS (SELECT 1 FROM lab_results r WHERE r.patient_id = p.id AND r.analyte = 'TSH')

-- name: coalesce
-- scope: both
SELECT analyte, coalesce(unit, '') AS unit FROM lab_results GROUP BY analyte, unit

-- name: rank-counts
-- scope: both
SELECT analyte, rank() OVER (ORDER BY count(*) DESC) AS position FROM lab_results GROUP BY analyte

-- name: gender-count
-- scope: both
SELECT gender, count(*) FROM patients GROUP BY gender

-- name: distinct-analytes
-- scope: both
SELECT DISTINCT analyte FROM lab_results ORDER BY analyte

-- name: sum-case
-- scope: both
SELECT analyte, sum(CASE WHEN value > reference_high THEN 1 ELSE 0 END) AS highs FROM lab_results GROUP BY analyte

-- name: limit-offset
-- scope: both
SELECT * FROM lab_results ORDER BY test_date DESC LIMIT 10 OFFSET 10

-- name: correlated-max
-- scope: both
SELECT r.* FROM lab_results r WHERE r.value = (SELECT max(value) FROM lab_results x WHERE x.analyte = r.analyte)

-- name: round
-- scope: both
SELECT analyte, round(avg(value), 2) AS mean FROM lab_results GROUP BY analyte

-- name: string-functions
-- scope: both
SELECT upper(analyte), lower(unit), length(analyte) FROM lab_results

-- name: nullif
-- scope: both
SELECT analyte, nullif(unit, '') FROM lab_results

-- name: two-ctes
-- scope: both
WITH a AS (SELECT analyte, avg(value) AS m FROM lab_results GROUP BY analyte), b AS (SELECT analyte, m FROM a WHERE m > 10) SELECT * FROM b

-- name: left-join-count
-- scope: both
SELECT p.full_name, count(r.id) FROM patients p LEFT JOIN lab_results r ON r.patient_id = p.id GROUP BY p.full_name

-- name: first-value
-- scope: both
SELECT analyte, first_value(value) OVER (PARTITION BY analyte ORDER BY test_date) AS first_seen FROM lab_results

-- name: dense-rank
-- scope: both
SELECT analyte, value, dense_rank() OVER (PARTITION BY analyte ORDER BY value DESC) AS r FROM lab_results

-- name: is-null
-- scope: both
SELECT * FROM lab_results WHERE unit IS NULL OR reference_low IS NULL

-- name: like
-- scope: both
SELECT * FROM lab_results WHERE analyte LIKE 'Vitamin%'

-- name: abs
-- scope: both
SELECT analyte, abs(value - reference_high) FROM lab_results

-- name: derived-filter
-- scope: both
SELECT x.analyte FROM (SELECT analyte, count(*) AS n FROM lab_results GROUP BY analyte) x WHERE x.n >= 3

-- name: own-patient-filter
-- scope: both
SELECT analyte, value FROM lab_results WHERE patient_id = 'L2'

-- name: own-patient
-- scope: both
SELECT * FROM patients WHERE id = 'L2'

-- name: ntile
-- scope: both
SELECT analyte, ntile(4) OVER (ORDER BY value) AS quartile FROM lab_results

-- name: moving-sum
-- scope: both
SELECT analyte, value, sum(value) OVER (PARTITION BY analyte ORDER BY test_date ROWS BETWEEN 2 PRECEDING AND CURRENT ROW) AS moving FROM lab_results

-- name: self-join-dates
-- scope: both
SELECT a.analyte, a.value, b.value FROM lab_results a JOIN lab_results b ON a.analyte = b.analyte AND a.test_date < b.test_date

-- name: between-columns
-- scope: both
SELECT count(*) FROM lab_results WHERE value BETWEEN reference_low AND reference_high

-- name: max-date
-- scope: both
SELECT max(test_date) FROM lab_results

-- name: gender-avg
-- scope: both
SELECT p.gender, avg(r.value) FROM patients p JOIN lab_results r ON r.patient_id = p.id WHERE r.analyte = 'Ferritin' GROUP BY p.gender

-- name: named-window
-- scope: both
SELECT analyte, lead(value, 1) OVER w AS next_value FROM lab_results WINDOW w AS (PARTITION BY analyte ORDER BY test_date)

-- name: percent-rank
-- scope: both
SELECT analyte, percent_rank() OVER (ORDER BY value) AS pr FROM lab_results

-- name: cume-dist
-- scope: both
SELECT analyte, cume_dist() OVER (PARTITION BY analyte ORDER BY value) AS cd FROM lab_results

-- name: union-all-order
-- scope: both
SELECT analyte, value FROM lab_results WHERE analyte = 'TSH' UNION ALL SELECT analyte, value FROM lab_results WHERE analyte = 'Folate' ORDER BY 2

-- name: group-by-two
-- scope: both
SELECT analyte, unit, count(*) FROM lab_results GROUP BY analyte, unit ORDER BY analyte, unit

-- name: order-by-alias
-- scope: both
SELECT analyte AS a, max(value) AS top FROM lab_results GROUP BY analyte ORDER BY top DESC

-- name: in-subquery
-- scope: both
SELECT * FROM lab_results WHERE analyte IN (SELECT analyte FROM lab_results WHERE value > reference_high)

-- name: scoped-bound-own
-- scope: both
-- args: L2
SELECT * FROM lab_results WHERE patient_id = $1

-- name: star-qualified
-- scope: both
SELECT r.*, p.full_name FROM lab_results r JOIN patients p ON p.id = r.patient_id

-- name: nested-derived
-- scope: both
SELECT * FROM (SELECT * FROM (SELECT analyte, value FROM lab_results) a WHERE value > 1) b

-- name: cte-in-subquery
-- scope: both
SELECT * FROM patients WHERE id IN (SELECT patient_id FROM lab_results WHERE analyte = 'TSH')

-- name: min-max-dates
-- scope: both
SELECT min(test_date), max(test_date) FROM lab_results

-- name: filter-clause
-- scope: both
SELECT analyte, count(*) FILTER (WHERE value > reference_high) AS highs FROM lab_results GROUP BY analyte

-- name: all-subquery
-- scope: both
SELECT analyte, value FROM lab_results WHERE value > ALL (SELECT reference_high FROM lab_results WHERE analyte = 'TSH')

-- name: row-value-in
-- scope: both
SELECT * FROM lab_results WHERE (analyte, test_date) IN (SELECT analyte, max(test_date) FROM lab_results GROUP BY analyte)

-- name: intersect
-- scope: both
SELECT analyte FROM lab_results INTERSECT SELECT analyte FROM lab_results WHERE value > 5

-- name: except
-- scope: both
SELECT analyte FROM lab_results EXCEPT SELECT analyte FROM lab_results WHERE value > 5

-- name: other-patient-unscoped
-- scope: none
SELECT * FROM lab_results WHERE patient_id = 'L1'

-- name: patients-in-list-unscoped
-- scope: none
SELECT * FROM patients WHERE id IN ('L1', 'L3')

-- name: clinic-patient-counts
-- model: clinic
SELECT c.name, count(p.id) FROM clinics c LEFT JOIN patients p ON p.clinic_id = c.id GROUP BY c.name

-- name: wound-type-area
-- model: clinic
SELECT w.wound_type, avg(w.area_cm2) FROM wounds w GROUP BY w.wound_type ORDER BY 2 DESC

-- name: status-having
-- model: clinic
SELECT status, count(*) FROM wounds GROUP BY status HAVING count(*) > 1

-- name: infected-wounds
-- model: clinic
SELECT p.full_name, w.location FROM patients p JOIN wounds w ON w.patient_id = p.id WHERE w.infected = 1

-- name: latest-area
-- model: clinic
SELECT w.id, (SELECT a.area_cm2 FROM assessments a WHERE a.wound_id = w.id ORDER BY a.assessed_on DESC LIMIT 1) AS latest_area FROM wounds w

-- name: pain-by-clinician
-- model: clinic
SELECT clinician, avg(pain_score) FROM assessments GROUP BY clinician

-- name: first-assessments
-- model: clinic
WITH firsts AS (SELECT wound_id, min(assessed_on) AS d FROM assessments GROUP BY wound_id) SELECT count(*) FROM firsts

-- name: healed
-- model: clinic
SELECT * FROM wounds WHERE healed_date IS NOT NULL ORDER BY healed_date DESC LIMIT 20

-- name: depth-join
-- model: clinic
SELECT a.depth, count(*) FROM assessments a JOIN wounds w ON w.id = a.wound_id GROUP BY a.depth

-- name: clinic-in
-- model: clinic
SELECT p.id FROM patients p WHERE p.clinic_id IN (SELECT id FROM clinics WHERE name LIKE '%North%')

-- name: status-max-pain
-- model: clinic
SELECT w.status, max(a.pain_score) FROM wounds w JOIN assessments a ON a.wound_id = w.id GROUP BY w.status

-- name: area-change
-- model: clinic
SELECT a.wound_id, a.area_cm2 - lag(a.area_cm2) OVER (PARTITION BY a.wound_id ORDER BY a.assessed_on) AS delta FROM assessments a

-- name: open-patients
-- model: clinic
SELECT count(DISTINCT patient_id) FROM wounds WHERE status <> 'Healed'

-- name: no-infection
-- model: clinic
SELECT p.full_name FROM patients p WHERE NOT EXISTS (SELECT 1 FROM wounds w WHERE w.patient_id = p.id AND w.infected = 1)

-- name: three-way-join
-- model: clinic
SELECT c.name, w.wound_type, count(a.id) FROM clinics c JOIN patients p ON p.clinic_id = c.id JOIN wounds w ON w.patient_id = p.id LEFT JOIN assessments a ON a.wound_id = w.id GROUP BY c.name, w.wound_type

-- name: top-customers
-- model: retail
SELECT c.customer_name, sum(l.quantity * l.unit_price) AS revenue FROM sales_customers c JOIN sales_orders o ON o.customer_id = c.customer_id JOIN sales_order_lines l ON l.order_id = o.order_id GROUP BY c.customer_name ORDER BY revenue DESC LIMIT 10

-- name: low-stock
-- model: retail
SELECT i.stock_item_name, h.quantity_on_hand FROM warehouse_stock_items i JOIN warehouse_stock_item_holdings h ON h.stock_item_id = i.stock_item_id WHERE h.quantity_on_hand < h.reorder_level

-- name: customer-categories
-- model: retail
SELECT customer_category, count(*) FROM sales_customers GROUP BY customer_category

-- name: uninvoiced
-- model: retail
SELECT o.order_id FROM sales_orders o WHERE NOT EXISTS (SELECT 1 FROM sales_invoices i WHERE i.order_id = o.order_id)

-- name: supplier-orders
-- model: retail
SELECT s.supplier_name, count(po.purchase_order_id) FROM purchasing_suppliers s LEFT JOIN purchasing_purchase_orders po ON po.supplier_id = s.supplier_id GROUP BY s.supplier_name

-- name: group-prices
-- model: retail
SELECT g.stock_group_name, avg(i.unit_price) FROM warehouse_stock_groups g JOIN warehouse_stock_items i ON i.stock_group_id = g.stock_group_id GROUP BY g.stock_group_name

-- name: cities
-- model: retail
SELECT city_name, country FROM application_cities WHERE state_province = 'Texas'

-- name: salespeople
-- model: retail
SELECT full_name FROM application_people WHERE is_salesperson = 1

-- name: avg-order-total
-- model: retail
WITH t AS (SELECT order_id, sum(quantity * unit_price) AS total FROM sales_order_lines GROUP BY order_id) SELECT avg(total) FROM t

-- name: running-invoices
-- model: retail
SELECT customer_id, invoice_date, total_amount, sum(total_amount) OVER (PARTITION BY customer_id ORDER BY invoice_date) AS running FROM sales_invoices

-- name: notional
-- model: trades
SELECT symbol, sum(price * quantity) AS notional FROM trades GROUP BY symbol ORDER BY notional DESC

-- name: sector-trades
-- model: trades
SELECT s.sector, count(*) FROM trades t JOIN symbols s ON s.symbol = t.symbol GROUP BY s.sector

-- name: spread
-- model: trades
SELECT symbol, avg(ask_price - bid_price) AS spread FROM quotes GROUP BY symbol

-- name: close-change
-- model: trades
SELECT symbol, trade_date, close_price, close_price - lag(close_price) OVER (PARTITION BY symbol ORDER BY trade_date) AS delta FROM daily_bars

-- name: price-range
-- model: trades
SELECT symbol, max(high_price) - min(low_price) AS price_range FROM daily_bars GROUP BY symbol

-- name: side-venue
-- model: trades
SELECT side, venue, count(*) FROM trades GROUP BY side, venue

-- name: nasdaq
-- model: trades
SELECT * FROM symbols WHERE exchange = 'NASDAQ' ORDER BY company

-- name: volume-above-avg
-- model: trades
SELECT symbol, volume FROM daily_bars WHERE volume > (SELECT avg(volume) FROM daily_bars)

-- name: best-close
-- model: trades
SELECT d.symbol, d.trade_date FROM daily_bars d WHERE d.close_price = (SELECT max(close_price) FROM daily_bars x WHERE x.symbol = d.symbol)

-- name: busy-symbols
-- model: trades
SELECT symbol, count(*) FROM trades WHERE side = 'buy' GROUP BY symbol HAVING count(*) > 10

-- name: to-char-month
-- scope: both
SELECT to_char(CAST(test_date AS timestamp), 'YYYY-MM') AS month, avg(value) FROM lab_results GROUP BY 1

-- name: date-trunc
-- scope: both
SELECT date_trunc('month', CAST(test_date AS timestamp)) AS m, count(*) FROM lab_results GROUP BY 1 ORDER BY 1

-- name: extract-year
-- scope: both
SELECT extract(year FROM CAST(test_date AS date)) AS y, count(*) FROM lab_results GROUP BY 1

-- name: string-agg
-- scope: both
SELECT string_agg(analyte, ', ' ORDER BY analyte) FROM lab_results

-- name: percentile
-- scope: both
SELECT analyte, percentile_cont(0.5) WITHIN GROUP (ORDER BY value) AS median FROM lab_results GROUP BY analyte

-- name: avg-filter
-- scope: both
SELECT avg(value) FILTER (WHERE value > 0) FROM lab_results

-- name: double-colon-cast
-- scope: both
SELECT test_date::date, value::numeric(10, 2) FROM lab_results

-- name: distinct-on
-- scope: both
SELECT DISTINCT ON (analyte) analyte, test_date, value FROM lab_results ORDER BY analyte, test_date DESC

-- name: rollup
-- scope: both
SELECT gender, count(*) FROM patients GROUP BY ROLLUP (gender)

-- name: ilike
-- scope: both
SELECT * FROM lab_results WHERE analyte ILIKE 'vitamin%'

-- name: regex
-- scope: both
SELECT * FROM lab_results WHERE analyte ~ '^Vit'

-- name: date-arith
-- scope: both
SELECT * FROM lab_results WHERE CAST(test_date AS date) >= CURRENT_DATE - 365

-- name: interval
-- scope: both
SELECT * FROM lab_results WHERE CAST(test_date AS timestamp) > now() - interval '3 years'

-- name: fetch-first
-- scope: both
SELECT * FROM lab_results ORDER BY value DESC FETCH FIRST 5 ROWS ONLY

-- name: greatest-least
-- scope: both
SELECT greatest(value, reference_high), least(value, reference_low) FROM lab_results

-- name: any-array
-- scope: both
SELECT * FROM lab_results WHERE analyte = ANY (ARRAY['TSH', 'Folate'])

-- name: param
-- scope: both
-- args: TSH|#1
SELECT * FROM lab_results WHERE analyte = $1 AND value > $2

-- name: split-part
-- scope: both
SELECT split_part(analyte, ' ', 1) FROM lab_results

-- name: is-distinct-from
-- scope: both
SELECT * FROM lab_results WHERE unit IS DISTINCT FROM 'mg/dL'

-- name: table-statement
-- scope: both
TABLE patients

-- name: cast-integer-pg
-- scope: both
SELECT CAST(value AS integer) FROM lab_results


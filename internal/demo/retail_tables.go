package demo

// dataset lays the retail data out as the spec's tables.
func (d *retailData) dataset() *dataset {
	b := func(v bool) int {
		if v {
			return 1
		}
		return 0
	}
	nullStr := func(s string) any {
		if s == "" {
			return nil
		}
		return s
	}
	// Invoices: one per order except the last 7 days', in order id order.
	var invoiced []int
	totals := make([]float64, len(d.orders))
	for _, l := range d.lines {
		totals[l.order] += float64(l.quantity) * l.price
	}
	for oi := range d.orders {
		if d.invoiced(&d.orders[oi]) {
			invoiced = append(invoiced, oi)
		}
	}
	return &dataset{name: "retail", tables: []*table{
		{
			name: "application_cities",
			cols: []column{
				{name: "city_id", kind: kindInt, primaryKey: true},
				{name: "city_name", kind: kindText, notNull: true},
				{name: "state_province", kind: kindText, notNull: true},
				{name: "country", kind: kindText, notNull: true},
			},
			rows: len(usCities),
			row: func(i int, dst []any) {
				c := usCities[i]
				dst[0], dst[1], dst[2], dst[3] = i+1, c.name, stateName(c.state), "United States"
			},
		},
		{
			name: "application_people",
			cols: []column{
				{name: "person_id", kind: kindInt, primaryKey: true},
				{name: "full_name", kind: kindText, notNull: true},
				{name: "email", kind: kindText, notNull: true},
				{name: "is_employee", kind: kindInt, notNull: true},
				{name: "is_salesperson", kind: kindInt, notNull: true},
			},
			rows: len(d.people),
			row: func(i int, dst []any) {
				p := &d.people[i]
				dst[0], dst[1], dst[2], dst[3], dst[4] = i+1, p.name, p.email, b(p.employee), b(p.salesperson)
			},
		},
		{
			name: "purchasing_suppliers",
			cols: []column{
				{name: "supplier_id", kind: kindInt, primaryKey: true},
				{name: "supplier_name", kind: kindText, notNull: true},
				{name: "supplier_category", kind: kindText, notNull: true},
				{name: "city_id", kind: kindInt, notNull: true, ref: "application_cities"},
			},
			rows: len(suppliers),
			row: func(i int, dst []any) {
				dst[0], dst[1], dst[2], dst[3] = i+1, suppliers[i].name, suppliers[i].category, d.supplierC[i]
			},
		},
		{
			name: "sales_customers",
			cols: []column{
				{name: "customer_id", kind: kindInt, primaryKey: true},
				{name: "customer_name", kind: kindText, notNull: true},
				{name: "customer_category", kind: kindText, notNull: true},
				{name: "city_id", kind: kindInt, notNull: true, ref: "application_cities"},
				{name: "credit_limit", kind: kindReal},
				{name: "account_opened", kind: kindText, notNull: true},
			},
			indexes: [][]string{{"city_id"}},
			rows:    len(d.customers),
			row: func(i int, dst []any) {
				c := &d.customers[i]
				var credit any
				if c.hasCredit {
					credit = c.credit
				}
				dst[0], dst[1], dst[2] = i+1, c.name, customerCategories[c.category]
				dst[3], dst[4], dst[5] = c.city, credit, dateStr(c.opened)
			},
		},
		{
			name: "warehouse_stock_groups",
			cols: []column{
				{name: "stock_group_id", kind: kindInt, primaryKey: true},
				{name: "stock_group_name", kind: kindText, notNull: true},
			},
			rows: len(stockGroups),
			row:  func(i int, dst []any) { dst[0], dst[1] = i+1, stockGroups[i] },
		},
		{
			name: "warehouse_stock_items",
			cols: []column{
				{name: "stock_item_id", kind: kindInt, primaryKey: true},
				{name: "stock_item_name", kind: kindText, notNull: true},
				{name: "stock_group_id", kind: kindInt, notNull: true, ref: "warehouse_stock_groups"},
				{name: "supplier_id", kind: kindInt, notNull: true, ref: "purchasing_suppliers"},
				{name: "unit_price", kind: kindReal, notNull: true},
				{name: "recommended_retail_price", kind: kindReal, notNull: true},
				{name: "color", kind: kindText},
				{name: "size", kind: kindText},
			},
			indexes: [][]string{{"stock_group_id"}, {"supplier_id"}},
			rows:    len(d.items),
			row: func(i int, dst []any) {
				it := &d.items[i]
				dst[0], dst[1], dst[2], dst[3] = i+1, it.name, it.group, it.supplier
				dst[4], dst[5], dst[6], dst[7] = it.price, it.rrp, nullStr(it.color), nullStr(it.size)
			},
		},
		{
			name: "warehouse_stock_item_holdings",
			cols: []column{
				{name: "stock_item_id", kind: kindInt, primaryKey: true, ref: "warehouse_stock_items"},
				{name: "quantity_on_hand", kind: kindInt, notNull: true},
				{name: "reorder_level", kind: kindInt, notNull: true},
				{name: "bin_location", kind: kindText, notNull: true},
			},
			rows: len(d.holdings),
			row: func(i int, dst []any) {
				h := &d.holdings[i]
				dst[0], dst[1], dst[2], dst[3] = i+1, h.onHand, h.reorder, h.bin
			},
		},
		{
			name: "sales_orders",
			cols: []column{
				{name: "order_id", kind: kindInt, primaryKey: true},
				{name: "customer_id", kind: kindInt, notNull: true, ref: "sales_customers"},
				{name: "salesperson_person_id", kind: kindInt, notNull: true, ref: "application_people"},
				{name: "order_date", kind: kindText, notNull: true},
				{name: "expected_delivery_date", kind: kindText, notNull: true},
			},
			indexes: [][]string{{"customer_id"}, {"salesperson_person_id"}, {"order_date"}},
			rows:    len(d.orders),
			row: func(i int, dst []any) {
				o := &d.orders[i]
				dst[0], dst[1], dst[2], dst[3], dst[4] = i+1, o.customer, o.salesperson, dateStr(o.date), dateStr(o.expected)
			},
		},
		{
			name: "sales_order_lines",
			cols: []column{
				{name: "order_line_id", kind: kindInt, primaryKey: true},
				{name: "order_id", kind: kindInt, notNull: true, ref: "sales_orders"},
				{name: "stock_item_id", kind: kindInt, notNull: true, ref: "warehouse_stock_items"},
				{name: "quantity", kind: kindInt, notNull: true},
				{name: "unit_price", kind: kindReal, notNull: true},
			},
			indexes: [][]string{{"order_id"}, {"stock_item_id"}},
			rows:    len(d.lines),
			row: func(i int, dst []any) {
				l := &d.lines[i]
				dst[0], dst[1], dst[2], dst[3], dst[4] = i+1, l.order+1, l.item+1, l.quantity, l.price
			},
		},
		{
			name: "sales_invoices",
			cols: []column{
				{name: "invoice_id", kind: kindInt, primaryKey: true},
				{name: "order_id", kind: kindInt, notNull: true, ref: "sales_orders"},
				{name: "customer_id", kind: kindInt, notNull: true, ref: "sales_customers"},
				{name: "invoice_date", kind: kindText, notNull: true},
				{name: "total_amount", kind: kindReal, notNull: true},
			},
			indexes: [][]string{{"order_id"}, {"customer_id"}, {"invoice_date"}},
			rows:    len(invoiced),
			row: func(i int, dst []any) {
				oi := invoiced[i]
				o := &d.orders[oi]
				dst[0], dst[1], dst[2] = i+1, oi+1, o.customer
				dst[3], dst[4] = dateStr(addDays(o.date, 1)), round(totals[oi], 2)
			},
		},
		{
			name: "purchasing_purchase_orders",
			cols: []column{
				{name: "purchase_order_id", kind: kindInt, primaryKey: true},
				{name: "supplier_id", kind: kindInt, notNull: true, ref: "purchasing_suppliers"},
				{name: "order_date", kind: kindText, notNull: true},
				{name: "expected_delivery_date", kind: kindText, notNull: true},
				{name: "is_finalized", kind: kindInt, notNull: true},
			},
			indexes: [][]string{{"supplier_id"}, {"order_date"}},
			rows:    len(d.pos),
			row: func(i int, dst []any) {
				po := &d.pos[i]
				dst[0], dst[1], dst[2], dst[3], dst[4] = i+1, po.supplier, dateStr(po.date), dateStr(po.expected), b(po.finalized)
			},
		},
		{
			name: "purchasing_purchase_order_lines",
			cols: []column{
				{name: "purchase_order_line_id", kind: kindInt, primaryKey: true},
				{name: "purchase_order_id", kind: kindInt, notNull: true, ref: "purchasing_purchase_orders"},
				{name: "stock_item_id", kind: kindInt, notNull: true, ref: "warehouse_stock_items"},
				{name: "ordered_outers", kind: kindInt, notNull: true},
				{name: "received_outers", kind: kindInt, notNull: true},
				{name: "expected_unit_price", kind: kindReal, notNull: true},
			},
			indexes: [][]string{{"purchase_order_id"}, {"stock_item_id"}},
			rows:    len(d.poLines),
			row: func(i int, dst []any) {
				l := &d.poLines[i]
				dst[0], dst[1], dst[2], dst[3], dst[4], dst[5] = i+1, l.po+1, l.item+1, l.ordered, l.received, l.price
			},
		},
	}}
}

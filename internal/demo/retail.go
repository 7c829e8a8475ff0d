package demo

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"
)

// retail — a WideWorldImporters-shaped wholesale distributor: reference
// data (Application), customers, orders, order lines and invoices (Sales),
// suppliers and purchase orders (Purchasing), stock groups, items and
// holdings (Warehouse).

const (
	retailPeople       = 60
	retailEmployees    = 20
	retailSalespeople  = 10
	retailOrders       = 20_000
	retailOrderLines   = 60_000
	retailPOs          = 2_000
	retailPOLines      = 8_000
	retailStockItems   = 220
	retailBelowReorder = 22 // about 10% of the items
)

type retailPerson struct {
	name, email           string
	employee, salesperson bool
}

type retailCustomer struct {
	name        string
	category    int
	city        int // city_id
	credit      float64
	hasCredit   bool
	opened      time.Time
	weight      float64 // relative number of orders
	size        float64 // relative order size
	salesperson int     // person_id
}

type stockItem struct {
	name, color, size string
	group, supplier   int // ids
	price, rrp        float64
	outer, maxOut     int
	weight            float64 // popularity
}

type holding struct {
	onHand, reorder int
	bin             string
}

type retailOrder struct {
	customer, salesperson int // ids
	date, expected        time.Time
	firstLine, lines      int
}

type orderLine struct {
	order, item, quantity int // order index, item index
	price                 float64
}

type purchaseOrder struct {
	supplier         int // id
	date, expected   time.Time
	finalized        bool
	firstLine, lines int
}

type poLine struct {
	po, item, ordered, received int // indexes
	price                       float64
}

type retailData struct {
	asOf      time.Time
	people    []retailPerson
	supplierC []int // city_id per supplier
	customers []retailCustomer
	items     []stockItem
	holdings  []holding
	orders    []retailOrder
	lines     []orderLine
	pos       []purchaseOrder
	poLines   []poLine
}

// genRetail draws the retail source. The catalog, people and customers are
// drawn once; orders are drawn again (deterministically) until the rankings
// the spec fixes differ at ranks 3, 5 and 10 without ties.
func genRetail(seed int64, asOf time.Time) (*dataset, error) {
	d := &retailData{asOf: asOf}
	d.drawPeople(newRNG(seed, "retail", "people"))
	d.drawCatalog(newRNG(seed, "retail", "catalog"))
	d.drawCustomers(newRNG(seed, "retail", "customers"))
	var errs []error
	for attempt := range 200 {
		d.drawOrders(newRNG(seed, "retail", "orders", itoa(attempt)))
		err := d.checkRankings()
		if err == nil {
			break
		}
		errs = append(errs, err)
		if attempt == 199 {
			return nil, fmt.Errorf("no draw of orders met the ranking rule: %w", errors.Join(errs...))
		}
	}
	d.drawPurchasing(newRNG(seed, "retail", "purchasing"))
	if err := d.check(); err != nil {
		return nil, err
	}
	return d.dataset(), nil
}

// emailName turns a name into the local part of an e-mail address.
func emailName(first, last string) string {
	keep := func(s string) string {
		return strings.Map(func(r rune) rune {
			if r >= 'a' && r <= 'z' {
				return r
			}
			return -1
		}, strings.ToLower(s))
	}
	return keep(first) + "." + keep(last)
}

var contactDomains = []string{
	"tailspintoys.com", "wingtiptoys.com", "contoso.com", "fabrikam.com", "litwareinc.com",
	"adatum.com", "northwindtraders.com", "adventure-works.com", "woodgrovebank.com", "relecloud.com",
}

func (d *retailData) drawPeople(r *rng) {
	seen := map[string]bool{}
	sales := r.Perm(retailEmployees)[:retailSalespeople]
	firstNames := slices.Concat(maleFirstNames, femaleFirstNames)
	for i := range retailPeople {
		var first, last string
		for {
			first, last = oneOf(r, firstNames), oneOf(r, lastNames)
			if !seen[first+" "+last] {
				seen[first+" "+last] = true
				break
			}
		}
		p := retailPerson{name: first + " " + last, employee: i < retailEmployees}
		p.salesperson = slices.Contains(sales, i)
		if p.employee {
			p.email = emailName(first, last) + "@wideworldimporters.com"
		} else {
			p.email = emailName(first, last) + "@" + oneOf(r, contactDomains)
		}
		d.people = append(d.people, p)
	}
}

func (d *retailData) drawCatalog(r *rng) {
	d.supplierC = make([]int, len(suppliers))
	for i := range suppliers {
		d.supplierC[i] = 1 + r.IntN(len(usCities))
	}
	dealt := make([]int, len(stockGroups))
	for _, t := range itemTemplates {
		colors, sizes := t.colors, t.sizes
		if len(colors) == 0 {
			colors = []string{""}
		}
		if len(sizes) == 0 {
			sizes = []string{""}
		}
		for _, c := range colors {
			for _, s := range sizes {
				it := stockItem{
					name: t.base, color: c, size: s, group: t.group + 1,
					price: t.price, rrp: round(t.price*1.495, 2),
					outer: t.outer, maxOut: t.maxOut,
					weight: clamp(r.lognormal(1, 0.7), 0.1, 6),
				}
				if c != "" {
					it.name += " (" + c + ")"
				}
				if s != "" {
					it.name += " " + s
				}
				sup := groupSuppliers[t.group]
				it.supplier = sup[dealt[t.group]%len(sup)]
				dealt[t.group]++
				d.items = append(d.items, it)
			}
		}
	}
	below := r.Perm(len(d.items))[:retailBelowReorder]
	d.holdings = make([]holding, len(d.items))
	for i, it := range d.items {
		h := holding{reorder: it.outer * r.between(2, 10)}
		if slices.Contains(below, i) {
			h.onHand = r.between(0, h.reorder-1)
		} else {
			h.onHand = h.reorder + it.outer*r.between(5, 400)
		}
		h.bin = fmt.Sprintf("%c-%d", 'A'+r.IntN(12), r.between(1, 30))
		d.holdings[i] = h
	}
}

func (d *retailData) windowStart() time.Time { return d.asOf.AddDate(-3, 0, 0) }

func (d *retailData) drawCustomers(r *rng) {
	var salespeople []int
	for i, p := range d.people {
		if p.salesperson {
			salespeople = append(salespeople, i+1)
		}
	}
	var cats []int
	for c, p := range customerProfiles {
		for range p.customers {
			cats = append(cats, c)
		}
	}
	shuffle(r, cats)
	seen := map[string]bool{}
	oldest := d.asOf.AddDate(-7, 0, 0)
	start := d.windowStart()
	for i, c := range cats {
		p := customerProfiles[c]
		cu := retailCustomer{category: c}
		for {
			cu.city = 1 + r.IntN(len(usCities))
			city := usCities[cu.city-1]
			cu.name = oneOf(r, p.brands) + " (" + city.name + ", " + city.state + ")"
			if !seen[cu.name] {
				seen[cu.name] = true
				break
			}
		}
		if cu.hasCredit = r.chance(0.65); cu.hasCredit {
			cu.credit = float64(100 * r.between(10, 50) * max(1, int(p.size)))
		}
		// Most accounts predate the three years of orders; the first always
		// does, so every day of the window has customers.
		if i == 0 || r.chance(0.85) {
			cu.opened = addDays(oldest, r.IntN(daysBetween(oldest, start)))
		} else {
			cu.opened = addDays(start, r.IntN(daysBetween(start, d.asOf)-30))
		}
		cu.weight = p.activity * clamp(r.lognormal(1, 0.6), 0.15, 5)
		cu.size = p.size * r.lognormal(1, 0.3)
		cu.salesperson = oneOf(r, salespeople)
		d.customers = append(d.customers, cu)
	}
}

// orderDays apportions n events over the days after from up to as_of:
// weekdays (weekends at the given weight), a growing business, and a
// year-end peak.
func (d *retailData) orderDays(n int, from time.Time, weekend float64) ([]time.Time, []int) {
	var days []time.Time
	var weights []float64
	total := float64(daysBetween(from, d.asOf))
	for t := addDays(from, 1); !t.After(d.asOf); t = addDays(t, 1) {
		w := 1.0
		if !isWeekday(t) {
			w = weekend
		}
		w *= 1 + 0.35*float64(daysBetween(from, t))/total
		w *= 1 + 0.15*math.Cos(2*math.Pi*float64(t.YearDay()-335)/365)
		days = append(days, t)
		weights = append(weights, w)
	}
	return days, apportion(n, weights)
}

// nextWeekday returns the first weekday after t.
func nextWeekday(t time.Time) time.Time {
	t = addDays(t, 1)
	for !isWeekday(t) {
		t = addDays(t, 1)
	}
	return t
}

// lineCounts draws n counts in [1, caps[i]] with mean about mean, then
// nudges random entries until they sum to total exactly.
func lineCounts(r *rng, caps []int, total int, weights []float64) []int {
	counts := make([]int, len(caps))
	sum := 0
	for i := range counts {
		counts[i] = min(caps[i], 1+r.pick(weights))
		sum += counts[i]
	}
	for sum != total {
		i := r.IntN(len(counts))
		switch {
		case sum > total && counts[i] > 1:
			counts[i]--
			sum--
		case sum < total && counts[i] < caps[i]:
			counts[i]++
			sum++
		}
	}
	return counts
}

func (d *retailData) drawOrders(r *rng) {
	d.orders = d.orders[:0]
	d.lines = d.lines[:0]
	days, perDay := d.orderDays(retailOrders, d.windowStart(), 0.12)
	custW := make([]float64, len(d.customers))
	for i, c := range d.customers {
		custW[i] = c.weight
	}
	custPick := newCumulative(custW)
	salespeople := d.salespersonIDs()
	for di, day := range days {
		for range perDay[di] {
			ci := custPick.draw(r)
			for tries := 0; d.customers[ci].opened.After(day); tries++ {
				ci = custPick.draw(r)
				if tries > 1000 {
					ci = 0
				}
			}
			c := &d.customers[ci]
			o := retailOrder{customer: ci + 1, salesperson: c.salesperson, date: day, expected: nextWeekday(day)}
			if r.chance(0.12) {
				o.salesperson = oneOf(r, salespeople)
			}
			d.orders = append(d.orders, o)
		}
	}
	caps := make([]int, len(d.orders))
	for i := range caps {
		caps[i] = 8
	}
	counts := lineCounts(r, caps, retailOrderLines, []float64{0.2, 0.2, 0.2, 0.16, 0.11, 0.08, 0.05})
	itemW := make([]float64, len(d.items))
	for i, it := range d.items {
		itemW[i] = it.weight
	}
	itemPick := newCumulative(itemW)
	for oi := range d.orders {
		o := &d.orders[oi]
		c := &d.customers[o.customer-1]
		o.firstLine, o.lines = len(d.lines), counts[oi]
		for range o.lines {
			ii := itemPick.draw(r)
			for d.orderHasItem(o, ii) {
				ii = itemPick.draw(r)
			}
			it := &d.items[ii]
			outers := max(1, int(math.Round(r.uniform(0.5, float64(it.maxOut)+0.5)*c.size)))
			d.lines = append(d.lines, orderLine{order: oi, item: ii, quantity: outers * it.outer, price: it.price})
		}
	}
}

func (d *retailData) salespersonIDs() []int {
	var ids []int
	for i, p := range d.people {
		if p.salesperson {
			ids = append(ids, i+1)
		}
	}
	return ids
}

func (d *retailData) orderHasItem(o *retailOrder, item int) bool {
	for _, l := range d.lines[o.firstLine:] {
		if l.item == item {
			return true
		}
	}
	return false
}

func (d *retailData) drawPurchasing(r *rng) {
	supItems := make([][]int, len(suppliers)) // item indexes per supplier (0-based)
	for i, it := range d.items {
		supItems[it.supplier-1] = append(supItems[it.supplier-1], i)
	}
	supW := make([]float64, len(suppliers))
	for s := range suppliers {
		supW[s] = float64(len(supItems[s]))
	}
	days, perDay := d.orderDays(retailPOs, d.windowStart(), 0)
	notFinalSince := addDays(d.asOf, -30)
	for di, day := range days {
		for range perDay[di] {
			po := purchaseOrder{
				supplier:  1 + r.pick(supW),
				date:      day,
				expected:  addDays(day, r.between(7, 21)),
				finalized: day.Before(notFinalSince),
			}
			d.pos = append(d.pos, po)
		}
	}
	caps := make([]int, len(d.pos))
	for i, po := range d.pos {
		caps[i] = min(8, len(supItems[po.supplier-1]))
	}
	counts := lineCounts(r, caps, retailPOLines, []float64{0.15, 0.2, 0.2, 0.15, 0.1, 0.1, 0.05, 0.05})
	for pi := range d.pos {
		po := &d.pos[pi]
		po.firstLine, po.lines = len(d.poLines), counts[pi]
		items := slices.Clone(supItems[po.supplier-1])
		shuffle(r, items)
		for _, ii := range items[:po.lines] {
			it := &d.items[ii]
			l := poLine{po: pi, item: ii, ordered: r.between(1, 40)}
			switch {
			case po.finalized:
				l.received = l.ordered
			case !po.expected.After(d.asOf):
				l.received = r.between(0, l.ordered)
			}
			l.price = round(it.price*0.6*r.uniform(0.97, 1.03), 2)
			d.poLines = append(d.poLines, l)
		}
	}
}

// ranking returns the ids (1-based) of the top k by value, ties broken by
// id, and the gap between the values at ranks k and k+1.
func ranking(values []float64, k int) ([]int, float64) {
	idx := make([]int, len(values))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int { return cmp.Compare(values[b], values[a]) })
	top := make([]int, k)
	for i := range top {
		top[i] = idx[i] + 1
	}
	slices.Sort(top)
	return top, values[idx[k-1]] - values[idx[k]]
}

// checkRankings enforces the spec's ranking rule: products by quantity and
// by revenue, and customers by revenue and by number of orders, have
// different top-3, top-5 and top-10 sets, and no ties at those ranks.
func (d *retailData) checkRankings() error {
	qty := make([]float64, len(d.items))
	rev := make([]float64, len(d.items))
	custRev := make([]float64, len(d.customers))
	custOrders := make([]float64, len(d.customers))
	for _, l := range d.lines {
		qty[l.item] += float64(l.quantity)
		rev[l.item] += float64(l.quantity) * l.price
		custRev[d.orders[l.order].customer-1] += float64(l.quantity) * l.price
	}
	for _, o := range d.orders {
		custOrders[o.customer-1]++
	}
	var errs []error
	for _, k := range []int{3, 5, 10} {
		pq, gq := ranking(qty, k)
		pr, gr := ranking(rev, k)
		cr, gcr := ranking(custRev, k)
		co, gco := ranking(custOrders, k)
		if slices.Equal(pq, pr) {
			errs = append(errs, fmt.Errorf("top %d products by quantity and by revenue are the same", k))
		}
		if slices.Equal(cr, co) {
			errs = append(errs, fmt.Errorf("top %d customers by revenue and by orders are the same", k))
		}
		if gq < 0.5 || gco < 0.5 || gr < 0.005 || gcr < 0.005 {
			errs = append(errs, fmt.Errorf("a tie at rank %d", k))
		}
	}
	return errors.Join(errs...)
}

// check verifies the counts and rules of the spec that do not hold by
// construction alone.
func (d *retailData) check() error {
	var errs []error
	if len(d.items) != retailStockItems {
		errs = append(errs, fmt.Errorf("%d stock items, want %d", len(d.items), retailStockItems))
	}
	perGroup := make([]int, len(stockGroups))
	perSupplier := make([]int, len(suppliers))
	names := map[string]bool{}
	for _, it := range d.items {
		perGroup[it.group-1]++
		perSupplier[it.supplier-1]++
		if names[it.name] {
			errs = append(errs, fmt.Errorf("stock item name %q twice", it.name))
		}
		names[it.name] = true
	}
	if slices.Min(perGroup) < 5 {
		errs = append(errs, errors.New("a stock group has fewer than 5 items"))
	}
	if slices.Min(perSupplier) < 3 {
		errs = append(errs, errors.New("a supplier supplies fewer than 3 items"))
	}
	if len(d.orders) != retailOrders || len(d.lines) != retailOrderLines ||
		len(d.pos) != retailPOs || len(d.poLines) != retailPOLines {
		errs = append(errs, fmt.Errorf("counts: %d orders, %d lines, %d purchase orders, %d purchase order lines",
			len(d.orders), len(d.lines), len(d.pos), len(d.poLines)))
	}
	return errors.Join(errs...)
}

// invoiced reports whether order o has an invoice: all orders but those of
// the last 7 days (order_date >= as_of - 7 days).
func (d *retailData) invoiced(o *retailOrder) bool { return o.date.Before(addDays(d.asOf, -7)) }

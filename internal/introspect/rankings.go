package introspect

import (
	"fmt"
	"sort"
	"strings"

	"github.com/clarify-sql/clarify/internal/model"
)

// ranking is a drafted way to rank an entity's rows ("top customers").
type ranking struct {
	entity  string
	metrics []rankMetric
}

// rankMetric is one way: a measure, a count of child rows, or the total
// of a child's money column.
type rankMetric struct {
	id, label                   string
	measure, count, column, agg string
	isDefault                   bool
	confidence                  float64
}

// moneyWords name columns that hold amounts of money worth adding up.
var moneyWords = []string{"amount", "total", "revenue", "sales", "payment", "paid", "spent", "cost", "price", "fee",
	"charge", "value", "subtotal", "income", "profit", "gross", "net", "balance", "due", "budget", "usd", "eur", "gbp"}

// rankings drafts, for every entity with children or money, what "top" and
// "best" may mean: the money its rows bring (the revenue of lines that
// reach it, the total of a child's money column) and the number of each
// kind of child row. One way is the model's default, shown as an
// assumption; when money and a count both fit ("top customers": by
// revenue or by number of orders) Clarify asks.
func (d *drafter) rankings() {
	for _, e := range d.ents {
		if e.link || e.key == "" {
			continue
		}
		var money, counts []rankMetric
		for _, ms := range d.measures {
			if ms.entity == e.name || d.toOne(d.byTable[ms.entity], e) {
				money = append(money, rankMetric{id: ms.name, label: ms.label, measure: ms.name})
			}
		}
		type child struct {
			e    *entity
			rows int64
		}
		var children []child
		for _, o := range d.ents {
			if o == e {
				continue
			}
			for _, c := range o.cols {
				if c.references == e.name+"."+e.key {
					children = append(children, child{o, o.t.Rows})
					break
				}
			}
		}
		sort.SliceStable(children, func(i, j int) bool { return children[i].rows > children[j].rows })
		// "best-selling products": the units their lines sold
		for _, l := range d.lineTables() {
			if l.e != e && d.toOne(l.e, e) && len(money) < 3 {
				money = append(money, rankMetric{id: "units_" + l.e.name, label: "Units sold", column: l.e.name + "." + l.qty.c.Name, agg: "sum"})
				break
			}
		}
		labels := map[string]bool{}
		for _, ch := range children {
			// two link tables to the same kind of rows (employees, and the
			// job history naming them) are told apart by their own names
			label := "Number of " + d.countedLabel(ch.e, e)
			if labels[label] {
				label = "Number of " + ch.e.plural
			}
			labels[label] = true
			counts = append(counts, rankMetric{id: "count_" + ch.e.name, label: label, count: ch.e.name})
			if len(money) >= 2 {
				continue
			}
			for _, c := range ch.e.cols {
				if c.role == model.RoleMeasure && c.aggregate == "sum" && hasWord(append(append([]string{}, c.words...), strings.ToLower(c.unit)), moneyWords...) {
					label := fmt.Sprintf("total %s of %s", columnTitle(c), ch.e.plural)
					if t := columnTitle(c); t == "total" || strings.HasPrefix(t, "total ") {
						label = fmt.Sprintf("%s of %s", t, ch.e.plural)
					}
					money = append(money, rankMetric{id: "total_" + ch.e.name + "_" + strings.ToLower(c.c.Name),
						label: capitalize(label), column: ch.e.name + "." + c.c.Name, agg: "sum"})
					break
				}
			}
		}
		metrics := append(money, counts...)
		if len(metrics) > 4 {
			metrics = metrics[:4]
		}
		if len(metrics) == 0 {
			continue
		}
		// the money first; asked when more than one way fits
		metrics[0].isDefault = true
		metrics[0].confidence = 0.7
		if len(metrics) > 1 {
			metrics[0].confidence = 0.5
		}
		d.ranks = append(d.ranks, ranking{entity: e.name, metrics: metrics})
	}
}

// countedLabel names what a count of child rows counts: the child's plural,
// or for a link table the plural of what it links e to ("films" of an
// actor through film_actor).
func (d *drafter) countedLabel(child, e *entity) string {
	if child.link {
		for _, c := range child.cols {
			if c.references != "" && !strings.HasPrefix(c.references, e.name+".") {
				if to := d.byTable[c.references[:strings.IndexByte(c.references, '.')]]; to != nil {
					return to.plural
				}
			}
		}
	}
	return child.plural
}

// toOne reports whether entity a reaches b through references only
// (many-to-one steps), at most two of them: the revenue of order lines
// reaches the customer and the salesperson, not the salesperson's
// department.
func (d *drafter) toOne(a, b *entity) bool {
	if a == nil || b == nil {
		return false
	}
	seen := map[*entity]bool{a: true}
	level := []*entity{a}
	for step := 0; step < 2 && len(level) > 0; step++ {
		var next []*entity
		for _, x := range level {
			for _, c := range x.cols {
				if c.references == "" {
					continue
				}
				to := d.byTable[c.references[:strings.IndexByte(c.references, '.')]]
				if to == b {
					return true
				}
				if to != nil && !seen[to] {
					seen[to] = true
					next = append(next, to)
				}
			}
		}
		level = next
	}
	return false
}

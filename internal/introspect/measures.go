package introspect

import (
	"fmt"
	"strings"

	"github.com/clarify-sql/clarify/internal/model"
)

// namedMeasure is a drafted named aggregation.
type namedMeasure struct {
	name, label, entity string
	synonyms            []string
	expr                fragment
	aggregate           string
	description         string
}

// fragment is SQL text for every dialect, with a MySQL override when
// identifiers must be quoted.
type fragment struct{ sql, mysql string }

// qtyWords and priceWords name the columns a line's revenue multiplies.
var (
	qtyWords   = []string{"quantity", "qty", "units", "quantity ordered", "qty ordered", "ordered quantity", "quantity sold"}
	priceWords = []string{"unit price", "price each", "unitprice", "priceeach", "sale price", "selling price", "price"}
	// notSold are words that make a quantity a stock level, not a sale
	notSold = []string{"stock", "hand", "reorder", "available", "min", "max", "minimum", "maximum", "per", "on"}
)

// revenue drafts, for each table of lines (a quantity and a unit price
// beside a reference to what they are part of), the money the lines bring:
// quantity × unit price, less a discount when the table has one. With one
// such table the measure is called revenue; with several each is named
// after its table.
func (d *drafter) revenue() {
	lines := d.lineTables()
	d.revenueOf(lines)
}

// lineTable is a table of lines: a quantity and a unit price beside a
// reference to what they are part of, and maybe a discount.
type lineTable struct {
	e               *entity
	qty, price, off *column
}

// lineTables finds the tables of lines.
func (d *drafter) lineTables() []lineTable {
	type found = lineTable
	var lines []found
	for _, e := range d.ents {
		var f found
		f.e = e
		refs := 0
		var listPrice *column
		for _, c := range e.cols {
			if c.references != "" {
				refs++
			}
			if c.role != model.RoleMeasure || !conditionName(c.c.Name) {
				continue
			}
			phrase := strings.Join(c.words, " ")
			switch {
			case f.qty == nil && anyPhrase(phrase, qtyWords) && !hasWord(c.words, notSold...):
				f.qty = c
			case anyPhrase(phrase, priceWords) && hasWord(c.words, "list", "retail") && !hasWord(c.words, "total", "avg", "average"):
				listPrice = c
			case anyPhrase(phrase, priceWords) && !hasWord(c.words, "recommended", "cost", "avg", "average",
				"total", "amount", "line", "extended", "subtotal", "sum") &&
				(f.price == nil || hasWord(c.words, "unit", "each")):
				f.price = c
			case f.off == nil && hasWord(c.words, "discount") && len(c.c.Quantiles) > 0 && c.c.Quantiles[6] <= 100:
				f.off = c
			}
		}
		// a line's only price is what it sold at, even called a list price
		// (a catalog's list price has no quantity and reference beside it)
		if f.price == nil {
			f.price = listPrice
		}
		if f.qty != nil && f.price != nil && refs > 0 {
			lines = append(lines, f)
		}
	}
	return lines
}

// revenueOf drafts the revenue measure of each table of lines.
func (d *drafter) revenueOf(lines []lineTable) {
	for _, f := range lines {
		e := f.e
		q, p := ref(e.name, f.qty.c.Name), ref(e.name, f.price.c.Name)
		expr := fragment{sql: q.sql + " * " + p.sql, mysql: q.mysql + " * " + p.mysql}
		desc := fmt.Sprintf("%s × %s of %s", columnTitle(f.qty), columnTitle(f.price), e.plural)
		if f.off != nil {
			o := ref(e.name, f.off.c.Name)
			scale := ""
			if f.off.c.Quantiles[6] > 1 {
				scale = " / 100.0" // a percentage
			}
			expr.sql += " * (1 - " + o.sql + scale + ")"
			expr.mysql += " * (1 - " + o.mysql + scale + ")"
			desc += ", less " + columnTitle(f.off)
		}
		m := namedMeasure{name: "revenue", label: "revenue", entity: e.name, expr: expr, aggregate: "sum", description: desc,
			synonyms: []string{"revenue", "sales", "sales amount", "turnover", "income"}}
		if len(lines) > 1 {
			m.name = strings.ReplaceAll(e.label, " ", "_") + "_revenue"
			m.label = e.label + " revenue"
			m.synonyms = append([]string{m.label, e.label + " sales"}, m.synonyms...)
		}
		if f.qty.c.Name == "revenue" || f.price.c.Name == "revenue" {
			continue
		}
		d.measures = append(d.measures, m)
	}
}

// anyPhrase reports whether phrase is one of the phrases or ends with one
// as whole words ("order quantity" ends with "quantity").
func anyPhrase(phrase string, phrases []string) bool {
	for _, p := range phrases {
		if phrase == p || strings.HasSuffix(phrase, " "+p) {
			return true
		}
	}
	return false
}

// ref is a column reference in a model fragment: table.column as it is
// when both are plain lower-case identifiers, else quoted for each
// dialect (double quotes, backquotes for MySQL).
func ref(table, col string) fragment {
	if plainIdent(table) && plainIdent(col) {
		s := table + "." + col
		return fragment{sql: s, mysql: s}
	}
	// The default text serves SQLite and PostgreSQL, which quote alike.
	dq, bq := model.SQLite.QuoteIdent, model.MySQL.QuoteIdent
	return fragment{sql: dq(table) + "." + dq(col), mysql: bq(table) + "." + bq(col)}
}

// plainIdent reports whether a name needs no quoting in any dialect.
func plainIdent(s string) bool {
	for i, r := range s {
		switch {
		case r == '_', r >= 'a' && r <= 'z':
		case r >= '0' && r <= '9' && i > 0:
		default:
			return false
		}
	}
	return s != ""
}

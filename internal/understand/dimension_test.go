package understand_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/clarify-sql/clarify/internal/demo/demotest"
	"github.com/clarify-sql/clarify/internal/understand"
)

// TestNumbersNamedIndirectly: a number named by an adjective of its kind
// ("tallest", "lighter than") or by the table it is the namesake of ("the
// highest salary" where salaries is a table) is what the question
// computes; an average of text is asked about.
func TestNumbersNamedIndirectly(t *testing.T) {
	m := testModel(t, "staff.yaml", `source: staff
entities:
  - name: employees
    key: id
    display: name
    columns:
      - {name: id, role: id}
      - {name: name, role: name}
      - {name: city, role: dimension}
      - {name: birth_date, role: time, type: date}
      - {name: height_cm, role: measure, type: integer, unit: cm}
  - name: salaries
    key: id
    columns:
      - {name: id, role: id}
      - {name: employee_id, role: id, references: employees.id}
      - {name: salary, role: measure, type: integer}
  - name: parcels
    key: id
    columns:
      - {name: id, role: id}
      - {name: sender_id, role: id, references: employees.id}
      - {name: weight, role: measure, type: real}
`)
	an := understand.New(m, nil)
	for q, want := range map[string][]string{
		"the highest salary ever paid":              {"aggregate: max(salaries.salary)"},
		"the tallest employee":                      {"order: height_cm desc=true", "limit: 1"},
		"the youngest employees":                    {"order: birth_date desc=true"},
		"employees taller than 180":                 {"filter: employees: height cm > 180"},
		"employees who sent parcels lighter than 2": {"parcels: weight < 2"},
		"average city of employees":                 {"slot aggregate:average city [column_ambiguity/important] ASK"},
	} {
		d := describe(t, an, q, nil)
		for _, w := range want {
			if !strings.Contains(d, w) {
				t.Errorf("%q: want %q in\n%s", q, w, d)
			}
		}
	}
}

// TestColumnsToldApartByOtherWords: a word naming two columns ("age":
// winner_age and loser_age) is settled by another word of the question
// that only one of them has ("the losers").
func TestColumnsToldApartByOtherWords(t *testing.T) {
	m := testModel(t, "tennis.yaml", `source: tennis
entities:
  - name: matches
    key: id
    columns:
      - {name: id, role: id}
      - {name: winner_age, role: measure, type: real, synonyms: [winner age, age]}
      - {name: loser_age, role: measure, type: real, synonyms: [loser age, age]}
`)
	an := understand.New(m, nil)
	for q, want := range map[string]string{
		"what is the average age of the losers": "aggregate: avg(matches.loser_age)",
		"average age of winners":                "aggregate: avg(matches.winner_age)",
		"average age":                           "column_ambiguity",
	} {
		if d := describe(t, an, q, nil); !strings.Contains(d, want) {
			t.Errorf("%q: want %q in\n%s", q, want, d)
		}
	}
}

// TestColumnOfTheNamedValue: a column word two tables share is the one
// of the table a named value belongs to ("the population of Afghanistan"
// is a country's, not a city's).
func TestColumnOfTheNamedValue(t *testing.T) {
	m := testModel(t, "world.yaml", `source: world
entities:
  - name: countries
    key: code
    display: name
    columns:
      - {name: code, role: id}
      - {name: name, role: name, values: {items: [{value: Afghanistan}, {value: Aruba}]}}
      - {name: population, role: measure, type: integer}
      - {name: continent, role: dimension, values: {items: [{value: North America}, {value: Asia}]}}
      - {name: region, role: dimension, values: {items: [{value: North America}, {value: Caribbean}]}}
  - name: cities
    key: id
    display: name
    columns:
      - {name: id, role: id}
      - {name: name, role: name, values: {items: [{value: Kabul}, {value: Oranjestad}]}}
      - {name: country_code, role: id, references: countries.code}
      - {name: population, role: measure, type: integer}
`)
	an := understand.New(m, nil)
	for q, want := range map[string]string{
		"what is the population of Afghanistan": "column: countries.population",
		"population of Kabul":                   "column: cities.population",
		"what is the population":                "column_ambiguity",
		// a number column named after "top": the metric
		"countries with the top 2 highest population": "rank: top 2 countries by max(countries.population)",
		// "of" ties a value to the column named before it
		"countries in the continent of North America": "filter: countries: continent is North America",
		"countries in North America":                  "value_ambiguity",
	} {
		if d := describe(t, an, q, nil); !strings.Contains(d, want) {
			t.Errorf("%q: want %q in\n%s", q, want, d)
		}
	}
}

// TestCountOfChildrenBesideAReference: "departments with more than 5
// employees" counts the employees of each department, though each
// department also refers to one employee (its manager).
func TestCountOfChildrenBesideAReference(t *testing.T) {
	m := testModel(t, "hr.yaml", `source: hr
entities:
  - name: departments
    key: id
    display: name
    columns:
      - {name: id, role: id}
      - {name: name, role: name}
      - {name: manager_id, role: id, references: employees.id}
  - name: employees
    key: id
    display: name
    columns:
      - {name: id, role: id}
      - {name: name, role: name}
      - {name: department_id, role: id, references: departments.id}
`)
	in, err := understand.New(m, nil).Analyze(context.Background(), "departments with more than 5 employees", understand.Settings{Now: demotest.AsOf})
	if err != nil {
		t.Fatal(err)
	}
	if d := understand.Describe(in); !strings.Contains(d, "filter: employees: more than 5 employees") {
		t.Errorf("want a count of each department's employees:\n%s", d)
	}
}

// TestLowerCaseIsNoProperName: a word written in lower case by a writer
// who capitalizes names is not a proper name it happens to equal ("sales"
// is not the customer Sale) when the names are many; a category typed in
// lower case ("road bikes") still is one.
func TestLowerCaseIsNoProperName(t *testing.T) {
	var names, cats strings.Builder
	for i := 0; i < 250; i++ {
		fmt.Fprintf(&names, "{value: Person%d}, ", i)
	}
	names.WriteString("{value: Sale}")
	for _, c := range []string{"Road Bikes", "Kids Bikes", "Cruisers"} {
		fmt.Fprintf(&cats, "{value: %s}, ", c)
	}
	m := testModel(t, "shop.yaml", `source: shop
entities:
  - name: customers
    key: id
    display: last_name
    columns:
      - {name: id, role: id}
      - {name: last_name, role: name, values: {items: [`+names.String()+`]}}
  - name: categories
    key: id
    display: name
    columns:
      - {name: id, role: id}
      - {name: name, role: name, values: {items: [`+strings.TrimSuffix(cats.String(), ", ")+`]}}
`)
	an := understand.New(m, nil)
	for q, want := range map[string]bool{
		"Customers with sales in Paris":   false, // "sales" is not Sale
		"customers named Sale":            true,
		"Show me road bikes from Trek":    true, // a category, typed in lower case
		"show me the customers with sale": true, // no capital anywhere: the case says nothing
	} {
		d := describe(t, an, q, nil)
		got := strings.Contains(d, "is Sale") || strings.Contains(d, "is Road Bikes") || strings.Contains(d, "value:sale")
		if got != want {
			t.Errorf("%q: value read = %v, want %v\n%s", q, got, want, d)
		}
	}
}

// TestWordsNamingTheChosenMetric: a word that is both a stored value and
// a word of the measure the user chose to follow ("shipping" in "order
// shipping trend", shipping time chosen) names the measure; it does not
// also filter the rows by the value Shipping.
func TestWordsNamingTheChosenMetric(t *testing.T) {
	m := testModel(t, "orders.yaml", `source: orders
entities:
  - name: orders
    key: id
    time_column: ordered_on
    columns:
      - {name: id, role: id}
      - {name: ordered_on, role: time, type: date}
      - {name: shipped_on, role: time, type: date}
      - name: status
        role: dimension
        values:
          items:
            - {value: Pending}
            - {value: Shipping}
            - {value: Delivered}
measures:
  - name: shipping_time
    label: shipping time
    entity: orders
    aggregate: avg
    expr:
      sqlite: julianday(orders.shipped_on) - julianday(orders.ordered_on)
      postgres: (orders.shipped_on - orders.ordered_on)
      mysql: DATEDIFF(orders.shipped_on, orders.ordered_on)
`)
	an := understand.New(m, nil)
	q := "order shipping trend by month over the last year"
	for opt, filtered := range map[string]bool{"measure:shipping_time": false, "count": true} {
		d := describe(t, an, q, map[string]understand.Resolution{"aggregation": {OptionID: opt}})
		if got := strings.Contains(d, "Shipping"); got != filtered {
			t.Errorf("%s chosen: filtered by the status Shipping = %v, want %v:\n%s", opt, got, filtered, d)
		}
	}
}

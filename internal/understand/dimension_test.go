package understand_test

import (
	"context"
	"strings"
	"testing"

	"github.com/clarify-sql/clarify/internal/demo/demotest"
	"github.com/clarify-sql/clarify/internal/model"
	"github.com/clarify-sql/clarify/internal/understand"
)

// TestNumbersNamedIndirectly: a number named by an adjective of its kind
// ("tallest", "lighter than") or by the table it is the namesake of ("the
// highest salary" where salaries is a table) is what the question
// computes; an average of text is asked about.
func TestNumbersNamedIndirectly(t *testing.T) {
	m, err := model.Parse("staff.yaml", []byte(`source: staff
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
`))
	if err != nil {
		t.Fatal(err)
	}
	an := understand.New(m, nil)
	for q, want := range map[string][]string{
		"the highest salary ever paid":              {"aggregate: max(salaries.salary)"},
		"the tallest employee":                      {"order: height_cm desc=true", "limit: 1"},
		"the youngest employees":                    {"order: birth_date desc=true"},
		"employees taller than 180":                 {"filter: employees: height cm > 180"},
		"employees who sent parcels lighter than 2": {"parcels: weight < 2"},
		"average city of employees":                 {"slot aggregate:average city [column_ambiguity/important] ASK"},
	} {
		in, err := an.Analyze(context.Background(), q, understand.Settings{Now: demotest.AsOf})
		if err != nil {
			t.Fatalf("%q: %v", q, err)
		}
		d := understand.Describe(in)
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
	m, err := model.Parse("tennis.yaml", []byte(`source: tennis
entities:
  - name: matches
    key: id
    columns:
      - {name: id, role: id}
      - {name: winner_age, role: measure, type: real, synonyms: [winner age, age]}
      - {name: loser_age, role: measure, type: real, synonyms: [loser age, age]}
`))
	if err != nil {
		t.Fatal(err)
	}
	an := understand.New(m, nil)
	for q, want := range map[string]string{
		"what is the average age of the losers": "aggregate: avg(matches.loser_age)",
		"average age of winners":                "aggregate: avg(matches.winner_age)",
		"average age":                           "column_ambiguity",
	} {
		in, err := an.Analyze(context.Background(), q, understand.Settings{Now: demotest.AsOf})
		if err != nil {
			t.Fatal(err)
		}
		if d := understand.Describe(in); !strings.Contains(d, want) {
			t.Errorf("%q: want %q in\n%s", q, want, d)
		}
	}
}

// TestColumnOfTheNamedValue: a column word two tables share is the one
// of the table a named value belongs to ("the population of Afghanistan"
// is a country's, not a city's).
func TestColumnOfTheNamedValue(t *testing.T) {
	m, err := model.Parse("world.yaml", []byte(`source: world
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
`))
	if err != nil {
		t.Fatal(err)
	}
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
		in, err := an.Analyze(context.Background(), q, understand.Settings{Now: demotest.AsOf})
		if err != nil {
			t.Fatal(err)
		}
		if d := understand.Describe(in); !strings.Contains(d, want) {
			t.Errorf("%q: want %q in\n%s", q, want, d)
		}
	}
}

package understand_test

import (
	"context"
	"regexp"
	"testing"

	"github.com/clarify-sql/clarify/internal/demo/demotest"
	"github.com/clarify-sql/clarify/internal/understand"
)

// shapeModel: readings of a meter over time, whose model asks between a
// table and a plot and shows the latest reading by default; and sensor
// prices quoted over time.
const shapeModel = `source: meters
entities:
  - name: readings
    key: id
    time_column: read_at
    columns:
      - {name: id, role: id}
      - {name: read_at, role: time, type: timestamp}
      - {name: meter, role: dimension, values: {items: [{value: M1}, {value: M2}]}}
      - {name: kwh, role: measure, type: real, synonyms: [usage, consumption]}
  - name: staff
    key: id
    display: name
    time_column: hired_on
    columns:
      - {name: id, role: id}
      - {name: name, role: name, values: {items: [{value: Kowalski}, {value: Patel}]}}
      - {name: hired_on, role: time, type: date}
      - {name: salary, role: measure, type: real}
  - name: offers
    key: id
    time_column: offered_at
    columns:
      - {name: id, role: id}
      - {name: offered_at, role: time, type: timestamp}
      - {name: sensor, role: dimension, values: {items: [{value: S100}, {value: S200}]}}
      - {name: price, role: measure, type: real}
policies:
  format: {mode: ask, applies_to: [readings]}
  latest_or_history: {default: latest, applies_to: [readings]}
`

// latestLine is Describe's line for a newest-row-only answer.
var latestLine = regexp.MustCompile(`(?m)^latest`)

func describeShape(t *testing.T, q string, res map[string]understand.Resolution) string {
	t.Helper()
	return describe(t, understand.New(testModel(t, "meters.yaml", shapeModel), nil), q, res)
}

// TestPlotChosenShowsEveryResult: a plot the user chose is a series, so
// the latest-only default gives way; a latest the user said stays.
func TestPlotChosenShowsEveryResult(t *testing.T) {
	for _, tc := range []struct {
		q      string
		format string
		latest bool
	}{
		{"readings of meter M1", "plot", false},
		{"readings of meter M1", "table", true},
		{"the latest reading of meter M1", "plot", true},
	} {
		d := describeShape(t, tc.q, map[string]understand.Resolution{"format": {OptionID: tc.format}})
		if got := latestLine.MatchString(d); got != tc.latest {
			t.Errorf("%q with %s chosen: latest only = %v, want %v:\n%s", tc.q, tc.format, got, tc.latest, d)
		}
	}
}

// TestPriceOfOneThing: one measure named in the singular, of rows that
// happen over time, is its value now: the newest row with its time. A
// plural, a period or the rows named as such keep the list.
func TestPriceOfOneThing(t *testing.T) {
	for q, latest := range map[string]bool{
		"the price of S100":                    true,
		"what is the price for S200":           true,
		"prices of S100":                       false,
		"the price of S100 over the last week": false,
		"offers for S100":                      false,
		"average price of S100":                false,
		"the salary of Kowalski":               false, // a row named by its own name
		"the price":                            false, // of no one thing
		"who has a high price":                 false, // a condition, not a value
		"offers with a price over 10":          false,
	} {
		d := describeShape(t, q, nil)
		if got := latestLine.MatchString(d); got != latest {
			t.Errorf("%q: latest value = %v, want %v:\n%s", q, got, latest, d)
		}
	}
}

// TestSecondQuestionNamed: a second question asked after "and" that the
// answer does not compute is kept, so the answer can say so; one
// question with two conditions is not two questions.
func TestSecondQuestionNamed(t *testing.T) {
	an := understand.New(testModel(t, "meters.yaml", shapeModel), nil)
	for q, want := range map[string]string{
		"how many readings of meter M1 and what is the average usage": "what is the average usage",
		"how many readings and how many offers":                       "how many offers",
		"count readings by meter and the average usage":               "average usage",
		"readings of meters M1 and M2":                                "",
		"average price of S100 and S200":                              "",
	} {
		in, err := an.Analyze(context.Background(), q, understand.Settings{Now: demotest.AsOf})
		if err != nil {
			t.Fatal(err)
		}
		if in.LeftOut != want {
			t.Errorf("%q: left out %q, want %q", q, in.LeftOut, want)
		}
	}
}

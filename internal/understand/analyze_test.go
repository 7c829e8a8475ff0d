package understand_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/clarify-sql/clarify/internal/demo/demotest"
	"github.com/clarify-sql/clarify/internal/model"
	"github.com/clarify-sql/clarify/internal/understand"
)

func TestAnalyzeRejects(t *testing.T) {
	an := understand.New(demotest.Model(t, "clinic"), nil)
	for name, tc := range map[string]struct {
		q    string
		want error
	}{
		"empty":       {"", understand.ErrEmpty},
		"punctuation": {"  ?!  ", understand.ErrNoWords},
		"emoji":       {"🙂", understand.ErrNoWords},
		"too long":    {strings.Repeat("wounds ", 300), understand.ErrTooLong},
	} {
		t.Run(name, func(t *testing.T) {
			_, err := an.Analyze(context.Background(), tc.q, understand.Settings{Now: demotest.AsOf})
			if !errors.Is(err, tc.want) {
				t.Errorf("Analyze(%q) error = %v, want %v", tc.q, err, tc.want)
			}
		})
	}
	// exactly the limit is accepted
	if _, err := an.Analyze(context.Background(), strings.Repeat("x", understand.MaxQuestionLen), understand.Settings{Now: demotest.AsOf}); err != nil {
		t.Errorf("a question of %d characters was rejected: %v", understand.MaxQuestionLen, err)
	}
}

// TestResolutions checks that an answer to a slot is applied and never
// re-extracted, that free text is understood against the slot's domain,
// and that "skip" applies the best guess as an assumption.
func TestResolutions(t *testing.T) {
	an := understand.New(demotest.Model(t, "clinic"), nil)
	ask := func(res map[string]understand.Resolution) *understand.Interpretation {
		t.Helper()
		in, err := an.Analyze(context.Background(), "list the large wounds", understand.Settings{Now: demotest.AsOf, Resolved: res})
		if err != nil {
			t.Fatal(err)
		}
		return in
	}
	slot := func(in *understand.Interpretation) *understand.Slot {
		for _, s := range in.Slots {
			if s.Key == "vague:large" {
				return s
			}
		}
		t.Fatalf("no vague:large slot in\n%s", understand.Describe(in))
		return nil
	}
	s := slot(ask(nil))
	if !s.Ask || s.Choice().ID != "area_gt_25" {
		t.Fatalf("large: ask=%v chosen=%s, want ask with best guess area_gt_25", s.Ask, s.Choice().ID)
	}
	s = slot(ask(map[string]understand.Resolution{"vague:large": {OptionID: "area_gt_50"}}))
	if s.Ask || s.Choice().ID != "area_gt_50" || s.Method != understand.MethodUser || s.Confidence != 1 {
		t.Errorf("after an answer: ask=%v chosen=%s method=%s conf=%v", s.Ask, s.Choice().ID, s.Method, s.Confidence)
	}
	in := ask(map[string]understand.Resolution{"vague:large": {FreeText: "area > 15"}})
	s = slot(in)
	if s.Ask || !strings.Contains(strings.ToLower(understand.Describe(in)), "area > 15 cm²") {
		t.Errorf("free text 'area > 15' not applied:\n%s", understand.Describe(in))
	}
	in = ask(map[string]understand.Resolution{"vague:large": {FreeText: "40"}})
	if !strings.Contains(strings.ToLower(understand.Describe(in)), "area > 40 cm²") {
		t.Errorf("a bare threshold was not read against the options' column:\n%s", understand.Describe(in))
	}
	s = slot(ask(map[string]understand.Resolution{"vague:large": {FreeText: "colour = 'red'"}}))
	if !s.Ask || s.Invalid == "" {
		t.Errorf("a condition on an unknown column was accepted: ask=%v invalid=%q", s.Ask, s.Invalid)
	}
	s = slot(ask(map[string]understand.Resolution{"vague:large": {Skipped: true}}))
	if s.Ask || s.Method != understand.MethodSkip || s.Choice().ID != "area_gt_25" {
		t.Errorf("skip: ask=%v method=%s chosen=%s", s.Ask, s.Method, s.Choice().ID)
	}
}

func FuzzAnalyze(f *testing.F) {
	for _, s := range []string{"list the large wounds", "how many patients > 5 in 2025", "top 5 wounds by area", "покажи мою глюкозу",
		"wounds between 10 and 20 cm² since March", "which clinic has the most patients?", "'; DROP TABLE wounds; --"} {
		f.Add(s)
	}
	an := understand.New(demotest.Model(f, "clinic"), nil)
	f.Fuzz(func(t *testing.T, q string) {
		in, err := an.Analyze(context.Background(), q, understand.Settings{Now: demotest.AsOf})
		if err != nil {
			return
		}
		for _, s := range in.Slots {
			if s.Chosen >= len(s.Options) {
				t.Fatalf("slot %s chose option %d of %d", s.Key, s.Chosen, len(s.Options))
			}
		}
	})
}

// TestValueOptionsNameTheirTable: a value found in columns of one title in
// two tables ("status" of orders and of shipments) is offered once per
// table, with labels and ids that tell them apart.
func TestValueOptionsNameTheirTable(t *testing.T) {
	const src = `source: shop
entities:
  - name: orders
    key: id
    columns:
      - {name: id, role: id, type: integer}
      - name: status
        role: dimension
        values: {items: [{value: pending}, {value: shipped}]}
  - name: shipments
    key: id
    columns:
      - {name: id, role: id, type: integer}
      - {name: order_id, role: id, type: integer, references: orders.id}
      - name: status
        role: dimension
        values: {items: [{value: pending}, {value: delivered}]}
`
	m, err := model.Parse("shop.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	in, err := understand.New(m, nil).Analyze(context.Background(), "pending", understand.Settings{Now: demotest.AsOf})
	if err != nil {
		t.Fatal(err)
	}
	var sl *understand.Slot
	for _, s := range in.Slots {
		if s.Kind == understand.KindValue {
			sl = s
		}
	}
	if sl == nil {
		t.Fatal("no value question for a value of two tables")
	}
	ids, labels := map[string]bool{}, map[string]bool{}
	for _, o := range sl.Options {
		if ids[o.ID] || labels[o.Label] {
			t.Errorf("two options share an id or label: %q / %q", o.ID, o.Label)
		}
		ids[o.ID], labels[o.Label] = true, true
	}
	for _, want := range []string{"of an order", "of a shipment"} {
		found := false
		for l := range labels {
			found = found || strings.Contains(l, want)
		}
		if !found {
			t.Errorf("no option says %q: %v", want, labels)
		}
	}
}

// TestTimeWordsAreNotTypos: a month name one letter away from a stored
// value ("march" and the surname "Marck") is read as the month, never
// corrected into the value, and never breaks the reading.
func TestTimeWordsAreNotTypos(t *testing.T) {
	m := testModel(t, "shop.yaml", `source: shop
entities:
  - name: customers
    key: id
    display: last_name
    columns:
      - {name: id, role: id}
      - {name: last_name, role: name, values: {items: [{value: Marck}, {value: Juno}]}}
  - name: orders
    key: id
    time_column: placed_on
    columns:
      - {name: id, role: id}
      - {name: customer_id, role: id, references: customers.id}
      - {name: placed_on, role: time, type: date}
`)
	an := understand.New(m, nil)
	for _, q := range []string{"orders placed in march 2005", "orders placed in mrach 2005", "orders in june"} {
		d := describe(t, an, q, nil)
		if !strings.Contains(d, "window: orders.placed_on") || strings.Contains(d, "filter:") || strings.Contains(d, "spelling:m") {
			t.Errorf("%q read as:\n%s", q, d)
		}
	}
}

// TestColumnWords: a column word bound to an entity ("the names of the
// battles") is that entity's column, and a foreign key and the column it
// copies are one meaning: neither is asked about.
func TestColumnWords(t *testing.T) {
	m := testModel(t, "fleet.yaml", `source: fleet
entities:
  - name: battles
    key: id
    display: name
    columns:
      - {name: id, role: id}
      - {name: name, role: name}
  - name: ships
    key: id
    display: name
    columns:
      - {name: id, role: id}
      - {name: name, role: name}
      - {name: lost_in_battle, role: id, references: battles.id}
  - name: model_lists
    key: id
    columns:
      - {name: id, role: id}
      - {name: model, role: dimension}
  - name: car_names
    key: id
    columns:
      - {name: id, role: id}
      - {name: model, role: dimension, references: model_lists.model}
      - {name: weight, role: measure}
`)
	an := understand.New(m, nil)
	for q, want := range map[string]string{
		"show the names of the battles":    "column: battles.name",
		"battle names":                     "subject: battles",
		"which model is the heaviest":      "",
		"list the model of cars over 3500": "",
	} {
		d := describe(t, an, q, nil)
		if strings.Contains(d, "column_ambiguity") || !strings.Contains(d, want) {
			t.Errorf("%q read as:\n%s", q, d)
		}
	}
}

// TestWordsThatSayNothing: a verb between things the question names, a
// word about the question itself and the word many values share for
// their kind are not asked about; the other names of a place find it as
// stored; two words find a table named in one; a word that could be a
// condition is still asked.
func TestWordsThatSayNothing(t *testing.T) {
	m := testModel(t, "school.yaml", `source: school
entities:
  - name: highschooler
    key: id
    display: name
    columns:
      - {name: id, role: id}
      - {name: name, role: name, values: {items: [{value: Ada}, {value: Ben}]}}
      - {name: state, role: dimension, values: {items: [{value: TX}, {value: NY}, {value: IN}, {value: ON}, {value: BY}]}}
      - {name: country, role: dimension, values: {items: [{value: France}, {value: Spain}]}}
  - name: clubs
    key: id
    display: club_name
    columns:
      - {name: id, role: id}
      - {name: club_name, role: name, values: {items: [{value: Chess Club}, {value: Drama Club}, {value: Robotics Club}, {value: Book Club}]}}
      - {name: member_id, role: id, references: highschooler.id}
`)
	an := understand.New(m, nil)
	for q, want := range map[string]string{
		"which high schoolers joined the chess club": "subject: highschooler",
		"list the clubs in this table":               "subject: clubs",
		"how many clubs":                             "intent: count",
		"high schoolers living in texas":             "filter: highschooler: state is TX",
		"french high schoolers":                      "filter: highschooler: country is France",
		"high schoolers from the UK":                 "", // no stored value: asked below
		// a short built-in word is not the code spelled like it
		"number of high schoolers by state": "group: highschooler.state",
		// the entity before "in" does not make it the code IN
		"high schoolers in France":   "filter: highschooler: country is France",
		"high schoolers in state IN": "filter: highschooler: state is IN",
	} {
		d := describe(t, an, q, nil)
		asked := strings.Contains(d, "unknown_term")
		if want == "" {
			if !asked {
				t.Errorf("%q: a word that could be a condition was not asked about:\n%s", q, d)
			}
			continue
		}
		if asked || !strings.Contains(d, want) {
			t.Errorf("%q read as:\n%s", q, d)
		}
		// "in" and "on" are fillers unless their column is named
		if strings.Contains(d, "state is IN") && !strings.Contains(q, "state IN") || strings.Contains(d, "state is ON") {
			t.Errorf("%q read a filler as a stored code:\n%s", q, d)
		}
	}
}

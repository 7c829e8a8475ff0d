package engine_test

import (
	"context"
	"database/sql"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/clarify-sql/clarify/internal/apperr"
	"github.com/clarify-sql/clarify/internal/engine"
	"github.com/clarify-sql/clarify/internal/model"
	"github.com/clarify-sql/clarify/internal/plan"
	"github.com/clarify-sql/clarify/internal/source"
)

// readableEngine opens testdata/readable.sql as a SQLite source with its
// hand-written model, clock at 2024-03-15.
func readableEngine(t *testing.T) *engine.Engine {
	t.Helper()
	path := filepath.Join(t.TempDir(), "readable.db")
	script, err := os.ReadFile(filepath.Join("testdata", "readable.sql"))
	if err != nil {
		t.Fatal(err)
	}
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(string(script)); err != nil {
		t.Fatal(err)
	}
	db.Close()
	spec, err := os.ReadFile(filepath.Join("testdata", "readable.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	m, err := model.Parse("readable.yaml", spec)
	if err != nil {
		t.Fatal(err)
	}
	src, err := source.Open(context.Background(), "readable", "sqlite:"+path, m, source.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { src.Close() })
	now := time.Date(2024, 3, 15, 12, 0, 0, 0, time.UTC)
	return engine.New(src, engine.Options{Now: func() time.Time { return now }, PreviewBudget: time.Minute, SuggestBudget: time.Minute})
}

func column(a *engine.Answer, name string) (plan.Column, int) {
	for i, c := range a.Columns {
		if c.Name == name {
			return c, i
		}
	}
	return plan.Column{}, -1
}

// TestAnswerColumnsSayWhatValuesMean: every answer column says what its
// values are (a period and its grain, money and its currency, a yes/no),
// so the page and the terminal format them alike.
func TestAnswerColumnsSayWhatValuesMean(t *testing.T) {
	e := readableEngine(t)
	for _, tc := range []struct {
		question string
		want     map[string]plan.Column
	}{
		{"revenue by month", map[string]plan.Column{
			"month":        {Kind: plan.KindPeriod, Grain: "month"},
			"total_amount": {Kind: plan.KindMeasure, Unit: "USD"},
		}},
		{"list the orders", map[string]plan.Column{
			"id":         {Kind: plan.KindID},
			"ordered_on": {Kind: plan.KindDate, Label: "order date"},
			"amount":     {Kind: plan.KindMeasure, Unit: "USD"},
			"paid":       {Kind: plan.KindBool},
		}},
		{"how many orders", map[string]plan.Column{"number_of_orders": {Kind: plan.KindCount}}},
	} {
		out := turn(t, e, tc.question, false, nil)
		if out.Answer == nil {
			t.Fatalf("%q: no answer (%s)", tc.question, out.Status)
		}
		for name, want := range tc.want {
			got, i := column(out.Answer, name)
			if i < 0 {
				var names []string
				for _, c := range out.Answer.Columns {
					names = append(names, c.Name)
				}
				t.Errorf("%q: no column %q among %v", tc.question, name, names)
				continue
			}
			if got.Kind != want.Kind || got.Grain != want.Grain || got.Unit != want.Unit || want.Label != "" && got.Label != want.Label {
				t.Errorf("%q: column %s = %+v, want kind %q grain %q unit %q label %q", tc.question, name, got, want.Kind, want.Grain, want.Unit, want.Label)
			}
		}
	}
}

// TestForeignKeysShowNames: a list shows the name of the row a foreign
// key points at, beside the key, and keeps rows whose key is empty.
func TestForeignKeysShowNames(t *testing.T) {
	e := readableEngine(t)
	out := turn(t, e, "list the orders", false, nil)
	a := out.Answer
	if a == nil {
		t.Fatalf("no answer (%s)", out.Status)
	}
	if a.RowCount != 5 {
		t.Errorf("%d rows, want all 5 orders (one has no customer)", a.RowCount)
	}
	fk, i := column(a, "customer_id")
	if i < 0 || fk.Display == "" {
		t.Fatalf("customer_id = %+v, want it to name the column holding the customer's name", fk)
	}
	_, j := column(a, fk.Display)
	if j < 0 {
		t.Fatalf("display column %q is not in the answer", fk.Display)
	}
	names := map[any]any{}
	for _, r := range a.Rows {
		names[r[0]] = r[j]
	}
	if names[int64(1)] != "Ada Lovelace" || names[int64(3)] != nil {
		t.Errorf("names by order id = %v, want order 1 → Ada Lovelace and order 3 → NULL", names)
	}
}

// TestReferenceRange: a measure with a reference range names the columns
// holding its limits when the answer shows them.
func TestReferenceRange(t *testing.T) {
	e := readableEngine(t)
	out := turn(t, e, "show the glucose results", false, nil)
	if out.Answer == nil {
		t.Fatalf("no answer (%s)", out.Status)
	}
	v, i := column(out.Answer, "value")
	if i < 0 || v.RangeLow != "ref_low" || v.RangeHigh != "ref_high" {
		t.Errorf("value = %+v, want range_low ref_low and range_high ref_high", v)
	}
}

// TestPartialPeriods: a trend marks the buckets its window cuts and the
// one still running, so a chart does not draw them as real dips.
func TestPartialPeriods(t *testing.T) {
	e := readableEngine(t)
	for q, want := range map[string][]string{
		"revenue by month":                       {"2024-03"},
		"revenue by month over the last 60 days": {"2024-01", "2024-03"},
	} {
		out := turn(t, e, q, false, nil)
		if out.Answer == nil {
			t.Fatalf("%q: no answer (%s)", q, out.Status)
		}
		if got := out.Answer.Chart.Partial; !slices.Equal(got, want) {
			t.Errorf("%q: partial %v, want %v (rows %v)", q, got, want, out.Answer.Rows)
		}
	}
}

// TestSecondQuestionSaid: an answer that computes only the first of two
// questions says which part it left out.
func TestSecondQuestionSaid(t *testing.T) {
	e := readableEngine(t)
	out := turn(t, e, "how many orders are paid and what is the average amount", false, nil)
	if out.Answer == nil {
		t.Fatalf("no answer (%s)", out.Status)
	}
	for _, n := range out.Answer.Notes {
		if strings.Contains(n, "what is the average amount") {
			return
		}
	}
	t.Errorf("notes %q do not name the part left out", out.Answer.Notes)
}

// TestNoWordsSaysWhy: a message of symbols or emoji alone is refused
// with what to do instead, not as "empty".
func TestNoWordsSaysWhy(t *testing.T) {
	e := readableEngine(t)
	for _, q := range []string{"🙂🙂", "???", "→ …"} {
		_, err := e.Turn(context.Background(), engine.Request{Question: q, Interactive: true})
		var ee *apperr.Error
		if !errors.As(err, &ee) || ee.Code != apperr.CodeBadRequest || !strings.Contains(ee.Message, "no words") || !strings.Contains(ee.Message, "ask about the data") {
			t.Errorf("%q: %v, want BAD_REQUEST saying there are no words and what to ask", q, err)
		}
	}
}

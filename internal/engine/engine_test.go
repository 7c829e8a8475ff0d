package engine_test

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/clarify-sql/clarify/internal/apperr"
	"github.com/clarify-sql/clarify/internal/config"
	"github.com/clarify-sql/clarify/internal/demo/demotest"
	"github.com/clarify-sql/clarify/internal/engine"
	"github.com/clarify-sql/clarify/internal/model"
	"github.com/clarify-sql/clarify/internal/registry"
	"github.com/clarify-sql/clarify/internal/source"
	"github.com/clarify-sql/clarify/internal/understand"
)

func turn(t *testing.T, e *engine.Engine, q string, interactive bool, res map[string]understand.Resolution) *engine.Outcome {
	t.Helper()
	out, err := e.Turn(context.Background(), engine.Request{Question: q, Interactive: interactive, Resolved: res})
	if err != nil {
		t.Fatalf("%q: %v", q, err)
	}
	return out
}

func TestBadInput(t *testing.T) {
	e := demotest.Engine(t, "clinic")
	for name, q := range map[string]string{"empty": "   ", "too long": strings.Repeat("how many wounds ", 200)} {
		t.Run(name, func(t *testing.T) {
			_, err := e.Turn(context.Background(), engine.Request{Question: q, Interactive: true})
			if apperr.CodeOf(err) != apperr.CodeBadRequest {
				t.Errorf("error %v, want %s", err, apperr.CodeBadRequest)
			}
		})
	}
}

// TestPanicIsAnError: a panic inside a turn reaches the caller as an
// INTERNAL error, logged with its stack, and the next turn works.
func TestPanicIsAnError(t *testing.T) {
	var log strings.Builder
	src := demotest.Source(t, "clinic", source.Options{})
	e := engine.New(src, engine.Options{Now: func() time.Time { return demotest.AsOf }, Log: slog.New(slog.NewTextHandler(&log, nil))})
	engine.SetBeforeTurn(e, func(r engine.Request) {
		if r.Question == "boom" {
			panic("injected")
		}
	})
	out, err := e.Turn(context.Background(), engine.Request{Question: "boom", Interactive: true})
	if out != nil || apperr.CodeOf(err) != apperr.CodeInternal {
		t.Fatalf("Turn = %v, %v; want no outcome and %s", out, err, apperr.CodeInternal)
	}
	var ee *apperr.Error
	if !errors.As(err, &ee) || strings.Contains(ee.Message, "injected") {
		t.Errorf("message shown to the user %q must not carry the panic", ee.Message)
	}
	if !strings.Contains(log.String(), "injected") || !strings.Contains(log.String(), "goroutine") {
		t.Errorf("the panic and its stack were not logged:\n%s", log.String())
	}
	if out := turn(t, e, "how many wounds", true, nil); out.Status != engine.StatusAnswered {
		t.Errorf("the next turn: %s", out.Status)
	}
}

// TestUserTextNeverSQL puts hostile text where values go; it must reach the
// database only as a bound parameter.
func TestUserTextNeverSQL(t *testing.T) {
	e := demotest.Engine(t, "clinic")
	for _, q := range []string{
		"wounds of patient X'); DROP TABLE wounds; --",
		"patients named Robert'); DELETE FROM patients; --",
		`wounds with status "Open" OR 1=1`,
		"wounds with an area over 1e309",
	} {
		out, err := e.Turn(context.Background(), engine.Request{Question: q, Interactive: false})
		if err != nil {
			continue // refusing is fine
		}
		if out.Answer == nil {
			continue
		}
		for _, bad := range []string{"DROP", "DELETE", "1=1", "Robert", "1e309"} {
			if strings.Contains(out.Answer.SQL, bad) {
				t.Errorf("%q: user text %q reached the SQL: %s", q, bad, out.Answer.SQL)
			}
		}
	}
}

func TestClarifyThenAnswer(t *testing.T) {
	e := demotest.Engine(t, "clinic")
	out := turn(t, e, "Which patients have severe wounds?", true, nil)
	if out.Status != engine.StatusNeedsQuestion || out.Clarification.Kind != understand.KindVague {
		t.Fatalf("status %s, want a vague_qualifier question", out.Status)
	}
	c := out.Clarification
	if len(c.Options) < 2 || len(c.Options) > 4 || !c.AllowSkip || !c.AllowFreeText {
		t.Errorf("clarification shape: %+v", c)
	}
	best := 0
	for _, o := range c.Options {
		if o.BestGuess {
			best++
		}
		if o.Preview == nil {
			t.Errorf("option %q has no preview within the budget", o.Label)
		}
	}
	if best != 1 {
		t.Errorf("%d options marked best guess, want 1", best)
	}
	// the preview of each option is the number of rows its answer has
	for _, o := range c.Options {
		if o.Preview == nil {
			continue
		}
		ans := turn(t, e, "Which patients have severe wounds?", true, map[string]understand.Resolution{c.Slot: {OptionID: o.ID}})
		if ans.Answer == nil || int64(ans.Answer.RowCount) != o.Preview.Rows {
			t.Errorf("option %q: preview %d rows, answer %v", o.Label, o.Preview.Rows, ans.Answer)
		}
	}
}

func TestNonInteractiveAssumptions(t *testing.T) {
	e := demotest.Engine(t, "clinic")
	out := turn(t, e, "big wounds on the heel", false, nil)
	if out.Answer == nil {
		t.Fatal("no answer")
	}
	if len(out.Answer.OpenQuestions) != 1 || out.Answer.OpenQuestions[0].Slot != "vague:large" {
		t.Fatalf("open questions = %+v, want vague:large", out.Answer.OpenQuestions)
	}
	a := out.Answer.OpenQuestions[0]
	if !strings.Contains(a.Text, "25") || len(a.Alternatives) != 2 {
		t.Errorf("assumption %+v: want the 25 cm² default and two alternatives", a)
	}
	// change the assumption: the other slots stay as they were
	changed := turn(t, e, "big wounds on the heel", false, map[string]understand.Resolution{a.Slot: {OptionID: a.Alternatives[0].ID}})
	if changed.Answer.RowCount <= out.Answer.RowCount {
		t.Errorf("a lower threshold gave %d rows, not more than %d", changed.Answer.RowCount, out.Answer.RowCount)
	}
	if !strings.Contains(changed.Answer.Statement, "heel") && !strings.Contains(strings.ToLower(changed.Answer.Statement), "heel") {
		t.Errorf("the heel filter was lost: %s", changed.Answer.Statement)
	}
}

func TestScopeRequired(t *testing.T) {
	e := demotest.Engine(t, "labs")
	_, err := e.Turn(context.Background(), engine.Request{Question: "my glucose history", Interactive: false})
	if apperr.CodeOf(err) != apperr.CodeScopeRequired {
		t.Fatalf("error %v, want SCOPE_REQUIRED", err)
	}
	out := turn(t, e, "my glucose history", true, nil)
	if out.Clarification == nil || out.Clarification.Kind != understand.KindScope || out.Clarification.AllowSkip {
		t.Fatalf("want a scope question that cannot be skipped, got %+v", out.Clarification)
	}
	if got := out.Clarification.Options[0].Label; !strings.HasPrefix(got, "Ivan Petrov") {
		t.Errorf("first patient option %q, want Ivan Petrov (id order)", got)
	}
}

func TestSuggestions(t *testing.T) {
	e := demotest.Engine(t, "retail")
	out := turn(t, e, "orders of customers in Texas", true, nil)
	if out.Answer == nil || len(out.Answer.Suggestions) < 2 {
		t.Fatalf("want at least two suggestions, got %+v", out.Answer)
	}
	// a query spanning Sales and Application offers a cross-area suggestion
	empty := turn(t, e, "invoices over $1,000,000 in the last 7 days", true, nil)
	if empty.Answer == nil || empty.Answer.RowCount != 0 {
		t.Fatalf("want an empty answer, got %+v", empty.Answer)
	}
	s := empty.Answer.Suggestions
	if len(s) == 0 || !strings.Contains(s[0].Title, "rows") {
		t.Fatalf("an empty answer should first suggest the relaxed filter that returns rows, got %+v", s)
	}
	relaxed := turn(t, e, s[0].Prompt, false, nil)
	if relaxed.Answer == nil || relaxed.Answer.RowCount == 0 {
		t.Errorf("the relaxed suggestion %q returned no rows", s[0].Prompt)
	}
}

// TestOpenErrors covers the ways a source can fail to open: each is a clear
// error naming what is wrong.
func TestOpenErrors(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	good, err := os.ReadFile(filepath.Join(demotest.Root(t), "internal", "demo", "models", "clinic.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	missingCol := filepath.Join(dir, "missing.yaml")
	os.WriteFile(missingCol, []byte(strings.Replace(string(good), "      - {name: clinic_id, role: id, type: integer, references: clinics.id}\n",
		"      - {name: clinic_id, role: id, type: integer, references: clinics.id}\n      - {name: bed_number, role: text, type: text}\n", 1)), 0o644)
	malformed := filepath.Join(dir, "malformed.yaml")
	os.WriteFile(malformed, []byte("source: x\nentities:\n  - name: a\n    key: id\n    colums: []\n"), 0o644)
	reg := registry.New(nil, dir, registry.Options{})
	defer reg.Close()
	if _, _, err := reg.Engine(ctx, "nope"); err == nil || !strings.Contains(err.Error(), `unknown source "nope"`) {
		t.Errorf("unknown source: %v", err)
	}
	tests := []struct {
		name string
		cfg  config.Source
		want []string
	}{
		{"model refers to a missing column", config.Source{Name: "c", DSN: "sqlite:" + demotest.Path(t, "clinic"), Model: missingCol},
			[]string{"missing.yaml:49:", "entities[1].columns[5].name", `column "bed_number" not found in table "patients"`}},
		{"malformed model", config.Source{Name: "c", DSN: "sqlite:" + demotest.Path(t, "clinic"), Model: malformed},
			[]string{"malformed.yaml:5:", `unknown field "colums"`}},
		{"missing database file", config.Source{Name: "c", DSN: "sqlite:" + filepath.Join(dir, "nope.db"), Model: missingCol},
			[]string{"database unreachable"}},
		{"unreachable server", config.Source{Name: "c", DSN: "postgres://nobody:secret@127.0.0.1:1/db", Model: missingCol},
			[]string{"database unreachable", "127.0.0.1:1"}},
		{"unknown DSN", config.Source{Name: "c", DSN: "oracle://x", Model: missingCol}, []string{"unknown DSN"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, _, err := registry.Open(ctx, tc.cfg, registry.Options{})
			if err == nil {
				t.Fatal("opened, want an error")
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not mention %q", err, w)
				}
			}
			if strings.Contains(err.Error(), "secret") {
				t.Errorf("error leaks the password: %v", err)
			}
		})
	}
	var me *model.Error
	_, _, err = registry.Open(ctx, tests[0].cfg, registry.Options{})
	if !errors.As(err, &me) {
		t.Errorf("a schema mismatch is not a *model.Error: %T", err)
	}
}

// TestParamsFollowText answers questions whose statements bind values in a
// joined parent and in an EXISTS on a child, rendered in another order than
// they stand; each must count what hand-written SQL counts. Positional
// placeholders once paired the values with the wrong conditions and the
// answer was a plausible 0.
func TestParamsFollowText(t *testing.T) {
	e := demotest.Engine(t, "clinic")
	src := demotest.Source(t, "clinic", source.Options{})
	for _, tc := range []struct{ question, gold string }{
		{"How many patients with infected wounds are at Riverside Clinic?",
			`SELECT COUNT(*) FROM patients p JOIN clinics c ON c.id = p.clinic_id WHERE c.name = 'Riverside Clinic'
			 AND EXISTS (SELECT 1 FROM wounds w WHERE w.patient_id = p.id AND w.infected = 1)`},
		{"How many patients with a pressure injury are female patients of Harbor Health?",
			`SELECT COUNT(*) FROM patients p JOIN clinics c ON c.id = p.clinic_id WHERE c.name = 'Harbor Health' AND p.gender = 'F'
			 AND EXISTS (SELECT 1 FROM wounds w WHERE w.patient_id = p.id AND w.wound_type = 'Pressure Injury')`},
	} {
		t.Run(tc.question, func(t *testing.T) {
			out := turn(t, e, tc.question, false, nil)
			if out.Answer == nil || len(out.Answer.Rows) != 1 {
				t.Fatalf("no single-row answer: %+v", out)
			}
			want, err := src.Query(context.Background(), tc.gold, nil, 0)
			if err != nil {
				t.Fatal(err)
			}
			got := fmt.Sprint(out.Answer.Rows[0][0])
			if w := fmt.Sprint(want.Rows[0][0]); got != w || w == "0" {
				t.Errorf("answer %s, want %s (gold must be non-zero)\nSQL: %s\nparams: %v", got, w, out.Answer.SQL, out.Answer.Params)
			}
		})
	}
}

// TestPathPrefersNoTurn: of the shortest join paths, the one that does not
// go up to a shared parent and down again wins. Customers reach stock
// groups through their orders, not through suppliers in the same city.
func TestPathPrefersNoTurn(t *testing.T) {
	m := demotest.Model(t, "retail")
	path, ok := m.Path(m.Entity("sales_customers"), m.Entity("warehouse_stock_groups"))
	if !ok {
		t.Fatal("no path")
	}
	var via []string
	for _, ed := range path {
		via = append(via, ed.To.Name)
	}
	if len(via) == 0 || via[0] != "sales_orders" {
		t.Errorf("path goes through %v, want it to start at sales_orders", via)
	}
}

// TestNothingAnswerable: a question naming nothing the data holds gets an
// honest "I can't answer that" listing what the data is about, with no
// best guess that would answer another question; without questions it
// fails as UNANSWERABLE instead of guessing.
func TestNothingAnswerable(t *testing.T) {
	e := demotest.Engine(t, "clinic")
	for _, q := range []string{"what is the weather in Paris tomorrow", "show me everything"} {
		out := turn(t, e, q, true, nil)
		if out.Status != engine.StatusNeedsQuestion {
			t.Fatalf("%q: %s, want a question", q, out.Status)
		}
		for _, o := range out.Clarification.Options {
			if o.BestGuess {
				t.Errorf("%q: option %q is offered as a best guess", q, o.Label)
			}
		}
		if !strings.Contains(out.Clarification.Question, "can't answer") || !strings.Contains(out.Clarification.Question, "patients") {
			t.Errorf("%q: question %q does not say it cannot answer and what it can", q, out.Clarification.Question)
		}
		_, err := e.Turn(context.Background(), engine.Request{Question: q, Interactive: false})
		if apperr.CodeOf(err) != apperr.CodeUnanswerable {
			t.Errorf("%q without questions: %v, want %s", q, err, apperr.CodeUnanswerable)
		}
		_, err = e.Turn(context.Background(), engine.Request{Question: q, Interactive: true,
			Resolved: map[string]understand.Resolution{out.Slot.Key: {Skipped: true}}})
		if apperr.CodeOf(err) != apperr.CodeUnanswerable {
			t.Errorf("%q left to best judgment: %v, want %s", q, err, apperr.CodeUnanswerable)
		}
	}
}

// TestWarmValues: after WarmValues every column the understanding reads
// stored values from is loaded in full, so a run (evaluation) does not
// depend on how fast a cold source's values load.
func TestWarmValues(t *testing.T) {
	src := demotest.Source(t, "trades", source.Options{})
	e := engine.New(src, engine.Options{Now: func() time.Time { return demotest.AsOf }})
	if err := e.WarmValues(context.Background()); err != nil {
		t.Fatal(err)
	}
	cat := src.Catalog()
	cols := understand.StoredValueColumns(src.Model)
	for _, c := range cols {
		if _, _, complete, err := cat.Snapshot(context.Background(), c); err != nil || !complete {
			t.Errorf("%s.%s: complete %v, err %v after WarmValues", c.Entity().Name, c.Name, complete, err)
		}
	}
	if len(cols) == 0 {
		t.Fatal("the trades model has no column with stored values: the test checks nothing")
	}
}

// TestColdSmallSource: the first question on a freshly opened small source
// reads all its stored values (they load well within the cold wait), so a
// company named by part of its stored name is found at once, not asked
// about as an unknown word.
func TestColdSmallSource(t *testing.T) {
	src := demotest.Source(t, "trades", source.Options{})
	e := engine.New(src, engine.Options{Now: func() time.Time { return demotest.AsOf }})
	out, err := e.Turn(context.Background(), engine.Request{Question: "which exchange is Coca-Cola listed on?", Interactive: true})
	if err != nil {
		t.Fatal(err)
	}
	if out.Status != engine.StatusAnswered {
		t.Fatalf("status %s (%+v): want answered on the first question", out.Status, out.Clarification)
	}
	if len(out.Answer.Rows) != 1 {
		t.Errorf("rows %v: want Coca-Cola's exchange", out.Answer.Rows)
	}
}

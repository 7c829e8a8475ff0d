package engine_test

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/clarify-sql/clarify/internal/demo/demotest"
	"github.com/clarify-sql/clarify/internal/engine"
	"github.com/clarify-sql/clarify/internal/eval"
	"github.com/clarify-sql/clarify/internal/source"
	"github.com/clarify-sql/clarify/internal/understand"
)

// TestPreviewEqualsAnswer walks every clarification of the demo suites
// whose options have previews and checks each option's preview against
// the answer given that option (every other choice left to its best
// guess): the card promises what the answer delivers.
func TestPreviewEqualsAnswer(t *testing.T) {
	ctx := context.Background()
	engines := map[string]*engine.Engine{}
	checked := 0
	for _, f := range demotest.SuiteFiles(t) {
		s, err := eval.LoadSuite(f)
		if err != nil {
			t.Fatal(err)
		}
		e := engines[s.Source]
		if e == nil {
			e = demotest.Engine(t, s.Source)
			engines[s.Source] = e
		}
		for _, c := range s.Cases {
			out, err := e.Turn(ctx, engine.Request{Question: c.Question, Interactive: true})
			if err != nil || out.Clarification == nil {
				continue
			}
			for _, o := range out.Clarification.Options {
				if o.Preview == nil {
					continue
				}
				res := map[string]understand.Resolution{out.Slot.Key: {OptionID: o.ID}}
				ans, err := e.Turn(ctx, engine.Request{Question: c.Question, Interactive: false, Resolved: res})
				if err != nil || ans.Answer == nil {
					t.Errorf("%s %q, option %q: the card previews %q but the answer fails: %v", s.Source, c.Question, o.Label, o.Preview.Text, err)
					continue
				}
				checked++
				if int64(ans.Answer.RowCount) != o.Preview.Rows {
					t.Errorf("%s %q, option %q: the card promises %d rows (%q), the answer has %d", s.Source, c.Question, o.Label, o.Preview.Rows, o.Preview.Text, ans.Answer.RowCount)
				}
				if o.Preview.Text == "" {
					t.Errorf("%s %q, option %q: a preview without words", s.Source, c.Question, o.Label)
				}
			}
		}
	}
	if checked < 50 {
		t.Fatalf("only %d previews checked: the demo suites should exercise many more", checked)
	}
	t.Logf("%d option previews checked against their answers", checked)
}

// TestPreviewNotCountedInTime: an option whose count misses the budget is
// marked as not counted — said so, with no figure — never dropped from the
// card nor shown as a count; a counted preview's JSON is as before.
func TestPreviewNotCountedInTime(t *testing.T) {
	ctx := context.Background()
	const question = "large trades for META"
	for _, tc := range []struct {
		name    string
		budget  time.Duration
		counted bool
	}{
		{"budget spent before counting", time.Nanosecond, false},
		{"generous budget", time.Minute, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := engine.New(demotest.Source(t, "trades", source.Options{}), engine.Options{Now: func() time.Time { return demotest.AsOf }, PreviewBudget: tc.budget})
			out, err := e.Turn(ctx, engine.Request{Question: question, Interactive: true})
			if err != nil || out.Clarification == nil {
				t.Fatalf("%q: want a clarification, got %+v, %v", question, out, err)
			}
			for _, o := range out.Clarification.Options {
				if o.Preview == nil {
					t.Fatalf("option %q: no preview at all; a count is either shown or marked not counted", o.Label)
				}
				js, err := json.Marshal(o.Preview)
				if err != nil {
					t.Fatal(err)
				}
				marked := strings.Contains(string(js), `"not_counted":true`)
				if tc.counted {
					if o.Preview.NotCounted || marked || strings.Contains(string(js), "not_counted") {
						t.Errorf("option %q: %s, want a count without not_counted", o.Label, js)
					}
					continue
				}
				if !o.Preview.NotCounted || !marked || o.Preview.Rows != 0 || o.Preview.Text != "not counted in time" {
					t.Errorf("option %q: %s, want it marked not counted in time, with no figure", o.Label, js)
				}
			}
		})
	}
}

package engine_test

import (
	"context"
	"testing"

	"github.com/clarify-sql/clarify/internal/demo/demotest"
	"github.com/clarify-sql/clarify/internal/engine"
	"github.com/clarify-sql/clarify/internal/eval"
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

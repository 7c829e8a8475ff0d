package engine_test

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/clarify-sql/clarify/internal/apperr"
	"github.com/clarify-sql/clarify/internal/clarify"
	"github.com/clarify-sql/clarify/internal/demo/demotest"
	"github.com/clarify-sql/clarify/internal/engine"
	"github.com/clarify-sql/clarify/internal/llm"
	"github.com/clarify-sql/clarify/internal/llm/llmtest"
	"github.com/clarify-sql/clarify/internal/source"
	"github.com/clarify-sql/clarify/internal/understand"
)

// llmEngine is a demo source's engine whose model is a replaying server.
func llmEngine(t *testing.T, demo, transcript, name string) (*engine.Engine, *llmtest.Server) {
	t.Helper()
	srv := llmtest.Start(t, filepath.Join("testdata", "llm", transcript), "")
	cl, err := llm.New(llm.Config{BaseURL: srv.URL, Model: "test-model", Backoff: time.Millisecond, MaxBackoff: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	src := demotest.Source(t, demo, source.Options{RowCap: 100_000})
	return engine.New(src, engine.Options{Now: func() time.Time { return demotest.AsOf }, Engine: name, LLM: cl,
		PreviewBudget: time.Minute, SuggestBudget: time.Minute}), srv
}

// count runs a statement straight on the source: the figure the answer
// must show, computed without the engine.
func count(t *testing.T, e *engine.Engine, sql string) any {
	t.Helper()
	res, err := e.Source().Query(context.Background(), sql, nil, 10)
	if err != nil || len(res.Rows) != 1 {
		t.Fatalf("%s: %v", sql, err)
	}
	return res.Rows[0][0]
}

func TestConsult(t *testing.T) {
	unknown := &engine.Outcome{Status: engine.StatusAnswered, Understood: engine.Understood{Unknown: []string{"median"}}}
	linked := &engine.Outcome{Status: engine.StatusAnswered}
	asked := &engine.Outcome{Status: engine.StatusNeedsQuestion}
	for _, tc := range []struct {
		name string
		out  *engine.Outcome
		err  error
		want bool
	}{
		{name: "answered, everything linked", out: linked},
		{name: "asked its own question, everything linked", out: asked},
		{name: "answered with words left unlinked", out: unknown, want: true},
		{name: "no plan: unanswerable", err: &apperr.Error{Code: apperr.CodeUnanswerable}, want: true},
		{name: "scope required is the user's to give", err: &apperr.Error{Code: apperr.CodeScopeRequired}},
		{name: "forbidden is a right, not a gap", err: &apperr.Error{Code: apperr.CodeScopeForbidden}},
		{name: "database failure", err: &apperr.Error{Code: apperr.CodeDB}},
		{name: "cancelled", err: context.Canceled},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := engine.Consult(tc.out, tc.err); got != tc.want {
				t.Errorf("consult = %v, want %v", got, tc.want)
			}
		})
	}
}

// TestHybridRulesFirst: what the rules answer or ask with every word
// linked makes no model call.
func TestHybridRulesFirst(t *testing.T) {
	e, srv := llmEngine(t, "clinic", "null.yaml", engine.EngineHybrid)
	for _, q := range []string{"how many wounds per clinic", "which wounds have more than two assessments and no infection", "how many large wounds"} {
		out := turn(t, e, q, true, map[string]understand.Resolution{})
		if out.Engine != engine.EngineRules || len(out.Understood.Unknown) != 0 {
			t.Errorf("%q: engine %q, unknown %v; want the rules, everything linked", q, out.Engine, out.Understood.Unknown)
		}
	}
	if n := srv.Requests(); n != 0 {
		t.Errorf("the model was called %d times, want 0", n)
	}
}

// TestHybridCallsModel: unlinked words make one call; the model's SQL is
// answered through the guard.
func TestHybridCallsModel(t *testing.T) {
	e, srv := llmEngine(t, "clinic", "sql_answer.yaml", engine.EngineHybrid)
	out := turn(t, e, "how many wounds healed faster than the median", true, map[string]understand.Resolution{})
	if srv.Requests() != 1 {
		t.Fatalf("%d model calls, want 1", srv.Requests())
	}
	a := out.Answer
	if out.Status != engine.StatusAnswered || out.Engine != engine.EngineLLM || a.Engine != engine.EngineLLM {
		t.Fatalf("status %s engine %s, want answered by llm", out.Status, out.Engine)
	}
	want := count(t, e, "SELECT count(*) FROM wounds WHERE healed_date IS NOT NULL AND julianday(healed_date) - julianday(created_date) < 60")
	if a.RowCount != 1 || fmt.Sprint(a.Rows[0][0]) != fmt.Sprint(want) || a.Columns[0].Name != "healed_faster" {
		t.Errorf("rows %v columns %v, want [[%v]] in healed_faster", a.Rows, a.Columns, want)
	}
	if a.Ran.SQL == "" || !strings.Contains(a.Statement, "language model") {
		t.Errorf("ran %q, statement %q: want the guard's copy and a statement naming the model", a.Ran.SQL, a.Statement)
	}
	found := false
	for _, as := range a.Assumptions {
		found = found || as.Text == "the median" && as.Chosen == "60 days"
	}
	if !found {
		t.Errorf("assumptions %+v lack the model's", a.Assumptions)
	}
	if _, ok := a.TimingsMS["llm"]; !ok || a.TimingsMS["llm_tokens"] != 940 {
		t.Errorf("timings %v, want llm and llm_tokens 940", a.TimingsMS)
	}
}

// TestHybridNullModel: a model that finds nothing answerable leaves the
// rules' outcome as it was.
func TestHybridNullModel(t *testing.T) {
	e, srv := llmEngine(t, "clinic", "null.yaml", engine.EngineHybrid)
	rules := turn(t, demotest.Engine(t, "clinic"), "how many wounds healed faster than the median", true, map[string]understand.Resolution{})
	out := turn(t, e, "how many wounds healed faster than the median", true, map[string]understand.Resolution{})
	if srv.Requests() != 1 || out.Engine != engine.EngineRules || out.Status != rules.Status || out.Clarification.Slot != rules.Clarification.Slot {
		t.Errorf("%d calls, engine %s status %s; want 1 call and the rules' %s", srv.Requests(), out.Engine, out.Status, rules.Status)
	}
}

// TestHybridKeepsRulesRefusal: when the rules refuse and the model
// declines too, the rules' refusal — which says what could not be read —
// reaches the user, not the model's general one.
func TestHybridKeepsRulesRefusal(t *testing.T) {
	e, srv := llmEngine(t, "clinic", "null.yaml", engine.EngineHybrid)
	q := "average wound status"
	_, want := demotest.Engine(t, "clinic").Turn(context.Background(), engine.Request{Question: q})
	_, err := e.Turn(context.Background(), engine.Request{Question: q})
	var we, ge *apperr.Error
	if !errors.As(want, &we) || !errors.As(err, &ge) || we.Code != apperr.CodeUnanswerable {
		t.Fatalf("rules %v, hybrid %v; want both UNANSWERABLE", want, err)
	}
	if srv.Requests() != 1 || ge.Message != we.Message {
		t.Errorf("%d calls, message %q; want 1 call and the rules' %q", srv.Requests(), ge.Message, we.Message)
	}
}

// TestLLMClarification: the model's question becomes a card of 2–4
// grounded options; the answer reaches the next call as a confirmed slot.
func TestLLMClarification(t *testing.T) {
	e, srv := llmEngine(t, "clinic", "clarification.yaml", engine.EngineLLM)
	engine.DualMode(e)
	q := "how many wounds healed faster than the median"
	res := map[string]understand.Resolution{}
	out := turn(t, e, q, true, res)
	c := out.Clarification
	if out.Status != engine.StatusNeedsQuestion || c.Kind != engine.KindLLM {
		t.Fatalf("status %s, clarification %+v; want the model's question", out.Status, c)
	}
	if len(c.Options) < 2 || len(c.Options) > 4 {
		t.Fatalf("%d options, want 2–4: %+v", len(c.Options), c.Options)
	}
	best := 0
	for i, o := range c.Options {
		if o.ID != fmt.Sprintf("o%d", i+1) {
			t.Errorf("option %d id %q", i, o.ID)
		}
		if o.Label == "Make it up" {
			t.Errorf("an ungrounded option is shown: %+v", o)
		}
		if o.BestGuess {
			best++
		}
	}
	if best != 1 || c.Slot != out.Slot.Key || !strings.HasPrefix(c.Slot, "llm:") {
		t.Errorf("%d best guesses, slot %q; want one, keyed llm:", best, c.Slot)
	}
	res[out.Slot.Key] = engine.Resolve(out.Slot, understand.Resolution{OptionID: "o2"})
	out = turn(t, e, q, true, res)
	if out.Status != engine.StatusAnswered {
		t.Fatalf("after the answer: %s", out.Status)
	}
	bodies := srv.Bodies()
	if len(bodies) != 2 {
		t.Fatalf("%d calls, want 2", len(bodies))
	}
	msgs := fmt.Sprint(bodies[1]["messages"])
	if !strings.Contains(msgs, "confirmed_by_user") || !strings.Contains(msgs, c.Options[1].Label) {
		t.Errorf("the second call does not carry the choice %q: %s", c.Options[1].Label, msgs)
	}
	if strings.Contains(fmt.Sprint(bodies[0]["messages"]), "confirmed_by_user") {
		t.Error("the first call already carries a confirmed choice")
	}
}

// TestLLMReplies: the model's other replies, each through the guard.
func TestLLMReplies(t *testing.T) {
	healed := "SELECT count(*) FROM wounds WHERE healed_date IS NOT NULL"
	for _, tc := range []struct {
		name, demo, transcript, question string
		code                             apperr.Code // "" for an answer
		rows                             string      // the statement giving the answer's one figure
		calls                            int
	}{
		{name: "prose with SQL in a code block", demo: "clinic", transcript: "prose_sql.yaml", question: "how many wounds healed faster than the median", rows: healed, calls: 1},
		{name: "unanswerable", demo: "clinic", transcript: "unanswerable.yaml", question: "how many wounds did the quantum oracle flag", code: apperr.CodeUnanswerable, calls: 1},
		{name: "a statement that writes", demo: "clinic", transcript: "writes.yaml", question: "how many wounds healed faster than the median", code: apperr.CodeValidationFailed, calls: 1},
		{name: "another patient than the scope", demo: "labs", transcript: "other_patient.yaml", question: "how many results for Ivan Petrov were flagged by the quantum oracle", code: apperr.CodeScopeViolation, calls: 1},
		{name: "the endpoint fails", demo: "clinic", transcript: "server_500.yaml", question: "how many wounds healed faster than the median", code: apperr.CodeLLM, calls: 1 + llm.DefaultMaxRetries},
		{name: "no JSON schema: JSON mode", demo: "clinic", transcript: "unsupported_schema.yaml", question: "how many wounds healed faster than the median", rows: "SELECT count(*) FROM wounds", calls: 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e, srv := llmEngine(t, tc.demo, tc.transcript, engine.EngineLLM)
			engine.DualMode(e)
			before := count(t, e, "SELECT count(*) FROM "+map[string]string{"clinic": "wounds", "labs": "lab_results"}[tc.demo])
			out, err := e.Turn(context.Background(), engine.Request{Question: tc.question, Interactive: true})
			if srv.Requests() != tc.calls {
				t.Errorf("%d model calls, want %d", srv.Requests(), tc.calls)
			}
			if tc.code != "" {
				var ee *apperr.Error
				if !errors.As(err, &ee) || ee.Code != tc.code {
					t.Fatalf("got %v, %v; want %s", out, err, tc.code)
				}
				if strings.Contains(ee.Message, " FROM ") || strings.Contains(ee.Message, srv.URL) {
					t.Errorf("message shows internals: %q", ee.Message)
				}
				if after := count(t, e, "SELECT count(*) FROM "+map[string]string{"clinic": "wounds", "labs": "lab_results"}[tc.demo]); fmt.Sprint(after) != fmt.Sprint(before) {
					t.Errorf("rows changed: %v → %v", before, after)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if want := count(t, e, tc.rows); out.Status != engine.StatusAnswered || fmt.Sprint(out.Answer.Rows) != fmt.Sprint([][]any{{want}}) {
				t.Errorf("status %s rows %v, want [[%v]]", out.Status, out.Answer, want)
			}
		})
	}
}

// TestLLMUnanswerableReason: the model's reason reaches the user.
func TestLLMUnanswerableReason(t *testing.T) {
	e, _ := llmEngine(t, "clinic", "unanswerable.yaml", engine.EngineLLM)
	engine.DualMode(e)
	_, err := e.Turn(context.Background(), engine.Request{Question: "how many wounds did the quantum oracle flag", Interactive: true})
	var ee *apperr.Error
	if !errors.As(err, &ee) || !strings.Contains(ee.Message, "no quantum oracle") {
		t.Errorf("got %v, want the model's reason", err)
	}
}

// TestLLMScopeFirst: on a scoped model the scope is asked as the rules ask
// it, before any model call.
func TestLLMScopeFirst(t *testing.T) {
	e, srv := llmEngine(t, "labs", "null.yaml", engine.EngineLLM)
	out := turn(t, e, "list the analytes with the most results", true, map[string]understand.Resolution{})
	if out.Status != engine.StatusNeedsQuestion || out.Clarification.Kind != understand.KindScope || srv.Requests() != 0 {
		t.Errorf("status %s, %d calls; want the scope asked and no call", out.Status, srv.Requests())
	}
	_, err := e.Turn(context.Background(), engine.Request{Question: "list the analytes with the most results"})
	if apperr.CodeOf(err) != apperr.CodeScopeRequired || srv.Requests() != 0 {
		t.Errorf("not interactive: %v, %d calls; want SCOPE_REQUIRED and no call", err, srv.Requests())
	}
}

// TestEngineChoice: llm and hybrid need an endpoint; the message says how
// to set one.
func TestEngineChoice(t *testing.T) {
	e := demotest.Engine(t, "clinic")
	for _, name := range []string{engine.EngineLLM, engine.EngineHybrid, "magic"} {
		_, err := e.Turn(context.Background(), engine.Request{Question: "how many wounds", Engine: name})
		var ee *apperr.Error
		if !errors.As(err, &ee) || ee.Code != apperr.CodeBadRequest {
			t.Fatalf("%s: %v, want BAD_REQUEST", name, err)
		}
		if name != "magic" && !strings.Contains(ee.Message, llm.EnvBaseURL) {
			t.Errorf("%s: %q does not name %s", name, ee.Message, llm.EnvBaseURL)
		}
	}
	out := turn(t, e, "how many wounds", true, nil)
	if out.Engine != engine.EngineRules || out.Answer.Engine != engine.EngineRules {
		t.Errorf("engine %q, want rules", out.Engine)
	}
}

// TestLLMBestGuess: a turn nobody can answer settles the model's question
// with its own best guess — sent back to it in a second call — and the
// answer shows that guess as an assumption with the other option.
func TestLLMBestGuess(t *testing.T) {
	e, srv := llmEngine(t, "clinic", "best_guess.yaml", engine.EngineLLM)
	engine.DualMode(e)
	out, err := e.Turn(context.Background(), engine.Request{Question: "how many wounds healed faster than the median", Interactive: false})
	if err != nil {
		t.Fatal(err)
	}
	if out.Status != engine.StatusAnswered {
		t.Fatalf("status %s, want answered", out.Status)
	}
	bodies := srv.Bodies()
	if len(bodies) != 2 || !strings.Contains(fmt.Sprint(bodies[1]["messages"]), "Healing time below the median") {
		t.Fatalf("%d calls; the second should carry the best guess", len(bodies))
	}
	var guess *clarify.Assumption
	for i, a := range out.Answer.Assumptions {
		if a.Method == "best_guess" {
			guess = &out.Answer.Assumptions[i]
		}
	}
	if guess == nil || guess.Chosen != "Healing time below the median" || len(guess.Alternatives) != 1 {
		t.Errorf("assumptions %+v: want the best guess shown with its alternative", out.Answer.Assumptions)
	}
}

// TestLLMValueQuestion: a statement comparing a column with a value the
// data does not hold, when the data has one it may mean, is asked about
// (interactive) with the stored values as options; the choice reaches the
// model's next call. Nobody to ask: the closest value is the model's to
// use, and the answer says so.
func TestLLMValueQuestion(t *testing.T) {
	q := "how many glucose results for Ivan Petrov"
	t.Run("asked", func(t *testing.T) {
		e, srv := llmEngine(t, "labs", "value_question.yaml", engine.EngineLLM)
		engine.DualMode(e)
		res := map[string]understand.Resolution{}
		out := turn(t, e, q, true, res)
		c := out.Clarification
		if out.Status != engine.StatusNeedsQuestion || c == nil || c.Options[0].Label != "Glucose" || !c.Options[0].BestGuess || len(c.Options) != 2 {
			t.Fatalf("got %s %+v; want a question with Glucose first", out.Status, c)
		}
		res[c.Slot] = engine.Resolve(out.Slot, understand.Resolution{OptionID: c.Options[0].ID})
		out = turn(t, e, q, true, res)
		if out.Status != engine.StatusAnswered {
			t.Fatalf("after the answer: %s", out.Status)
		}
		if n := count(t, e, "SELECT count(*) FROM lab_results WHERE patient_id = 'L1' AND analyte = 'Glucose'"); fmt.Sprint(out.Answer.Rows) != fmt.Sprint([][]any{{n}}) {
			t.Errorf("rows %v, want [[%v]]", out.Answer.Rows, n)
		}
		if bodies := srv.Bodies(); len(bodies) != 2 || !strings.Contains(fmt.Sprint(bodies[1]["messages"]), "Glucose") {
			t.Errorf("the second call should carry the choice")
		}
	})
	t.Run("nobody to ask", func(t *testing.T) {
		e, srv := llmEngine(t, "labs", "value_question.yaml", engine.EngineLLM)
		engine.DualMode(e)
		out, err := e.Turn(context.Background(), engine.Request{Question: q})
		if err != nil || out.Status != engine.StatusAnswered || srv.Requests() != 2 {
			t.Fatalf("got %v %v after %d calls; want answered after 2", out, err, srv.Requests())
		}
		found := false
		for _, a := range out.Answer.Assumptions {
			found = found || (a.Method == "best_guess" && a.Chosen == "Glucose")
		}
		if !found {
			t.Errorf("assumptions %+v: want the best guess Glucose", out.Answer.Assumptions)
		}
	})
}

// TestLLMPlan: a plan reply is compiled by the rules' compiler — values
// bound, a statement in words, a chart — and runs limited to the turn's
// patient; a plan filtering on another patient is refused by the guard.
func TestLLMPlan(t *testing.T) {
	t.Run("average by month", func(t *testing.T) {
		e, srv := llmEngine(t, "labs", "plan.yaml", engine.EngineLLM)
		engine.DualMode(e)
		out, err := e.Turn(context.Background(), engine.Request{Question: "average glucose of Ivan Petrov by month", Interactive: true})
		if err != nil {
			t.Fatal(err)
		}
		a := out.Answer
		if out.Status != engine.StatusAnswered || a.Engine != engine.EngineLLM || srv.Requests() != 1 {
			t.Fatalf("status %s engine %v after %d calls", out.Status, a, srv.Requests())
		}
		if strings.Contains(a.SQL, "Glucose") || !slices.Contains(a.Params, any("Glucose")) {
			t.Errorf("sql %q params %v: want the value bound, not written into the SQL", a.SQL, a.Params)
		}
		months := count(t, e, "SELECT count(DISTINCT strftime('%Y-%m', test_date)) FROM lab_results WHERE patient_id = 'L1' AND analyte = 'Glucose' AND value > 0")
		if fmt.Sprint(int64(a.RowCount)) != fmt.Sprint(months) || a.Statement == "" || a.Chart.Type == "none" {
			t.Errorf("%d rows (want %v months), statement %q, chart %q", a.RowCount, months, a.Statement, a.Chart.Type)
		}
		if len(a.Assumptions) == 0 {
			t.Errorf("the model's assumption is not shown")
		}
	})
	t.Run("another patient", func(t *testing.T) {
		e, _ := llmEngine(t, "labs", "plan_other_patient.yaml", engine.EngineLLM)
		engine.DualMode(e)
		_, err := e.Turn(context.Background(), engine.Request{Question: "how many results does Ivan Petrov have", Interactive: true})
		if apperr.CodeOf(err) != apperr.CodeScopeViolation {
			t.Errorf("got %v, want %s: the plan reads another patient than Ivan Petrov", err, apperr.CodeScopeViolation)
		}
	})
}

package engine_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/clarify-sql/clarify/internal/apperr"
	"github.com/clarify-sql/clarify/internal/engine"
)

// steps records a turn's progress steps.
type steps struct {
	mu    sync.Mutex
	names []string
}

func (s *steps) add(step string, _ time.Duration) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.names = append(s.names, step)
}

func (s *steps) tools() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []string
	for _, n := range s.names {
		if strings.HasPrefix(n, "tool:") {
			out = append(out, n)
		}
	}
	return out
}

// toolTurn runs one interactive turn of engine llm, recording its steps.
func toolTurn(t *testing.T, e *engine.Engine, q string) (*engine.Outcome, *steps, error) {
	t.Helper()
	st := &steps{}
	out, err := e.Turn(context.Background(), engine.Request{Question: q, Interactive: true, Progress: st.add})
	return out, st, err
}

// toolResults are the contents of the tool messages of a request body.
func toolResults(body map[string]any) []string {
	msgs, _ := body["messages"].([]any)
	var out []string
	for _, m := range msgs {
		mm, _ := m.(map[string]any)
		if mm["role"] == "tool" {
			s, _ := mm["content"].(string)
			out = append(out, s)
		}
	}
	return out
}

// TestToolLoop: search_values → run_sql → final_answer answers in three
// calls; each call after the first carries the previous tool's result as
// fenced data, and each tool call is a step.
func TestToolLoop(t *testing.T) {
	e, srv := llmEngine(t, "labs", "tools_loop.yaml", engine.EngineLLM)
	out, st, err := toolTurn(t, e, "how many vitamin D results for Ivan Petrov")
	if err != nil {
		t.Fatal(err)
	}
	bodies := srv.Bodies()
	if len(bodies) != 3 {
		t.Fatalf("%d model calls, want 3", len(bodies))
	}
	if out.Status != engine.StatusAnswered || out.Engine != engine.EngineLLM {
		t.Fatalf("status %s engine %s, want answered by llm", out.Status, out.Engine)
	}
	want := count(t, e, "SELECT count(*) FROM lab_results WHERE patient_id = 'L1' AND analyte IN ('Vitamin D2 (Ergocalciferol)', 'Vitamin D3 (Cholecalciferol)', '25-OH Vitamin D')")
	if fmt.Sprint(out.Answer.Rows) != fmt.Sprint([][]any{{want}}) {
		t.Errorf("rows %v, want [[%v]] (Ivan Petrov's only)", out.Answer.Rows, want)
	}
	if out.Answer.Ran.SQL == "" || !strings.Contains(out.Answer.Ran.SQL, "L1") && len(out.Answer.Ran.Args) == 0 {
		t.Errorf("ran %q %v: want the guard's scoped copy", out.Answer.Ran.SQL, out.Answer.Ran.Args)
	}
	found := false
	for _, a := range out.Answer.Assumptions {
		found = found || strings.Contains(a.Text, "D2, D3")
	}
	if !found {
		t.Errorf("assumptions %+v lack the model's", out.Answer.Assumptions)
	}
	if tools, _ := bodies[0]["tools"].([]any); len(tools) != 5 || len(toolResults(bodies[0])) != 0 {
		t.Errorf("first call: %d tools, %d results; want the 5 tools and no result", len(tools), len(toolResults(bodies[0])))
	}
	r1 := toolResults(bodies[1])
	if len(r1) != 1 || !strings.HasPrefix(r1[0], "<data>") {
		t.Fatalf("second call's tool results %q, want one fenced", r1)
	}
	for _, v := range []string{"25-OH Vitamin D", "Vitamin D3 (Cholecalciferol)", "Vitamin D2 (Ergocalciferol)"} {
		if !strings.Contains(r1[0], v) {
			t.Errorf("search result %q lacks %q", r1[0], v)
		}
	}
	if strings.Contains(r1[0], "Ferritin") {
		t.Errorf("search result %q holds an unrelated value", r1[0])
	}
	r2 := toolResults(bodies[2])
	n := count(t, e, "SELECT count(*) FROM lab_results WHERE patient_id = 'L1' AND analyte = '25-OH Vitamin D'")
	if len(r2) != 2 || !strings.Contains(r2[1], fmt.Sprintf(`["25-OH Vitamin D",%v]`, n)) {
		t.Errorf("third call's tool results %q, want the rows of run_sql (25-OH Vitamin D: %v)", r2, n)
	}
	if got := fmt.Sprint(st.tools()); got != "[tool:search_values tool:run_sql tool:final_answer]" {
		t.Errorf("steps %s", got)
	}
}

// TestToolAskUser: ask_user ends the loop with a card of grounded options.
func TestToolAskUser(t *testing.T) {
	e, srv := llmEngine(t, "labs", "tools_ask.yaml", engine.EngineLLM)
	out, st, err := toolTurn(t, e, "show the vitamin D results for Ivan Petrov")
	if err != nil {
		t.Fatal(err)
	}
	c := out.Clarification
	if srv.Requests() != 1 || out.Status != engine.StatusNeedsQuestion || c == nil || c.Kind != engine.KindLLM {
		t.Fatalf("%d calls, status %s, clarification %+v; want the model's question after 1 call", srv.Requests(), out.Status, c)
	}
	if len(c.Options) != 3 {
		t.Fatalf("options %+v, want the 3 grounded ones", c.Options)
	}
	for i, o := range c.Options {
		if o.Label == "Make it up" {
			t.Errorf("an ungrounded option is shown: %+v", o)
		}
		if o.BestGuess != (o.Label == "25-OH Vitamin D") {
			t.Errorf("option %d %q best guess %v", i, o.Label, o.BestGuess)
		}
	}
	if got := fmt.Sprint(st.tools()); got != "[tool:ask_user]" {
		t.Errorf("steps %s", got)
	}
}

// TestToolLoopBounded: a model that never ends is stopped after
// MaxToolCalls calls with UNANSWERABLE; describe's results reached it.
func TestToolLoopBounded(t *testing.T) {
	e, srv := llmEngine(t, "labs", "tools_endless.yaml", engine.EngineLLM)
	_, st, err := toolTurn(t, e, "how many vitamin D results for Ivan Petrov")
	var ee *apperr.Error
	if !errors.As(err, &ee) || ee.Code != apperr.CodeUnanswerable || !strings.Contains(ee.Message, fmt.Sprint(engine.MaxToolCalls)) {
		t.Fatalf("got %v, want UNANSWERABLE naming the bound", err)
	}
	bodies := srv.Bodies()
	if engine.MaxToolCalls != 6 || len(bodies) != 6 || len(st.tools()) != 6 {
		t.Fatalf("%d calls, %d steps, bound %d; want 6", len(bodies), len(st.tools()), engine.MaxToolCalls)
	}
	last := toolResults(bodies[len(bodies)-1])
	if len(last) != 5 || !strings.Contains(last[0], `"patient_id"`) || !strings.Contains(last[0], `"on":"patients.id"`) {
		t.Errorf("describe results %q, want lab_results' columns and its relationship to patients", last)
	}
}

// TestToolsUnsupported: an endpoint that takes no tools answers in dual
// mode, and the next turn goes straight to dual mode: one call, no tools
// offered (the transcript refuses a request that carries them).
func TestToolsUnsupported(t *testing.T) {
	e, srv := llmEngine(t, "clinic", "tools_unsupported.yaml", engine.EngineLLM)
	want := count(t, e, "SELECT count(*) FROM wounds WHERE healed_date IS NOT NULL")
	for i, calls := range []int{2, 3} {
		out, _, err := toolTurn(t, e, "how many wounds healed faster than the median")
		if err != nil {
			t.Fatal(err)
		}
		if srv.Requests() != calls || out.Status != engine.StatusAnswered || fmt.Sprint(out.Answer.Rows) != fmt.Sprint([][]any{{want}}) {
			t.Errorf("turn %d: %d calls in all, status %s, rows %v; want %d calls and [[%v]]", i+1, srv.Requests(), out.Status, out.Answer, calls, want)
		}
	}
}

// TestToolsScope: under the turn's scope, run_sql and final_answer reading
// another patient are refused, the model sees each refusal, and the
// statement it then gives runs limited to the scope.
func TestToolsScope(t *testing.T) {
	e, srv := llmEngine(t, "labs", "tools_scope.yaml", engine.EngineLLM)
	out, _, err := toolTurn(t, e, "how many results for Ivan Petrov were flagged by the quantum oracle")
	if err != nil {
		t.Fatal(err)
	}
	bodies := srv.Bodies()
	if len(bodies) != 3 {
		t.Fatalf("%d calls, want 3", len(bodies))
	}
	for i, b := range bodies[1:] {
		rs := toolResults(b)
		if len(rs) != i+1 || !strings.Contains(rs[i], "refused") {
			t.Errorf("call %d: tool results %q, want the refusal", i+2, rs)
		}
		if strings.Contains(rs[i], "rows") {
			t.Errorf("call %d: a refused statement returned rows: %q", i+2, rs[i])
		}
	}
	want := count(t, e, "SELECT count(*) FROM lab_results WHERE patient_id = 'L1'")
	if out.Status != engine.StatusAnswered || fmt.Sprint(out.Answer.Rows) != fmt.Sprint([][]any{{want}}) {
		t.Errorf("status %s rows %v, want [[%v]] (Ivan Petrov's only)", out.Status, out.Answer, want)
	}
}

// TestToolsHybridNoTools: hybrid keeps the one-call dual mode.
func TestToolsHybridNoTools(t *testing.T) {
	e, srv := llmEngine(t, "clinic", "sql_answer.yaml", engine.EngineHybrid)
	if _, _, err := toolTurn(t, e, "how many wounds healed faster than the median"); err != nil {
		t.Fatal(err)
	}
	if b := srv.Bodies(); len(b) != 1 || b[0]["tools"] != nil {
		t.Errorf("hybrid offered tools: %v", b)
	}
}

// TestToolStreamText: with somewhere to show them, the model's words
// stream as text chunks — without the escape character planted in them,
// a paragraph break between calls, and nothing of the statement in the
// code block — while the answer is the statement's guarded result.
func TestToolStreamText(t *testing.T) {
	e, srv := llmEngine(t, "labs", "tools_stream.yaml", engine.EngineLLM)
	var chunks []string
	out, err := e.Turn(context.Background(), engine.Request{Question: "how many vitamin D results for Ivan Petrov", Interactive: true,
		Text: func(s string) { chunks = append(chunks, s) }})
	if err != nil {
		t.Fatal(err)
	}
	if srv.Requests() != 2 {
		t.Fatalf("%d model calls, want 2", srv.Requests())
	}
	const want = "Let me find how vitamin D is written in the lab results[2J.\n\nThree analytes are vitamin D; I count them together.\n\n"
	if got := strings.Join(chunks, ""); got != want {
		t.Errorf("streamed text %q, want %q", got, want)
	}
	if len(chunks) < 2 {
		t.Errorf("%d chunks, want the words as they came (%q)", len(chunks), chunks)
	}
	n := count(t, e, "SELECT count(*) FROM lab_results WHERE patient_id = 'L1' AND analyte IN ('Vitamin D2 (Ergocalciferol)', 'Vitamin D3 (Cholecalciferol)', '25-OH Vitamin D')")
	if out.Status != engine.StatusAnswered || fmt.Sprint(out.Answer.Rows) != fmt.Sprint([][]any{{n}}) {
		t.Errorf("status %s, answer %v; want [[%v]]", out.Status, out.Answer, n)
	}
}

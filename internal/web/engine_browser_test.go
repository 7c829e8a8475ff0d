package web_test

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/clarify-sql/clarify/internal/demo/demotest"
	"github.com/clarify-sql/clarify/internal/engine"
	"github.com/clarify-sql/clarify/internal/llm"
	"github.com/clarify-sql/clarify/internal/llm/llmtest"
	"github.com/clarify-sql/clarify/internal/source"
)

// unlinked is a question whose words the rules cannot all link: a hybrid
// engine asks the model (internal/engine's TestHybridCallsModel).
const unlinked = "how many wounds healed faster than the median"

const (
	enginePicker = `document.getElementById("engine-picker")`
	modelLine    = `[...document.querySelectorAll(".card.answer")].pop().querySelector(".engine-note")`
)

// TestEngineRulesOnly: a source that offers only rules shows no engine
// choice, and its answers say nothing of a language model.
func TestEngineRulesOnly(t *testing.T) {
	s := startSite(t)
	p := openPage(t, s)
	p.open("/")
	// the picker is part of the page, hidden for this source
	if !evalJS[bool](p, enginePicker+` !== null && `+enginePicker+`.hidden && document.getElementById("engine").options.length === 0`) {
		p.fail("the engine picker is missing, or shown for a source that offers only rules")
	}
	p.ask("How many patients are there?")
	p.waitAnswer(1)
	if evalJS[bool](p, modelLine+` !== null`) {
		p.fail("a rules answer says it was answered with the language model")
	}
}

// TestEngineModel: a source configured with a model endpoint offers the
// engines, its configured one chosen; a question the rules cannot link is
// answered by the model and the card says so; choosing rules for the next
// question sends it, and the model is not called.
func TestEngineModel(t *testing.T) {
	srv := llmtest.Start(t, filepath.Join("..", "engine", "testdata", "llm", "sql_answer.yaml"), "")
	cl, err := llm.New(llm.Config{BaseURL: srv.URL, Model: "test-model", Backoff: time.Millisecond, MaxBackoff: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	clinic := engine.New(demotest.Source(t, "clinic", source.Options{RowCap: 100_000}), engine.Options{
		Now: func() time.Time { return demotest.AsOf }, Engine: engine.EngineHybrid, LLM: cl,
		PreviewBudget: time.Minute, SuggestBudget: time.Minute})
	en := engines{
		m:          map[string]*engine.Engine{"clinic": clinic, "labs": demotest.Engine(t, "labs")},
		descr:      map[string]string{},
		configured: map[string]string{"clinic": engine.EngineHybrid},
	}
	s := startSiteOn(t, en, "sqlite:"+filepath.Join(t.TempDir(), "store.db"), nil, nil)
	p := openPage(t, s)
	p.open("/")

	p.wait("the engine picker", enginePicker+` !== null && !`+enginePicker+`.hidden`)
	offered := evalJS[[]string](p, `[...document.getElementById("engine").options].map((o) => o.value)`)
	if fmt.Sprint(offered) != "[rules llm hybrid]" {
		p.fail("the picker offers %v, want [rules llm hybrid]", offered)
	}
	if v := evalJS[string](p, `document.getElementById("engine").value`); v != "hybrid" {
		p.fail("the picker shows %q, want the source's configured hybrid", v)
	}
	// the picker has a name a screen reader says
	if label := evalJS[string](p, `document.getElementById("engine").labels[0].querySelector(".tool-label").textContent.trim()`); label != "Engine" {
		p.fail("the engine select is labelled %q", label)
	}

	p.ask(unlinked)
	p.waitAnswer(1)
	if srv.Requests() != 1 {
		p.fail("%d model calls, want 1", srv.Requests())
	}
	if line := evalJS[string](p, `(() => { const e = `+modelLine+`; return e ? e.textContent : ""; })()`); !strings.Contains(line, "Answered with the language model") {
		p.fail("the model's answer does not say so in its meta: %q", line)
	}

	// a source with only rules hides the choice
	p.selectSource("labs")
	if !evalJS[bool](p, enginePicker+`.hidden`) {
		p.fail("the engine picker stays shown for labs, which offers only rules")
	}
	p.selectSource("clinic")
	p.wait("the engine picker again", `!`+enginePicker+`.hidden && document.getElementById("engine").value === "hybrid"`)

	// rules for the next question: the same words, no model call
	evalJS[bool](p, `(() => { const s = document.getElementById("engine"); s.value = "rules"; s.dispatchEvent(new Event("change", {bubbles: true})); return true; })()`)
	p.ask(unlinked)
	p.wait("the rules' outcome", `!document.body.classList.contains("busy") && document.querySelectorAll(".turn").length === 2`)
	if srv.Requests() != 1 {
		p.fail("%d model calls after choosing rules, want still 1", srv.Requests())
	}
	if evalJS[bool](p, `[...document.querySelectorAll(".turn")].pop().querySelector(".engine-note") !== null`) {
		p.fail("the rules' outcome says it was answered with the language model")
	}
}

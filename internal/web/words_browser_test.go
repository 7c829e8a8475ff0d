package web_test

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/clarify-sql/clarify/internal/demo/demotest"
	"github.com/clarify-sql/clarify/internal/engine"
	"github.com/clarify-sql/clarify/internal/llm"
	"github.com/clarify-sql/clarify/internal/llm/llmtest"
	"github.com/clarify-sql/clarify/internal/source"
)

// vitaminD is the question the streaming transcripts answer: their
// statement counts Ivan Petrov's vitamin D results.
const vitaminD = "how many vitamin D results for Ivan Petrov"

const (
	// words is the model's words in the last turn.
	words = `[...document.querySelectorAll(".turn")].pop().querySelector(".msg.model-words")`
	// watchWords records, when the first answer card appears, what the
	// model's words said then: they arrive before (or with) the answer.
	watchWords = `(() => {
		window.wordsAtAnswer = null;
		new MutationObserver((_, obs) => {
			if (!document.querySelector(".card.answer")) return;
			const w = document.querySelector(".msg.model-words .bubble");
			window.wordsAtAnswer = w ? w.textContent : "";
			obs.disconnect();
		}).observe(document.getElementById("messages"), { childList: true, subtree: true });
		return true;
	})()`
)

// modelSite serves labs with a model endpoint replaying transcript (its
// configured engine hybrid, so a chosen llm is the page's doing), and
// clinic with rules only.
func modelSite(t *testing.T, transcript string) (*site, *llmtest.Server) {
	t.Helper()
	browserContext(t)
	srv := llmtest.Start(t, transcript, "")
	cl, err := llm.New(llm.Config{BaseURL: srv.URL, Model: "test-model", Backoff: time.Millisecond, MaxBackoff: time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	labs := engine.New(demotest.Source(t, "labs", source.Options{RowCap: 100_000}), engine.Options{
		Now: func() time.Time { return demotest.AsOf }, Engine: engine.EngineHybrid, LLM: cl,
		PreviewBudget: time.Minute, SuggestBudget: time.Minute})
	en := engines{
		m:          map[string]*engine.Engine{"clinic": demotest.Engine(t, "clinic"), "labs": labs},
		descr:      map[string]string{},
		configured: map[string]string{"labs": engine.EngineHybrid},
	}
	return startSiteOn(t, en, "sqlite:"+filepath.Join(t.TempDir(), "store.db"), nil, nil), srv
}

// chooseEngine picks an engine in the select as a user would.
func (p *page) chooseEngine(name string) {
	p.t.Helper()
	evalJS[bool](p, `(() => { const s = document.getElementById("engine"); s.value = `+jsonString(name)+`; s.dispatchEvent(new Event("change", {bubbles: true})); return true; })()`)
}

func (p *page) engine() string {
	p.t.Helper()
	return evalJS[string](p, `document.getElementById("engine").value`)
}

// TestWordsStream: the language model's words show in the turn as they
// stream — before or with the answer, a paragraph break between its calls,
// nothing of the statement in its code fence, labelled for screen readers
// — and stay after the answer, which says the model answered. A stream cut
// in the middle of the words is followed to its end without doubling
// them. The engine chosen is the conversation's when it is reopened from
// History, and remembered for the source across reloads.
func TestWordsStream(t *testing.T) {
	s, srv := modelSite(t, filepath.Join("..", "engine", "testdata", "llm", "tools_stream.yaml"))
	p := openPage(t, s)
	p.open("/")
	p.selectSource("labs")
	p.wait("the engine picker", `!document.getElementById("engine-picker").hidden`)
	if v := p.engine(); v != engine.EngineHybrid {
		p.fail("the picker shows %q before any choice, want labs' configured hybrid", v)
	}
	p.chooseEngine(engine.EngineLLM)

	// the POST's stream ends after its fifth event, in the model's words
	// or before them: the page follows the rest from the event log
	s.tap.cutNextStream(5)
	evalJS[bool](p, watchWords)
	p.ask(vitaminD)
	p.waitAnswer(1)
	if srv.Requests() != 2 {
		p.fail("%d model calls, want 2", srv.Requests())
	}
	if len(s.tap.replayIDs()) == 0 {
		p.fail("the cut stream was not followed from the event log")
	}

	const want = "Let me find how vitamin D is written in the lab results[2J.\n\nThree analytes are vitamin D; I count them together."
	got := evalJS[string](p, words+`.querySelector(".bubble").textContent`)
	if got != want {
		p.fail("the model's words are %q, want %q", got, want)
	}
	if at := evalJS[string](p, `window.wordsAtAnswer`); at != want {
		p.fail("when the answer appeared the words were %q, want them all (%q)", at, want)
	}
	if strings.Contains(got, "SELECT") || strings.Contains(got, "`") {
		p.fail("the statement in the code fence is in the words: %q", got)
	}
	if ws := evalJS[string](p, `getComputedStyle(`+words+`.querySelector(".bubble")).whiteSpace`); ws != "pre-wrap" {
		p.fail("the words are white-space %q: the paragraph break does not show", ws)
	}
	if label := evalJS[string](p, words+`.querySelector(".sr-only").textContent`); label != "The language model: " {
		p.fail("the words are labelled %q for screen readers", label)
	}
	if evalJS[bool](p, words+`.closest("[aria-live=polite], [aria-live=assertive], [role=status], [role=alert]") !== null`) {
		p.fail("the words are in a live region: each delta would be read out")
	}
	// words first, then the answer, in the same turn
	if !evalJS[bool](p, `(() => { const w = `+words+`; const a = w.parentElement.querySelector(".card.answer"); return a !== null && (w.compareDocumentPosition(a) & Node.DOCUMENT_POSITION_FOLLOWING) !== 0; })()`) {
		p.fail("the words are not followed by the answer in their turn")
	}
	if line := evalJS[string](p, `(() => { const e = `+modelLine+`; return e ? e.textContent : ""; })()`); !strings.Contains(line, "Answered with the language model") {
		p.fail("the answer does not say the language model answered: %q", line)
	}
	if n := evalJS[int](p, `document.querySelectorAll(".msg.model-words").length`); n != 1 {
		p.fail("%d word messages, want 1", n)
	}
	id := strings.TrimPrefix(evalJS[string](p, `location.hash`), "#c=")

	// another engine for what comes next; the conversation keeps llm
	p.do(chromedp.Click(chromedp.ID("new-conversation")))
	p.chooseEngine(engine.EngineRules)
	p.openHistory()
	p.do(chromedp.Click(chromedp.CSS(`#history[open] .history-item[data-id="` + id + `"]`)))
	p.wait("the reopened answer", `!document.body.classList.contains("busy") && `+answerCount+` === 1 && location.hash === "#c=`+id+`"`)
	if v := p.engine(); v != engine.EngineLLM {
		p.fail("the reopened conversation shows engine %q, want the llm it asked for", v)
	}

	// a reload of the conversation shows its engine; a fresh page the one
	// last chosen for labs
	p.do(chromedp.Reload())
	p.wait("the reloaded answer", `!document.body.classList.contains("busy") && `+answerCount+` === 1`)
	if v := p.engine(); v != engine.EngineLLM {
		p.fail("the reloaded conversation shows engine %q, want llm", v)
	}
	p.open("/")
	p.wait("labs and its engines", `document.getElementById("source").value === "labs" && !document.getElementById("engine-picker").hidden`)
	if v := p.engine(); v != engine.EngineRules {
		p.fail("after a reload the picker shows %q, want rules, last chosen for labs", v)
	}
	// what is remembered is labs' choice only
	p.selectSource("clinic")
	if !evalJS[bool](p, enginePicker+`.hidden`) {
		p.fail("clinic offers only rules, yet shows an engine choice")
	}
}

// TestWordsAreText: words that look like HTML are shown as the text they
// are, never made into elements.
func TestWordsAreText(t *testing.T) {
	s, _ := modelSite(t, filepath.Join("testdata", "llm", "html_words.yaml"))
	p := openPage(t, s)
	p.open("/")
	p.selectSource("labs")
	p.wait("the engine picker", `!document.getElementById("engine-picker").hidden`)
	p.chooseEngine(engine.EngineLLM)
	p.ask(vitaminD)
	p.waitAnswer(1)

	got := evalJS[string](p, words+`.querySelector(".bubble").textContent`)
	const want = `<img src=x onerror="document.body.dataset.pwned=1"> is how <b>not</b> to write it; I count the results.`
	if got != want {
		p.fail("the words are %q, want %q", got, want)
	}
	if n := evalJS[int](p, words+`.querySelectorAll("img, b").length`); n != 0 {
		p.fail("the words made %d elements", n)
	}
	if evalJS[bool](p, `document.body.dataset.pwned === "1"`) {
		p.fail("the words ran a script")
	}
}

// TestWordsInterrupted: a turn whose client goes away while the model
// works runs again for the next follower; the words of the first run are
// cleared then, so the turn shows the words of the run that answered,
// once.
func TestWordsInterrupted(t *testing.T) {
	s, _ := modelSite(t, filepath.Join("testdata", "llm", "interrupted_words.yaml"))
	p := openPage(t, s)
	p.open("/")
	p.selectSource("labs")
	p.wait("the engine picker", `!document.getElementById("engine-picker").hidden`)
	p.chooseEngine(engine.EngineLLM)
	// every text the words had, to see the first run's were shown
	evalJS[bool](p, `(() => {
		window.wordsSeen = [];
		new MutationObserver(() => {
			const w = document.querySelector(".msg.model-words .bubble");
			if (w && window.wordsSeen[window.wordsSeen.length - 1] !== w.textContent) window.wordsSeen.push(w.textContent);
		}).observe(document.getElementById("messages"), { childList: true, subtree: true, characterData: true });
		return true;
	})()`)
	// the stream ends, and the turn stops, after the first call's words
	// and its tool step: the page follows the conversation, which runs it
	// again
	s.tap.dropNextStream(5)
	p.ask(vitaminD)
	p.waitAnswer(1)
	if len(s.tap.replayIDs()) == 0 {
		p.fail("the dropped stream was not followed from the event log")
	}
	seen := evalJS[[]string](p, `window.wordsSeen`)
	if len(seen) == 0 || !strings.HasPrefix(seen[0], "Let me find") {
		p.fail("the first run's words were not shown: %q", seen)
	}
	const want = "Three analytes are vitamin D; I count them together."
	if got := evalJS[string](p, words+`.querySelector(".bubble").textContent`); got != want {
		p.fail("after the turn ran again the words are %q, want %q alone (seen: %q)", got, want, seen)
	}
	if n := evalJS[int](p, `document.querySelectorAll(".msg.model-words").length`); n != 1 {
		p.fail("%d word messages, want 1", n)
	}
}

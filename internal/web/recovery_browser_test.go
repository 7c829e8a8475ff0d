package web_test

import (
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
)

// TestNeverAskLetMeChoose: with the server's "never ask me" on, a
// question about "my" results is not a dead end: the error offers "Let me
// choose", which asks whose data it is about — and only that — and then
// answers.
func TestNeverAskLetMeChoose(t *testing.T) {
	s := startSite(t)
	p := openPage(t, s)
	p.open("/")
	ok, err := chromedp.Run(p.ctx, chromedp.Evaluate[bool](`fetch("/v1/preferences/never_ask", {method: "PUT", headers: {"Content-Type": "application/json"}, body: JSON.stringify({value: true})}).then((r) => r.ok)`, chromedp.EvalAwaitPromise))
	if err != nil || !ok {
		p.fail("could not switch never-ask on: %v", err)
	}
	p.selectSource("labs")
	p.ask("list my vitamin D test results")
	p.wait("the error", `document.querySelectorAll(".card.error").length > 0 && !document.body.classList.contains("busy")`)
	label := evalJS[string](p, `document.querySelector(".card.error button.primary").textContent`)
	if !strings.Contains(label, "Let me choose") {
		p.fail("the scope error offers %q, want Let me choose", label)
	}
	p.do(chromedp.Click(chromedp.CSS(`.card.error button.primary`)))
	if kind := p.waitClarification(); kind != "scope" {
		p.fail("after 'Let me choose' the question is %q, want scope", kind)
	}
	p.choose(`/Ivan/`)
	p.wait("the answer", answerCount+` > 0 && !document.body.classList.contains("busy")`)
}

// TestTypedWordsChooseAnOption: typing an option's words while its card
// waits ("infected ones" for "Infected wounds") chooses that option.
func TestTypedWordsChooseAnOption(t *testing.T) {
	s := startSite(t)
	p := openPage(t, s)
	p.open("/")
	p.ask("Which patients have serious wounds?")
	if kind := p.waitClarification(); kind != "vague_qualifier" {
		p.fail("asked %q, want the meaning of serious", kind)
	}
	p.ask("infected ones")
	p.wait("the answer", answerCount+` > 0 && !document.body.classList.contains("busy")`)
	if text := evalJS[string](p, `document.querySelector(".card.answer").textContent`); !strings.Contains(strings.ToLower(text), "infected") {
		p.fail("the answer does not use the infected option: %q", text)
	}
}

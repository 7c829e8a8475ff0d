package web_test

import (
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/clarify-sql/clarify/internal/demo/demotest"
)

var screenshots = flag.Bool("screenshots", false, "write the screenshots in docs/img (go test ./internal/web -run TestScreenshots -screenshots)")

// TestScreenshots writes the pictures of the chat that the README shows,
// on a desktop and at 375 px wide: the empty page, a clarification, an
// answer with its chart and assumptions, a table of values read by
// meaning, the preferences and the history of past conversations.
func TestScreenshots(t *testing.T) {
	if !*screenshots {
		t.Skip("writes docs/img only with -screenshots")
	}
	dir := filepath.Join(demotest.Root(t), "docs", "img")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	shoot := func(p *page, name string) {
		t.Helper()
		// wait for the fonts and a frame, then take the viewport
		p.wait("a quiet page", `document.fonts.status === "loaded" && !document.body.classList.contains("busy")`)
		png, err := chromedp.Run(p.ctx, chromedp.CaptureScreenshot())
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), png, 0o644); err != nil {
			t.Fatal(err)
		}
		t.Logf("wrote docs/img/%s (%d bytes)", name, len(png))
	}

	s := startSite(t)
	p := openPage(t, s)
	p.do(chromedp.EmulateViewport(1200, 900))
	p.open("/")
	p.wait("the examples", `document.querySelector(".examples .pill") !== null`)
	shoot(p, "empty.png")

	p.ask("Which patients have severe wounds?")
	p.waitClarification()
	shoot(p, "clarification.png")

	p.do(chromedp.Click(chromedp.CSS(`.turn:last-of-type form.clarify input[name=remember]`)))
	p.choose(`/infect/i`)
	p.waitAnswer(1)

	// an answer with a chart and an assumption to change, its choices open
	p.do(chromedp.Click(chromedp.ID("new-conversation")))
	p.selectSource("labs")
	p.do(chromedp.Click(chromedp.CSS(`label.switch:has(#no-ask)`)))
	p.ask("Plot vitamin D for John Doe")
	p.waitAnswer(1)
	p.do(chromedp.Click(chromedp.CSS(`.card.answer button.chip`)))
	evalJS[chromedp.Void](p, `document.querySelector(".card.answer").scrollIntoView({block: "start"})`)
	shoot(p, "answer.png")

	p.do(chromedp.Click(chromedp.ID("prefs-open")))
	p.wait("the preferences", `document.querySelector("#prefs[open] .pref") !== null`)
	shoot(p, "preferences.png")
	p.do(chromedp.Click(chromedp.ID("prefs-close")))

	// a table: dates, Yes/No, units and names read by meaning
	p.do(chromedp.Click(chromedp.ID("new-conversation")))
	p.selectSource("clinic")
	p.ask("Show me the large wounds")
	p.waitAnswer(1)
	evalJS[chromedp.Void](p, `document.querySelector(".card.answer").scrollIntoView({block: "start"})`)
	shoot(p, "answer-table.png")

	p.do(chromedp.Click(chromedp.ID("history-open")))
	p.wait("the history", `document.querySelector("#history[open] .history-item") !== null`)
	shoot(p, "history.png")
	p.do(chromedp.Click(chromedp.ID("history-close")))

	m := openPage(t, startSite(t)) // its own origin: nothing stored by the first page
	m.do(chromedp.EmulateViewport(375, 812, chromedp.EmulateScale(2), chromedp.EmulateMobile))
	m.open("/")
	m.wait("the examples", `document.querySelector(".examples .pill") !== null`)
	shoot(m, "mobile-empty.png")
	m.ask("Which patients have severe wounds?")
	m.waitClarification()
	shoot(m, "mobile-clarification.png")
	m.choose(`/infect/i`)
	m.waitAnswer(1)
	evalJS[chromedp.Void](m, `document.querySelector(".card.answer").scrollIntoView({block: "start"})`)
	shoot(m, "mobile-answer.png")
	m.do(chromedp.Click(chromedp.ID("new-conversation")))
	m.selectSource("labs")
	m.do(chromedp.Click(chromedp.CSS(`label.switch:has(#no-ask)`)))
	m.ask("Plot vitamin D for John Doe")
	m.waitAnswer(1)
	evalJS[chromedp.Void](m, `document.querySelector(".card.answer").scrollIntoView({block: "start"})`)
	shoot(m, "mobile-chart.png")
	m.do(chromedp.Click(chromedp.ID("prefs-open")))
	m.wait("the preferences", `document.querySelector("#prefs[open]") !== null`)
	shoot(m, "mobile-preferences.png")
	m.do(chromedp.Click(chromedp.ID("prefs-close")))
	m.do(chromedp.Click(chromedp.ID("history-open")))
	m.wait("the history", `document.querySelector("#history[open] .history-item") !== null`)
	shoot(m, "mobile-history.png")
}

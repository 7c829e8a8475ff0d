package web_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"

	"github.com/clarify-sql/clarify/internal/server"
)

// The end-to-end tests drive the chat in headless Chromium against a real
// server over loopback, and check what a user sees against the database.

func TestSevereWoundsPickInfected(t *testing.T) {
	s := startSite(t)
	p := openPage(t, s)
	p.open("/")
	p.ask(question(t, "clinic", "serious-wounds", "Which patients have severe wounds?"))

	if kind := p.waitClarification(); kind != "vague_qualifier" {
		p.fail("clarification kind %q, want vague_qualifier", kind)
	}
	// the best guess is marked and preselected; options show row previews
	best := evalJS[string](p, openCard+`.querySelector(".option.best input:checked + label .opt-label").textContent`)
	if !strings.Contains(best, "Best guess") {
		p.fail("the best guess is not preselected and marked: %q", best)
	}
	if n := evalJS[int](p, openCard+`.querySelectorAll(".opt-rows").length`); n < 2 {
		p.fail("%d options show a row preview", n)
	}
	if !evalJS[bool](p, openCard+`.textContent.includes("use your best judgment") && `+openCard+`.querySelector(".free-text") !== null`) {
		p.fail("the card lacks the skip choice or the free-text answer")
	}
	p.choose(`/infect/i`)

	got := p.waitAnswer(1)
	want := count(t, "clinic", "SELECT COUNT(DISTINCT patient_id) FROM wounds WHERE infected = 1")
	if got != want {
		p.fail("the answer shows %d rows, the database has %d patients with an infected wound", got, want)
	}
	if rows := evalJS[int](p, `document.querySelectorAll(".card.answer tbody tr").length`); rows != min(want, 25) {
		p.fail("the table shows %d rows on its first page, want %d", rows, min(want, 25))
	}
	// the user's answer is in the log, the question card is locked
	if !evalJS[bool](p, `[...document.querySelectorAll(".msg.user.answer")].some((m) => /infect/i.test(m.textContent))`) {
		p.fail("the chosen answer is not shown as the user's message")
	}
	// sorting: the first column header sorts, twice reverses
	p.do(chromedp.Click(chromedp.CSS(`.card.answer th:nth-child(2) button.sort`)))
	if s := evalJS[string](p, `document.querySelector(".card.answer th:nth-child(2)").getAttribute("aria-sort")`); s != "ascending" {
		p.fail("aria-sort %q after one click", s)
	}
	names := evalJS[[]string](p, `[...document.querySelectorAll(".card.answer tbody tr td:nth-child(2)")].map((td) => td.textContent)`)
	for i := 1; i < len(names); i++ {
		if strings.ToLower(names[i-1]) > strings.ToLower(names[i]) {
			p.fail("column 2 is not sorted: %q before %q", names[i-1], names[i])
		}
	}
	// the SQL is behind a disclosure, with a copy button
	if !evalJS[bool](p, `(() => { const d = document.querySelector(".card.answer details.sql"); return !!d && !d.open && /SELECT/.test(d.querySelector("code").textContent); })()`) {
		p.fail("the SQL disclosure is missing or open")
	}
	// the conversation id is in the address for a reload
	first := evalJS[string](p, `location.hash`)
	if !strings.HasPrefix(first, "#c=c_") {
		p.fail("location.hash %q holds no conversation id", first)
	}
	// a suggestion pill sends its prompt as a new question
	prompt := evalJS[string](p, `document.querySelector(".card.answer .suggestions .pill").title`)
	p.do(chromedp.Click(chromedp.CSS(`.card.answer .suggestions .pill`)))
	p.wait("the suggested question's outcome", `!document.body.classList.contains("busy") && document.querySelectorAll(".turn").length === 3`)
	if last := evalJS[string](p, `[...document.querySelectorAll(".msg.user")].pop().textContent`); !strings.Contains(last, prompt) {
		p.fail("the pill sent %q, want its prompt %q", last, prompt)
	}
	if h := evalJS[string](p, `location.hash`); h == first || !strings.HasPrefix(h, "#c=c_") {
		p.fail("the suggestion did not start a new conversation: %q", h)
	}
}

func TestNarrowScreen(t *testing.T) {
	s := startSite(t)
	p := openPage(t, s)
	p.do(chromedp.EmulateViewport(375, 740, chromedp.EmulateMobile))
	p.open("/")
	p.ask("How many open wounds per clinic?")
	p.waitAnswer(1)
	p.wait("the bar chart", `document.querySelectorAll(".card.answer svg.chart rect.bar").length > 0`)
	if n, want := evalJS[int](p, `document.querySelectorAll(".card.answer svg.chart rect.bar").length`), count(t, "clinic", "SELECT COUNT(DISTINCT clinic_id) FROM patients"); n != want {
		p.fail("%d bars, want one per clinic (%d)", n, want)
	}
	// nothing sticks out sideways except inside the scrolling table
	wide := evalJS[[]string](p, `[...document.querySelectorAll("body *")].filter((e) => !e.closest(".table-scroll, dialog, .sr-only") && e.getBoundingClientRect().right > innerWidth + 1).map((e) => e.tagName + "." + e.className.baseVal ?? e.className)`)
	if len(wide) > 0 || evalJS[int](p, `document.documentElement.scrollWidth`) > 375 {
		p.fail("at 375 px these stick out: %q", wide)
	}
	// the header's buttons keep their names with the labels hidden
	if name := evalJS[string](p, `document.getElementById("new-conversation").textContent.trim()`); name != "New conversation" {
		p.fail("the New conversation button is named %q", name)
	}
	if w := evalJS[int](p, `document.querySelector(".card.answer svg.chart").getBoundingClientRect().width`); w > 375 || w < 250 {
		p.fail("the chart is %d px wide on a 375 px screen", w)
	}
}

func TestLargeWoundsChangeAssumption(t *testing.T) {
	s := startSite(t)
	p := openPage(t, s)
	p.open("/")
	p.do(chromedp.Click(chromedp.CSS(`label.switch:has(#no-ask)`)))
	if !evalJS[bool](p, `document.getElementById("no-ask").checked`) {
		p.fail("the 'Answer without asking' switch did not turn on")
	}
	p.ask(question(t, "clinic", "large-wounds-no-ask", "Show the large wounds"))

	got := p.waitAnswer(1)
	if n := evalJS[int](p, `document.querySelectorAll("form.clarify").length`); n != 0 {
		p.fail("asked %d questions although told to answer without asking", n)
	}
	if want := count(t, "clinic", "SELECT COUNT(*) FROM wounds WHERE area_cm2 > 25"); got != want {
		p.fail("first answer: %d rows, the database has %d wounds over 25 cm²", got, want)
	}
	chip := `.card.answer button.chip[data-slot="vague:large"]`
	p.do(chromedp.Click(chromedp.CSS(chip)))
	if e := evalJS[string](p, `document.querySelector('`+chip+`').getAttribute("aria-expanded")`); e != "true" {
		p.fail("the chip did not open (aria-expanded %q)", e)
	}
	p.do(chromedp.Click(chromedp.CSS(`.chip-panel button.alt[data-option="area_gt_10"]`)))

	changed := p.waitAnswer(2)
	want := count(t, "clinic", "SELECT COUNT(*) FROM wounds WHERE area_cm2 > 10")
	if changed != want || changed == got {
		p.fail("after choosing area > 10: %d rows, want %d (was %d)", changed, want, got)
	}
	if text := evalJS[string](p, `[...document.querySelectorAll(".card.answer")].pop().querySelector(".chip").textContent`); !strings.Contains(text, "10") {
		p.fail("the new answer's chip says %q, want the 10 cm² threshold", text)
	}
	if !evalJS[bool](p, `document.querySelector(".card.answer.retired button.chip").disabled`) {
		p.fail("the replaced answer's chips still act")
	}
}

func TestVitaminDChart(t *testing.T) {
	s := startSite(t)
	p := openPage(t, s)
	p.open("/")
	p.selectSource("labs")
	p.ask(question(t, "labs", "my-vitamin-d", "my vitamin D results"))

	if kind := p.waitClarification(); kind != "scope" {
		p.fail("first question is %q, want the patient (scope)", kind)
	}
	patients := evalJS[[]string](p, `[...`+openCard+`.querySelectorAll(".option:not(.other):not(.skip) .opt-label")].map((e) => e.textContent)`)
	if len(patients) != 3 {
		p.fail("the patient list has %d entries, want 3: %q", len(patients), patients)
	}
	p.choose(`/Ivan Petrov/`)
	if kind := p.waitClarification(); kind != "value_ambiguity" {
		p.fail("second question is %q, want which vitamin D", kind)
	}
	p.choose(`/25-OH/`)
	// a question about the format may follow: a plot, please
	for i := 0; i < 3 && evalJS[int](p, answerCount) == 0; i++ {
		p.wait("a question or the answer", `!document.body.classList.contains("busy") && (`+openCard+` !== null || `+answerCount+` > 0)`)
		if evalJS[int](p, answerCount) > 0 {
			break
		}
		switch kind := evalJS[string](p, openCard+`.dataset.kind`); kind {
		case "format":
			p.choose(`/plot/i`)
		default:
			p.choose(`/./`)
		}
	}
	p.waitAnswer(1)
	p.wait("the chart", `document.querySelector(".card.answer svg.chart path.line") !== null`)
	points := func() int {
		return evalJS[int](p, `Math.max(...[...[...document.querySelectorAll(".card.answer")].pop().querySelectorAll("svg.chart path.line")].map((l) => (l.getAttribute("d").match(/[ML]/g) || []).length))`)
	}
	if points() < 2 {
		// the latest result only: ask for the history through its chip
		p.do(chromedp.Click(chromedp.CSS(`.card.answer button.chip[data-slot="history"]`)))
		p.do(chromedp.Click(chromedp.CSS(`.chip-panel button.alt[data-option="history"]`)))
		p.waitAnswer(2)
		p.wait("the history chart", `[...document.querySelectorAll(".card.answer")].pop().querySelector("svg.chart path.line") !== null`)
	}
	if n := points(); n < 2 {
		p.fail("the chart's line has %d points", n)
	}
	if !evalJS[bool](p, `(() => { const svg = [...document.querySelectorAll(".card.answer")].pop().querySelector("svg.chart"); return svg.getAttribute("role") === "img" && /chart/i.test(svg.querySelector("title").textContent); })()`) {
		p.fail("the chart has no role=img and title")
	}
	// the table/chart toggle shows the same rows as a table
	p.do(chromedp.Click(chromedp.CSS(`.turn:last-of-type .card.answer .segmented button:first-child`)))
	if !evalJS[bool](p, `(() => { const c = [...document.querySelectorAll(".card.answer")].pop(); return c.querySelector(".chart-view").hidden && !c.querySelector(".table-view").hidden; })()`) {
		p.fail("the toggle did not switch to the table")
	}
}

// key presses one key (a kb constant or a character), with modifiers.
func key(k string, mods ...chromedp.Modifier) chromedp.Action[chromedp.Void] {
	var opts []chromedp.KeyOption
	for _, m := range mods {
		opts = append(opts, chromedp.KeyModifiers(m))
	}
	return chromedp.KeyEvent(k, opts...)
}

func TestKeyboardOnly(t *testing.T) {
	s := startSite(t)
	p := openPage(t, s)
	p.open("/")
	active := func() string {
		return evalJS[string](p, `(() => { const a = document.activeElement; return a ? (a.id || a.className || a.tagName) + "|" + (a.type || "") : ""; })()`)
	}
	if a := active(); !strings.HasPrefix(a, "question|") {
		p.fail("the question box is not focused on load: %s", a)
	}
	// Shift+Enter breaks the line and sends nothing
	p.do(chromedp.KeyEvent("Which"), key(kb.Enter, chromedp.ModifierShift))
	if v := evalJS[string](p, `document.getElementById("question").value`); v != "Which\n" || evalJS[int](p, `document.querySelectorAll(".msg.user").length`) != 0 {
		p.fail("Shift+Enter: the box holds %q", v)
	}
	p.do(key("a", chromedp.ModifierCtrl), key(kb.Backspace))
	p.do(chromedp.KeyEvent(question(t, "clinic", "serious-wounds", "Which patients have severe wounds?")), key(kb.Enter))

	p.waitClarification()
	if a := active(); !strings.HasSuffix(a, "|radio") || !evalJS[bool](p, `document.activeElement.checked`) {
		p.fail("focus is not on the preselected choice: %s", a)
	}
	for i := 0; i < 8 && !evalJS[bool](p, `/infect/i.test(document.activeElement.closest(".option").textContent)`); i++ {
		p.do(key(kb.ArrowDown))
	}
	if !evalJS[bool](p, `/infect/i.test(document.activeElement.closest(".option").textContent) && document.activeElement.checked`) {
		p.fail("arrow keys did not reach the infected choice")
	}
	for i := 0; i < 6 && !strings.HasPrefix(evalJS[string](p, `document.activeElement.textContent`), "Continue"); i++ {
		p.do(key(kb.Tab))
	}
	if outline := evalJS[string](p, `getComputedStyle(document.activeElement).outlineStyle`); outline == "none" {
		p.fail("the focused button shows no focus ring")
	}
	p.do(key(kb.Enter))

	got := p.waitAnswer(1)
	if want := count(t, "clinic", "SELECT COUNT(DISTINCT patient_id) FROM wounds WHERE infected = 1"); got != want {
		p.fail("keyboard flow: %d rows, want %d", got, want)
	}
	if a := active(); !strings.HasPrefix(a, "question|") {
		p.fail("after the answer, focus is on %s, not the question box", a)
	}
	// Shift+Tab reaches the answer's controls, each with a visible focus ring
	for i := 0; i < 3; i++ {
		p.do(key(kb.Tab, chromedp.ModifierShift))
		if outline := evalJS[string](p, `getComputedStyle(document.activeElement).outlineStyle`); outline == "none" {
			p.fail("%s has no focus ring", active())
		}
	}
}

func TestReloadResumesPendingQuestion(t *testing.T) {
	s := startSite(t)
	p := openPage(t, s)
	p.open("/")
	// the stream breaks after its first event: the page must follow the rest
	// from the events endpoint with Last-Event-ID
	s.tap.cutNextStream(1)
	q := "Which patients have severe wounds?"
	p.ask(q)
	p.waitClarification()
	if ids := s.tap.replayIDs(); len(ids) == 0 || ids[0] != "1" {
		p.fail("after the stream broke, replays asked with Last-Event-ID %q, want \"1\"", ids)
	}
	id := evalJS[string](p, `location.hash`)

	p.do(chromedp.Reload())
	p.waitClarification()
	if h := evalJS[string](p, `location.hash`); h != id {
		p.fail("after the reload the address is %q, was %q", h, id)
	}
	if !evalJS[bool](p, fmt.Sprintf(`[...document.querySelectorAll(".msg.user")].some((m) => m.textContent.includes(%s))`, jsonString(q))) {
		p.fail("the question is not shown after the reload")
	}
	if !evalJS[bool](p, `document.activeElement.type === "radio"`) {
		p.fail("the resumed question does not have the focus")
	}
	// the answer's stream breaks too: it is followed from where it broke
	s.tap.cutNextStream(2)
	p.choose(`/infect/i`)
	got := p.waitAnswer(1)
	if want := count(t, "clinic", "SELECT COUNT(DISTINCT patient_id) FROM wounds WHERE infected = 1"); got != want {
		p.fail("after the reload: %d rows, want %d", got, want)
	}
	ids := s.tap.replayIDs()
	var last int
	if len(ids) == 2 {
		fmt.Sscan(ids[1], &last)
	}
	if last < 7 {
		p.fail("the second broken stream was followed with Last-Event-ID %q, want the id of its second event", ids)
	}
	if n := evalJS[int](p, `document.querySelectorAll(".steps-list .step.done").length`); n != 4 {
		p.fail("%d steps shown for the answer, want 4 (none twice, none lost)", n)
	}
}

func TestPreferences(t *testing.T) {
	s := startSite(t)
	p := openPage(t, s)
	p.open("/")
	if text := p.rememberLarge(); !strings.Contains(text, "large") || !strings.Contains(text, "remembered") {
		p.fail("the preference reads %q", text)
	}
	// remembered: asked again, it is answered at once with "your usual choice"
	p.do(chromedp.Click(chromedp.ID("prefs-close")), chromedp.Click(chromedp.ID("new-conversation")))
	p.ask("Show the large wounds")
	p.waitAnswer(1)
	if text := evalJS[string](p, `document.querySelector(".card.answer .chips").textContent`); !strings.Contains(text, "your usual choice") {
		p.fail("the remembered choice is not shown as one: %q", text)
	}
	// forget it: the next time it is asked again
	p.do(chromedp.Click(chromedp.ID("prefs-open")))
	p.wait("the list", `document.querySelector("#prefs[open] .pref button") !== null`)
	p.do(chromedp.Click(chromedp.CSS(`#prefs .pref button`)))
	p.wait("an empty list", `document.querySelector("#prefs .empty-prefs") !== null`)
	// never ask me
	p.do(chromedp.Click(chromedp.CSS(`label.switch:has(#never-ask)`)))
	p.wait("never ask saved", `document.getElementById("never-ask").checked && !document.getElementById("never-ask").disabled`)
	p.do(key(kb.Escape))
	p.wait("the panel closed", `!document.getElementById("prefs").open`)
	p.do(chromedp.Click(chromedp.ID("new-conversation")))
	p.ask("Which patients have severe wounds?")
	p.waitAnswer(1)
	if n := evalJS[int](p, `document.querySelectorAll("form.clarify").length`); n != 0 {
		p.fail("asked %d questions with 'never ask me' on", n)
	}
}

func TestErrorsAndRetry(t *testing.T) {
	s := startSite(t)
	p := openPage(t, s)
	p.expectFailedRequests(1)
	p.open("/")
	// the server fails once: a plain message and a retry that works
	s.tap.failNext(1)
	p.ask("Which patients have severe wounds?")
	p.wait("the error", `document.querySelector(".card.error") !== null && !document.body.classList.contains("busy")`)
	if text := evalJS[string](p, `document.querySelector(".card.error").textContent`); !strings.Contains(text, "restarting") {
		p.fail("the error says %q", text)
	}
	if a := evalJS[string](p, `document.activeElement.textContent`); !strings.Contains(a, "Try again") {
		p.fail("focus is on %q, not the retry button", a)
	}
	p.do(key(kb.Enter))
	p.waitClarification()

	// without asking, a question about "my" results cannot be answered:
	// the page says why and offers to ask instead
	p.do(chromedp.Click(chromedp.ID("new-conversation")))
	p.selectSource("labs")
	p.do(chromedp.Click(chromedp.CSS(`label.switch:has(#no-ask)`)))
	p.ask("my vitamin D results")
	p.wait("the error", `document.querySelectorAll(".card.error").length > 0 && !document.body.classList.contains("busy")`)
	if text := evalJS[string](p, `document.querySelector(".card.error .error-title").textContent`); !strings.Contains(text, "whose data") {
		p.fail("the scope error says %q", text)
	}
	p.do(chromedp.Click(chromedp.CSS(`.card.error button.primary`)))
	if kind := p.waitClarification(); kind != "scope" {
		p.fail("after 'Let me choose' the question is %q, want scope", kind)
	}
}

func TestAPIKey(t *testing.T) {
	s := startSite(t, server.Key{User: "ana", SHA256: server.HashKey("ana-secret")})
	p := openPage(t, s)
	p.expectFailedRequests(2) // the first /v1/sources, and the wrong key
	p.do(chromedp.Navigate(s.url + "/"))
	p.wait("the key prompt", `document.querySelector(".card.key input") !== null`)
	if !evalJS[bool](p, `document.activeElement.type === "password"`) {
		p.fail("the key box does not have the focus")
	}
	p.do(chromedp.SendKeys(chromedp.CSS(`.card.key input`), "wrong\r"))
	p.wait("the key prompt again", `document.querySelector(".card.key input") !== null && document.querySelector("#source option[value=clinic]") === null`)
	evalJS[chromedp.Void](p, `localStorage.removeItem("clarify.apiKey")`)
	p.do(chromedp.SendKeys(chromedp.CSS(`.card.key input`), "ana-secret\r"))
	p.wait("the sources", `document.querySelector("#source option[value=clinic]") !== null`)
	p.ask("Which patients have severe wounds?")
	p.waitClarification()
	auth := s.tap.authorizations()
	if last := auth[len(auth)-1]; last != "Bearer ana-secret" {
		p.fail("the last request sent Authorization %q", last)
	}
	// the key is kept: a reload asks for nothing
	p.do(chromedp.Reload())
	p.waitClarification()
	if n := evalJS[int](p, `document.querySelectorAll(".card.key").length`); n != 0 {
		p.fail("the key was asked again after a reload")
	}
}

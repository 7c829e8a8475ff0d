package web_test

import (
	"encoding/csv"
	"fmt"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/network"
	cdppage "github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// These tests check that answers read well: nothing lost from a table,
// values in the reader's words, room for wide tables, a layout that fits
// a phone, the rows as CSV, one length limit for page and server, turns
// that end without an aborted request, and words instead of ids.

const lastAnswer = `[...document.querySelectorAll(".card.answer")].pop()`

// renderAnswer shows an answer of the API's shape (JSON) in the log, as
// the page shows one it received, and returns a JS expression for its card.
func renderAnswer(p *page, answerJSON string) string {
	p.t.Helper()
	n, err := chromedp.Run(p.ctx, chromedp.Evaluate[int](`(async () => {
		const { answerCard } = await import("/js/cards.js");
		const card = answerCard(`+answerJSON+`);
		document.getElementById("messages").append(card);
		card.afterAttach();
		return document.querySelectorAll(".card.answer").length - 1;
	})()`, chromedp.EvalAwaitPromise))
	if err != nil {
		p.fail("render an answer: %v", err)
	}
	return fmt.Sprintf(`document.querySelectorAll(".card.answer")[%d]`, n)
}

// columnTexts returns the texts of one column of a card's table (1-based).
func columnTexts(p *page, card string, n int) []string {
	p.t.Helper()
	return evalJS[[]string](p, fmt.Sprintf(`[...%s.querySelectorAll("tbody tr td:nth-child(%d)")].map((td) => td.textContent)`, card, n))
}

func TestNullCellsStayInPlace(t *testing.T) {
	s := startSite(t)
	p := openPage(t, s)
	p.open("/")
	p.ask("List the large wounds")
	p.waitClarification()
	p.do(chromedp.Click(chromedp.CSS(`.turn:last-of-type form.clarify button[type=submit]`))) // Continue with the best guess
	p.waitAnswer(1)
	first := `document.querySelector(".card.answer")`
	cells := func() []string {
		return evalJS[[]string](p, `[...`+first+`.querySelectorAll("tbody tr")].map((tr) => [...tr.cells].map((td) => td.textContent).join(" | "))`)
	}
	// an empty (NULL) value shows as a dash
	nullCells := first + `.querySelectorAll("tbody td").length - [...` + first + `.querySelectorAll("tbody td")].filter((td) => !td.textContent.startsWith("—")).length`
	before := cells()
	nulls := evalJS[int](p, nullCells)
	if nulls == 0 {
		p.fail("the first table shows no empty (NULL) cell; the test needs one")
	}
	p.ask("only the infected ones")
	p.waitAnswer(2)
	after := cells()
	if strings.Join(after, "\n") != strings.Join(before, "\n") {
		p.fail("the first table changed after the next message:\nbefore %q\nafter  %q", before, after)
	}
	if n := evalJS[int](p, nullCells); n != nulls {
		p.fail("the first table had %d empty cells, now %d", nulls, n)
	}

	// the same table reads by meaning: dates in words, flags as Yes/No, the unit in the heading
	headings := evalJS[[]string](p, `[...`+first+`.querySelectorAll("thead th")].map((th) => th.textContent)`)
	idx := func(re string) int {
		for i, h := range headings {
			if regexp.MustCompile(re).MatchString(h) {
				return i + 1
			}
		}
		p.fail("no heading matches %s in %q", re, headings)
		return 0
	}
	idx(`^Area \(cm²\)`)
	for _, d := range columnTexts(p, first, idx(`(?i)^date recorded|^created`)) {
		if regexp.MustCompile(`^\d{4}-\d{2}-\d{2}$`).MatchString(d) || !regexp.MustCompile(`[A-Za-z]`).MatchString(d) {
			p.fail("a date reads %q, want it in the reader's words", d)
		}
	}
	for _, v := range columnTexts(p, first, idx(`(?i)^infected`)) {
		if v != "Yes" && v != "No" {
			p.fail("an infected flag reads %q, want Yes or No", v)
		}
	}
	// the SQL is laid out one clause a line, the select list indented
	sql := evalJS[string](p, first+`.querySelector("details.sql code").textContent`)
	if !strings.Contains(sql, "\nFROM ") || !strings.Contains(sql, "SELECT\n  ") || !strings.Contains(sql, "\nWHERE ") {
		p.fail("the SQL is not laid out by clause:\n%s", sql)
	}
}

func TestValuesReadByMeaning(t *testing.T) {
	p := openPage(t, startSite(t))
	p.open("/")
	card := renderAnswer(p, `{
		statement: "Sales by month", row_count: 2, sql: "SELECT 1", sql_formatted: "SELECT\n  1 -- laid out by the server",
		columns: [
			{ name: "month", type: "text", kind: "period", grain: "month", label: "Month" },
			{ name: "revenue", type: "real", kind: "measure", unit: "USD", label: "Revenue" },
			{ name: "area_cm2", type: "real" },
			{ name: "infected", type: "integer", kind: "bool", label: "Infected" },
			{ name: "is_active", type: "integer" },
			{ name: "customer_id", type: "integer", kind: "id" },
			{ name: "total_sales", type: "real", kind: "measure", unit: "USD", label: "Total sales" },
			{ name: "created_date", type: "date" },
			{ name: "fiscal", type: "integer", kind: "period", grain: "year", label: "Fiscal year" }
		],
		rows: [
			["2023-11", 1234.5, 49, 1, 0, 10234, 733912.5, "2023-11-06", 2023],
			["2023-12", 88.25, 33.6, 0, 1, 20345, 1200, "2023-12-24", 2024]
		]
	}`)
	type cellCase struct {
		name string
		col  int
		want []string // exact texts; computed in the page where they depend on the locale
	}
	intl := func(js string) string { return evalJS[string](p, js) }
	month := func(m int) string {
		return intl(fmt.Sprintf(`new Intl.DateTimeFormat(undefined, { year: "numeric", month: "short", timeZone: "UTC" }).format(Date.UTC(2023, %d, 1))`, m))
	}
	money := func(v float64) string {
		return intl(fmt.Sprintf(`new Intl.NumberFormat(undefined, { style: "currency", currency: "USD", minimumFractionDigits: 2 }).format(%v)`, v))
	}
	day := func(m, d int) string {
		return intl(fmt.Sprintf(`new Intl.DateTimeFormat(undefined, { year: "numeric", month: "short", day: "numeric", timeZone: "UTC" }).format(Date.UTC(2023, %d, %d))`, m, d))
	}
	for _, tc := range []cellCase{
		{"months in the reader's words", 1, []string{month(10), month(11)}},
		{"money with its symbol and the same decimals", 2, []string{money(1234.5), money(88.25)}},
		{"one number of decimals per column", 3, []string{"49.0", "33.6"}},
		{"booleans", 4, []string{"Yes", "No"}},
		{"flags stored as 0/1", 5, []string{"No", "Yes"}},
		{"ids without grouping", 6, []string{"10234", "20345"}},
		{"dates in the reader's words", 8, []string{day(10, 6), day(11, 24)}},
		{"years without grouping", 9, []string{"2023", "2024"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := columnTexts(p, card, tc.col); strings.Join(got, "|") != strings.Join(tc.want, "|") {
				t.Errorf("column %d reads %q, want %q", tc.col, got, tc.want)
			}
		})
	}
	if got := columnTexts(p, card, 2); !strings.HasPrefix(got[0], "$") || !strings.HasSuffix(got[1], ".25") {
		t.Errorf("the money column reads %q, want dollars with cents", got)
	}
	headings := evalJS[[]string](p, `[...`+card+`.querySelectorAll("thead th")].map((th) => th.textContent)`)
	if headings[1] != "Revenue" || headings[2] != "Area (cm²)" || headings[5] != "Customer id" {
		t.Errorf("headings %q, want the labels, and a unit in brackets", headings)
	}
	// a large number is short, with the exact value for the mouse, the keyboard and screen readers
	big := card + `.querySelector("tbody tr td:nth-child(7) .exact")`
	if !evalJS[bool](p, big+` !== null`) {
		t.Fatalf("the large number has no exact value: %q", columnTexts(p, card, 7))
	}
	type exact struct{ Shown, Title, Spoken, TabIndex string }
	e := evalJS[exact](p, `(() => { const x = `+big+`; return { Shown: x.querySelector("[aria-hidden]").textContent, Title: x.title,
		Spoken: x.querySelector(".sr-only").textContent, TabIndex: x.getAttribute("tabindex") }; })()`)
	full := money(733912.5)
	if !regexp.MustCompile(`^\$734\s?K$`).MatchString(e.Shown) || e.Title != full || e.Spoken != full || e.TabIndex != "0" {
		t.Errorf("the large number: %+v, want $734K shown and %s on hover, focus and for screen readers", e, full)
	}
	evalJS[chromedp.Void](p, big+`.focus()`)
	if tip := evalJS[string](p, `getComputedStyle(document.activeElement, "::after").content`); !strings.Contains(tip, "733,912.50") {
		t.Errorf("focused, the large number shows %s, want its exact value", tip)
	}
	if sql := evalJS[string](p, card+`.querySelector("details.sql code").textContent`); sql != "SELECT\n  1 -- laid out by the server" {
		t.Errorf("the SQL shown is %q, want the server's layout", sql)
	}

	// lab values outside their reference range say so in words, whether
	// the column names its range or an older server only sends the columns
	for _, named := range []bool{true, false} {
		rangeFields := ""
		if named {
			rangeFields = `, range_low: "reference_low", range_high: "reference_high"`
		}
		lab := renderAnswer(p, `{ statement: "Glucose", row_count: 3,
			columns: [{ name: "test_date", type: "date" }, { name: "value", type: "real"`+rangeFields+` }, { name: "unit", type: "text" },
				{ name: "reference_low", type: "real" }, { name: "reference_high", type: "real" }],
			rows: [["2026-01-05", 106, "mg/dL", 70, 99], ["2026-04-02", 52, "mg/dL", 70, 99], ["2026-07-09", 88, "mg/dL", 70, 99]] }`)
		got := columnTexts(p, lab, 2)
		want := []string{"106 High", "52 Low", "88"}
		if strings.Join(got, "|") != strings.Join(want, "|") {
			t.Errorf("range named by the column %v: values read %q, want %q", named, got, want)
		}
	}
}

func TestWideTablesScrollCue(t *testing.T) {
	s := startSite(t)
	p := openPage(t, s)
	p.do(chromedp.EmulateViewport(1280, 900))
	p.open("/")
	p.do(chromedp.Click(chromedp.CSS(`label.switch:has(#no-ask)`)))
	p.ask("List the large wounds")
	p.waitAnswer(1)
	type box struct{ Left, Right, Width, Column, Viewport, TableWidth, ScrollerWidth float64 }
	b := evalJS[box](p, `(() => { const c = `+lastAnswer+`.getBoundingClientRect(), s = `+lastAnswer+`.querySelector(".table-scroll");
		return { Left: c.left, Right: c.right, Width: c.width, Column: document.getElementById("messages").clientWidth, Viewport: innerWidth,
			TableWidth: s.scrollWidth, ScrollerWidth: s.clientWidth }; })()`)
	if b.Width <= 880 || b.Left < 16 || b.Right > b.Viewport-16 {
		p.fail("on 1280 px the answer with %g px of table is %g px wide (%g to %g): want it wider than the 880 px column and inside the window", b.TableWidth, b.Width, b.Left, b.Right)
	}
	if b.TableWidth > b.ScrollerWidth+1 && b.Right < b.Viewport-80 {
		p.fail("the table still scrolls (%g of %g px) although the window has room", b.ScrollerWidth, b.TableWidth)
	}
	// the headings stay in sight when the rows scroll
	evalJS[chromedp.Void](p, lastAnswer+`.querySelector(".table-scroll").scrollTop = 300`)
	if d := evalJS[float64](p, `(() => { const s = `+lastAnswer+`.querySelector(".table-scroll"); return s.querySelector("th").getBoundingClientRect().top - s.getBoundingClientRect().top; })()`); d < 0 || d > 2 {
		p.fail("scrolled down, the headings are %g px from the top of the table", d)
	}

	// a table too wide even for the window shows that it scrolls sideways
	cols := make([]string, 24)
	row := make([]string, 24)
	for i := range cols {
		cols[i] = fmt.Sprintf(`{ name: "measurement_number_%d", type: "real" }`, i+1)
		row[i] = fmt.Sprintf("%d.5", 1000+i)
	}
	wide := renderAnswer(p, `{ statement: "Many columns", row_count: 1, columns: [`+strings.Join(cols, ",")+`], rows: [[`+strings.Join(row, ",")+`]] }`)
	type cue struct {
		Left, Right, Hint bool
		Shadow, Text      string
	}
	read := func() cue {
		return evalJS[cue](p, `(() => { const c = `+wide+`, f = c.querySelector(".table-frame"), hint = c.querySelector(".scroll-hint");
			const described = (c.querySelector(".table-scroll").getAttribute("aria-describedby") || "") === (hint && hint.id);
			return { Left: f.classList.contains("more-left"), Right: f.classList.contains("more-right"),
				Hint: !!hint && !hint.hidden && described, Shadow: getComputedStyle(f, "::after").opacity, Text: hint ? hint.textContent : "" }; })()`)
	}
	p.wait("the scroll cue", wide+`.querySelector(".table-frame.more-right") !== null`)
	if c := read(); c.Left || !c.Right || !c.Hint || c.Shadow != "1" || !strings.Contains(c.Text, "24 columns") {
		p.fail("at the start of a wide table the cue is %+v: want a shadow on the right and a hint read with the table", c)
	}
	evalJS[chromedp.Void](p, `(() => { const s = `+wide+`.querySelector(".table-scroll"); s.scrollLeft = s.scrollWidth; })()`)
	p.wait("the cue at the end", wide+`.querySelector(".table-frame.more-left:not(.more-right)") !== null`)
}

// smallTargets lists the visible controls smaller than 44 px high; a radio
// button or checkbox counts with its label, the target a finger taps.
const smallTargets = `(() => {
	const out = [];
	for (const e of document.querySelectorAll("button, a[href], select, textarea, input, summary")) {
		let r = e.getBoundingClientRect();
		if (r.width === 0 || r.height === 0 || getComputedStyle(e).visibility === "hidden") continue;
		if (e.type === "radio" || e.type === "checkbox") {
			const l = e.closest("label") || (e.id && document.querySelector('label[for="' + e.id + '"]'));
			if (l) r = { height: Math.max(r.height, l.getBoundingClientRect().height) };
		}
		if (r.height < 43.5) out.push(e.tagName.toLowerCase() + (e.type ? "[" + e.type + "]" : "") + "." + String(e.className) + " '" + (e.textContent || e.getAttribute("aria-label") || "").trim().slice(0, 30) + "' " + Math.round(r.height) + " px");
	}
	return out;
})()`

func TestPhoneLayout(t *testing.T) {
	s := startSite(t)
	p := openPage(t, s)
	p.do(chromedp.EmulateViewport(375, 740, chromedp.EmulateMobile))
	p.open("/")
	check := func(when string) {
		t.Helper()
		if h := evalJS[float64](p, `document.getElementById("composer").getBoundingClientRect().height`); h >= 740*0.2 {
			p.fail("%s: the composer is %g px high, %d%% of the screen", when, h, int(h*100/740))
		}
		if small := evalJS[[]string](p, smallTargets); len(small) > 0 {
			p.fail("%s: these tap targets are under 44 px:\n%s", when, strings.Join(small, "\n"))
		}
	}
	check("the empty page")
	p.ask("Which patients have severe wounds?")
	p.waitClarification()
	check("a question")
	p.choose(`/infect/i`)
	p.waitAnswer(1)
	check("an answer")
	// the table shows that it scrolls sideways
	p.wait("the scroll cue", lastAnswer+`.querySelector(".table-frame.more-right") !== null`)
	if !evalJS[bool](p, `!`+lastAnswer+`.querySelector(".scroll-hint").hidden`) {
		p.fail("the phone's table scrolls sideways without saying so")
	}
	p.do(chromedp.Click(chromedp.CSS(`.turn:last-of-type .card.answer details.sql summary`)))
	check("the SQL open")
}

// csvCapture makes the page keep the next CSV it saves, instead of saving it.
const csvCapture = `(() => {
	window.savedCSV = null;
	const make = URL.createObjectURL.bind(URL);
	URL.createObjectURL = (blob) => { window.savedCSV = { blob }; return make(blob); };
	document.addEventListener("click", (e) => {
		const a = e.target.closest && e.target.closest("a[download]");
		if (a) { e.preventDefault(); window.savedCSV.name = a.download; }
	}, true);
})()`

func savedCSV(p *page) (string, [][]string) {
	p.t.Helper()
	p.wait("the CSV", `window.savedCSV && window.savedCSV.name`)
	text, err := chromedp.Run(p.ctx, chromedp.Evaluate[string](`window.savedCSV.blob.text()`, chromedp.EvalAwaitPromise))
	if err != nil {
		p.fail("read the CSV: %v", err)
	}
	name := evalJS[string](p, `window.savedCSV.name`)
	evalJS[chromedp.Void](p, `window.savedCSV = null`)
	text = strings.TrimPrefix(text, "\ufeff")
	if !strings.Contains(text, "\r\n") {
		p.fail("the CSV's lines do not end in CRLF: %q", text)
	}
	records, err := csv.NewReader(strings.NewReader(text)).ReadAll()
	if err != nil {
		p.fail("the CSV does not parse: %v\n%s", err, text)
	}
	return name, records
}

func TestCSVDownload(t *testing.T) {
	s := startSite(t)
	p := openPage(t, s)
	p.open("/")
	p.do(chromedp.Click(chromedp.CSS(`label.switch:has(#no-ask)`)))
	p.ask("List the large wounds")
	n := p.waitAnswer(1)
	if want := count(t, "clinic", "SELECT COUNT(*) FROM wounds WHERE area_cm2 > 25"); n != want || n <= 25 {
		p.fail("%d rows, want %d on more than one page", n, want)
	}
	if !evalJS[bool](p, lastAnswer+`.querySelector("button.csv") !== null`) {
		p.fail("the answer offers no CSV download")
	}
	evalJS[chromedp.Void](p, csvCapture)
	p.do(chromedp.Click(chromedp.CSS(`.turn:last-of-type .card.answer button.csv`)))
	name, records := savedCSV(p)
	if !strings.HasSuffix(name, ".csv") {
		p.fail("the file is called %q", name)
	}
	header := evalJS[[]string](p, lastAnswer+`.querySelector("th").parentElement && [...`+lastAnswer+`.querySelectorAll("thead th")].map((th) => th.title)`)
	// every column the table shows, and the ids it shows by name
	have := map[string]bool{}
	for _, c := range records[0] {
		have[c] = true
	}
	for _, c := range append(header, "patient_id") {
		if !have[c] {
			p.fail("the CSV's header %q lacks %q (table columns %q)", records[0], c, header)
		}
	}
	if len(records)-1 != n {
		p.fail("the CSV holds %d rows, the answer %d (all pages, not only the one shown)", len(records)-1, n)
	}
	healed := -1
	for i, c := range records[0] {
		if c == "healed_date" {
			healed = i
		}
	}
	empty := 0
	for _, r := range records[1:] {
		if healed >= 0 && r[healed] == "" {
			empty++
		}
	}
	if healed < 0 || empty == 0 {
		p.fail("no empty healed_date in the CSV (NULL is an empty cell)")
	}

	// text a spreadsheet would run as a formula is defused; quotes and commas are quoted
	card := renderAnswer(p, `{ statement: "Risky text", row_count: 3, columns: [{ name: "a", type: "text" }, { name: "b", type: "text" }, { name: "n", type: "real" }],
		rows: [["=HYPERLINK(\"x\")", "+1", -5], ["-2", "@SUM(A1)", 1.5], ["a, b", "say \"hi\"", null]] }`)
	evalJS[chromedp.Void](p, card+`.querySelector("button.csv").click()`)
	_, records = savedCSV(p)
	want := [][]string{{"a", "b", "n"}, {`'=HYPERLINK("x")`, "'+1", "-5"}, {"'-2", "'@SUM(A1)", "1.5"}, {"a, b", `say "hi"`, ""}}
	if fmt.Sprint(records) != fmt.Sprint(want) {
		p.fail("the CSV reads %q, want %q", records, want)
	}
}

func TestQuestionLengthLimit(t *testing.T) {
	s := startSite(t)
	p := openPage(t, s)
	p.open("/")
	limit, err := chromedp.Run(p.ctx, chromedp.Evaluate[int](`fetch("/v1/sources").then((r) => r.json()).then((d) => d.limits ? d.limits.question_chars : 0)`, chromedp.EvalAwaitPromise))
	if err != nil {
		p.fail("GET /v1/sources: %v", err)
	}
	if limit != 2000 {
		p.fail("GET /v1/sources gives a limit of %d characters, want the server's 2000", limit)
	}
	if n := evalJS[int](p, `document.getElementById("question").maxLength`); n != limit {
		p.fail("the question box stops at %d characters, the server at %d", n, limit)
	}
	counter := `document.getElementById("question-count")`
	if !evalJS[bool](p, counter+` === null || `+counter+`.hidden`) {
		p.fail("the counter shows on an empty box")
	}
	// near the limit a counter shows, read with the box and announced once
	evalJS[chromedp.Void](p, `(() => { const q = document.getElementById("question"); q.focus(); q.value = "a".repeat(1850); q.dispatchEvent(new Event("input", { bubbles: true })); })()`)
	if text := evalJS[string](p, counter+`.hidden ? "" : `+counter+`.textContent`); text != "1,850 / 2,000" {
		p.fail("near the limit the counter reads %q", text)
	}
	if !evalJS[bool](p, `document.getElementById("question").getAttribute("aria-describedby").split(" ").includes("question-count")`) {
		p.fail("the counter is not part of the box's description")
	}
	p.wait("the announcement", `document.getElementById("announcer").textContent.includes("150 characters left")`)

	// pasting past the limit keeps what fits and says what was left out
	evalJS[chromedp.Void](p, `(() => { const q = document.getElementById("question"); q.setSelectionRange(q.value.length, q.value.length);
		const dt = new DataTransfer(); dt.setData("text/plain", "b".repeat(300));
		q.dispatchEvent(new ClipboardEvent("paste", { clipboardData: dt, bubbles: true, cancelable: true })); })()`)
	if n := evalJS[int](p, `document.getElementById("question").value.length`); n != limit {
		p.fail("after the paste the box holds %d characters, want %d", n, limit)
	}
	note := evalJS[string](p, `(() => { const n = document.getElementById("question-cut"); return n && !n.hidden ? n.textContent : ""; })()`)
	if !strings.Contains(note, "150") || !strings.Contains(note, "2,000") {
		p.fail("a paste was cut and the page says %q", note)
	}
	if !evalJS[bool](p, counter+`.classList.contains("full") && `+counter+`.textContent === "2,000 / 2,000"`) {
		p.fail("at the limit the counter reads %q", evalJS[string](p, counter+`.textContent`))
	}
}

// TestStreamsEndWithoutAbort: the page reads each turn's stream until the
// server closes it; it never cancels one nor aborts its request (which
// the browser logged as net::ERR_ABORTED on every turn). The page's own
// cancels and aborts are counted in the page; the network log is read
// too, and every stream must have ended. Chromium's DevTools sometimes
// marks a fetch whose body the page read to its end as "canceled"; that
// is logged, not failed, because the page's counters show it did not
// cancel.
func TestStreamsEndWithoutAbort(t *testing.T) {
	s := startSite(t)
	p := openPage(t, s)
	var mu sync.Mutex
	streams := map[network.RequestID]string{} // streamed POSTs
	ended := map[network.RequestID]string{}   // how each ended
	err := chromedp.Listen(p.ctx, func(ev any) {
		mu.Lock()
		defer mu.Unlock()
		switch e := ev.(type) {
		case *network.EventRequestWillBeSent:
			if e.Request.Method == "POST" && strings.Contains(fmt.Sprint(e.Request.Headers["Accept"]), "text/event-stream") {
				streams[e.RequestID] = e.Request.URL
			}
		case *network.EventLoadingFinished:
			ended[e.RequestID] = "finished"
		case *network.EventLoadingFailed:
			ended[e.RequestID] = fmt.Sprintf("failed: %s (canceled %v)", e.ErrorText, e.Canceled)
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := chromedp.Call(p.ctx, network.Enable, network.EnableParams{}); err != nil {
		t.Fatal(err)
	}
	// count every cancel of a stream reader and every abort of a fetch the page makes
	const counters = `(() => {
		window.__cancels = 0; window.__aborts = 0;
		const cancel = ReadableStreamDefaultReader.prototype.cancel;
		ReadableStreamDefaultReader.prototype.cancel = function (...a) { window.__cancels++; return cancel.apply(this, a); };
		const abort = AbortController.prototype.abort;
		AbortController.prototype.abort = function (...a) { window.__aborts++; return abort.apply(this, a); };
	})()`
	if _, err := chromedp.Call(p.ctx, cdppage.AddScriptToEvaluateOnNewDocument, cdppage.AddScriptToEvaluateOnNewDocumentParams{Source: counters}); err != nil {
		t.Fatal(err)
	}
	p.open("/")
	p.ask("Which patients have severe wounds?")
	p.waitClarification()
	p.choose(`/infect/i`)
	p.waitAnswer(1)
	// each stream ends once the server is done
	deadline := time.Now().Add(20 * time.Second)
	for {
		mu.Lock()
		open := 0
		for id := range streams {
			if ended[id] == "" {
				open++
			}
		}
		n := len(streams)
		mu.Unlock()
		if n >= 2 && open == 0 {
			break
		}
		if time.Now().After(deadline) {
			p.fail("%d streamed requests seen, %d still open", n, open)
		}
		time.Sleep(50 * time.Millisecond)
	}
	if c := evalJS[int](p, `window.__cancels + window.__aborts`); c != 0 {
		p.fail("the page cancelled or aborted %d streams", c)
	}
	mu.Lock()
	defer mu.Unlock()
	for id, url := range streams {
		if ended[id] != "finished" {
			t.Logf("DevTools marks POST %s as %s although the page read it to its end", url, ended[id])
		}
	}
}

func TestWordsNotIDs(t *testing.T) {
	s := startSite(t)
	p := openPage(t, s)
	p.open("/")
	// a remembered choice reads as its label, not its id
	text := p.rememberLarge()
	if !strings.Contains(text, "Area > 10 cm²") || !strings.Contains(text, "“large”") || regexp.MustCompile(`(?i)area[ _]gt|opt:|vague:|_`).MatchString(text) {
		p.fail("the preference reads %q, want the choice's label and no ids", text)
	}
	p.do(key(kb.Escape))
	p.do(chromedp.Click(chromedp.ID("new-conversation")))

	// a chip's panel is headed by the user's word, not the slot's name
	p.do(chromedp.Click(chromedp.CSS(`label.switch:has(#no-ask)`)))
	p.ask("Which patients have severe wounds?")
	p.waitAnswer(1)
	p.do(chromedp.Click(chromedp.CSS(`.turn:last-of-type .card.answer button.chip[data-slot="vague:serious"]`)))
	panel := evalJS[string](p, lastAnswer+`.querySelector(".chip-panel").textContent`)
	if !strings.HasPrefix(panel, "“severe”") || strings.Contains(panel, "serious") || strings.Contains(panel, "vague") {
		p.fail("the chip's panel reads %q, want it headed “severe”, the word asked", panel)
	}
	p.do(chromedp.Click(chromedp.CSS(`.turn:last-of-type .card.answer .chip-panel button.alt[data-option="infected"]`)))
	p.waitAnswer(2)
	if msg := evalJS[string](p, `[...document.querySelectorAll(".msg.user.change")].pop().textContent`); !strings.Contains(msg, "Infected wounds") || !strings.Contains(msg, "“severe”") {
		p.fail("the change reads %q, want the choice's label and the user's word", msg)
	}
}

func TestSuggestionsDoNotRepeatTheQuestion(t *testing.T) {
	s := startSite(t)
	p := openPage(t, s)
	p.open("/")
	p.do(chromedp.Click(chromedp.CSS(`label.switch:has(#no-ask)`)))
	for i, q := range []string{"Infected wounds by clinic", "count wounds by wound type?"} {
		if i > 0 {
			p.do(chromedp.Click(chromedp.ID("new-conversation")))
		}
		p.ask(q)
		p.waitAnswer(1)
		pills := evalJS[[]string](p, `[...`+lastAnswer+`.querySelectorAll(".suggestions .pill")].flatMap((b) => [b.textContent, b.title])`)
		norm := func(t string) string {
			return strings.Join(strings.Fields(regexp.MustCompile(`[^\pL\pN]+`).ReplaceAllString(strings.ToLower(t), " ")), " ")
		}
		for _, pill := range pills {
			if norm(pill) == norm(q) {
				p.fail("after %q a suggestion asks it again: %q", q, pills)
			}
		}
		if len(pills) == 0 {
			p.fail("after %q no suggestion is left", q)
		}
	}
}

func TestMessageWithoutWords(t *testing.T) {
	s := startSite(t)
	p := openPage(t, s)
	p.open("/")
	for i, text := range []string{"🙂🙂", "?!..."} {
		evalJS[chromedp.Void](p, fmt.Sprintf(`(() => { const q = document.getElementById("question"); q.value = %s; q.dispatchEvent(new Event("input", { bubbles: true })); })()`, jsonString(text)))
		p.do(chromedp.Click(chromedp.ID("send")))
		p.wait("the notice", fmt.Sprintf(`document.querySelectorAll(".card.unusable").length === %d && !document.body.classList.contains("busy")`, i+1))
		card := `[...document.querySelectorAll(".card.unusable")].pop()`
		say := evalJS[string](p, card+`.textContent`)
		if !strings.Contains(say, "words") || strings.Contains(say, "Try again") {
			p.fail("after %q the page says %q, want why and what to ask, no retry", text, say)
		}
		if n := evalJS[int](p, card+`.querySelectorAll("button.pill").length`); n == 0 {
			p.fail("after %q no example question is offered", text)
		}
		if !evalJS[bool](p, `document.activeElement.matches(".card.unusable button.pill")`) {
			p.fail("the focus is not on the first example")
		}
	}
	if n := evalJS[int](p, `document.querySelectorAll(".card.error").length`); n != 0 {
		p.fail("%d error cards for messages that never went out", n)
	}
	// an example asks its question
	example := evalJS[string](p, `document.activeElement.textContent`)
	p.do(key(kb.Enter))
	p.wait("the example's outcome", `!document.body.classList.contains("busy") && (`+openCard+` !== null || `+answerCount+` > 0)`)
	if last := evalJS[string](p, `[...document.querySelectorAll(".msg.user")].pop().textContent`); !strings.Contains(last, example) {
		p.fail("the example sent %q, want %q", last, example)
	}
}

// TestForeignKeysShownByName: a wound's patient shows as the patient's
// name, not the id the wound stores; the download keeps both.
func TestForeignKeysShownByName(t *testing.T) {
	s := startSite(t)
	p := openPage(t, s)
	p.open("/")
	p.ask("List the large wounds")
	p.waitClarification()
	p.do(chromedp.Click(chromedp.CSS(`.turn:last-of-type form.clarify button[type=submit]`)))
	p.waitAnswer(1)
	first := `document.querySelector(".card.answer")`
	headings := evalJS[[]string](p, `[...`+first+`.querySelectorAll("thead th")].map((th) => th.textContent)`)
	col := 0
	for i, h := range headings {
		if regexp.MustCompile(`(?i)patient.?id`).MatchString(h) {
			p.fail("the table shows the stored id column %q; headings %q", h, headings)
		}
		if regexp.MustCompile(`^Patient`).MatchString(h) {
			col = i + 1
		}
	}
	if col == 0 {
		p.fail("no Patient column among %q", headings)
	}
	for _, v := range columnTexts(p, first, col) {
		if !regexp.MustCompile(`^[A-Z][a-z]+ [A-Z]`).MatchString(v) {
			p.fail("a patient reads %q, want a name", v)
		}
	}
}

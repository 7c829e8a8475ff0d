package web_test

import (
	"encoding/json"
	"fmt"
	"math"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
)

// The chart tests draw answers in headless Chromium: the labs answer from
// the demo data, and answers made here (a synthetic answer is put in the
// log through cards.js, as the chat does with one from the API), so that
// every case — a partial month, a currency, a long label — is certain to
// be there.

// col is a result column as the API sends it; kind, grain, unit and label
// are optional.
type col struct {
	Name  string `json:"name"`
	Type  string `json:"type"`
	Kind  string `json:"kind,omitempty"`
	Grain string `json:"grain,omitempty"`
	Unit  string `json:"unit,omitempty"`
	Label string `json:"label,omitempty"`
}

type chartHint struct {
	Type    string   `json:"type"`
	X       string   `json:"x"`
	Y       string   `json:"y"`
	Series  string   `json:"series,omitempty"`
	Partial []string `json:"partial,omitempty"`
}

type answer struct {
	Statement string    `json:"statement"`
	Columns   []col     `json:"columns"`
	Rows      [][]any   `json:"rows"`
	RowCount  int       `json:"row_count"`
	Chart     chartHint `json:"chart"`
}

// evalAwait evaluates a JavaScript expression, waiting for its promise.
func evalAwait[T any](p *page, js string) T {
	p.t.Helper()
	v, err := chromedp.Run(p.ctx, chromedp.Evaluate[T](js, chromedp.EvalAwaitPromise))
	if err != nil {
		p.fail("evaluate %s: %v", js, err)
	}
	return v
}

// showAnswer puts an answer card in the log as the chat does and returns
// a JavaScript expression for the card, once its chart is drawn.
func showAnswer(p *page, a answer) string {
	p.t.Helper()
	a.RowCount = len(a.Rows)
	b, err := json.Marshal(a)
	if err != nil {
		p.t.Fatal(err)
	}
	n := evalAwait[int](p, `(async () => {
		const { answerCard } = await import("/js/cards.js");
		const card = answerCard(`+string(b)+`);
		document.getElementById("messages").append(card);
		card.afterAttach();
		return document.querySelectorAll(".card.answer").length - 1;
	})()`)
	card := fmt.Sprintf(`document.querySelectorAll(".card.answer")[%d]`, n)
	p.wait("the chart", card+`.querySelector("svg.chart") !== null`)
	return card
}

// months returns n months from the first ("2023-01", "2023-02", …).
func months(first string, n int) []string {
	t, err := time.Parse("2006-01", first)
	if err != nil {
		panic(err)
	}
	out := make([]string, n)
	for i := range out {
		out[i] = t.AddDate(0, i, 0).Format("2006-01")
	}
	return out
}

// days returns n dates every step days from the first ("2023-11-06").
func days(first string, n, step int) []string {
	t, err := time.Parse("2006-01-02", first)
	if err != nil {
		panic(err)
	}
	out := make([]string, n)
	for i := range out {
		out[i] = t.AddDate(0, 0, i*step).Format("2006-01-02")
	}
	return out
}

// series makes a line answer of x values against made-up values.
func series(xCol col, xs []any, yCol col) answer {
	rows := make([][]any, len(xs))
	for i, x := range xs {
		rows[i] = []any{x, 100 + 40*math.Sin(float64(i)/2) + float64(i)}
	}
	return answer{Statement: "A series", Columns: []col{xCol, yCol}, Rows: rows, Chart: chartHint{Type: "line", X: xCol.Name, Y: yCol.Name}}
}

func anys[T any](xs []T) []any {
	out := make([]any, len(xs))
	for i, x := range xs {
		out[i] = x
	}
	return out
}

type tick struct {
	X     float64 `json:"x"`
	Label string  `json:"label"`
}

// xTicks reads the x axis's labels of a card's chart and where they are.
func xTicks(p *page, card string) []tick {
	return evalJS[[]tick](p, `[...`+card+`.querySelectorAll("svg.chart .axis.x text")].map((t) => ({ x: Number(t.getAttribute("x")), label: t.textContent }))`)
}

func TestChartCalendarTicks(t *testing.T) {
	p := openPage(t, startSite(t))
	p.open("/")
	const mon = `(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)`
	const wd = `(Mon|Tue|Wed|Thu|Fri|Sat|Sun)`
	value := col{Name: "value", Type: "real"}
	years := make([]any, 12)
	for i := range years {
		years[i] = 2012 + i
	}
	tests := []struct {
		name        string
		answer      answer
		label       string // every tick label
		first       string // the first, which carries the context
		minTicks    int
		everyPeriod bool // a tick on every data point (when there is room)
	}{
		{name: "months", answer: series(col{Name: "month", Type: "text"}, anys(months("2023-01", 18)), value),
			label: `^` + mon + `( \d{4})?$`, first: `^Jan 2023$`, minTicks: 4},
		{name: "days", answer: series(col{Name: "day", Type: "date"}, anys(days("2023-11-01", 12, 1)), value),
			label: `^` + wd + `(, Nov)? \d{1,2}$`, first: `^Wed, Nov 1$`, minTicks: 4},
		{name: "weeks", answer: series(col{Name: "week", Type: "date", Kind: "period", Grain: "week"}, anys(days("2023-10-02", 16, 7)), value),
			label: `^` + mon + ` \d{1,2}(, \d{4})?$`, first: `^Oct 2, 2023$`, minTicks: 4},
		{name: "years as numbers", answer: series(col{Name: "year", Type: "integer"}, years, value),
			label: `^\d{4}$`, first: `^2012$`, minTicks: 4},
		{name: "quarters", answer: series(col{Name: "quarter", Type: "text", Kind: "period", Grain: "quarter"}, anys([]string{"2022-Q1", "2022-Q2", "2022-Q3", "2022-Q4", "2023-Q1", "2023-Q2", "2023-Q3", "2023-Q4"}), value),
			label: `^` + mon + `( \d{4})?$`, first: `^Jan 2022$`, minTicks: 4, everyPeriod: true},
	}
	iso := regexp.MustCompile(`\d{4}-\d{2}`)
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			card := showAnswer(p, tc.answer)
			ticks := xTicks(p, card)
			dots := evalJS[[]float64](p, `[...`+card+`.querySelectorAll("svg.chart circle.dot")].map((c) => Number(c.getAttribute("cx")))`)
			if len(ticks) < tc.minTicks {
				t.Fatalf("%d ticks, want at least %d: %+v", len(ticks), tc.minTicks, ticks)
			}
			if tc.everyPeriod && len(ticks) != len(dots) {
				t.Errorf("%d ticks for %d periods with room for all: %+v", len(ticks), len(dots), ticks)
			}
			label := regexp.MustCompile(tc.label)
			if !regexp.MustCompile(tc.first).MatchString(ticks[0].Label) {
				t.Errorf("first tick %q, want %s", ticks[0].Label, tc.first)
			}
			for _, tk := range ticks {
				if iso.MatchString(tk.Label) || !label.MatchString(tk.Label) {
					t.Errorf("tick label %q, want %s in the reader's words", tk.Label, tc.label)
				}
				// every period is in the data, so a tick on a calendar
				// boundary is on a point
				on := false
				for _, x := range dots {
					on = on || math.Abs(x-tk.X) < 0.6
				}
				if !on {
					t.Errorf("tick %q at x=%.1f is on no period's start (points at %v)", tk.Label, tk.X, dots)
				}
			}
		})
	}
}

// tipText is the visible tooltip of a card's chart, or "" when hidden.
func tipText(p *page, card string) string {
	return evalJS[string](p, `(() => { const t = `+card+`.querySelector(".chart-tip"); return t && !t.hidden ? t.innerText : ""; })()`)
}

// tabIntoChart moves the focus to the card's Chart switch and presses Tab
// until it lands in the chart (the card's other controls, such as a
// download button, may come between); it fails after a few presses.
func tabIntoChart(p *page, card string) {
	p.t.Helper()
	evalJS[bool](p, card+`.querySelector(".segmented button:last-child").focus() || true`)
	for i := 0; i < 6; i++ {
		p.do(key(kb.Tab))
		if evalJS[bool](p, `!!document.activeElement.closest(".chart-keys")`) {
			return
		}
		if !evalJS[bool](p, `!!document.activeElement.closest(".card.answer")`) {
			break
		}
	}
	p.fail("Tab from the Chart switch never reached the chart: focus on %s", evalJS[string](p, `document.activeElement.outerHTML.slice(0, 120)`))
}

func TestChartTooltipKeyboardPointerTouch(t *testing.T) {
	p := openPage(t, startSite(t))
	p.open("/")
	clinics := []string{"North", "South", "East", "West", "Harbour"}
	visits := []int{1234, 876, 1502, 431, 990}
	rows := make([][]any, len(clinics))
	for i := range clinics {
		rows[i] = []any{clinics[i], visits[i]}
	}
	card := showAnswer(p, answer{Statement: "Visits per clinic", Columns: []col{{Name: "clinic", Type: "text"}, {Name: "visits", Type: "integer"}}, Rows: rows,
		Chart: chartHint{Type: "bar", X: "clinic", Y: "visits"}})

	// few bars: each shows its value
	labels := evalJS[[]string](p, `[...`+card+`.querySelectorAll("svg.chart text.value")].map((t) => t.textContent)`)
	want := evalJS[[]string](p, `[1234, 876, 1502, 431, 990].map((v) => v.toLocaleString())`)
	if strings.Join(labels, "|") != strings.Join(want, "|") {
		t.Errorf("value labels %q, want %q", labels, want)
	}

	// Tab enters the chart at its first bar
	tabIntoChart(p, card)
	if tip := tipText(p, card); !strings.Contains(tip, "North") || !strings.Contains(tip, want[0]) {
		t.Errorf("focused on the first bar, the tooltip says %q, want North and %s", tip, want[0])
	}
	if outline := evalJS[string](p, `getComputedStyle(document.activeElement).stroke`); outline == "none" {
		t.Errorf("the focused bar shows no focus ring")
	}
	p.do(key(kb.ArrowRight))
	if tip := tipText(p, card); !strings.Contains(tip, "South") || !strings.Contains(tip, want[1]) {
		t.Errorf("after →, the tooltip says %q, want South and %s", tip, want[1])
	}
	p.do(key(kb.End))
	if tip := tipText(p, card); !strings.Contains(tip, "Harbour") {
		t.Errorf("after End, the tooltip says %q, want Harbour", tip)
	}
	if name := evalJS[string](p, `document.activeElement.getAttribute("aria-label")`); !strings.Contains(name, "Harbour") || !strings.Contains(name, want[4]) {
		t.Errorf("the focused bar is named %q", name)
	}
	// one Tab stop for the whole chart: Tab leaves it
	p.do(key(kb.Tab))
	if evalJS[bool](p, `!!document.activeElement.closest(".chart-keys")`) {
		t.Errorf("Tab moved to another bar instead of leaving the chart")
	}
	if tip := tipText(p, card); tip != "" {
		t.Errorf("the tooltip stays after the focus left: %q", tip)
	}

	// the pointer over a bar shows it
	type pt struct{ X, Y float64 }
	centre := func(i int) pt {
		return evalJS[pt](p, fmt.Sprintf(`(() => { const r = %s.querySelectorAll("svg.chart rect.bar")[%d].getBoundingClientRect(); return { X: r.x + r.width / 2, Y: r.y + r.height / 2 }; })()`, card, i))
	}
	evalJS[bool](p, `(`+card+`.scrollIntoView({ block: "center" }), true)`)
	c := centre(2)
	p.do(chromedp.MouseEvent(chromedp.MouseMoved, c.X, c.Y))
	if tip := tipText(p, card); !strings.Contains(tip, "East") || !strings.Contains(tip, want[2]) {
		t.Errorf("hovering the third bar, the tooltip says %q", tip)
	}
	p.do(chromedp.MouseEvent(chromedp.MouseMoved, 2, 2))
	if tip := tipText(p, card); tip != "" {
		t.Errorf("the tooltip stays after the pointer left: %q", tip)
	}
	// a tap shows it too
	c = centre(3)
	p.do(chromedp.TapXY(c.X, c.Y))
	p.wait("the tooltip after a tap", `(() => { const t = `+card+`.querySelector(".chart-tip"); return !t.hidden && t.innerText.includes("West"); })()`)

	// a line: the keyboard walks the points in time order
	line := showAnswer(p, series(col{Name: "month", Type: "text"}, anys(months("2023-01", 6)), col{Name: "value", Type: "real"}))
	tabIntoChart(p, line)
	if tip := tipText(p, line); !strings.HasPrefix(tip, "Jan 2023") {
		t.Errorf("on the first point the tooltip says %q, want Jan 2023 first", tip)
	}
	p.do(key(kb.ArrowRight))
	if tip := tipText(p, line); !strings.HasPrefix(tip, "Feb 2023") {
		t.Errorf("after → the tooltip says %q, want Feb 2023 first", tip)
	}
}

// vitaminDAnswer asks the labs data for Ivan Petrov's vitamin D history
// and returns the card of the answer with a line in its chart.
func vitaminDAnswer(t *testing.T, p *page) string {
	t.Helper()
	p.selectSource("labs")
	p.ask(question(t, "labs", "my-vitamin-d", "my vitamin D results"))
	for i := 0; i < 5 && evalJS[int](p, answerCount) == 0; i++ {
		p.wait("a question or the answer", `!document.body.classList.contains("busy") && (`+openCard+` !== null || `+answerCount+` > 0)`)
		if evalJS[int](p, answerCount) > 0 {
			break
		}
		switch kind := evalJS[string](p, openCard+`.dataset.kind`); kind {
		case "scope":
			p.choose(`/Ivan Petrov/`)
		case "value_ambiguity":
			p.choose(`/25-OH/`)
		case "format":
			p.choose(`/plot/i`)
		default:
			p.choose(`/./`)
		}
	}
	p.waitAnswer(1)
	last := `[...document.querySelectorAll(".card.answer")].pop()`
	p.wait("the chart", last+`.querySelector("svg.chart path.line") !== null`)
	if evalJS[int](p, `(`+last+`.querySelector("svg.chart path.line").getAttribute("d").match(/[ML]/g) || []).length`) < 2 {
		p.do(chromedp.Click(chromedp.CSS(`.card.answer button.chip[data-slot="history"]`)))
		p.do(chromedp.Click(chromedp.CSS(`.chip-panel button.alt[data-option="history"]`)))
		p.waitAnswer(2)
		p.wait("the history chart", last+`.querySelector("svg.chart path.line") !== null`)
	}
	return last
}

func TestChartLegendReferenceRange(t *testing.T) {
	p := openPage(t, startSite(t))
	p.open("/")
	card := vitaminDAnswer(t, p)
	if !evalJS[bool](p, card+`.querySelector("svg.chart .ref-band") !== null`) {
		p.fail("the vitamin D chart shades no reference range")
	}
	entries := evalJS[[]string](p, `[...`+card+`.querySelectorAll(".chart-view .legend li")].map((li) => (li.dataset.kind || "") + ":" + li.textContent)`)
	var band, line bool
	for _, e := range entries {
		band = band || regexp.MustCompile(`^band:Reference range \d`).MatchString(e)
		line = line || strings.HasPrefix(e, "line:")
	}
	if !band || !line {
		p.fail("the legend reads %q; want an entry for the line and one for the reference range", entries)
	}
	// the band's swatch looks like the band
	if evalJS[string](p, `getComputedStyle(`+card+`.querySelector(".legend .swatch.band")).backgroundColor`) == "rgba(0, 0, 0, 0)" {
		t.Errorf("the reference range's swatch is empty")
	}
}

func TestChartColoursByName(t *testing.T) {
	p := openPage(t, startSite(t))
	p.open("/")
	byClinic := func(names ...string) answer {
		var rows [][]any
		for i, m := range months("2023-01", 4) {
			for j, n := range names {
				rows = append(rows, []any{m, n, float64(10*(i+1) + j)})
			}
		}
		return answer{Statement: "Visits by clinic", Columns: []col{{Name: "month", Type: "text"}, {Name: "clinic", Type: "text"}, {Name: "visits", Type: "real"}},
			Rows: rows, Chart: chartHint{Type: "line", X: "month", Y: "visits", Series: "clinic"}}
	}
	// the legend's colour per name, checked against the line drawn for it
	colours := func(card string) map[string]string {
		t.Helper()
		type entry struct{ Name, Swatch, Line string }
		got := evalJS[[]entry](p, `(() => {
			const c = `+card+`;
			const lines = [...c.querySelectorAll("svg.chart g.series path.line")];
			return [...c.querySelectorAll(".legend li")].map((li, i) => ({
				Name: li.textContent, Swatch: getComputedStyle(li.querySelector(".swatch")).backgroundColor,
				Line: lines[i] ? getComputedStyle(lines[i]).stroke : "" }));
		})()`)
		m := map[string]string{}
		seen := map[string]string{}
		for _, e := range got {
			if e.Swatch != e.Line {
				t.Errorf("%s: the legend shows %s, the line is %s", e.Name, e.Swatch, e.Line)
			}
			if other, ok := seen[e.Swatch]; ok {
				t.Errorf("%s and %s have the same colour %s in one chart", other, e.Name, e.Swatch)
			}
			seen[e.Swatch] = e.Name
			m[e.Name] = e.Swatch
		}
		return m
	}
	first := colours(showAnswer(p, byClinic("Clinic A", "Clinic B", "Clinic C")))
	second := colours(showAnswer(p, byClinic("Clinic C", "Harbour Clinic", "Clinic B")))
	for _, name := range []string{"Clinic B", "Clinic C"} {
		if first[name] == "" || first[name] != second[name] {
			t.Errorf("%s is %q in one answer and %q in the other", name, first[name], second[name])
		}
	}
}

// catLabels reads the category labels of a card's bar chart as a reader
// does: the lines of each label joined, its <title> left out.
func catLabels(p *page, card string) []string {
	return evalJS[[]string](p, `[...`+card+`.querySelectorAll("svg.chart text.cat")].map((t) => {
		const spans = [...t.querySelectorAll("tspan")];
		return spans.length ? spans.map((s) => s.textContent).join(" ") : [...t.childNodes].filter((n) => n.nodeType === 3).map((n) => n.textContent).join("");
	})`)
}

func TestChartFullLabels(t *testing.T) {
	p := openPage(t, startSite(t))
	p.open("/")
	names := []string{
		"Northern Regional Wound Care Centre",
		"St Bartholomew's Outpatient Clinic for Chronic Wounds",
		"Harbour Community Health Practice",
		"Riverside Diabetic Foot and Limb Preservation Service",
		"East",
		"Queen Alexandra Memorial Hospital Dermatology Unit",
	}
	bars := func(names []string) answer {
		rows := make([][]any, len(names))
		for i, n := range names {
			rows[i] = []any{n, 10 + 7*i}
		}
		return answer{Statement: "Open wounds per clinic", Columns: []col{{Name: "clinic", Type: "text"}, {Name: "open_wounds", Type: "integer"}}, Rows: rows,
			Chart: chartHint{Type: "bar", X: "clinic", Y: "open_wounds"}}
	}
	card := showAnswer(p, bars(names))
	endless := strings.Repeat("Outpatient Service for the Care of Chronic and Complex Wounds, ", 4) + "Annex"
	cut := showAnswer(p, bars([]string{endless, "West"}))
	check := func(when string) {
		t.Helper()
		if got := catLabels(p, card); strings.Join(got, "\n") != strings.Join(names, "\n") {
			t.Errorf("%s: the labels read\n%q\nwant them in full\n%q", when, got, names)
		}
	}
	check("at full width")
	if got := catLabels(p, cut); len(got) != 2 || got[0] != endless {
		t.Errorf("at full width a 260-character label reads %q", got)
	}

	// on a phone the long labels wrap above their bars, still whole; only
	// one that needs more than three lines is cut, with the whole in a title
	p.do(chromedp.EmulateViewport(375, 740, chromedp.EmulateMobile))
	p.wait("the charts redrawn", card+`.querySelector("svg.chart").getAttribute("width") < 375 && `+cut+`.querySelector("svg.chart").getAttribute("width") < 375`)
	check("at 375 px")
	got := catLabels(p, cut)
	if len(got) != 2 || !strings.HasSuffix(got[0], "…") || got[1] != "West" {
		t.Fatalf("at 375 px the labels read %q, want the first cut short", got)
	}
	if title := evalJS[string](p, cut+`.querySelector("svg.chart text.cat title").textContent`); title != endless {
		t.Errorf("the cut label's title is %q, want the whole label", title)
	}
	if name := evalJS[string](p, cut+`.querySelector(".chart-keys .key").getAttribute("aria-label")`); !strings.Contains(name, endless) {
		t.Errorf("the bar of the cut label is named %q, want the whole label in it", name)
	}
	if wide := evalJS[int](p, `document.documentElement.scrollWidth`); wide > 375 {
		t.Errorf("the page is %d px wide at 375 px", wide)
	}
}

func TestChartPartialPeriods(t *testing.T) {
	p := openPage(t, startSite(t))
	p.open("/")
	ms := months("2023-01", 12)
	a := series(col{Name: "month", Type: "text"}, anys(ms), col{Name: "visits", Type: "real"})
	a.Chart.Partial = []string{"2023-01", "2023-12"}
	card := showAnswer(p, a)

	type dot struct{ Fill, Stroke string }
	partial := evalJS[[]dot](p, `[...`+card+`.querySelectorAll("svg.chart circle.dot.partial")].map((c) => ({ Fill: getComputedStyle(c).fill, Stroke: getComputedStyle(c).stroke }))`)
	whole := evalJS[string](p, `getComputedStyle(`+card+`.querySelector("svg.chart circle.dot:not(.partial)")).fill`)
	if len(partial) != 2 {
		t.Fatalf("%d points drawn as partial, want 2", len(partial))
	}
	for _, d := range partial {
		if d.Fill == whole || d.Fill == d.Stroke {
			t.Errorf("a partial point is filled %s (whole points %s, its ring %s): not hollow", d.Fill, whole, d.Stroke)
		}
	}
	dashed := evalJS[[]string](p, `[...`+card+`.querySelectorAll("svg.chart path.line")].filter((l) => getComputedStyle(l).strokeDasharray !== "none").map((l) => l.getAttribute("d"))`)
	if len(dashed) != 1 || strings.Count(dashed[0], "M") != 2 {
		t.Errorf("dashed segments %q, want one into the last month and one out of the first", dashed)
	}
	legend := evalJS[string](p, card+`.querySelector(".legend") ? `+card+`.querySelector(".legend").textContent : ""`)
	if !strings.Contains(legend, "Partial period") {
		t.Errorf("the legend reads %q, want a Partial period entry", legend)
	}
	tabIntoChart(p, card)
	p.do(key(kb.End))
	if tip := tipText(p, card); !strings.HasPrefix(tip, "Dec 2023") || !strings.Contains(tip, "Partial period") {
		t.Errorf("on December the tooltip says %q, want it called a partial period", tip)
	}
	p.do(key(kb.ArrowLeft))
	if tip := tipText(p, card); strings.Contains(tip, "Partial") {
		t.Errorf("on November the tooltip says %q", tip)
	}

	// bars: the partial month hatched
	rows := make([][]any, 6)
	for i, m := range ms[:6] {
		rows[i] = []any{m, 40 + i}
	}
	bars := showAnswer(p, answer{Statement: "New patients per month", Columns: []col{{Name: "month", Type: "text"}, {Name: "patients", Type: "integer"}}, Rows: rows,
		Chart: chartHint{Type: "bar", X: "month", Y: "patients", Partial: []string{"2023-06"}}})
	if n := evalJS[int](p, bars+`.querySelectorAll("svg.chart rect.bar.partial").length`); n != 1 {
		t.Errorf("%d bars drawn as partial, want 1", n)
	}
	if fill := evalJS[string](p, `(() => { const h = `+bars+`.querySelector("svg.chart rect.hatch"); return h ? getComputedStyle(h).fill : ""; })()`); !strings.HasPrefix(fill, "url(") {
		t.Errorf("the partial bar is not hatched (fill %q)", fill)
	}
	if cats := catLabels(p, bars); len(cats) != 6 || cats[5] != "Jun 2023" {
		t.Errorf("the bars are labelled %q, want months in words", cats)
	}
	if !evalJS[bool](p, bars+`.querySelector(".legend").textContent.includes("Partial period")`) {
		t.Errorf("the bar chart's legend has no Partial period entry")
	}

	// without the hint nothing is partial and the single line needs no legend
	plain := showAnswer(p, series(col{Name: "month", Type: "text"}, anys(ms), col{Name: "visits", Type: "real"}))
	if n := evalJS[int](p, plain+`.querySelectorAll("svg.chart .partial").length + `+plain+`.querySelectorAll(".legend").length`); n != 0 {
		t.Errorf("an answer without partial periods has %d partial marks or legends", n)
	}
}

func TestChartColumnMetadata(t *testing.T) {
	p := openPage(t, startSite(t))
	p.open("/")
	revenue := []float64{1234.5, 18250, 25999.99, 9100, 30500, 27100.25}
	rows := make([][]any, len(revenue))
	for i, m := range months("2024-01", len(revenue)) {
		rows[i] = []any{m, revenue[i]}
	}
	a := answer{Statement: "Net revenue per month",
		Columns: []col{{Name: "month", Type: "text", Kind: "period", Grain: "month", Label: "Month"}, {Name: "revenue", Type: "real", Kind: "measure", Unit: "USD", Label: "Net revenue"}},
		Rows:    rows, Chart: chartHint{Type: "line", X: "month", Y: "revenue"}}
	card := showAnswer(p, a)
	if title := evalJS[string](p, card+`.querySelector("svg.chart .axis-title").textContent`); title != "Net revenue (USD)" {
		t.Errorf("the axis title is %q, want the column's label and unit", title)
	}
	if name := evalJS[string](p, card+`.querySelector("svg.chart > title").textContent`); name != "Line chart of net revenue by month" {
		t.Errorf("the chart is titled %q", name)
	}
	for _, l := range evalJS[[]string](p, `[...`+card+`.querySelectorAll("svg.chart .axis.y text:not(.axis-title)")].map((t) => t.textContent)`) {
		if !regexp.MustCompile(`^\$\d{1,3}(,\d{3})*(\.\d\d)?$`).MatchString(l) {
			t.Errorf("y tick %q is not in dollars", l)
		}
	}
	tabIntoChart(p, card)
	want := evalJS[string](p, `new Intl.NumberFormat(undefined, { style: "currency", currency: "USD" }).format(1234.5)`)
	if tip := tipText(p, card); !strings.Contains(tip, "Jan 2024") || !strings.Contains(tip, want) {
		t.Errorf("the tooltip says %q, want Jan 2024 and %s", tip, want)
	}

	// a unit that is not money is written after the number
	a.Columns[1] = col{Name: "wait", Type: "real", Unit: "days", Label: "Waiting time"}
	a.Chart.Y = "wait"
	days := showAnswer(p, a)
	if title := evalJS[string](p, days+`.querySelector("svg.chart .axis-title").textContent`); title != "Waiting time (days)" {
		t.Errorf("the axis title is %q", title)
	}
	tabIntoChart(p, days)
	if tip := tipText(p, days); !strings.Contains(tip, evalJS[string](p, `(1234.5).toLocaleString()`)+" days") {
		t.Errorf("the tooltip says %q, want the value in days", tip)
	}

	// without metadata: today's JSON, the name made readable, plain numbers
	a.Columns = []col{{Name: "month", Type: "text"}, {Name: "revenue", Type: "real"}}
	a.Chart.Y = "revenue"
	plain := showAnswer(p, a)
	if title := evalJS[string](p, plain+`.querySelector("svg.chart .axis-title").textContent`); title != "Revenue" {
		t.Errorf("without metadata the axis title is %q, want Revenue", title)
	}
	if evalJS[bool](p, `[...`+plain+`.querySelectorAll("svg.chart .axis.y text")].some((t) => t.textContent.includes("$"))`) {
		t.Errorf("without a unit the values are written as money")
	}
}

// TestChartModules checks the chart's pure parts in the browser: periods,
// calendar ticks, colours by name and label wrapping.
func TestChartModules(t *testing.T) {
	p := openPage(t, startSite(t))
	p.open("/")
	tests := []struct{ name, js string }{
		{"periods", `(async () => {
			const { parsePeriod } = await import("/js/chart/time.js");
			const at = (v, y) => { const p = parsePeriod(v, y); return p ? new Date(p.t).toISOString().slice(0, 10) + " " + p.grain : "null"; };
			return [at("2023"), at(2023, true), at(2023), at("2023-Q4"), at("2023-11"), at("2023-W45"), at("2023-11-06"), at("2023-11-06 10:30:00"), at("Clinic B")].join("|") ===
				"2023-01-01 year|2023-01-01 year|null|2023-10-01 quarter|2023-11-01 month|2023-11-06 week|2023-11-06 day|2023-11-06 time|null";
		})()`},
		{"ticks on month starts", `(async () => {
			const { calendarTicks } = await import("/js/chart/time.js");
			const ticks = calendarTicks(Date.UTC(2023, 0, 15), Date.UTC(2023, 11, 20), 2000, "day", (t) => t.length * 7);
			return ticks.length === 11 && ticks.every((t) => new Date(t.v).getUTCDate() === 1) && ticks[0].label === "Feb 2023" && ticks[1].label === "Mar";
		})()`},
		{"ticks on Mondays", `(async () => {
			const { calendarTicks } = await import("/js/chart/time.js");
			const ticks = calendarTicks(Date.UTC(2023, 10, 1), Date.UTC(2023, 11, 31), 500, "day", (t) => t.length * 7);
			return ticks.length >= 3 && ticks.every((t) => new Date(t.v).getUTCDay() === 1);
		})()`},
		{"ticks on years, none finer than the data", `(async () => {
			const { calendarTicks } = await import("/js/chart/time.js");
			const ticks = calendarTicks(Date.UTC(1990, 0, 1), Date.UTC(2023, 0, 1), 400, "year", (t) => t.length * 7);
			return ticks.length >= 3 && ticks.every((t) => new Date(t.v).getUTCMonth() === 0 && new Date(t.v).getUTCFullYear() % 5 === 0);
		})()`},
		{"colours by name", `(async () => {
			const { colourOf, colours } = await import("/js/chart/palette.js");
			const a = colours(["Clinic A", "Clinic B", "Clinic C"]), b = colours(["Clinic B"]);
			return a[1] === b[0] && b[0] === colourOf("Clinic B") && colourOf(" clinic b ") === colourOf("Clinic B") && new Set(colours(["a", "b", "c", "d", "e", "f", "g", "h"])).size === 8;
		})()`},
		{"wrap keeps words", `(async () => {
			const { wrap } = await import("/js/chart/text.js");
			const w = wrap("St Bartholomew's Outpatient Clinic for Chronic Wounds", 200, 3);
			const cut = wrap("a ".repeat(400), 60, 2);
			return !w.cut && w.lines.length > 1 && w.lines.join(" ") === "St Bartholomew's Outpatient Clinic for Chronic Wounds" && cut.cut && cut.lines.length === 2 && cut.lines[1].endsWith("…");
		})()`},
		{"currency", `(async () => {
			const { measureOf } = await import("/js/chart/values.js");
			const m = measureOf({ name: "revenue", unit: "EUR", label: "Revenue" }, [], []);
			const u = measureOf({ name: "area", unit: "cm²" }, [], []);
			return m.money && m.title === "Revenue (EUR)" && m.full(12.5) === new Intl.NumberFormat(undefined, { style: "currency", currency: "EUR" }).format(12.5) &&
				!u.money && u.full(2.5) === (2.5).toLocaleString() + " cm²" && u.title === "Area (cm²)";
		})()`},
	}
	for _, tc := range tests {
		ok, err := chromedp.Run(p.ctx, chromedp.Evaluate[bool](tc.js, chromedp.EvalAwaitPromise))
		if err != nil || !ok {
			t.Errorf("%s: %v, %v", tc.name, ok, err)
		}
	}
}

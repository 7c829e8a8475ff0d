package web_test

import (
	"testing"

	"github.com/chromedp/chromedp"
)

// TestModules checks the pure parts of the page's modules in the browser
// itself: the event-stream parser, SQL layout, number formats and the
// chart's reading of the API's hint.
func TestModules(t *testing.T) {
	p := openPage(t, startSite(t))
	p.open("/")
	tests := []struct {
		name, js string
	}{
		{"events split across reads", `(async () => {
			const { parseSSE } = await import("/js/api.js");
			const a = parseSSE('id: 1\nevent: step\ndata: {"ms":1}\n\nid: 2\nevent: te');
			const b = parseSSE(a.rest + 'xt\ndata: {"text":"hi"}\n\n');
			return a.events.length === 1 && a.events[0].id === 1 && a.events[0].data.ms === 1 &&
				b.events.length === 1 && b.events[0].event === "text" && b.events[0].data.text === "hi" && b.rest === "";
		})()`},
		{"heartbeats and CRLF", `(async () => {
			const { parseSSE } = await import("/js/api.js");
			const r = parseSSE(': ping\r\n\r\nid: 7\r\nevent: done\r\ndata: {}\r\n\r\n');
			return r.events.length === 2 && r.events[0].comment && r.events[1].event === "done" && r.events[1].id === 7;
		})()`},
		{"multi-line data", `(async () => {
			const { parseSSE } = await import("/js/api.js");
			const r = parseSSE('data: line 1\ndata: line 2\n\n');
			return r.events[0].data === "line 1\nline 2";
		})()`},
		{"SQL layout keeps quoted names", `(async () => {
			const { formatSQL } = await import("/js/cards.js");
			const f = formatSQL('SELECT "a where b" FROM "t" WHERE x = ? ORDER BY 1 LIMIT ?');
			return f === 'SELECT "a where b"\nFROM "t"\nWHERE x = ?\nORDER BY 1\nLIMIT ?';
		})()`},
		{"numbers", `(async () => {
			const { formatNumber, formatCell } = await import("/js/format.js");
			return formatNumber(1234567, "revenue") === (1234567).toLocaleString() && formatNumber(2026, "year") === "2026" &&
				formatNumber(1001, "patient_id") === "1001" && formatCell(null).text === "—" && formatNumber(0.012345, "x") === "0.0123";
		})()`},
		{"nice ticks", `(async () => {
			const { niceTicks } = await import("/js/chart.js");
			const t = niceTicks(1.6, 3.4, 5);
			return t[0] <= 1.6 && t[t.length - 1] >= 3.4 && t.length <= 8;
		})()`},
		{"series inferred from a text column", `(async () => {
			const { chartSpec } = await import("/js/chart.js");
			const s = chartSpec({ chart: { type: "line", x: "d", y: "v" }, columns: [{ name: "d", type: "date" }, { name: "k", type: "text" }, { name: "v", type: "real" }],
				rows: [["2026-01-01", "A", 1], ["2026-01-01", "B", 2], ["2026-02-01", "A", 3], ["2026-02-01", "B", 4]] });
			return s.series.length === 2 && s.series[0].name === "A" && s.series[0].points.length === 2;
		})()`},
		{"no chart for type none", `(async () => {
			const { chartSpec } = await import("/js/chart.js");
			return chartSpec({ chart: { type: "none" }, columns: [], rows: [] }) === null;
		})()`},
	}
	for _, tc := range tests {
		ok, err := chromedp.Run(p.ctx, chromedp.Evaluate[bool](tc.js, chromedp.EvalAwaitPromise))
		if err != nil || !ok {
			t.Errorf("%s: %v, %v", tc.name, ok, err)
		}
	}
}

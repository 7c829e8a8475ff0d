// Charts drawn in the page as SVG: a line chart for time series and a bar
// chart for categories, from the answer's chart hint (type, x, y and
// series column names). Nothing is fetched from anywhere.

import { h, s, uid } from "./dom.js";
import { formatNumber, humanize } from "./format.js";

const MAX_SERIES = 8;
const MAX_BARS = 50;
const DATE_RE = /^\d{4}-\d{2}(-\d{2})?([ T]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/;

function parseDate(v) {
  if (typeof v !== "string" || !DATE_RE.test(v)) return NaN;
  const t = v.length === 7 ? `${v}-01` : v;
  return Date.parse(t.length === 10 ? `${t}T00:00:00Z` : t);
}

// niceTicks returns about n round numbers covering [lo, hi].
export function niceTicks(lo, hi, n = 5) {
  if (!Number.isFinite(lo) || !Number.isFinite(hi)) return [0, 1];
  if (lo === hi) {
    const pad = Math.abs(lo) * 0.1 || 1;
    lo -= pad;
    hi += pad;
  }
  const raw = (hi - lo) / Math.max(1, n);
  const mag = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * mag).find((st) => st >= raw) || 10 * mag;
  const first = Math.floor(lo / step) * step;
  const ticks = [];
  for (let v = first; v <= hi + step * 1e-9; v += step) ticks.push(Number(v.toPrecision(12)));
  if (ticks[ticks.length - 1] < hi) ticks.push(Number((ticks[ticks.length - 1] + step).toPrecision(12)));
  return ticks;
}

function dateTicks(lo, hi, n) {
  const day = 86400000;
  const span = hi - lo;
  const fmt = span > 3 * 365 * day
    ? new Intl.DateTimeFormat(undefined, { year: "numeric", timeZone: "UTC" })
    : span > 80 * day
      ? new Intl.DateTimeFormat(undefined, { month: "short", year: "numeric", timeZone: "UTC" })
      : new Intl.DateTimeFormat(undefined, { month: "short", day: "numeric", timeZone: "UTC" });
  if (span === 0) return [{ v: lo, label: fmt.format(lo) }];
  const out = [];
  const count = Math.max(2, Math.min(n, 8));
  let last = "";
  for (let i = 0; i < count; i++) {
    const v = lo + (span * i) / (count - 1);
    const label = fmt.format(v);
    if (label !== last) out.push({ v, label });
    last = label;
  }
  return out;
}

// chartSpec reads an answer's chart hint against its columns and rows; it
// returns null when there is nothing to draw.
export function chartSpec(answer) {
  const chart = answer && answer.chart;
  if (!chart || (chart.type !== "line" && chart.type !== "bar")) return null;
  const cols = answer.columns || [];
  const rows = answer.rows || [];
  const xi = cols.findIndex((c) => c.name === chart.x);
  const yi = cols.findIndex((c) => c.name === chart.y);
  if (xi < 0 || yi < 0 || rows.length === 0) return null;
  let si = chart.series ? cols.findIndex((c) => c.name === chart.series) : -1;
  if (si < 0) si = inferSeries(cols, rows, xi, yi);
  const groups = new Map();
  for (const r of rows) {
    const y = r[yi];
    if (typeof y !== "number" || !Number.isFinite(y)) continue;
    const name = si >= 0 ? String(r[si] ?? "—") : humanize(cols[yi].name);
    if (!groups.has(name)) {
      if (groups.size >= MAX_SERIES) continue;
      groups.set(name, []);
    }
    groups.get(name).push({ x: r[xi], y, row: r });
  }
  if (groups.size === 0) return null;
  return { type: chart.type, xName: cols[xi].name, yName: cols[yi].name, series: [...groups].map(([name, points]) => ({ name, points })), cols, rows };
}

// inferSeries finds a text column that tells repeated x values apart (the
// analyte of lab results, say) when the hint names none.
function inferSeries(cols, rows, xi, yi) {
  const xs = new Set(rows.map((r) => r[xi]));
  if (xs.size === rows.length) return -1;
  for (let i = 0; i < cols.length; i++) {
    if (i === xi || i === yi || cols[i].type !== "text") continue;
    const vals = new Set(rows.map((r) => r[i]));
    if (vals.size < 2 || vals.size > MAX_SERIES) continue;
    const pairs = new Set(rows.map((r) => `${r[xi]}\u0000${r[i]}`));
    if (pairs.size === rows.length) return i;
  }
  return -1;
}

// chartView returns an element that draws the chart at its own width and
// redraws when that changes; null when the answer has no chart.
export function chartView(answer) {
  const spec = chartSpec(answer);
  if (!spec) return null;
  const titleText = `${spec.type === "line" ? "Line" : "Bar"} chart of ${humanize(spec.yName).toLowerCase()} by ${humanize(spec.xName).toLowerCase()}` +
    (spec.series.length > 1 ? `, ${spec.series.length} series` : "");
  const legend = spec.series.length > 1
    ? h("ul", { class: "legend", "aria-label": "Series" }, spec.series.map((se, i) => h("li", {}, h("span", { class: `swatch s${i + 1}`, "aria-hidden": "true" }), se.name)))
    : null;
  const plot = h("div", { class: "plot" });
  const el = h("figure", { class: "chart-view", "data-chart": spec.type }, legend, plot);
  let width = 0;
  const draw = () => {
    const w = Math.round(plot.clientWidth);
    if (w < 50 || Math.abs(w - width) < 4) return;
    width = w;
    plot.replaceChildren(spec.type === "line" ? lineChart(spec, w, titleText) : barChart(spec, w, titleText));
  };
  if (typeof ResizeObserver === "function") {
    let pending = false;
    new ResizeObserver(() => {
      if (pending) return;
      pending = true;
      requestAnimationFrame(() => { pending = false; draw(); });
    }).observe(plot);
  }
  el.draw = draw;
  return el;
}

function svgRoot(w, hgt, titleText) {
  const tid = uid("chart-title");
  return s("svg", { width: w, height: hgt, viewBox: `0 0 ${w} ${hgt}`, role: "img", "aria-labelledby": tid, class: "chart" },
    s("title", { id: tid }, titleText));
}

// axisTitle names the measure, with its unit when every row has the same
// one ("Value (ng/mL)").
function axisTitle(spec) {
  const ui = spec.cols.findIndex((c) => c.name === "unit");
  const units = ui >= 0 ? new Set(spec.rows.map((r) => r[ui]).filter((u) => u !== null && u !== "")) : new Set();
  return humanize(spec.yName) + (units.size === 1 ? ` (${[...units][0]})` : "");
}

function yAxis(svg, ticks, scale, left, right, yName, title) {
  const g = s("g", { class: "axis y" });
  if (title) g.append(s("text", { x: 0, y: 11, class: "axis-title" }, title));
  for (const t of ticks) {
    const y = scale(t);
    g.append(s("line", { x1: left, x2: right, y1: y, y2: y, class: "grid" }));
    g.append(s("text", { x: left - 6, y: y + 4, "text-anchor": "end" }, formatNumber(t, yName)));
  }
  svg.append(g);
}

function labelWidth(texts) {
  return Math.max(...texts.map((t) => String(t).length)) * 7 + 10;
}

function lineChart(spec, w, titleText) {
  const allX = spec.series.flatMap((se) => se.points.map((p) => p.x));
  const dates = allX.map(parseDate);
  let kind = "category";
  if (dates.every((d) => Number.isFinite(d))) kind = "time";
  else if (allX.every((x) => typeof x === "number")) kind = "number";
  const cats = kind === "category" ? [...new Set(allX.map(String))] : [];
  const xv = (x) => (kind === "time" ? parseDate(x) : kind === "number" ? x : cats.indexOf(String(x)));
  const series = spec.series.map((se) => ({ ...se, points: se.points.map((p) => ({ ...p, xv: xv(p.x) })).sort((a, b) => a.xv - b.xv) }));

  const ys = series.flatMap((se) => se.points.map((p) => p.y));
  let lo = Math.min(...ys), hi = Math.max(...ys);
  const band = referenceBand(spec);
  if (band) { lo = Math.min(lo, band.lo); hi = Math.max(hi, band.hi); }
  const ticks = niceTicks(lo, hi, 5);
  const hgt = Math.round(Math.min(340, Math.max(220, w * 0.45)));
  const m = { top: 26, right: 18, bottom: 30, left: labelWidth(ticks.map((t) => formatNumber(t, spec.yName))) };
  const iw = w - m.left - m.right, ih = hgt - m.top - m.bottom;
  const xs = series.flatMap((se) => se.points.map((p) => p.xv));
  const x0 = Math.min(...xs), x1 = Math.max(...xs);
  const sx = (v) => m.left + (x1 === x0 ? iw / 2 : ((v - x0) / (x1 - x0)) * iw);
  const sy = (v) => m.top + ih - ((v - ticks[0]) / (ticks[ticks.length - 1] - ticks[0])) * ih;

  const svg = svgRoot(w, hgt, titleText);
  if (band) {
    svg.append(s("rect", { class: "ref-band", x: m.left, width: iw, y: sy(band.hi), height: Math.max(0, sy(band.lo) - sy(band.hi)) },
      s("title", {}, `Reference range ${formatNumber(band.lo)}–${formatNumber(band.hi)}`)));
  }
  yAxis(svg, ticks, sy, m.left, m.left + iw, spec.yName, axisTitle(spec));

  const gx = s("g", { class: "axis x" });
  gx.append(s("line", { x1: m.left, x2: m.left + iw, y1: m.top + ih, y2: m.top + ih, class: "baseline" }));
  const nTicks = Math.max(2, Math.floor(iw / 90));
  let xticks;
  if (kind === "time") xticks = dateTicks(x0, x1, nTicks);
  else if (kind === "number") xticks = niceTicks(x0, x1, nTicks).filter((v) => v >= x0 && v <= x1).map((v) => ({ v, label: formatNumber(v, spec.xName) }));
  else {
    const every = Math.max(1, Math.ceil(cats.length / nTicks));
    xticks = cats.map((c, i) => ({ v: i, label: c })).filter((_, i) => i % every === 0);
  }
  xticks.forEach((t, i) => {
    const anchor = xticks.length > 1 && i === 0 && sx(t.v) - m.left < 30 ? "start" : xticks.length > 1 && i === xticks.length - 1 && m.left + iw - sx(t.v) < 30 ? "end" : "middle";
    gx.append(s("text", { x: sx(t.v), y: m.top + ih + 18, "text-anchor": anchor }, t.label));
  });
  svg.append(gx);

  series.forEach((se, i) => {
    const g = s("g", { class: `series s${i + 1}` });
    const d = se.points.map((p, j) => `${j ? "L" : "M"}${sx(p.xv).toFixed(1)},${sy(p.y).toFixed(1)}`).join("");
    g.append(s("path", { d, class: "line" }));
    for (const p of se.points) {
      g.append(s("circle", { cx: sx(p.xv).toFixed(1), cy: sy(p.y).toFixed(1), r: se.points.length > 60 ? 2 : 3.5, class: "dot" },
        s("title", {}, `${se.name}: ${p.x} — ${formatNumber(p.y, spec.yName)}`)));
    }
    svg.append(g);
  });
  return svg;
}

// referenceBand finds a normal range given by reference_low/high columns
// that is the same on every row (lab results), to shade behind the line.
function referenceBand(spec) {
  if (spec.series.length !== 1) return null;
  const lo = spec.cols.findIndex((c) => c.name === "reference_low");
  const hi = spec.cols.findIndex((c) => c.name === "reference_high");
  if (lo < 0 || hi < 0) return null;
  const los = new Set(spec.rows.map((r) => r[lo])), his = new Set(spec.rows.map((r) => r[hi]));
  if (los.size !== 1 || his.size !== 1) return null;
  const band = { lo: [...los][0], hi: [...his][0] };
  return typeof band.lo === "number" && typeof band.hi === "number" && band.lo < band.hi ? band : null;
}

function barChart(spec, w, titleText) {
  const cats = [];
  for (const se of spec.series) for (const p of se.points) if (!cats.includes(String(p.x))) cats.push(String(p.x));
  const shown = cats.slice(0, MAX_BARS);
  const value = (se, c) => { const p = se.points.find((q) => String(q.x) === c); return p ? p.y : null; };
  const ys = spec.series.flatMap((se) => se.points.map((p) => p.y));
  const ticks = niceTicks(Math.min(0, ...ys), Math.max(0, ...ys), 5);
  const longest = Math.max(...shown.map((c) => c.length));
  const horizontal = shown.length > 8 || longest > 10 || w < 480;
  const nS = spec.series.length;
  const svgTitle = titleText + (cats.length > shown.length ? ` (first ${shown.length} of ${cats.length})` : "");

  if (horizontal) {
    const band = nS > 1 ? 14 * nS + 10 : 26;
    const labelW = Math.min(Math.max(60, Math.min(longest, 24) * 7 + 12), Math.round(w * 0.4));
    const m = { top: 8, right: 16, bottom: 44, left: labelW };
    const iw = w - m.left - m.right;
    const hgt = m.top + m.bottom + band * shown.length;
    const sx = (v) => m.left + ((v - ticks[0]) / (ticks[ticks.length - 1] - ticks[0])) * iw;
    const svg = svgRoot(w, hgt, svgTitle);
    const g = s("g", { class: "axis x" });
    for (const t of niceTicks(ticks[0], ticks[ticks.length - 1], Math.max(2, Math.floor(iw / 80)))) {
      if (t < ticks[0] || t > ticks[ticks.length - 1]) continue;
      g.append(s("line", { x1: sx(t), x2: sx(t), y1: m.top, y2: hgt - m.bottom, class: "grid" }));
      g.append(s("text", { x: sx(t), y: hgt - m.bottom + 18, "text-anchor": "middle" }, formatNumber(t, spec.yName)));
    }
    g.append(s("text", { x: m.left + iw / 2, y: hgt - 6, "text-anchor": "middle", class: "axis-title" }, axisTitle(spec)));
    svg.append(g);
    const maxChars = Math.floor((labelW - 10) / 7);
    shown.forEach((c, ci) => {
      const y0 = m.top + ci * band;
      const label = c.length > maxChars ? `${c.slice(0, maxChars - 1)}…` : c;
      svg.append(s("text", { x: m.left - 6, y: y0 + band / 2 + 4, "text-anchor": "end", class: "cat" }, label, s("title", {}, c)));
      spec.series.forEach((se, si) => {
        const v = value(se, c);
        if (v === null) return;
        const bh = nS > 1 ? 12 : band - 8;
        const y = nS > 1 ? y0 + 5 + si * 14 : y0 + 4;
        const xA = sx(Math.min(0, v)), xB = sx(Math.max(0, v));
        svg.append(s("rect", { x: xA, y, width: Math.max(1, xB - xA), height: bh, class: `bar s${si + 1}` },
          s("title", {}, `${nS > 1 ? `${se.name}, ` : ""}${c}: ${formatNumber(v, spec.yName)}`)));
      });
    });
    svg.append(s("line", { x1: sx(0), x2: sx(0), y1: m.top, y2: hgt - m.bottom, class: "baseline" }));
    return svg;
  }

  const hgt = Math.round(Math.min(340, Math.max(220, w * 0.45)));
  const m = { top: 26, right: 12, bottom: 30, left: labelWidth(ticks.map((t) => formatNumber(t, spec.yName))) };
  const iw = w - m.left - m.right, ih = hgt - m.top - m.bottom;
  const sy = (v) => m.top + ih - ((v - ticks[0]) / (ticks[ticks.length - 1] - ticks[0])) * ih;
  const svg = svgRoot(w, hgt, svgTitle);
  yAxis(svg, ticks, sy, m.left, m.left + iw, spec.yName, axisTitle(spec));
  const band = iw / shown.length;
  const inner = band * 0.7;
  shown.forEach((c, ci) => {
    const x0 = m.left + ci * band + (band - inner) / 2;
    spec.series.forEach((se, si) => {
      const v = value(se, c);
      if (v === null) return;
      const bw = inner / nS;
      const yA = sy(Math.max(0, v)), yB = sy(Math.min(0, v));
      svg.append(s("rect", { x: x0 + si * bw, y: yA, width: Math.max(1, bw - 1), height: Math.max(1, yB - yA), class: `bar s${si + 1}` },
        s("title", {}, `${nS > 1 ? `${se.name}, ` : ""}${c}: ${formatNumber(v, spec.yName)}`)));
    });
    svg.append(s("text", { x: m.left + ci * band + band / 2, y: m.top + ih + 18, "text-anchor": "middle", class: "cat" }, c));
  });
  svg.append(s("line", { x1: m.left, x2: m.left + iw, y1: sy(0), y2: sy(0), class: "baseline" }));
  return svg;
}

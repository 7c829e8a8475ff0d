// Charts drawn in the page as SVG: a line chart for time series and a bar
// chart for categories, from the answer's chart hint (type, x, y, series
// column names, and the x values of partial periods) and the columns'
// metadata when they carry it (kind, grain, unit, label). Nothing is
// fetched from anywhere. The pieces live in js/chart/: time.js (periods
// and calendar ticks), values.js (number formats), palette.js (colours by
// series name), text.js (measuring labels), axis.js, line.js, bar.js,
// legend.js and interact.js (focusable marks and the tooltip).

import { h } from "./dom.js";
import { formatNumber } from "./format.js";
import { parsePeriod, periodLabel, shortPeriodLabel, coarser } from "./chart/time.js";
import { columnLabel, measureOf } from "./chart/values.js";
import { colours } from "./chart/palette.js";
import { legend } from "./chart/legend.js";
import { lineChart } from "./chart/line.js";
import { barChart } from "./chart/bar.js";
import { interact } from "./chart/interact.js";

export { niceTicks } from "./chart/values.js";

const MAX_SERIES = 8;
const GRAINS = new Set(["day", "week", "month", "quarter", "year"]);
const NOT_TIME = new Set(["id", "name", "category", "bool", "text", "measure", "count"]);

// xAxisOf reads how the x column is drawn: "time" (with the grain of its
// periods), "number" or "category".
function xAxisOf(col, values) {
  const yearLike = col.kind === "year" || col.grain === "year" || /(^|_)year$/i.test(col.name);
  if (!NOT_TIME.has(col.kind) && values.length > 0) {
    const ps = values.map((v) => parsePeriod(v, yearLike));
    if (ps.every(Boolean)) {
      // the finest grain the values show, unless the column says
      let grain = ps.reduce((g, p) => (coarser(g, p.grain) ? p.grain : g), "year");
      if (GRAINS.has(col.grain)) grain = col.grain;
      return { kind: "time", grain, yearLike };
    }
  }
  if (col.kind !== "category" && values.every((v) => typeof v === "number")) return { kind: "number" };
  return { kind: "category" };
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
  const xcol = cols[xi], ycol = cols[yi];
  const measure = measureOf(ycol, cols, rows);
  const partial = new Set((Array.isArray(chart.partial) ? chart.partial : []).map(String));
  const used = rows.filter((r) => typeof r[yi] === "number" && Number.isFinite(r[yi]));
  const x = xAxisOf(xcol, used.map((r) => r[xi]));
  const groups = new Map();
  for (const r of used) {
    const name = si >= 0 ? String(r[si] ?? "—") : measure.label;
    if (!groups.has(name)) {
      if (groups.size >= MAX_SERIES) continue;
      groups.set(name, []);
    }
    const p = { x: r[xi], y: r[yi], row: r, partial: partial.has(String(r[xi])) };
    if (x.kind === "time") p.t = parsePeriod(r[xi], x.yearLike).t;
    groups.get(name).push(p);
  }
  if (groups.size === 0) return null;
  const names = [...groups.keys()];
  const slots = colours(names);
  const series = names.map((name, i) => ({ name, colour: slots[i], points: groups.get(name) }));
  const xLabel = (p) => {
    if (x.kind === "time") return chart.type === "bar" ? shortPeriodLabel(p.t, x.grain) : periodLabel(p.t, x.grain);
    if (p.x === null || p.x === undefined) return "—";
    if (typeof p.x === "boolean") return p.x ? "Yes" : "No";
    return typeof p.x === "number" ? formatNumber(p.x, xcol.name) : String(p.x);
  };
  const spec = {
    type: chart.type, xName: xcol.name, yName: ycol.name, xTitle: columnLabel(xcol),
    x, measure, series, cols, rows, xLabel,
    // describe says what one point is, for its tooltip and its name
    describe(p, se) {
      const head = x.kind === "time" ? periodLabel(p.t, x.grain) : xLabel(p);
      const value = measure.full(p.y);
      const who = series.length > 1 ? se.name : measure.label;
      return { head, value, series: who, partial: p.partial, label: `${head}, ${who}: ${value}${p.partial ? ", partial period" : ""}` };
    },
  };
  spec.band = referenceBand(spec);
  return spec;
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

// referenceBand finds a normal range given by reference_low/high columns
// (or those the measure's range_low/range_high name) that is the same on
// every row, as lab results have, to shade behind the line.
function referenceBand(spec) {
  if (spec.series.length !== 1 || spec.type !== "line") return null;
  // the measure may name its range's columns; lab results call them so
  const y = spec.cols.find((c) => c.name === spec.yName);
  const lo = spec.cols.findIndex((c) => c.name === (y.range_low || "reference_low"));
  const hi = spec.cols.findIndex((c) => c.name === (y.range_high || "reference_high"));
  if (lo < 0 || hi < 0) return null;
  const los = new Set(spec.rows.map((r) => r[lo])), his = new Set(spec.rows.map((r) => r[hi]));
  if (los.size !== 1 || his.size !== 1) return null;
  const band = { lo: [...los][0], hi: [...his][0] };
  return typeof band.lo === "number" && typeof band.hi === "number" && band.lo < band.hi ? band : null;
}

// legendItems lists every kind of mark the chart draws. A single series
// alone needs no legend (the axis title names it); with a reference range
// or partial periods beside it, it is listed too.
function legendItems(spec) {
  const items = [];
  const partial = spec.series.some((se) => se.points.some((p) => p.partial));
  if (spec.series.length === 1 && !spec.band && !partial) return items;
  for (const se of spec.series) items.push({ kind: spec.type, colour: se.colour, text: se.name });
  if (spec.band) {
    const m = spec.measure;
    items.push({ kind: "band", text: `Reference range ${m.money ? m.full(spec.band.lo) : formatNumber(spec.band.lo, spec.yName)}–${m.full(spec.band.hi)}` });
  }
  if (partial) items.push({ kind: `partial-${spec.type}`, text: "Partial period" });
  return items;
}

// chartView returns an element that draws the chart at its own width and
// redraws when that changes; null when the answer has no chart.
export function chartView(answer) {
  const spec = chartSpec(answer);
  if (!spec) return null;
  const titleText = `${spec.type === "line" ? "Line" : "Bar"} chart of ${spec.measure.label.toLowerCase()} by ${spec.xTitle.toLowerCase()}` +
    (spec.series.length > 1 ? `, ${spec.series.length} series` : "");
  const plot = h("div", { class: "plot" });
  const el = h("figure", { class: "chart-view", "data-chart": spec.type }, legend(legendItems(spec)), plot);
  let width = 0, view = null;
  const draw = () => {
    const w = Math.round(plot.clientWidth);
    if (w < 50 || Math.abs(w - width) < 4) return;
    width = w;
    const refocus = view ? view.focusIndex() : -1;
    const pic = spec.type === "line" ? lineChart(spec, w, titleText) : barChart(spec, w, titleText);
    view = interact(pic.marks, { w, hgt: pic.hgt, zone: pic.zone, nav: pic.nav });
    plot.replaceChildren(pic.svg, view.layer, view.tip);
    if (refocus >= 0) view.focus(refocus);
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

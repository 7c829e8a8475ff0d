// The bar chart: a value per category (grouped when there are series).
// Columns when a few short labels fit under them; otherwise horizontal bars
// with each label in full — beside the bars when it fits in under half the
// width, else on its own lines above its bars — and cut (with the whole
// text kept in a <title> and the tooltip) only past three lines. With a
// dozen bars or fewer each bar is labelled with its value.

import { s } from "../dom.js";
import { svgRoot, valueTicks, yAxis, hatches } from "./axis.js";
import { measure, wrap } from "./text.js";

export const MAX_BARS = 50;
const VALUE_LABELS_UP_TO = 12;
const LINE = 14;

// barChart draws spec at width w; it returns the picture, its height, the
// marks a reader can focus and the plot area.
export function barChart(spec, w, titleText) {
  const cats = [];
  const seen = new Set();
  for (const se of spec.series) {
    for (const p of se.points) {
      const key = String(p.x);
      if (!seen.has(key)) { seen.add(key); cats.push({ key, label: spec.xLabel(p) }); }
    }
  }
  const shown = cats.slice(0, MAX_BARS);
  const find = (se, key) => se.points.find((q) => String(q.x) === key) || null;
  const bars = shown.flatMap((c, ci) => spec.series.map((se, si) => ({ ci, si, se, p: find(se, c.key) })).filter((b) => b.p));
  const ys = bars.map((b) => b.p.y);
  const lo = Math.min(0, ...ys), hi = Math.max(0, ...ys);
  const fmt = spec.measure;
  const withValues = bars.length <= VALUE_LABELS_UP_TO;
  const svgTitle = titleText + (cats.length > shown.length ? ` (first ${shown.length} of ${cats.length})` : "");
  const longest = Math.max(...shown.map((c) => measure(c.label)));

  // columns when the labels fit under them
  const vt5 = valueTicks(lo, hi, fmt, 5);
  const left = Math.max(36, vt5.width + 12);
  const slot = (w - left - 12) / shown.length;
  if (w >= 480 && shown.length <= VALUE_LABELS_UP_TO && longest <= slot - 8) {
    return columns(spec, w, svgTitle, { shown, bars, vt: vt5, left, withValues });
  }
  return rows(spec, w, svgTitle, { shown, bars, lo, hi, longest, withValues });
}

function drawBar(svg, b, rect, fills) {
  const cls = `bar s${b.se.colour}${b.p.partial ? " partial" : ""}`;
  svg.append(s("rect", { ...rect, class: cls }));
  if (b.p.partial) svg.append(s("rect", { ...rect, class: "hatch", fill: fills.get(b.se.colour) }));
}

function mark(spec, b, box) {
  return { cx: box.x + box.w / 2, cy: box.y + box.h / 2, box, si: b.si, colour: b.se.colour, ...spec.describe(b.p, b.se) };
}

function columns(spec, w, title, { shown, bars, vt, left, withValues }) {
  const hgt = Math.round(Math.min(340, Math.max(220, w * 0.45)));
  const m = { top: withValues ? 30 : 26, right: 12, bottom: 30, left };
  const iw = w - m.left - m.right, ih = hgt - m.top - m.bottom;
  const { ticks } = vt;
  const sy = (v) => m.top + ih - ((v - ticks[0]) / (ticks[ticks.length - 1] - ticks[0])) * ih;
  const svg = svgRoot(w, hgt, title);
  const fills = hatches(svg, bars.filter((b) => b.p.partial).map((b) => b.se.colour));
  yAxis(svg, vt, sy, m.left, m.left + iw, spec.measure.title);
  const band = iw / shown.length, inner = band * 0.7, nS = spec.series.length, bw = inner / nS;
  const labels = withValues && bars.every((b) => measure(spec.measure.short(b.p.y)) <= bw + 6);
  const marks = [];
  shown.forEach((c, ci) => {
    svg.append(s("text", { x: m.left + ci * band + band / 2, y: m.top + ih + 18, "text-anchor": "middle", class: "cat" }, c.label));
  });
  for (const b of bars) {
    const v = b.p.y;
    const x = m.left + b.ci * band + (band - inner) / 2 + b.si * bw;
    const yA = sy(Math.max(0, v)), yB = sy(Math.min(0, v));
    const rect = { x, y: yA, width: Math.max(1, bw - 1), height: Math.max(1, yB - yA) };
    drawBar(svg, b, rect, fills);
    if (labels) svg.append(s("text", { x: x + bw / 2, y: v < 0 ? yB + 12 : yA - 4, "text-anchor": "middle", class: "value" }, spec.measure.short(v)));
    marks.push(mark(spec, b, { x, y: Math.min(yA, yB - 4), w: rect.width, h: Math.max(4, rect.height) }));
  }
  svg.append(s("line", { x1: m.left, x2: m.left + iw, y1: sy(0), y2: sy(0), class: "baseline" }));
  return { svg, hgt, marks, nav: "bar", zone: { x: m.left, y: m.top, w: iw, h: ih } };
}

function rows(spec, w, title, { shown, bars, lo, hi, longest, withValues }) {
  const nS = spec.series.length;
  const barH = nS > 1 ? 12 : 18, gap = 2;
  const beside = longest + 14 <= Math.round(w * 0.45);
  const m = { top: 8, right: 16, bottom: 44, left: beside ? Math.max(48, longest + 14) : 8 };
  const fmt = spec.measure;
  if (withValues) m.right = Math.max(m.right, Math.max(...bars.map((b) => measure(fmt.short(b.p.y)))) + 10);
  const iw = w - m.left - m.right;
  const vt = valueTicks(lo, hi, fmt, Math.max(2, Math.min(5, Math.floor(iw / 80))));
  const { ticks } = vt;
  const sx = (v) => m.left + ((v - ticks[0]) / (ticks[ticks.length - 1] - ticks[0])) * iw;

  // the rows: label lines (above the bars when not beside them) and bars
  const layout = [];
  let y = m.top;
  for (const c of shown) {
    const text = beside ? { lines: [c.label], cut: false } : wrap(c.label, w - 16, 3);
    const head = beside ? 0 : text.lines.length * LINE + 4;
    const barsH = nS * (barH + gap);
    const rowH = beside ? Math.max(26, barsH + 10) : head + barsH + 12;
    layout.push({ y, head, rowH, text, barsTop: y + (beside ? (rowH - barsH) / 2 : head) });
    y += rowH;
  }
  const hgt = y + m.bottom;
  const svg = svgRoot(w, hgt, title);
  const fills = hatches(svg, bars.filter((b) => b.p.partial).map((b) => b.se.colour));

  const g = s("g", { class: "axis x" });
  vt.ticks.forEach((t, i) => {
    g.append(s("line", { x1: sx(t), x2: sx(t), y1: m.top, y2: hgt - m.bottom, class: "grid" }));
    g.append(s("text", { x: sx(t), y: hgt - m.bottom + 18, "text-anchor": "middle" }, vt.labels[i]));
  });
  g.append(s("text", { x: m.left + iw / 2, y: hgt - 6, "text-anchor": "middle", class: "axis-title" }, fmt.title));
  svg.append(g);

  shown.forEach((c, ci) => {
    const L = layout[ci];
    const attrs = beside
      ? { x: m.left - 6, y: L.barsTop + (nS * (barH + gap)) / 2 + 3, "text-anchor": "end", class: "cat" }
      : { x: 8, y: L.y + LINE - 2, "text-anchor": "start", class: "cat above" };
    const lines = L.text.lines.length === 1 ? [L.text.lines[0]] : L.text.lines.map((l, i) => s("tspan", { x: attrs.x, dy: i ? LINE : 0 }, l));
    svg.append(s("text", attrs, ...lines, L.text.cut ? s("title", {}, c.label) : null));
  });

  const marks = [];
  for (const b of bars) {
    const v = b.p.y;
    const top = layout[b.ci].barsTop + b.si * (barH + gap);
    const xA = sx(Math.min(0, v)), xB = sx(Math.max(0, v));
    const rect = { x: xA, y: top, width: Math.max(1, xB - xA), height: barH };
    drawBar(svg, b, rect, fills);
    if (withValues) {
      const label = fmt.short(v), lw = measure(label);
      const outside = v < 0 ? xA - 4 - lw >= 0 : xB + 4 + lw <= w - 2;
      const lx = v < 0 ? (outside ? xA - 4 : xA + 4) : (outside ? xB + 4 : xB - 4);
      const anchor = (v < 0) === outside ? "end" : "start";
      svg.append(s("text", { x: lx, y: top + barH / 2 + 4, "text-anchor": anchor, class: outside ? "value" : "value inside" }, label));
    }
    marks.push(mark(spec, b, { x: Math.min(xA, xB - 4), y: top, w: Math.max(4, xB - xA), h: barH }));
  }
  svg.append(s("line", { x1: sx(0), x2: sx(0), y1: m.top, y2: hgt - m.bottom, class: "baseline" }));
  return { svg, hgt, marks, nav: "bar", zone: { x: m.left, y: m.top, w: iw, h: hgt - m.top - m.bottom } };
}

// The line chart: values over time (or over numbers, or categories in
// order), one line per series, a reference range shaded behind, partial
// periods drawn dashed into and out of a hollow point.

import { s } from "../dom.js";
import { formatNumber } from "../format.js";
import { svgRoot, valueTicks, yAxis } from "./axis.js";
import { calendarTicks } from "./time.js";
import { niceTicks } from "./values.js";
import { measure } from "./text.js";

// lineChart draws spec at width w; it returns the picture, its height,
// the marks a reader can focus and the plot area.
export function lineChart(spec, w, titleText) {
  const { x } = spec;
  const cats = x.kind === "category" ? [...new Set(spec.series.flatMap((se) => se.points.map((p) => String(p.x))))] : [];
  const xv = (p) => (x.kind === "time" ? p.t : x.kind === "number" ? p.x : cats.indexOf(String(p.x)));
  const series = spec.series.map((se) => ({ ...se, points: se.points.map((p) => ({ ...p, xv: xv(p) })).sort((a, b) => a.xv - b.xv) }));

  const ys = series.flatMap((se) => se.points.map((p) => p.y));
  let lo = Math.min(...ys), hi = Math.max(...ys);
  const band = spec.band;
  if (band) { lo = Math.min(lo, band.lo); hi = Math.max(hi, band.hi); }
  const vt = valueTicks(lo, hi, spec.measure);
  const ticks = vt.ticks;
  const hgt = Math.round(Math.min(340, Math.max(220, w * 0.45)));
  const m = { top: 26, right: 18, bottom: 30, left: Math.max(36, vt.width + 12) };
  const iw = w - m.left - m.right, ih = hgt - m.top - m.bottom;
  const xs = series.flatMap((se) => se.points.map((p) => p.xv));
  const x0 = Math.min(...xs), x1 = Math.max(...xs);
  const sx = (v) => m.left + (x1 === x0 ? iw / 2 : ((v - x0) / (x1 - x0)) * iw);
  const sy = (v) => m.top + ih - ((v - ticks[0]) / (ticks[ticks.length - 1] - ticks[0])) * ih;

  const svg = svgRoot(w, hgt, titleText);
  if (band) {
    svg.append(s("rect", { class: "ref-band", x: m.left, width: iw, y: sy(band.hi), height: Math.max(0, sy(band.lo) - sy(band.hi)) }));
  }
  yAxis(svg, vt, sy, m.left, m.left + iw, spec.measure.title);

  const gx = s("g", { class: "axis x" });
  gx.append(s("line", { x1: m.left, x2: m.left + iw, y1: m.top + ih, y2: m.top + ih, class: "baseline" }));
  let xticks;
  if (x.kind === "time") {
    const first = series.flatMap((se) => se.points)[0];
    const weekStart = x.grain === "week" && first ? new Date(first.t).getUTCDay() : 1;
    xticks = calendarTicks(x0, x1, iw, x.grain, (t) => measure(t), { weekStart, points: xs });
  } else if (x.kind === "number") {
    const nTicks = Math.max(2, Math.floor(iw / 90));
    xticks = niceTicks(x0, x1, nTicks).filter((v) => v >= x0 && v <= x1).map((v) => ({ v, label: formatNumber(v, spec.xName) }));
  } else {
    const widest = Math.max(...cats.map((c) => measure(c))) + 14;
    const every = Math.max(1, Math.ceil((widest * cats.length) / Math.max(1, iw)));
    xticks = cats.map((c, i) => ({ v: i, label: c })).filter((_, i) => i % every === 0);
  }
  xticks.forEach((t, i) => {
    const px = sx(t.v), half = measure(t.label) / 2;
    const anchor = px - half < 0 ? "start" : px + half > w ? "end" : "middle";
    gx.append(s("line", { x1: px, x2: px, y1: m.top + ih, y2: m.top + ih + 4, class: "tick" }));
    gx.append(s("text", { x: px, y: m.top + ih + 18, "text-anchor": anchor, dataset: { v: x.kind === "time" ? new Date(t.v).toISOString() : String(t.v) } }, t.label));
    if (i > 0 && x.kind === "time") gx.append(s("line", { x1: px, x2: px, y1: m.top, y2: m.top + ih, class: "grid minor" }));
  });
  svg.append(gx);

  const marks = [];
  series.forEach((se, si) => {
    const g = s("g", { class: `series s${se.colour}`, dataset: { series: se.name } });
    const at = (p) => `${sx(p.xv).toFixed(1)},${sy(p.y).toFixed(1)}`;
    // whole periods in one path, segments into or out of a partial one dashed
    let solid = "", dashed = "";
    se.points.forEach((p, j) => {
      if (j === 0) return;
      const q = se.points[j - 1];
      if (p.partial || q.partial) dashed += `M${at(q)}L${at(p)}`;
      else solid += solid.endsWith(at(q)) ? `L${at(p)}` : `M${at(q)}L${at(p)}`;
    });
    if (se.points.length === 1) solid = `M${at(se.points[0])}`;
    if (solid) g.append(s("path", { d: solid, class: "line" }));
    if (dashed) g.append(s("path", { d: dashed, class: "line partial" }));
    for (const p of se.points) {
      const cx = Number(sx(p.xv).toFixed(1)), cy = Number(sy(p.y).toFixed(1));
      g.append(s("circle", { cx, cy, r: p.partial ? 3.5 : se.points.length > 60 ? 2 : 3.5, class: `dot${p.partial ? " partial" : ""}` }));
      marks.push({ cx, cy, si, colour: se.colour, ...spec.describe(p, se) });
    }
    svg.append(g);
  });
  return { svg, hgt, marks, nav: "line", zone: { x: m.left - 8, y: m.top, w: iw + 16, h: ih } };
}

// The frame of a chart: the picture's root (role="img" with a title), the
// value axis with its grid, and the hatching that marks partial periods.

import { s, uid } from "../dom.js";
import { niceTicks } from "./values.js";
import { measure } from "./text.js";

// svgRoot returns the picture: one image whose title says what it shows.
export function svgRoot(w, hgt, titleText) {
  const tid = uid("chart-title");
  return s("svg", { width: w, height: hgt, viewBox: `0 0 ${w} ${hgt}`, role: "img", "aria-labelledby": tid, class: "chart" },
    s("title", { id: tid }, titleText));
}

// valueTicks returns the ticks of the value axis over [lo, hi] and their
// labels, written with the measure's tick format.
export function valueTicks(lo, hi, fmt, n = 5) {
  const ticks = niceTicks(lo, hi, n);
  const step = ticks.length > 1 ? ticks[1] - ticks[0] : 1;
  const labels = ticks.map((t) => fmt.tick(t, step));
  return { ticks, labels, width: Math.max(...labels.map((l) => measure(l))) };
}

// yAxis draws a vertical value axis: grid lines, labels left of left, and
// the axis title above.
export function yAxis(svg, vt, scale, left, right, title) {
  const g = s("g", { class: "axis y" });
  if (title) g.append(s("text", { x: 0, y: 11, class: "axis-title" }, title));
  vt.ticks.forEach((t, i) => {
    const y = scale(t);
    g.append(s("line", { x1: left, x2: right, y1: y, y2: y, class: "grid" }));
    g.append(s("text", { x: left - 6, y: y + 4, "text-anchor": "end" }, vt.labels[i]));
  });
  svg.append(g);
}

// hatches adds a diagonal hatch pattern per palette slot to svg and
// returns slot → the fill that references it.
export function hatches(svg, slots) {
  const defs = s("defs");
  const fills = new Map();
  for (const c of new Set(slots)) {
    const id = uid(`hatch-${c}`);
    defs.append(s("pattern", { id, class: `s${c}`, width: 6, height: 6, patternUnits: "userSpaceOnUse", patternTransform: "rotate(45)" },
      s("rect", { class: "hatch-line", x: 0, y: 0, width: 2.5, height: 6 })));
    fills.set(c, `url(#${id})`);
  }
  svg.append(defs);
  return fills;
}

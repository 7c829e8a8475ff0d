// Reading the values of a chart: a layer over the picture with one
// focusable mark per point or bar (a roving tabindex: Tab enters the chart
// at one mark, arrow keys move between them), and a tooltip that shows the
// mark's x, series and value — on keyboard focus, on hover, and on a tap.
//
// The picture itself stays one role="img" with a title; this layer is a
// group of marks, each named with what its tooltip says.

import { h, s } from "../dom.js";

// interact returns the layer and the tooltip for marks drawn on a w×hgt
// picture. A mark is {cx, cy, box?, colour, label, head, value, series,
// partial, si}: box is its shape for a bar (a circle around cx, cy
// otherwise), si its series. zone is the plot area where hovering finds
// the nearest mark; nav is "line" (left/right along a series, up/down
// across series) or "bar" (in the order drawn).
export function interact(marks, { w, hgt, zone, nav }) {
  const tip = h("div", { class: "chart-tip", "aria-hidden": "true", hidden: true });
  const layer = s("svg", {
    class: "chart-keys", width: w, height: hgt, viewBox: `0 0 ${w} ${hgt}`, role: "group",
    "aria-label": "Values: the arrow keys move between them",
  });
  layer.append(s("rect", { class: "hover-zone", x: zone.x, y: zone.y, width: Math.max(0, zone.w), height: Math.max(0, zone.h) }));
  const keys = marks.map((m, i) => {
    const attrs = { class: `key${m.partial ? " partial" : ""}`, tabindex: i === 0 ? "0" : "-1", role: "img", "aria-label": m.label, dataset: { i: String(i) } };
    const el = m.box
      ? s("rect", { ...attrs, x: m.box.x, y: m.box.y, width: Math.max(1, m.box.w), height: Math.max(1, m.box.h) })
      : s("circle", { ...attrs, cx: m.cx, cy: m.cy, r: 7 });
    layer.append(el);
    return el;
  });

  let hovered = -1;
  const focused = () => keys.indexOf(document.activeElement);
  const show = (i) => {
    keys.forEach((k, j) => k.classList.toggle("active", j === i));
    if (i < 0) { tip.hidden = true; return; }
    const m = marks[i];
    tip.replaceChildren(
      h("strong", { class: "tip-head" }, m.head),
      h("span", { class: "tip-value" }, m.colour ? h("span", { class: `swatch s${m.colour}`, "aria-hidden": "true" }) : null, m.series ? `${m.series}: ` : "", m.value));
    if (m.partial) tip.append(h("span", { class: "tip-partial" }, "Partial period: the data cover only part of it"));
    tip.hidden = false;
    place(m);
  };
  const place = (m) => {
    const plot = tip.parentElement;
    if (!plot) return;
    const k = plot.clientWidth / w || 1;
    const pw = plot.clientWidth, tw = tip.offsetWidth, th = tip.offsetHeight;
    const x = m.cx * k, top = (m.box ? m.box.y : m.cy) * k;
    tip.style.left = `${Math.round(Math.max(0, Math.min(pw - tw, x - tw / 2)))}px`;
    tip.style.top = `${Math.round(top - th - 10 >= 0 ? top - th - 10 : (m.box ? m.box.y + m.box.h : m.cy) * k + 12)}px`;
  };
  const nearest = (e) => {
    const r = layer.getBoundingClientRect();
    const px = ((e.clientX - r.left) * w) / (r.width || w), py = ((e.clientY - r.top) * hgt) / (r.height || hgt);
    let best = -1, bestD = Infinity;
    marks.forEach((m, i) => {
      let d;
      if (m.box) {
        const dx = Math.max(m.box.x - px, 0, px - m.box.x - m.box.w), dy = Math.max(m.box.y - py, 0, py - m.box.y - m.box.h);
        d = dx * dx + dy * dy;
      } else {
        // along the x axis first: the point of the hovered date, then the nearest line
        d = (m.cx - px) ** 2 * 100 + (m.cy - py) ** 2;
      }
      if (d < bestD) { bestD = d; best = i; }
    });
    return best;
  };

  layer.addEventListener("pointermove", (e) => {
    if (e.pointerType === "touch") return;
    hovered = nearest(e);
    show(hovered);
  });
  layer.addEventListener("pointerleave", () => {
    hovered = -1;
    show(focused());
  });
  layer.addEventListener("pointerdown", (e) => {
    const i = nearest(e);
    if (i < 0) return;
    e.preventDefault(); // keep the focus on the mark, not on the layer
    keys[i].focus({ preventScroll: true });
  });
  // on the marks, not the layer: Chrome makes an SVG element with focus
  // listeners focusable itself, and it would take a Tab stop
  keys.forEach((key, i) => {
    key.addEventListener("focus", () => {
      keys.forEach((k, j) => k.setAttribute("tabindex", j === i ? "0" : "-1"));
      show(i);
    });
    key.addEventListener("blur", (e) => {
      if (!keys.includes(e.relatedTarget)) show(hovered);
    });
  });
  layer.addEventListener("keydown", (e) => {
    const i = focused();
    if (i < 0) return;
    if (e.key === "Escape") {
      if (!tip.hidden) { e.stopPropagation(); show(-1); }
      return;
    }
    const j = step(marks, i, e.key, nav);
    if (j === null) return;
    e.preventDefault();
    keys[j].focus({ preventScroll: true });
  });

  return {
    layer,
    tip,
    // focusIndex is the focused mark's index, or -1
    focusIndex: focused,
    focus(i) { if (keys[i]) keys[i].focus({ preventScroll: true }); },
  };
}

// step returns the mark an arrow key moves to from mark i, or null.
function step(marks, i, key, nav) {
  const last = marks.length - 1;
  if (nav === "line") {
    const same = marks.map((m, j) => j).filter((j) => marks[j].si === marks[i].si);
    const at = same.indexOf(i);
    switch (key) {
      case "ArrowRight": return same[Math.min(at + 1, same.length - 1)];
      case "ArrowLeft": return same[Math.max(at - 1, 0)];
      case "Home": return same[0];
      case "End": return same[same.length - 1];
      case "ArrowUp":
      case "ArrowDown": {
        const sis = [...new Set(marks.map((m) => m.si))];
        const k = sis.indexOf(marks[i].si) + (key === "ArrowDown" ? 1 : -1);
        if (k < 0 || k >= sis.length) return i;
        let best = i, bestD = Infinity;
        marks.forEach((m, j) => {
          if (m.si === sis[k] && Math.abs(m.cx - marks[i].cx) < bestD) { bestD = Math.abs(m.cx - marks[i].cx); best = j; }
        });
        return best;
      }
      default: return null;
    }
  }
  switch (key) {
    case "ArrowRight": case "ArrowDown": return Math.min(i + 1, last);
    case "ArrowLeft": case "ArrowUp": return Math.max(i - 1, 0);
    case "Home": return 0;
    case "End": return last;
    default: return null;
  }
}

// The legend of a chart: one entry for every kind of mark drawn — each
// series, the reference range, partial periods — as a list beside the
// picture, so it is read as text and never covers the data.

import { h } from "../dom.js";

// legend returns the list for items {kind, text, colour}: kind is "line",
// "bar", "band" or "partial-line"/"partial-bar"; colour a palette slot.
export function legend(items) {
  if (items.length === 0) return null;
  return h("ul", { class: "legend", "aria-label": "Legend" }, items.map((it) =>
    h("li", { dataset: { kind: it.kind } },
      h("span", { class: `swatch ${it.kind}${it.colour ? ` s${it.colour}` : ""}`, "aria-hidden": "true" }),
      it.text)));
}

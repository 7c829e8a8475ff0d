// The results table: sortable columns, pages of rows, numbers formatted
// and aligned.

import { h, uid } from "./dom.js";
import { formatCell, humanize, isNumericType } from "./format.js";

export const PAGE_SIZE = 25;

function compare(a, b) {
  const an = a === null || a === undefined, bn = b === null || b === undefined;
  if (an || bn) return an && bn ? 0 : an ? 1 : -1; // empty values last
  if (typeof a === "number" && typeof b === "number") return a - b;
  return String(a).localeCompare(String(b), undefined, { numeric: true, sensitivity: "base" });
}

// resultsTable renders rows under columns; it returns the element.
export function resultsTable(columns, rows, { caption = "Results" } = {}) {
  const state = { sortBy: -1, dir: 1, page: 0 };
  const captionID = uid("caption");
  const order = rows.map((_, i) => i);
  const numeric = columns.map((c, i) => isNumericType(c.type) || rows.length > 0 && rows.every((r) => r[i] === null || typeof r[i] === "number"));
  const pages = () => Math.max(1, Math.ceil(rows.length / PAGE_SIZE));

  const headCells = columns.map((c, i) => {
    const btn = h("button", { type: "button", class: "sort", onclick: () => sortBy(i) }, humanize(c.name), h("span", { class: "sort-mark", "aria-hidden": "true" }));
    return h("th", { scope: "col", class: numeric[i] ? "num" : null, title: c.name }, btn);
  });
  const tbody = h("tbody");
  const table = h("table", { class: "results", "aria-describedby": captionID },
    h("caption", { class: "sr-only", id: captionID }, caption),
    h("thead", {}, h("tr", {}, headCells)),
    tbody);
  const scroller = h("div", { class: "table-scroll", tabindex: "0", role: "region", "aria-label": `${caption} (scrollable)` }, table);

  const prev = h("button", { type: "button", class: "btn small", onclick: () => go(state.page - 1) }, "Previous");
  const next = h("button", { type: "button", class: "btn small", onclick: () => go(state.page + 1) }, "Next");
  const where = h("span", { class: "page-where", "aria-live": "polite" });
  const pager = h("nav", { class: "pager", "aria-label": "Result pages" }, prev, where, next);

  function sortBy(i) {
    if (state.sortBy === i) state.dir = -state.dir;
    else { state.sortBy = i; state.dir = numeric[i] ? -1 : 1; }
    order.sort((x, y) => compare(rows[x][i], rows[y][i]) * state.dir || x - y);
    state.page = 0;
    headCells.forEach((th, j) => {
      if (j === state.sortBy) th.setAttribute("aria-sort", state.dir > 0 ? "ascending" : "descending");
      else th.removeAttribute("aria-sort");
    });
    draw();
  }

  function go(p) {
    state.page = Math.min(Math.max(0, p), pages() - 1);
    draw();
  }

  function draw() {
    const start = state.page * PAGE_SIZE;
    const slice = order.slice(start, start + PAGE_SIZE);
    tbody.replaceChildren(...slice.map((ri) => h("tr", {}, columns.map((c, ci) => {
      const f = formatCell(rows[ri][ci], c);
      return h("td", { class: [numeric[ci] ? "num" : "", f.empty ? "empty" : ""].join(" ").trim() || null }, f.text);
    }))));
    if (rows.length === 0) {
      tbody.replaceChildren(h("tr", {}, h("td", { colspan: String(columns.length || 1), class: "no-rows" }, "No rows match.")));
    }
    pager.hidden = rows.length <= PAGE_SIZE;
    prev.disabled = state.page === 0;
    next.disabled = state.page >= pages() - 1;
    where.textContent = rows.length ? `Rows ${start + 1}–${Math.min(start + PAGE_SIZE, rows.length)} of ${rows.length.toLocaleString()}` : "";
  }

  draw();
  return h("div", { class: "table-view" }, scroller, pager);
}

// The results table: sortable columns, pages of rows, values formatted by
// what they mean, a cue when it scrolls sideways, and CSV of its rows.

import { h, uid } from "./dom.js";
import { describeColumn, outOfRange, rangeChecks } from "./format.js";

export const PAGE_SIZE = 25;

function compare(a, b) {
  const an = a === null || a === undefined, bn = b === null || b === undefined;
  if (an || bn) return an && bn ? 0 : an ? 1 : -1; // empty values last
  if (typeof a === "number" && typeof b === "number") return a - b;
  return String(a).localeCompare(String(b), undefined, { numeric: true, sensitivity: "base" });
}

// cell renders one formatted value: a shortened number keeps its exact
// value for the mouse (title), the keyboard (focusable, shown on focus)
// and screen readers (read instead of the short form).
function cellContent(f, flag, range) {
  const parts = [];
  if (f.empty) {
    parts.push(h("span", { "aria-hidden": "true" }, "—"), h("span", { class: "sr-only" }, "no value"));
  } else if (f.exact) {
    parts.push(h("span", { class: "exact", tabindex: "0", title: f.exact, dataset: { exact: f.exact } },
      h("span", { "aria-hidden": "true" }, f.text), h("span", { class: "sr-only" }, f.exact)));
  } else {
    parts.push(f.raw ? h("span", { title: f.raw }, f.text) : f.text);
  }
  if (flag) {
    parts.push(" ", h("span", { class: `range-flag ${flag.toLowerCase()}`, title: range }, flag));
  }
  return parts;
}

function rangeText(low, high, fmt) {
  const lo = typeof low === "number" ? fmt.format(low).text : "";
  const hi = typeof high === "number" ? fmt.format(high).text : "";
  if (lo && hi) return `Reference range ${lo}–${hi}`;
  return lo ? `Reference range from ${lo}` : hi ? `Reference range up to ${hi}` : "";
}

// resultsTable renders rows under columns; it returns the element. The
// element's fit() widens the answer around it when the table needs more
// room than the column of the log (call it once it is on the page).
export function resultsTable(columns, rows, { caption = "Results" } = {}) {
  // a foreign key whose row's name is in the answer is shown by that name
  // (the patient, not patient_id); the CSV download keeps both
  const keep = columns.map((_, i) => i).filter((i) => !(columns[i].display && columns.some((d) => d.name === columns[i].display)));
  if (keep.length < columns.length) {
    columns = keep.map((i) => columns[i]);
    rows = rows.map((r) => keep.map((i) => r[i]));
  }
  const state = { sortBy: -1, dir: 1, page: 0 };
  const captionID = uid("caption");
  const hintID = uid("hint");
  const order = rows.map((_, i) => i);
  const formats = columns.map((c, i) => describeColumn(c, rows.map((r) => r[i])));
  const numeric = formats.map((f) => f.numeric);
  const ranges = rangeChecks(columns);
  const pages = () => Math.max(1, Math.ceil(rows.length / PAGE_SIZE));

  const headCells = columns.map((c, i) => {
    const btn = h("button", { type: "button", class: "sort", onclick: () => sortBy(i) }, formats[i].heading, h("span", { class: "sort-mark", "aria-hidden": "true" }));
    return h("th", { scope: "col", class: numeric[i] ? "num" : null, title: c.name }, btn);
  });
  const tbody = h("tbody");
  const table = h("table", { class: "results", "aria-describedby": captionID },
    h("caption", { class: "sr-only", id: captionID }, caption),
    h("thead", {}, h("tr", {}, headCells)),
    tbody);
  const scroller = h("div", { class: "table-scroll", tabindex: "0", role: "region", "aria-label": `${caption} (scrollable)` }, table);
  const frame = h("div", { class: "table-frame" }, scroller);
  const hint = h("p", { class: "scroll-hint", id: hintID, hidden: true },
    h("span", { "aria-hidden": "true" }, "↔ "), `Scroll sideways to see all ${columns.length} columns.`);

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

  function td(row, ci) {
    const f = formats[ci].format(row[ci]);
    const r = ranges[ci];
    const flag = r ? outOfRange(row[ci], r[0] >= 0 ? row[r[0]] : null, r[1] >= 0 ? row[r[1]] : null) : "";
    const cls = [numeric[ci] ? "num" : "", f.empty ? "null" : "", flag ? "out-of-range" : ""].filter(Boolean).join(" ");
    return h("td", { class: cls || null }, cellContent(f, flag, flag ? rangeText(row[r[0]], row[r[1]], formats[ci]) : ""));
  }

  function draw() {
    const start = state.page * PAGE_SIZE;
    const slice = order.slice(start, start + PAGE_SIZE);
    tbody.replaceChildren(...slice.map((ri) => h("tr", {}, columns.map((_, ci) => td(rows[ri], ci)))));
    if (rows.length === 0) {
      tbody.replaceChildren(h("tr", {}, h("td", { colspan: String(columns.length || 1), class: "no-rows" }, "No rows match.")));
    }
    pager.hidden = rows.length <= PAGE_SIZE;
    prev.disabled = state.page === 0;
    next.disabled = state.page >= pages() - 1;
    where.textContent = rows.length ? `Rows ${start + 1}–${Math.min(start + PAGE_SIZE, rows.length)} of ${rows.length.toLocaleString()}` : "";
    if (view.isConnected) fit();
  }

  // cue shows which sides have more columns, and the hint when any has
  function cue() {
    const max = scroller.scrollWidth - scroller.clientWidth;
    const sideways = max > 1;
    frame.classList.toggle("more-left", sideways && scroller.scrollLeft > 1);
    frame.classList.toggle("more-right", sideways && scroller.scrollLeft < max - 1);
    if (hint.hidden === sideways) {
      hint.hidden = !sideways;
      if (sideways) scroller.setAttribute("aria-describedby", hintID);
      else scroller.removeAttribute("aria-describedby");
    }
  }

  // fit lets the answer grow up to the window for a wide table (a wide
  // screen only; on a phone the table scrolls inside its frame)
  function fit() {
    const card = view.closest(".card");
    if (card && !view.hidden && table.offsetWidth > 0) {
      const need = table.offsetWidth + (card.offsetWidth - scroller.clientWidth);
      if (table.offsetWidth > scroller.clientWidth + 1 && need > (parseFloat(card.style.getPropertyValue("--need")) || 0)) {
        card.style.setProperty("--need", `${Math.ceil(need)}px`);
        card.classList.add("wide");
      }
    }
    cue();
  }

  scroller.addEventListener("scroll", cue, { passive: true });
  const view = h("div", { class: "table-view" }, frame, hint, pager);
  if (typeof ResizeObserver === "function") new ResizeObserver(() => cue()).observe(scroller);
  view.fit = fit;
  draw();
  return view;
}

// csvCell quotes one value for CSV. Text that a spreadsheet would run as a
// formula (= + - @, a tab or a carriage return first) is prefixed with a
// quote, so opening the file never runs anything.
function csvCell(v) {
  if (v === null || v === undefined) return "";
  let t = typeof v === "object" ? JSON.stringify(v) : String(v);
  if (typeof v === "string" && /^[=+\-@\t\r]/.test(t)) t = `'${t}`;
  return /[",\r\n]/.test(t) || /^\s|\s$/.test(t) ? `"${t.replace(/"/g, '""')}"` : t;
}

// toCSV writes rows as CSV (RFC 4180): a header row of column names,
// values as the API gave them, CRLF between rows.
export function toCSV(columns, rows) {
  const lines = [columns.map((c) => csvCell(c.name)).join(",")];
  for (const r of rows) lines.push(columns.map((_, i) => csvCell(r[i])).join(","));
  return `${lines.join("\r\n")}\r\n`;
}

// csvName makes a file name from an answer's statement.
export function csvName(statement) {
  const base = String(statement || "results").normalize("NFKD").replace(/[^\p{L}\p{N}]+/gu, "-").replace(/^-+|-+$/g, "").toLowerCase().slice(0, 60);
  return `${base || "results"}.csv`;
}

// downloadCSV saves rows as a CSV file made in the page (nothing is
// fetched); the byte order mark lets spreadsheets read it as UTF-8.
export function downloadCSV(name, columns, rows) {
  const blob = new Blob(["\ufeff", toCSV(columns, rows)], { type: "text/csv;charset=utf-8" });
  const url = URL.createObjectURL(blob);
  const a = h("a", { href: url, download: name, hidden: true });
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10000);
}

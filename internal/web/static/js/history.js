// The history panel: your past conversations (GET /v1/conversations),
// newest first, a page at a time. Choosing one reopens it: the address
// becomes #c=<id>, which main.js follows like a reload.

import * as api from "./api.js";
import { h, s, announce } from "./dom.js";

const PAGE = 20;
const $ = (id) => document.getElementById(id);

let next = "";
let loading = false;
let onUnauthorizedHook = null;

// The panel has its own style sheet, loaded with this module.
if (!document.querySelector('link[href="/history.css"]')) {
  document.head.append(h("link", { rel: "stylesheet", href: "/history.css" }));
}

const STATUS = {
  answered: "Answered",
  awaiting_clarification: "Waiting for your answer",
  active: "In progress",
  failed: "Not answered",
  abandoned: "Expired",
};

const relative = new Intl.RelativeTimeFormat(undefined, { numeric: "auto" });
const absolute = new Intl.DateTimeFormat(undefined, { dateStyle: "medium", timeStyle: "short" });

// ago says how long ago a time was: "5 minutes ago", "yesterday".
export function ago(iso, now = Date.now()) {
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return "";
  const s = Math.round((t - now) / 1000);
  const steps = [[60, "second"], [60, "minute"], [24, "hour"], [7, "day"], [4.35, "week"], [12, "month"], [Infinity, "year"]];
  let v = s;
  for (const [size, unit] of steps) {
    if (Math.abs(v) < size) return unit === "second" && Math.abs(v) < 45 ? relative.format(0, "second") : relative.format(Math.round(v), unit);
    v /= size;
  }
  return "";
}

function dialog() {
  let d = $("history");
  if (d) return d;
  d = h("dialog", { id: "history", class: "prefs history", "aria-labelledby": "history-title" },
    h("div", { class: "prefs-head" },
      h("h2", { id: "history-title" }, "History"),
      h("button", { type: "button", class: "btn ghost icon", id: "history-close", "aria-label": "Close history", onclick: () => d.close() },
        closeIcon())),
    h("p", { class: "hint" }, "Your conversations, newest first. Choose one to open it again."),
    h("div", { id: "history-list", "aria-live": "polite" }),
    h("button", { type: "button", class: "btn", id: "history-more", hidden: true, onclick: () => load(false) }, "Load more"));
  d.addEventListener("click", (e) => {
    // a click on the backdrop (outside the panel's box) closes it
    const r = d.getBoundingClientRect();
    const outside = e.clientX < r.left || e.clientX > r.right || e.clientY < r.top || e.clientY > r.bottom;
    if (e.target === d && outside && e.detail > 0) d.close();
  });
  document.body.append(d);
  return d;
}

function closeIcon() {
  return s("svg", { viewBox: "0 0 24 24", "aria-hidden": "true", focusable: "false" }, s("path", { d: "M6 6l12 12M18 6 6 18" }));
}

function item(c) {
  const when = ago(c.created_at);
  const status = STATUS[c.status] || c.status;
  return h("li", {},
    h("button", { type: "button", class: "history-item", dataset: { id: c.conversation_id, status: c.status }, onclick: () => reopen(c) },
      h("span", { class: "history-question" }, c.question),
      c.statement ? h("span", { class: "history-statement" }, c.statement) : null,
      h("span", { class: "history-meta" },
        `${c.source} · ${status}${when ? " · " : ""}`,
        when ? h("time", { datetime: c.created_at, title: absolute.format(new Date(c.created_at)) }, when) : null)));
}

function reopen(c) {
  $("history").close();
  const hash = `#c=${encodeURIComponent(c.conversation_id)}`;
  if (location.hash !== hash) location.hash = hash;
  announce(`Opened “${c.question}”.`);
}

async function load(fresh) {
  if (loading) return;
  loading = true;
  const list = $("history-list");
  const more = $("history-more");
  if (fresh) {
    next = "";
    list.replaceChildren(h("p", { class: "hint" }, "Loading…"));
  }
  more.disabled = true;
  const query = new URLSearchParams({ limit: String(PAGE) });
  if (next) query.set("before", next);
  let data;
  try {
    data = await api.request("GET", `/v1/conversations?${query}`);
  } catch (err) {
    loading = false;
    more.disabled = false;
    if (err.code === "UNAUTHORIZED") {
      $("history").close();
      if (onUnauthorizedHook) onUnauthorizedHook();
      return;
    }
    const problem = h("p", { class: "form-problem", role: "alert" }, `Could not load your conversations: ${err.message} `,
      h("button", { type: "button", class: "btn small", onclick: () => load(fresh) }, "Try again"));
    if (fresh) list.replaceChildren(problem);
    else list.append(problem);
    return;
  }
  loading = false;
  const convs = data.conversations || [];
  let ul = list.querySelector("ul.history-list");
  if (fresh || !ul) {
    ul = h("ul", { class: "history-list" });
    list.replaceChildren(ul);
  }
  list.querySelectorAll(".form-problem").forEach((p) => p.remove());
  const first = ul.children.length;
  ul.append(...convs.map(item));
  if (ul.children.length === 0) {
    list.replaceChildren(h("p", { class: "hint empty-history" }, "No conversations yet. Your questions show up here."));
  }
  next = data.next || "";
  more.hidden = !next;
  more.disabled = false;
  if (!fresh && convs.length) {
    // keep the keyboard where the new items start
    ul.children[first].querySelector("button").focus();
    announce(`${convs.length} more conversations.`);
  }
}

// openHistory shows the panel with the first page of conversations.
export function openHistory({ onUnauthorized } = {}) {
  onUnauthorizedHook = onUnauthorized;
  const d = dialog();
  if (!d.open) d.showModal();
  $("history-close").focus();
  load(true);
}

// The preferences panel: remembered choices (with "forget"), the "never
// ask me" switch, and the API key this browser keeps.

import * as api from "./api.js";
import { h, announce } from "./dom.js";
import { slotLabel } from "./format.js";

const $ = (id) => document.getElementById(id);
let wired = false;
let onUnauthorizedHook = null;

function prefValue(v) {
  const s = String(v || "");
  if (s.startsWith("opt:")) return s.slice(4).replace(/_/g, " ");
  if (s.startsWith("text:")) return `“${s.slice(5)}”`;
  return s;
}

function problem(err) {
  if (err.code === "UNAUTHORIZED") {
    $("prefs").close();
    if (onUnauthorizedHook) onUnauthorizedHook();
    return null;
  }
  return h("p", { class: "form-problem", role: "alert" }, `Could not load your preferences: ${err.message}`,
    " ", h("button", { type: "button", class: "btn small", onclick: () => load() }, "Try again"));
}

// deletePath encodes a preference key ("clinic/vague:serious") segment by
// segment, so the slash stays a path separator.
function deletePath(key) {
  return `/v1/preferences/${key.split("/").map(encodeURIComponent).join("/")}`;
}

async function load() {
  const list = $("prefs-list");
  list.replaceChildren(h("p", { class: "hint" }, "Loading…"));
  let data;
  try {
    data = await api.request("GET", "/v1/preferences");
  } catch (err) {
    const p = problem(err);
    list.replaceChildren(...(p ? [p] : []));
    return;
  }
  $("never-ask").checked = !!data.never_ask;
  const prefs = data.preferences || [];
  if (prefs.length === 0) {
    list.replaceChildren(h("p", { class: "hint empty-prefs" }, "Nothing yet. Your answers to my questions show up here."));
    return;
  }
  list.replaceChildren(h("ul", { class: "pref-list" }, prefs.map((p) => {
    const how = [p.remember ? "remembered" : null, `chosen ${p.count}×`, p.applied ? "used without asking" : "still asked"].filter(Boolean).join(" · ");
    const name = `${p.source} · ${slotLabel(p.slot)}`;
    return h("li", { class: "pref" },
      h("div", { class: "pref-text" },
        h("p", { class: "pref-name" }, name, " → ", h("strong", {}, prefValue(p.value))),
        h("p", { class: "hint" }, how)),
      h("button", { type: "button", class: "btn small", "aria-label": `Forget ${name}`, onclick: (e) => forget(p.key, name, e.currentTarget) }, "Forget"));
  })));
}

async function forget(key, name, button) {
  button.disabled = true;
  try {
    await api.request("DELETE", deletePath(key));
    announce(`Forgot ${name}.`);
  } catch (err) {
    button.disabled = false;
    announce(`Could not forget ${name}: ${err.message}`);
    return;
  }
  await load();
  const next = $("prefs-list").querySelector("button") || $("prefs-close");
  next.focus();
}

function showKey() {
  const has = !!api.apiKey.get();
  $("key-state").textContent = has
    ? "This browser keeps an API key for this server and sends it with every request."
    : "No key is kept. A server that needs one will ask for it.";
  $("key-forget").hidden = !has;
}

function wire() {
  wired = true;
  const dialog = $("prefs");
  $("prefs-close").addEventListener("click", () => dialog.close());
  dialog.addEventListener("click", (e) => {
    // a click on the backdrop (outside the panel's box) closes it
    const r = dialog.getBoundingClientRect();
    const outside = e.clientX < r.left || e.clientX > r.right || e.clientY < r.top || e.clientY > r.bottom;
    if (e.target === dialog && outside && e.detail > 0) dialog.close();
  });
  $("never-ask").addEventListener("change", async (e) => {
    const box = e.currentTarget;
    box.disabled = true;
    try {
      await api.request("PUT", "/v1/preferences/never_ask", { value: box.checked });
      announce(box.checked ? "I won't ask; I'll answer with best guesses and list them." : "I'll ask when a question is unclear.");
    } catch (err) {
      box.checked = !box.checked;
      announce(`Could not change it: ${err.message}`);
    } finally {
      box.disabled = false;
    }
  });
  $("key-forget").addEventListener("click", () => {
    api.apiKey.forget();
    showKey();
    $("prefs-close").focus();
    announce("The API key is forgotten.");
  });
}

// openPreferences shows the panel and loads what the server keeps.
export function openPreferences({ onUnauthorized } = {}) {
  onUnauthorizedHook = onUnauthorized;
  if (!wired) wire();
  showKey();
  const dialog = $("prefs");
  if (!dialog.open) dialog.showModal();
  load();
}

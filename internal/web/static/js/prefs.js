// The preferences panel: remembered choices (with "forget"), the "never
// ask me" switch, and the API key this browser keeps.

import * as api from "./api.js";
import { h, announce } from "./dom.js";
import { slotLabel } from "./format.js";

const $ = (id) => document.getElementById(id);
let wired = false;
let onUnauthorizedHook = null;

// prefValue says what was chosen: the label the server gives, else typed
// text quoted, else the option's id in words (an older server).
function prefValue(p) {
  if (p.label) return p.label;
  const s = String(p.value || "");
  if (s.startsWith("text:")) return `“${s.slice(5)}”`;
  const id = s.replace(/^opt:/, "").replace(/^[a-z]+:/, "").replace(/[._]/g, " ");
  return id.charAt(0).toUpperCase() + id.slice(1);
}

// prefSentence says a preference as a sentence: “large” means Area > 10
// cm²; Time period: Last 90 days.
function prefSentence(p) {
  const about = p.slot_label || slotLabel(p.slot || "");
  const choice = h("strong", {}, prefValue(p));
  return about.startsWith("“") ? [about, " means ", choice] : [about, ": ", choice];
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
    const times = p.count === 1 ? "once" : p.count === 2 ? "twice" : `${p.count} times`;
    const how = [`In ${p.source}`, p.remember ? "remembered, as you asked" : `you chose it ${times}`,
      p.applied ? "I use it without asking" : "I still ask"].join(" · ");
    const name = `${p.slot_label || slotLabel(p.slot || "")} in ${p.source}`;
    return h("li", { class: "pref" },
      h("div", { class: "pref-text" },
        h("p", { class: "pref-name" }, prefSentence(p)),
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

// The pieces of a conversation: the user's messages, the live list of
// steps, the clarification card, the answer card and the error card.

import { h, icon, uid, announce } from "./dom.js";
import { formatMS, formatNumber, humanize, methodLabel, plural, slotLabel } from "./format.js";
import { resultsTable } from "./table.js";
import { chartView } from "./chart.js";

export const SKIP_TEXT = "I don't know — use your best judgment";

// userMessage is a message the user sent.
export function userMessage(text, { kind = "question" } = {}) {
  return h("div", { class: `msg user ${kind}` },
    h("span", { class: "sr-only" }, "You: "),
    h("p", { class: "bubble" }, text));
}

// assistantNote is a short plain message from Clarify.
export function assistantNote(text, { kind = "note" } = {}) {
  return h("div", { class: `msg assistant ${kind}` },
    h("span", { class: "sr-only" }, "Clarify: "),
    h("p", { class: "bubble" }, text));
}

// divider separates conversations in the log.
export function divider(text) {
  return h("div", { class: "divider", role: "separator" }, h("span", {}, text));
}

// steps is the live "what I'm doing" list of a turn.
export function steps() {
  const list = h("ol", { class: "steps-list" });
  const current = h("li", { class: "step current" }, h("span", { class: "spinner", "aria-hidden": "true" }), h("span", { class: "step-label" }, "Reading your question…"));
  list.append(current);
  const summary = h("summary", {}, h("span", { class: "steps-title" }, "What I'm doing"), h("span", { class: "steps-total" }));
  const el = h("details", { class: "steps", open: true }, summary, list);
  let total = 0, count = 0;
  return {
    el,
    add(step) {
      count++;
      total += step.ms || 0;
      const li = h("li", { class: "step done", dataset: { step: step.step || "" } },
        icon("check"),
        h("span", { class: "step-label" }, step.label || humanize(step.step || "step")),
        h("span", { class: "step-ms" }, formatMS(step.ms)));
      list.insertBefore(li, current);
      current.querySelector(".step-label").textContent = "Working…";
    },
    restart() {
      for (const li of [...list.querySelectorAll("li.done")]) li.remove();
      count = 0;
      total = 0;
      current.querySelector(".step-label").textContent = "Starting again…";
    },
    status(text) {
      current.hidden = false;
      current.querySelector(".step-label").textContent = text;
    },
    finish(failed = false) {
      current.remove();
      el.open = false;
      el.classList.toggle("failed", failed);
      summary.querySelector(".steps-title").textContent = failed ? "What I tried" : "What I did";
      summary.querySelector(".steps-total").textContent = count ? ` · ${plural(count, "step")} · ${formatMS(total)}` : "";
    },
  };
}

function sentence(t) {
  const x = String(t).trim();
  return x.charAt(0).toUpperCase() + x.slice(1) + (/[.!?]$/.test(x) ? "" : ".");
}

// assumptionChips lists assumptions; with onChange each chip opens its
// alternatives, and choosing one calls onChange(assumption, alternative).
function assumptionChips(list, onChange) {
  const wrap = h("div", { class: "assumptions" });
  if (!list || list.length === 0) return null;
  const chips = h("ul", { class: "chips", "aria-label": "Assumptions" });
  const panel = h("div", { class: "chip-panel", hidden: true });
  let openChip = null;
  const close = (focus) => {
    if (!openChip) return;
    openChip.setAttribute("aria-expanded", "false");
    panel.hidden = true;
    if (focus) openChip.focus();
    openChip = null;
  };
  for (const a of list) {
    const alts = (a.alternatives || []).filter((x) => x.id !== a.chosen);
    const label = [h("span", { class: "chip-text" }, a.text), h("span", { class: "chip-method" }, methodLabel(a.method))];
    if (!onChange || alts.length === 0) {
      chips.append(h("li", {}, h("span", { class: "chip static", title: a.why || null }, label)));
      continue;
    }
    const id = uid("alts");
    const chip = h("button", { type: "button", class: "chip", "aria-expanded": "false", "aria-controls": id, dataset: { slot: a.slot } },
      label, icon("chevron"));
    chip.addEventListener("click", () => {
      if (openChip === chip) { close(false); return; }
      close(false);
      openChip = chip;
      chip.setAttribute("aria-expanded", "true");
      panel.id = id;
      panel.replaceChildren(
        h("p", { class: "chip-why" }, h("strong", {}, `${slotLabel(a.slot)}: `), a.why ? sentence(a.why) : `${methodLabel(a.method)}.`),
        h("p", { class: "chip-current" }, icon("check"), " Now: ", a.text),
        h("p", { class: "chip-instead", id: `${id}-h` }, "Use instead:"),
        h("ul", { class: "alt-list", "aria-labelledby": `${id}-h` }, alts.map((alt) => h("li", {},
          h("button", { type: "button", class: "btn alt", dataset: { option: alt.id }, onclick: () => { close(false); onChange(a, alt); } }, alt.label)))));
      panel.hidden = false;
      panel.querySelector("button.alt").focus();
    });
    chips.append(h("li", {}, chip));
  }
  wrap.addEventListener("keydown", (e) => { if (e.key === "Escape" && openChip) { e.stopPropagation(); close(true); } });
  wrap.append(h("span", { class: "assumptions-title" }, "Assumed:"), chips, panel);
  wrap.retire = () => {
    close(false);
    wrap.querySelectorAll("button.chip").forEach((b) => { b.disabled = true; b.title = "This answer was replaced by a newer one"; });
  };
  return wrap;
}

// clarificationCard asks one question. onAnswer(answer, shownText) is
// called with the API's answer object; the card locks itself until
// unlock() is called (when sending failed).
export function clarificationCard(c, { assumptions = [], onAnswer } = {}) {
  const name = uid("opt");
  const titleID = uid("q");
  const options = c.options || [];
  const radios = [];
  const optionEls = options.map((o) => {
    const id = uid("o");
    const input = h("input", { type: "radio", name, id, value: o.id, checked: !!o.best_guess });
    radios.push(input);
    const rows = o.preview && typeof o.preview.rows === "number" ? plural(o.preview.rows, "row") : null;
    return h("div", { class: `option${o.best_guess ? " best" : ""}` },
      input,
      h("label", { for: id },
        h("span", { class: "opt-label" }, o.label, o.best_guess ? h("span", { class: "badge best-badge" }, "Best guess") : null),
        rows ? h("span", { class: "opt-rows" }, h("span", { class: "sr-only" }, ", "), rows) : null,
        o.description ? h("span", { class: "opt-desc" }, o.description) : null));
  });
  let skip = null;
  if (c.allow_skip) {
    const id = uid("o");
    skip = h("input", { type: "radio", name, id, value: "" });
    radios.push(skip);
    optionEls.push(h("div", { class: "option skip" }, skip, h("label", { for: id }, h("span", { class: "opt-label" }, SKIP_TEXT))));
  }
  let other = null, otherText = null;
  if (c.allow_free_text) {
    const id = uid("o");
    other = h("input", { type: "radio", name, id, value: "" });
    radios.push(other);
    otherText = h("input", { type: "text", class: "free-text", maxlength: "500", "aria-label": "Your own answer", placeholder: "Or say it in your words", autocomplete: "off" });
    otherText.addEventListener("input", () => { if (otherText.value.trim()) other.checked = true; });
    otherText.addEventListener("focus", () => { if (otherText.value.trim()) other.checked = true; });
    optionEls.push(h("div", { class: "option other" }, other, h("label", { for: id }, h("span", { class: "opt-label" }, "Something else")), otherText));
  }
  if (!radios.some((r) => r.checked) && radios.length > 0 && options.length === 0 && other) other.checked = true;

  const remember = c.kind === "scope" ? null : h("input", { type: "checkbox", name: "remember" });
  const problem = h("p", { class: "form-problem", role: "alert", hidden: true });
  const submit = h("button", { type: "submit", class: "btn primary" }, "Continue");
  const sofar = assumptions && assumptions.length ? assumptionChips(assumptions, null) : null;

  const form = h("form", { class: "card clarify", "aria-labelledby": titleID, dataset: { kind: c.kind || "", slot: c.slot || "", clarification: c.id } },
    h("div", { class: "card-eyebrow" }, icon("spark"), h("span", {}, c.priority === "critical" ? "I need to know one thing first" : "Before I answer")),
    h("fieldset", {},
      h("legend", { id: titleID, class: "question" }, c.question),
      c.context ? h("p", { class: "why" }, h("strong", {}, "Why I'm asking: "), c.context) : null,
      c.note ? h("p", { class: "note" }, c.note) : null,
      h("div", { class: "options" }, optionEls)),
    sofar,
    h("div", { class: "card-actions" },
      remember ? h("label", { class: "check" }, remember, h("span", {}, "Remember my choice")) : h("span"),
      submit),
    problem);

  form.addEventListener("keydown", (e) => {
    if (e.key === "Enter" && !e.shiftKey && e.target instanceof HTMLInputElement && (e.target.type === "radio" || e.target.type === "checkbox")) {
      e.preventDefault();
      form.requestSubmit();
    }
  });
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    if (form.classList.contains("locked")) return;
    const picked = radios.find((r) => r.checked);
    const answer = { clarification_id: c.id };
    let shown = "";
    if (picked && picked === other || !picked && otherText && otherText.value.trim()) {
      const text = otherText.value.trim();
      if (!text) {
        problem.textContent = "Type your answer in the box, or pick one of the choices.";
        problem.hidden = false;
        otherText.focus();
        return;
      }
      answer.free_text = text;
      shown = text;
    } else if (picked && picked === skip) {
      answer.skipped = true;
      shown = SKIP_TEXT;
    } else if (picked) {
      answer.option_id = picked.value;
      shown = options.find((o) => o.id === picked.value).label;
    } else {
      problem.textContent = "Pick one of the choices first.";
      problem.hidden = false;
      (radios[0] || submit).focus();
      return;
    }
    if (remember && remember.checked) answer.remember = true;
    problem.hidden = true;
    form.lock(shown);
    onAnswer(answer, shown);
  });

  const controls = () => form.querySelectorAll("input, button");
  form.lock = (shown) => {
    form.classList.add("locked");
    controls().forEach((x) => { x.disabled = true; });
    if (shown) form.dataset.answered = shown;
  };
  form.unlock = () => {
    form.classList.remove("locked");
    controls().forEach((x) => { x.disabled = false; });
  };
  form.retire = () => {
    form.lock();
    form.classList.add("retired");
  };
  form.focusFirst = () => {
    const target = radios.find((r) => r.checked) || radios[0] || submit;
    target.focus({ preventScroll: true });
  };
  return form;
}

// formatSQL puts the main clauses of a one-line statement on lines of
// their own; quoted names and strings are left untouched.
export function formatSQL(sql) {
  const parts = String(sql).split(/("(?:[^"]|"")*"|'(?:[^']|'')*'|`[^`]*`)/);
  return parts.map((p, i) => (i % 2 ? p : p.replace(/\s+(FROM|WHERE|GROUP BY|HAVING|ORDER BY|LIMIT|UNION ALL|UNION|(?:LEFT |INNER |RIGHT |FULL )?JOIN)\b/g, "\n$1"))).join("").trim();
}

function copyButton(getText) {
  const label = h("span", {}, "Copy SQL");
  const btn = h("button", { type: "button", class: "btn small" }, icon("copy"), label);
  btn.addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText(getText());
      label.textContent = "Copied";
      announce("The SQL is copied.");
    } catch {
      const code = btn.closest(".sql").querySelector("code");
      const range = document.createRange();
      range.selectNodeContents(code);
      const sel = window.getSelection();
      sel.removeAllRanges();
      sel.addRange(range);
      label.textContent = "Selected — press Ctrl+C";
      announce("Copying is not allowed here; the SQL is selected, press Control C to copy it.");
    }
    setTimeout(() => { label.textContent = "Copy SQL"; }, 2500);
  });
  return btn;
}

// answerCard shows an answer: what was computed, the assumptions behind it
// (changeable), the rows as a table or chart, the SQL, and follow-ups.
export function answerCard(a, { onChange, onSuggestion } = {}) {
  const titleID = uid("ans");
  const seen = new Set();
  const assumed = [...(a.assumptions || []), ...(a.open_questions || [])].filter((x) => !seen.has(x.slot) && seen.add(x.slot));
  const chips = assumptionChips(assumed, onChange);
  const rows = a.rows || [];
  const cols = a.columns || [];
  const count = typeof a.row_count === "number" ? a.row_count : rows.length;
  const total = a.timings_ms && a.timings_ms.total;

  const single = cols.length === 1 && rows.length === 1 && typeof rows[0][0] === "number";
  const chart = single ? null : chartView(a);
  const table = single ? null : resultsTable(cols, rows, { caption: a.statement || "Results" });
  const views = h("div", { class: "views" });
  let toggle = null;
  if (single) {
    views.append(h("p", { class: "big-number" }, h("span", { class: "big-value" }, formatNumber(rows[0][0], cols[0].name)), h("span", { class: "big-label" }, humanize(cols[0].name))));
  } else if (chart) {
    const tBtn = h("button", { type: "button", class: "seg", "aria-pressed": "false" }, icon("table"), "Table");
    const cBtn = h("button", { type: "button", class: "seg", "aria-pressed": "true" }, icon("chart"), "Chart");
    const show = (which) => {
      const isChart = which === "chart";
      chart.hidden = !isChart;
      table.hidden = isChart;
      cBtn.setAttribute("aria-pressed", String(isChart));
      tBtn.setAttribute("aria-pressed", String(!isChart));
      if (isChart) requestAnimationFrame(() => chart.draw());
    };
    tBtn.addEventListener("click", () => show("table"));
    cBtn.addEventListener("click", () => show("chart"));
    toggle = h("div", { class: "segmented", role: "group", "aria-label": "Show the results as" }, tBtn, cBtn);
    views.append(chart, table);
    show("chart");
  } else {
    views.append(table);
  }

  const meta = h("p", { class: "result-meta" },
    h("span", { class: "row-count" }, plural(count, "row")),
    a.truncated ? h("span", { class: "truncated" }, " · only the first rows are shown") : null,
    total !== undefined ? h("span", { class: "timing" }, ` · ${formatMS(total)}`) : null);

  const sql = a.sql ? h("details", { class: "sql" },
    h("summary", {}, icon("code"), "The SQL behind this answer"),
    h("pre", { tabindex: "0" }, h("code", {}, formatSQL(a.sql))),
    a.params && a.params.length ? h("p", { class: "params" }, "Parameters, in order: ", a.params.map((p) => JSON.stringify(p)).join(", ")) : null,
    h("div", { class: "sql-actions" }, copyButton(() => a.sql))) : null;

  const sugg = (a.suggestions || []).length ? h("div", { class: "suggestions", role: "group", "aria-label": "Ask next" },
    (a.suggestions || []).map((sg) => h("button", { type: "button", class: "pill", title: sg.prompt, onclick: () => onSuggestion && onSuggestion(sg.prompt) }, sg.title || sg.prompt))) : null;

  const warnings = (a.warnings || []).length ? h("ul", { class: "warnings" }, a.warnings.map((w) => h("li", {}, icon("alert"), w))) : null;
  const notes = (a.notes || []).length ? h("ul", { class: "notes" }, a.notes.map((n) => h("li", {}, n))) : null;

  const card = h("article", { class: "card answer", "aria-labelledby": titleID, dataset: { rowCount: String(count) } },
    h("h2", { class: "statement", id: titleID }, a.statement || "Here is what I found"),
    chips,
    warnings,
    notes,
    h("div", { class: "result-bar" }, meta, toggle),
    views,
    sql,
    sugg);
  card.retire = () => {
    card.classList.add("retired");
    if (chips && chips.retire) chips.retire();
  };
  card.afterAttach = () => { if (chart && !chart.hidden) chart.draw(); };
  return card;
}

// errorCard explains a failure in plain words, with actions such as retry.
export function errorCard(title, detail, actions = []) {
  const card = h("div", { class: "card error" },
    h("p", { class: "error-title" }, icon("alert"), h("strong", {}, title)),
    detail ? h("p", { class: "error-detail" }, detail) : null,
    actions.length ? h("div", { class: "card-actions" }, actions.map((x, i) => h("button", { type: "button", class: `btn${i === 0 ? " primary" : ""}`, onclick: x.onClick }, x.icon ? icon(x.icon) : null, x.label))) : null);
  card.focusFirst = () => { const b = card.querySelector("button"); if (b) b.focus({ preventScroll: true }); };
  return card;
}

// keyPrompt asks for the API key of a server that needs one.
export function keyPrompt(onSave) {
  const id = uid("key");
  const input = h("input", { type: "password", id, autocomplete: "off", spellcheck: "false", required: true });
  const form = h("form", { class: "card key" },
    h("p", { class: "error-title" }, icon("alert"), h("strong", {}, "This Clarify server needs an API key")),
    h("p", {}, "Type it once; this browser keeps it and sends it with every request."),
    h("div", { class: "key-row" }, h("label", { for: id }, "API key"), input, h("button", { type: "submit", class: "btn primary" }, "Save")));
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    const v = input.value.trim();
    if (!v) { input.focus(); return; }
    form.remove();
    onSave(v);
  });
  form.focusFirst = () => input.focus();
  return form;
}

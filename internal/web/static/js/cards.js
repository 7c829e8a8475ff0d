// The pieces of a conversation: the user's messages, the live list of
// steps, the clarification card, the answer card and the error card.

import { h, icon, uid, announce } from "./dom.js";
import { describeColumn, formatMS, humanize, methodLabel, normalizeText, plural, slotLabel } from "./format.js";
import { csvName, downloadCSV, resultsTable } from "./table.js";
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

// modelWords is what the language model says while it works on a turn
// (text events with a delta): its words appended as they stream, always as
// text, never as HTML. It is not a live region: a screen reader is told the
// turn's outcome once, and finds the words in the log with their label.
export function modelWords() {
  const bubble = h("p", { class: "bubble" });
  const el = h("div", { class: "msg assistant model-words" },
    h("span", { class: "sr-only" }, "The language model: "),
    bubble);
  let said = "";
  return {
    el,
    append(delta) {
      said += delta;
      // the blank line after the model's last call is no paragraph
      bubble.textContent = said.trim();
    },
  };
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

// What a kind of assumption decides, when its text does not start with
// the user's own words.
const TOPICS = {
  time_window: "Time period",
  format: "Table or plot",
  latest_or_history: "Latest or all results",
  scope: "Whose data",
  ranking_metric: "How to rank",
  aggregation: "What to compute",
  value_ambiguity: "Which value",
  column_ambiguity: "Which column",
  table_ambiguity: "Which data",
  unknown_term: "A word I don't know",
  spelling: "Spelling",
};

// assumptionWords names what an assumption is about the way the user put
// it: the words quoted at the start of its text (“severe” for the text
// "severe" = Full thickness, whatever the slot is called), else what its
// kind decides.
export function assumptionWords(a) {
  const m = /^\s*["“]([^"”]+)["”]/.exec(a.text || "");
  if (m) return `“${m[1]}”`;
  return TOPICS[a.kind] || slotLabel(a.slot || "");
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
        h("p", { class: "chip-why" }, h("strong", { class: "chip-topic" }, assumptionWords(a)), " — ", a.why ? sentence(a.why) : sentence(methodLabel(a.method))),
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
    const rows = o.preview && o.preview.text ? o.preview.text : o.preview && typeof o.preview.rows === "number" ? plural(o.preview.rows, "row") : null;
    return h("div", { class: `option${o.best_guess ? " best" : ""}` },
      input,
      h("label", { for: id },
        h("span", { class: "opt-label" }, o.label, o.best_guess ? h("span", { class: "badge best-badge" }, "Best guess") : null),
        rows ? h("span", { class: o.preview.not_counted ? "opt-rows not-counted" : "opt-rows" }, h("span", { class: "sr-only" }, ", "), o.preview.not_counted ? "not counted in time" : rows) : null,
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

const CLAUSES = ["SELECT DISTINCT", "SELECT", "FROM", "WHERE", "GROUP BY", "HAVING", "ORDER BY", "LIMIT", "OFFSET",
  "UNION ALL", "UNION", "EXCEPT", "INTERSECT", "WINDOW", "LEFT OUTER JOIN", "RIGHT OUTER JOIN", "FULL OUTER JOIN",
  "LEFT JOIN", "RIGHT JOIN", "FULL JOIN", "INNER JOIN", "CROSS JOIN", "JOIN"];
const SQL_TOKEN = /"(?:[^"]|"")*"|'(?:[^']|'')*'|`[^`]*`|\s+|[A-Za-z_][A-Za-z0-9_$]*|./gs;

// formatSQL lays a one-line statement out for reading: each clause of the
// outer query on a line of its own, a select list of several items and
// the AND/OR of a condition one to a line, indented. Quoted names and
// strings, and subqueries, are left as they are. For display only: what
// is copied is the statement as it ran.
export function formatSQL(sql) {
  const toks = String(sql).trim().match(SQL_TOKEN) || [];
  const out = [];
  const isWS = (t) => /^\s+$/.test(t);
  const newline = (indent) => {
    while (out.length && isWS(out[out.length - 1])) out.pop();
    if (out.length) out.push(`\n${indent}`);
  };
  // clauseAt matches a clause keyword of one to three words at toks[i]
  const clauseAt = (i) => {
    const words = [];
    for (let j = i; j < toks.length && words.length < 3; j++) {
      if (isWS(toks[j])) continue;
      if (!/^[A-Za-z]/.test(toks[j])) break;
      words.push({ w: toks[j].toUpperCase(), end: j });
    }
    for (let n = words.length; n > 0; n--) {
      const kw = words.slice(0, n).map((x) => x.w).join(" ");
      if (CLAUSES.includes(kw)) return { kw, end: words[n - 1].end };
    }
    return null;
  };
  // listed reports whether the select list from toks[i] has several items
  const listed = (i) => {
    let depth = 0;
    for (let j = i; j < toks.length; j++) {
      const t = toks[j];
      if (t === "(") depth++;
      else if (t === ")") depth--;
      else if (depth === 0 && t === ",") return true;
      else if (depth === 0 && /^[A-Za-z]/.test(t) && clauseAt(j)) return false;
    }
    return false;
  };
  let depth = 0, clause = "", between = false, items = false, indentNext = false;
  for (let i = 0; i < toks.length; i++) {
    const t = toks[i];
    if (indentNext && !isWS(t)) { newline("  "); indentNext = false; }
    if (t === "(") depth++;
    if (t === ")") depth--;
    if (depth === 0 && /^[A-Za-z]/.test(t)) {
      const c = clauseAt(i);
      if (c) {
        const join = c.kw.endsWith("JOIN");
        newline(join ? "  " : "");
        out.push(c.kw);
        i = c.end;
        clause = join ? "ON" : c.kw;
        items = c.kw.startsWith("SELECT") && listed(i + 1);
        indentNext = items;
        between = false;
        continue;
      }
      const up = t.toUpperCase();
      if (up === "BETWEEN") between = true;
      if ((up === "AND" || up === "OR") && ["WHERE", "HAVING", "ON"].includes(clause)) {
        if (up === "AND" && between) between = false;
        else { newline(clause === "ON" ? "    " : "  "); out.push(up); continue; }
      }
    }
    if (out.length === 0 && isWS(t)) continue;
    out.push(t);
    if (t === "," && depth === 0 && items) indentNext = true;
  }
  return out.join("").trim();
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
export function answerCard(a, { onChange, onSuggestion, asked = [] } = {}) {
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
    const f = describeColumn(cols[0], [rows[0][0]]);
    const v = f.format(rows[0][0]);
    views.append(h("p", { class: "big-number" }, h("span", { class: "big-value" }, v.exact || v.text), h("span", { class: "big-label" }, f.heading || humanize(cols[0].name))));
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
      else if (table.isConnected) table.fit();
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
    total !== undefined ? h("span", { class: "timing" }, ` · ${formatMS(total)}`) : null,
    a.engine === "llm" ? h("span", { class: "engine-note" }, " · Answered with the language model") : null);

  const csv = cols.length ? h("button", { type: "button", class: "btn small csv", title: `Download the ${plural(rows.length, "row")} of this answer as a CSV file`,
    onclick: () => downloadCSV(csvName(a.statement), cols, rows) }, icon("download"), "Download CSV") : null;

  const sql = a.sql ? h("details", { class: "sql" },
    h("summary", {}, icon("code"), "The SQL behind this answer"),
    h("pre", { tabindex: "0" }, h("code", {}, a.sql_formatted || formatSQL(a.sql))),
    a.params && a.params.length ? h("p", { class: "params" }, "Parameters, in order: ", a.params.map((p) => JSON.stringify(p)).join(", ")) : null,
    h("div", { class: "sql-actions" }, copyButton(() => a.sql))) : null;

  // follow-ups never repeat what was just asked, in their prompt or in
  // their title ("Wounds by type" after "wounds by type?"), nor each other
  const done = new Set(asked.map(normalizeText).filter(Boolean));
  const next = [];
  for (const sg of a.suggestions || []) {
    const prompt = normalizeText(sg.prompt);
    if (!prompt || done.has(prompt) || done.has(normalizeText(sg.title))) continue;
    done.add(prompt);
    next.push(sg);
  }
  const sugg = next.length ? h("div", { class: "suggestions", role: "group", "aria-label": "Ask next" },
    next.map((sg) => h("button", { type: "button", class: "pill", title: sg.prompt, onclick: () => onSuggestion && onSuggestion(sg.prompt) }, sg.title || sg.prompt))) : null;

  const warnings = (a.warnings || []).length ? h("ul", { class: "warnings" }, a.warnings.map((w) => h("li", {}, icon("alert"), w))) : null;
  const notes = (a.notes || []).length ? h("ul", { class: "notes" }, a.notes.map((n) => h("li", {}, n))) : null;

  const card = h("article", { class: "card answer", "aria-labelledby": titleID, dataset: { rowCount: String(count) } },
    h("h2", { class: "statement", id: titleID }, a.statement || "Here is what I found"),
    chips,
    warnings,
    notes,
    h("div", { class: "result-bar" }, meta, toggle || csv ? h("div", { class: "result-tools" }, csv, toggle) : null),
    views,
    sql,
    sugg);
  card.retire = () => {
    card.classList.add("retired");
    if (chips && chips.retire) chips.retire();
  };
  card.afterAttach = () => {
    if (chart && !chart.hidden) chart.draw();
    if (table && !table.hidden) table.fit();
  };
  return card;
}

// unusableCard answers a message with nothing to look up (an emoji, only
// punctuation): it says why, and offers questions that work instead of a
// retry that could only fail again.
export function unusableCard(text, examples, onExample) {
  const shown = String(text).trim();
  const pills = (examples || []).map((q) => h("button", { type: "button", class: "pill", onclick: () => onExample(q) }, q));
  const card = h("div", { class: "card notice unusable" },
    h("p", { class: "notice-title" }, icon("spark"), h("strong", {}, "I need words to work with")),
    h("p", {}, shown ? `“${shown}” has no words or numbers I could look up in the data. ` : "", "Ask in words what you want to know — name the things and numbers you are after."),
    pills.length
      ? h("div", { class: "examples", role: "group", "aria-label": "Questions to try" }, h("p", { class: "examples-title" }, "For example"), pills)
      : h("p", { class: "hint" }, "For example: “How many … per …?” or “Show the … with the highest …”."));
  card.focusFirst = () => { if (pills[0]) pills[0].focus({ preventScroll: true }); };
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

// The chat: asks the API, streams each turn, and keeps the conversation id
// in the address (#c=…) so a reload picks up where it was — a pending
// question included.

import * as api from "./api.js";
import { h, announce } from "./dom.js";
import { userMessage, assistantNote, divider, steps, modelWords, clarificationCard, answerCard, errorCard, keyPrompt, unusableCard, assumptionWords } from "./cards.js";
import { openPreferences } from "./prefs.js";
import { openHistory } from "./history.js";
import { hasWords, slotLabel } from "./format.js";

const $ = (id) => document.getElementById(id);
const messages = $("messages");
const composer = $("composer");
const question = $("question");
const send = $("send");
const sourceSelect = $("source");
const noAsk = $("no-ask");
const engineSelect = $("engine");
const enginePicker = $("engine-picker");
const newButton = $("new-conversation");

const SOURCE_STORAGE = "clarify.source";
const NO_ASK_STORAGE = "clarify.noAsk";
const ENGINE_STORAGE = "clarify.engine."; // + the source's name
const RECONNECT_TRIES = 6;
const STALL_MS = 30000;
const GIVE_UP_MS = 150000;

// Example questions for the demo sources, shown on the empty page.
const EXAMPLES = {
  clinic: ["Which patients have severe wounds?", "How many open wounds per clinic?", "Show the large wounds"],
  labs: ["my vitamin D results", "Plot glucose for John Doe over the last 2 years"],
  trades: ["Daily close of AAPL over the last 90 days", "Average volume by sector"],
  retail: ["Revenue by month", "Top 10 customers by revenue"],
};

const state = {
  conversationID: "",
  status: "",
  source: "",
  sources: [],
  busy: false,
  lastEventID: 0,
  fresh: false, // the next message starts a new conversation
  question: "",
  limit: Number(question.maxLength) > 0 ? Number(question.maxLength) : 2000,
  lastText: "", // what the user typed last: follow-ups never repeat it
  retirable: [],
};

const store = {
  get(k) { try { return localStorage.getItem(k); } catch { return null; } },
  set(k, v) { try { localStorage.setItem(k, v); } catch { /* not kept */ } },
};

const calm = window.matchMedia("(prefers-reduced-motion: reduce)");
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// --- the log ----------------------------------------------------------

function add(el) {
  const intro = messages.querySelector(":scope > .empty-state");
  if (intro) intro.remove();
  messages.append(el);
  if (el.afterAttach) el.afterAttach();
  el.scrollIntoView({ block: "nearest", behavior: calm.matches ? "auto" : "smooth" });
  return el;
}

// reveal scrolls a new card into view with the message it answers when
// both fit, else from the card's top.
function reveal(card) {
  const turn = card.closest(".turn");
  const asked = turn && turn.previousElementSibling;
  const room = messages.parentElement.clientHeight - 24;
  let top = card;
  if (asked && asked.matches(".msg.user") && card.getBoundingClientRect().bottom - asked.getBoundingClientRect().top < room) top = asked;
  top.scrollIntoView({ block: "start", behavior: calm.matches ? "auto" : "smooth" });
}

function retireAll() {
  for (const el of state.retirable) el.retire();
  state.retirable = [];
}

function emptyState() {
  const src = state.sources.find((x) => x.name === state.source);
  const examples = EXAMPLES[state.source] || [];
  messages.replaceChildren(h("section", { class: "empty-state", "aria-labelledby": "empty-title" },
    h("h1", { id: "empty-title" }, "Ask your data a question"),
    h("p", { class: "lead" }, "I answer in plain language and show the SQL. When a question could mean more than one thing, I ask instead of guessing — and every assumption I make is listed, so you can change it."),
    src ? h("div", { class: "source-card" }, h("p", { class: "source-name" }, src.name), src.description ? h("p", {}, src.description) : null) : null,
    examples.length ? h("div", { class: "examples", role: "group", "aria-label": "Example questions" },
      h("p", { class: "examples-title" }, "Try"),
      examples.map((q) => h("button", { type: "button", class: "pill", onclick: () => submitText(q) }, q))) : null));
}

function setBusy(busy) {
  state.busy = busy;
  document.body.classList.toggle("busy", busy);
  question.disabled = busy;
  send.disabled = busy;
  sourceSelect.disabled = busy;
  engineSelect.disabled = busy;
  newButton.disabled = busy;
  send.setAttribute("aria-label", busy ? "Working…" : "Send");
}

function setConversation(id) {
  if (id !== state.conversationID) state.lastEventID = 0;
  state.conversationID = id;
  state.fresh = false;
  const hash = id ? `#c=${encodeURIComponent(id)}` : "";
  if (location.hash !== hash) history.replaceState(null, "", hash || location.pathname + location.search);
}

function idFromHash() {
  const m = /^#c=([A-Za-z0-9_-]+)$/.exec(location.hash);
  return m ? decodeURIComponent(m[1]) : "";
}

// --- errors -----------------------------------------------------------

const PLAIN = {
  SCOPE_REQUIRED: "I need to know whose data this is about",
  UNANSWERABLE: "I can't answer that from this data",
  VALIDATION_FAILED: "I couldn't build a safe query for that",
  DB_ERROR: "The database had a problem running the query",
  TIMEOUT: "The query took too long",
  SESSION_BUSY: "This conversation is busy with another request",
  MESSAGE_LIMIT: "This conversation is full",
  RATE_LIMITED: "You're asking faster than this server allows — wait a moment",
  CLARIFICATION_EXPIRED: "That question expired",
  STALE_CLARIFICATION: "That question was already answered",
  NOT_FOUND: "I can't find this conversation any more",
  UNKNOWN_SOURCE: "That data source isn't available",
  SOURCE_UNAVAILABLE: "That data source can't be reached right now",
  SOURCE_FORBIDDEN: "You don't have access to that data source",
  SCOPE_FORBIDDEN: "You don't have access to that person's data",
  BAD_REQUEST: "I couldn't use that request",
  BODY_TOO_LARGE: "That message is too long",
  FORBIDDEN: "The server refused the request",
  HOST_NOT_ALLOWED: "The server doesn't answer under this address",
  NETWORK: "Clarify can't be reached",
  INTERRUPTED: "The answer was interrupted",
  INTERNAL: "Something went wrong on the server",
  SCOPE_VIOLATION: "I couldn't keep that query to this person's data",
  LLM_ERROR: "The language model couldn't answer right now",
  METHOD_NOT_ALLOWED: "The server doesn't take that kind of request",
  // showError asks for the key instead; the title is for anything else that shows it
  UNAUTHORIZED: "This server needs your key",
};

function plainTitle(code) {
  return PLAIN[code] || "Something went wrong";
}

// showError adds an error card with the actions that make sense for it.
function showError(err, turn, retry) {
  if (err.code === "UNAUTHORIZED") {
    askForKey(retry);
    return null;
  }
  const actions = [];
  const fresh = ["MESSAGE_LIMIT", "CLARIFICATION_EXPIRED", "NOT_FOUND", "INTERRUPTED"].includes(err.code);
  if (err.code === "SCOPE_REQUIRED" && state.question) {
    // scope is never guessed: ask it, in every mode (the answer-at-once
    // switch and the server's "never ask me" stay as they are)
    const q = state.question;
    actions.push({ label: "Let me choose", icon: "retry", onClick: () => { startFresh(); submitText(q, { askScope: true }); } });
  } else if (fresh && state.question) {
    const q = state.question;
    actions.push({ label: "Ask again in a new conversation", icon: "retry", onClick: () => { startFresh(); submitText(q); } });
  } else if (err.code === "STALE_CLARIFICATION" && state.conversationID) {
    actions.push({ label: "Show the conversation", icon: "retry", onClick: () => resume(state.conversationID) });
  } else if (retry) {
    actions.push({ label: "Try again", icon: "retry", onClick: () => retry() });
  }
  if (state.conversationID || messages.querySelector(".msg")) {
    actions.push({ label: "New conversation", onClick: () => newConversation() });
  }
  const card = errorCard(plainTitle(err.code), err.message, actions);
  (turn || messages).append(card);
  announce(`${plainTitle(err.code)}. ${err.message || ""}`);
  return card;
}

// examples are questions that work on the current source: the page's own
// for the demo data, else the suggestions of the last answer.
function examples() {
  if (EXAMPLES[state.source]) return EXAMPLES[state.source];
  const last = [...messages.querySelectorAll(".card.answer .suggestions .pill")].slice(-3);
  return last.map((b) => b.title).filter(Boolean);
}

// showUnusable answers a message with nothing to look up without sending
// it (or after the server refused it as empty): why, and what to ask.
function showUnusable(text, turn) {
  const card = unusableCard(text, examples(), (q) => { startFresh(); submitText(q); });
  if (turn) turn.append(card);
  else add(h("section", { class: "turn", "aria-label": "Clarify's answer" }, card));
  announce("I need words to work with. Ask in words what you want to know; there are examples to try.");
  return card;
}

// unusable shows the server's refusal of an empty message (an emoji, only
// punctuation) as such: a retry would fail the same way. Else null.
function unusable(err, ctx) {
  if (err.code !== "BAD_REQUEST" || !ctx.text || hasWords(ctx.text) && !/\bempty\b|\bno words\b/i.test(err.message)) return null;
  return showUnusable(ctx.text, ctx.turn);
}

function askForKey(retry) {
  if (messages.querySelector(".card.key")) return;
  const card = keyPrompt((key) => {
    api.apiKey.set(key);
    if (retry) retry();
  });
  add(card);
  card.focusFirst();
  announce("This server needs an API key.");
}

// --- turns ------------------------------------------------------------

// runTurn sends one request whose answer streams, and renders its events
// in a new assistant turn. A dropped stream is followed again from the
// last event seen. onFail runs when the request never started a turn.
async function runTurn({ method, path, body, retry, onFail, change }) {
  if (state.busy) return;
  setBusy(true);
  const live = steps();
  const turn = add(h("section", { class: "turn", "aria-label": "Clarify's answer", "aria-busy": "true" }, live.el));
  const ctx = { turn, live, words: null, outcome: "", partial: {}, focus: null, retry, change, text: body && (body.text || body.question) || "" };
  announce("Working on it…");
  let failed = false;
  try {
    const outcome = await api.stream(method, path, body, (ev) => onEvent(ev, ctx));
    if (outcome !== "done") await reconnect(ctx);
  } catch (err) {
    failed = true;
    if (!(err instanceof api.APIError)) throw err;
    const started = ctx.outcome !== "";
    if (!started && onFail) onFail(err);
    const card = unusable(err, ctx) || showError(err, turn, retry);
    ctx.focus = card;
    ctx.reveal = card;
    if (err.code === "NOT_FOUND") setConversation("");
  } finally {
    live.finish(failed || ctx.outcome === "error");
    turn.setAttribute("aria-busy", "false");
    setBusy(false);
    if (ctx.reveal) reveal(ctx.reveal);
    if (ctx.focus && ctx.focus.focusFirst) ctx.focus.focusFirst();
    else question.focus({ preventScroll: true });
  }
}

function onEvent(ev, ctx) {
  if (ev.event === "conversation") setConversation(ev.data.conversation_id); // a new conversation: its ids start again
  if (typeof ev.id === "number" && ev.id > state.lastEventID) state.lastEventID = ev.id;
  const d = ev.data || {};
  switch (ev.event) {
    case "conversation":
      state.status = d.status || "active";
      state.question = d.question || state.question;
      break;
    case "message":
      if (d.question) state.question = d.question;
      break;
    case "step":
      ctx.live.add(d);
      break;
    case "interrupted":
      ctx.live.restart(); // the turn runs again from its first step
      forgetWords(ctx); // and the model says its words again
      break;
    case "assumptions":
      ctx.partial.assumptions = Array.isArray(ev.data) ? ev.data : [];
      break;
    case "text":
      if (typeof d.delta === "string") {
        addWords(ctx, d.delta);
        break;
      }
      ctx.partial.text = d.text;
      ctx.live.status(d.text || "Working…");
      break;
    case "clarification": {
      retireAll();
      ctx.outcome = "clarification";
      state.status = "needs_clarification";
      const card = showClarification(d, ctx.partial.assumptions || []);
      ctx.turn.append(card);
      ctx.reveal = card;
      ctx.focus = card;
      announce(`Clarify asks: ${d.question}`);
      break;
    }
    case "result": {
      retireAll();
      ctx.outcome = "result";
      state.status = "answered";
      const card = showAnswer(withChange(d, ctx.change));
      ctx.turn.append(card);
      card.afterAttach();
      ctx.reveal = card;
      announce(`Answer: ${d.statement || ""}. ${typeof d.row_count === "number" ? `${d.row_count} ${d.row_count === 1 ? "row" : "rows"}.` : ""}`);
      break;
    }
    case "error":
      retireAll();
      ctx.outcome = "error";
      state.status = "failed";
      ctx.focus = unusable(new api.APIError(d.code || "BAD_REQUEST", d.message || ""), ctx) ||
        showError(new api.APIError(d.code || "INTERNAL", d.message || ""), ctx.turn, ctx.retry);
      ctx.reveal = ctx.focus;
      break;
    case "done":
      if (d.status) state.status = d.status === "failed" ? "failed" : state.status;
      break;
    default:
      break; // answer, change: echoes of what the user sent
  }
}

// addWords appends the language model's words to the turn, in a message
// of their own after the steps, made at the first words.
function addWords(ctx, delta) {
  if (!delta) return;
  if (!ctx.words) {
    ctx.words = modelWords();
    ctx.live.el.after(ctx.words.el);
  }
  ctx.words.append(delta);
}

// forgetWords removes the words of a turn that runs again, so they are
// not shown twice.
function forgetWords(ctx) {
  if (!ctx.words) return;
  ctx.words.el.remove();
  ctx.words = null;
}

// reconnect follows the conversation's events from the last one seen until
// the turn's done event; it throws when that cannot be done. Heartbeats
// keep a followed stream open even when no turn runs any more, so a turn
// is given up on only after STALL_MS without an event and a look at the
// conversation, and for good after GIVE_UP_MS.
async function reconnect(ctx) {
  if (!state.conversationID) {
    throw new api.APIError("NETWORK", "The connection broke before the conversation started. Nothing was saved; try again.");
  }
  const id = encodeURIComponent(state.conversationID);
  const giveUp = Date.now() + GIVE_UP_MS;
  let failures = 0;
  for (;;) {
    ctx.live.status(failures === 0 ? "Connection lost — reconnecting…" : `Still reconnecting (try ${failures + 1} of ${RECONNECT_TRIES})…`);
    await sleep(Math.min(250 * 2 ** failures, 4000));
    const controller = new AbortController();
    let timer = setTimeout(() => controller.abort(), STALL_MS);
    const onEventAlive = (ev) => {
      clearTimeout(timer);
      timer = setTimeout(() => controller.abort(), STALL_MS);
      onEvent(ev, ctx);
    };
    let outcome;
    try {
      outcome = await api.stream("GET", `/v1/conversations/${id}/events`, undefined, onEventAlive,
        { lastEventID: state.lastEventID, signal: controller.signal, follow: true });
    } catch (err) {
      if (err instanceof api.APIError && err.code !== "NETWORK" && !/^HTTP_5/.test(err.code)) throw err;
      outcome = "dropped";
    } finally {
      clearTimeout(timer);
    }
    if (outcome === "done") return;
    if (outcome === "aborted") {
      ctx.live.status("Still working…");
      const view = await api.request("GET", `/v1/conversations/${id}`).catch(() => null);
      if (view && view.status !== "active") {
        renderOutcome(view, ctx);
        return;
      }
      if (Date.now() > giveUp) {
        throw new api.APIError("INTERRUPTED", "The answer was interrupted before it finished.");
      }
      continue;
    }
    failures++;
    if (failures >= RECONNECT_TRIES) {
      throw new api.APIError("NETWORK", "The connection to Clarify broke and could not be restored.");
    }
  }
}

// renderOutcome shows where a conversation stands, for a turn whose end
// was missed.
function renderOutcome(view, ctx) {
  retireAll();
  state.status = view.status;
  if (view.pending_clarification) {
    ctx.outcome = "clarification";
    const card = showClarification(view.pending_clarification, []);
    ctx.turn.append(card);
    ctx.focus = card;
    ctx.reveal = card;
  } else if (view.status === "answered" && view.last_answer) {
    ctx.outcome = "result";
    const card = showAnswer(view.last_answer);
    ctx.turn.append(card);
    card.afterAttach();
    ctx.reveal = card;
  } else if (view.status === "failed") {
    ctx.outcome = "error";
    const last = (view.turns || []).filter((t) => t.role === "assistant").pop();
    ctx.focus = showError(new api.APIError("INTERNAL", last ? last.text : ""), ctx.turn, ctx.retry);
    ctx.reveal = ctx.focus;
  }
}

function showClarification(c, assumptions) {
  const card = clarificationCard(c, {
    assumptions,
    onAnswer: (answer, shown) => {
      add(userMessage(shown, { kind: "answer" }));
      const id = state.conversationID;
      runTurn({
        method: "POST",
        path: `/v1/conversations/${encodeURIComponent(id)}/messages`,
        body: { answer },
        onFail: () => card.unlock(),
        // the answer never reached the server: answer again; it did, and
        // the turn failed: the question is asked afresh
        retry: () => {
          if (card.classList.contains("retired")) { startFresh(); submitText(state.question); return; }
          card.unlock();
          card.focusFirst();
        },
      });
    },
  });
  state.retirable.push(card);
  return card;
}

function showAnswer(a) {
  const card = answerCard(a, {
    asked: [state.question, state.lastText],
    onChange: (assumption, alt) => changeAssumption(assumption, alt),
    onSuggestion: (prompt) => { startFresh(); submitText(prompt); },
  });
  state.retirable.push(card);
  return card;
}

// withChange keeps a changed assumption in sight. The API lists the user's
// answers with method "user" and their alternatives; this fallback covers
// an answer that does not list the slot.
function withChange(answer, change) {
  if (!change || (answer.assumptions || []).some((a) => a.slot === change.slot)) return answer;
  const mine = { slot: change.slot, kind: change.kind, text: change.text, chosen: change.chosen, method: "user", alternatives: [] };
  return { ...answer, assumptions: [mine, ...(answer.assumptions || [])] };
}

function changeAssumption(assumption, alt) {
  const id = state.conversationID;
  const what = assumptionWords(assumption);
  add(userMessage(`Use ${alt.label} for ${what}`, { kind: "change" }));
  const req = {
    method: "POST",
    path: `/v1/conversations/${encodeURIComponent(id)}/assumptions/${encodeURIComponent(assumption.slot)}`,
    body: { option_id: alt.id },
    change: { slot: assumption.slot, kind: assumption.kind, chosen: alt.id, text: what.startsWith("“") ? `${what} = ${alt.label}` : alt.label },
  };
  req.retry = () => runTurn(req);
  runTurn(req);
}

// submitText sends what the user typed: the first question of a
// conversation, or the next message of the current one.
function submitText(text, { askScope = false } = {}) {
  text = text.trim();
  if (!text || state.busy) return;
  add(userMessage(text));
  if (!hasWords(text)) {
    // nothing to look up: say so at once, and send nothing
    const card = showUnusable(text, null);
    reveal(card);
    card.focusFirst();
    return;
  }
  state.lastText = text;
  let req;
  if (state.conversationID && !state.fresh && state.status !== "abandoned") {
    req = { method: "POST", path: `/v1/conversations/${encodeURIComponent(state.conversationID)}/messages`, body: { text } };
  } else {
    state.question = text;
    const body = { question: text };
    if (state.source) body.source = state.source;
    if (noAsk.checked) body.interactive = false;
    if (askScope) body.ask_scope = true;
    if (!enginePicker.hidden && engineSelect.value) body.engine = engineSelect.value;
    req = { method: "POST", path: "/v1/conversations", body };
  }
  req.retry = () => runTurn(req);
  runTurn(req);
}

// startFresh makes the next message start a new conversation, keeping the
// log on screen.
function startFresh() {
  if (state.conversationID) {
    retireAll();
    add(divider("New question"));
  }
  state.fresh = true;
  state.conversationID = "";
  state.status = "";
  setConversation("");
}

function newConversation() {
  if (state.busy) return;
  retireAll();
  state.conversationID = "";
  state.status = "";
  state.question = "";
  state.lastEventID = 0;
  state.fresh = false;
  setConversation("");
  emptyState();
  question.value = "";
  autosize();
  question.focus();
  announce("New conversation.");
}

// --- resuming -----------------------------------------------------------

// changeText words a stored change ("vague:large → area_gt_10") with the
// labels of the answer's assumptions when it lists the slot.
function changeText(text, answer) {
  const [slot, option] = String(text).split(" → ");
  if (!option) return text;
  const a = ((answer && answer.assumptions) || []).find((x) => x.slot === slot);
  const alt = a && [{ id: a.chosen, label: a.chosen === option ? a.text.replace(/^\s*["“][^"”]+["”]\s*=\s*/, "") : "" }, ...(a.alternatives || [])].find((x) => x.id === option && x.label);
  const what = a ? assumptionWords(a) : slotLabel(slot);
  return `Use ${alt ? alt.label : option.replace(/_/g, " ")} for ${what}`;
}

// resume shows a stored conversation: its turns, then its pending question
// or last answer.
async function resume(id) {
  let view;
  try {
    view = await api.request("GET", `/v1/conversations/${encodeURIComponent(id)}`);
  } catch (err) {
    if (err.code === "NOT_FOUND") {
      setConversation("");
      emptyState();
      add(assistantNote("That conversation is gone — it expired or was deleted. Ask a new question."));
      return;
    }
    messages.replaceChildren();
    showError(err, null, () => resume(id));
    return;
  }
  state.retirable = [];
  state.conversationID = view.conversation_id;
  state.status = view.status;
  state.question = view.question;
  state.lastEventID = 0;
  state.fresh = false;
  if (view.source && view.source !== state.source && state.sources.some((x) => x.name === view.source)) {
    state.source = view.source;
    sourceSelect.value = view.source;
    describeSource();
  }
  // the engine it asked for ("": the source's configured one)
  showEngines(view.engine || "");
  messages.replaceChildren();
  const turns = view.turns || [];
  const lastClar = turns.map((t) => t.kind).lastIndexOf("clarification");
  const lastAns = turns.map((t) => t.role === "assistant" && t.kind === "answer").lastIndexOf(true);
  let focus = null;
  turns.forEach((t, i) => {
    if (t.role === "user") {
      add(userMessage(t.kind === "change" ? changeText(t.text, view.last_answer) : t.text, { kind: t.kind }));
    } else if (t.kind === "clarification" && i === lastClar && view.pending_clarification) {
      const card = add(h("section", { class: "turn", "aria-label": "Clarify's question" }, showClarification(view.pending_clarification, [])));
      focus = card.querySelector("form");
    } else if (t.kind === "answer" && i === lastAns && view.last_answer) {
      const card = showAnswer(view.last_answer);
      add(h("section", { class: "turn", "aria-label": "Clarify's answer" }, card));
      card.afterAttach();
    } else if (t.kind === "error") {
      add(h("section", { class: "turn" }, errorCard(plainTitle(""), t.text)));
    } else {
      add(assistantNote(t.text, { kind: t.kind }));
    }
  });
  if (view.status === "abandoned") {
    const q = view.question;
    add(errorCard("That question expired", "It waited too long for an answer.", [
      { label: "Ask it again", icon: "retry", onClick: () => { startFresh(); submitText(q); } }]));
  } else if (view.status === "active") {
    await waitForTurn(id);
    return;
  }
  if (focus) {
    reveal(focus);
    focus.focusFirst();
    announce(`Clarify asks: ${view.pending_clarification.question}`);
  } else {
    question.focus();
  }
}

// waitForTurn polls a conversation whose turn is running elsewhere (a
// reload in the middle of a turn), then shows it.
async function waitForTurn(id) {
  setBusy(true);
  const live = steps();
  add(h("section", { class: "turn", "aria-busy": "true" }, live.el));
  live.status("Still working on your last message…");
  try {
    for (let i = 0; i < 60; i++) {
      await sleep(500);
      const view = await api.request("GET", `/v1/conversations/${encodeURIComponent(id)}`).catch(() => null);
      if (view && view.status !== "active") break;
    }
  } finally {
    setBusy(false);
  }
  await resume(id);
}

// --- sources and the composer ---------------------------------------------

async function loadSources() {
  let list;
  try {
    const got = await api.request("GET", "/v1/sources");
    list = got.sources || [];
    setLimit(got.limits && got.limits.question_chars);
  } catch (err) {
    sourceSelect.replaceChildren(h("option", { value: "" }, "—"));
    if (err.code === "UNAUTHORIZED") {
      askForKey(() => boot());
    } else {
      showError(err, null, () => { messages.replaceChildren(); boot(); });
    }
    return false;
  }
  state.sources = list;
  const saved = store.get(SOURCE_STORAGE);
  const pick = list.find((x) => x.name === saved && !x.error) || list.find((x) => x.default) || list[0];
  state.source = pick ? pick.name : "";
  sourceSelect.replaceChildren(...list.map((x) => h("option", { value: x.name, disabled: !!x.error, title: x.description || null },
    x.error ? `${x.name} (unavailable)` : x.name)));
  sourceSelect.value = state.source;
  describeSource();
  showEngines();
  return true;
}

// ENGINES names the engines a source may offer (GET /v1/sources engines).
const ENGINES = {
  rules: "Rules",
  llm: "Language model",
  hybrid: "Rules, then the model",
};

// showEngines offers the current source's engines, want chosen when the
// source offers it (by default the engine last chosen for the source in
// this browser), else its configured one; a source that offers only rules
// shows no choice.
function showEngines(want = store.get(ENGINE_STORAGE + state.source)) {
  const src = state.sources.find((x) => x.name === state.source);
  const offered = ((src && src.engines) || []).filter((e) => ENGINES[e]);
  if (offered.length < 2) {
    enginePicker.hidden = true;
    engineSelect.replaceChildren();
    return;
  }
  engineSelect.replaceChildren(...offered.map((e) => h("option", { value: e }, ENGINES[e])));
  engineSelect.value = offered.includes(want) ? want : offered.includes(src.engine) ? src.engine : offered[0];
  enginePicker.hidden = false;
}

function describeSource() {
  const src = state.sources.find((x) => x.name === state.source);
  $("source-description").textContent = src && src.description ? src.description : "";
}

function autosize() {
  question.style.height = "auto";
  question.style.height = `${Math.min(question.scrollHeight, 180)}px`;
  count();
}

// --- the length limit ------------------------------------------------------

// The server says how long a question may be (GET /v1/sources); the box
// stops there, a counter shows near the end, and text pasted past it is
// cut with a word about it, never silently. Lengths are counted in UTF-16
// units as maxlength does: never more than the server's characters.
const counter = $("question-count");
const cutNote = $("question-cut");
let announcedStep = 0;

function setLimit(n) {
  if (Number.isInteger(n) && n > 0) state.limit = n;
  question.maxLength = state.limit;
  count();
}

function count() {
  const n = question.value.length, max = state.limit;
  const near = n >= max * 0.8;
  counter.hidden = !near;
  counter.textContent = `${n.toLocaleString()} / ${max.toLocaleString()}`;
  counter.classList.toggle("full", n >= max);
  // a screen reader hears the limit coming, once per step, not every key
  const step = n >= max ? 3 : n >= max * 0.95 ? 2 : near ? 1 : 0;
  if (step > announcedStep) {
    announce(step === 3 ? `That is the limit: ${max.toLocaleString()} characters.` : `${(max - n).toLocaleString()} characters left.`);
  }
  announcedStep = step;
  if (n === 0) cutNote.hidden = true;
}

function onPaste(e) {
  const text = e.clipboardData && e.clipboardData.getData("text/plain");
  if (!text) return;
  const kept = question.value.length - (question.selectionEnd - question.selectionStart);
  const room = state.limit - kept;
  if (text.length <= room) return;
  e.preventDefault();
  let fit = text.slice(0, Math.max(0, room));
  if (/[\uD800-\uDBFF]$/.test(fit)) fit = fit.slice(0, -1); // never half a character
  question.setRangeText(fit, question.selectionStart, question.selectionEnd, "end");
  const left = text.length - fit.length;
  cutNote.textContent = `What you pasted was too long: I kept the first ${fit.length.toLocaleString()} characters and left out the last ${left.toLocaleString()}. A question can have up to ${state.limit.toLocaleString()} characters.`;
  cutNote.hidden = false;
  announce(cutNote.textContent);
  autosize();
}

function wire() {
  composer.addEventListener("submit", (e) => {
    e.preventDefault();
    const text = question.value;
    if (!text.trim()) { question.focus(); return; }
    question.value = "";
    cutNote.hidden = true;
    autosize();
    submitText(text);
  });
  question.addEventListener("keydown", (e) => {
    if (e.key === "Enter" && !e.shiftKey && !e.isComposing) {
      e.preventDefault();
      composer.requestSubmit();
    }
  });
  question.addEventListener("input", autosize);
  question.addEventListener("paste", onPaste);
  sourceSelect.addEventListener("change", () => {
    state.source = sourceSelect.value;
    store.set(SOURCE_STORAGE, state.source);
    describeSource();
    showEngines();
    if (messages.querySelector(":scope > .empty-state")) emptyState();
    else if (state.conversationID) {
      startFresh();
      announce(`New questions go to ${state.source}.`);
    }
  });
  engineSelect.addEventListener("change", () => {
    // the server keeps a conversation's engine: another one starts anew
    if (state.conversationID) state.fresh = true;
    store.set(ENGINE_STORAGE + state.source, engineSelect.value);
    announce(`The next question is answered by: ${ENGINES[engineSelect.value] || engineSelect.value}.`);
  });
  noAsk.checked = store.get(NO_ASK_STORAGE) === "1";
  noAsk.addEventListener("change", () => {
    store.set(NO_ASK_STORAGE, noAsk.checked ? "1" : "0");
    if (state.conversationID) state.fresh = true;
  });
  newButton.addEventListener("click", () => newConversation());
  $("prefs-open").addEventListener("click", () => openPreferences({ onUnauthorized: () => askForKey(null) }));
  $("history-open").addEventListener("click", () => openHistory({ onUnauthorized: () => askForKey(null) }));
  window.addEventListener("hashchange", () => {
    const id = idFromHash();
    if (id && id !== state.conversationID && !state.busy) resume(id);
  });
  window.addEventListener("unhandledrejection", (e) => {
    // a failure nothing handled: say so in plain words rather than fail silently
    if (e.reason instanceof api.APIError) {
      e.preventDefault();
      showError(e.reason, null, null);
    }
  });
}

async function boot() {
  if (!(await loadSources())) return;
  const id = idFromHash();
  if (id) await resume(id);
  else emptyState();
}

wire();
boot();

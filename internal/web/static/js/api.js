// The HTTP API client: JSON requests, and turns streamed as server-sent
// events over fetch (EventSource can neither POST nor send a key).

const KEY_STORAGE = "clarify.apiKey";

// APIError is a failed request with the API's stable code.
export class APIError extends Error {
  constructor(code, message, status = 0, conversationID = "") {
    super(message);
    this.name = "APIError";
    this.code = code;
    this.status = status;
    this.conversationID = conversationID;
  }
}

// apiKey is the key typed once for servers that need one.
export const apiKey = {
  get() {
    try { return localStorage.getItem(KEY_STORAGE) || ""; } catch { return ""; }
  },
  set(key) {
    try { localStorage.setItem(KEY_STORAGE, key); } catch { /* private mode: keep it for this page only */ }
    memoryKey = key;
  },
  forget() {
    try { localStorage.removeItem(KEY_STORAGE); } catch { /* nothing stored */ }
    memoryKey = "";
  },
};
let memoryKey = "";

function headers(extra = {}) {
  const h = { ...extra };
  const key = apiKey.get() || memoryKey;
  if (key) h.Authorization = `Bearer ${key}`;
  return h;
}

async function errorOf(res) {
  let body = null;
  try { body = await res.json(); } catch { /* not JSON */ }
  const e = body && body.error;
  if (e && e.code) return new APIError(e.code, e.message || e.code, res.status, body.conversation_id || "");
  return new APIError(`HTTP_${res.status}`, `The server answered ${res.status} ${res.statusText}.`, res.status);
}

function networkError(err) {
  const e = new APIError("NETWORK", "Clarify cannot be reached. Is `clarify serve` still running?");
  e.cause = err;
  return e;
}

// request sends one JSON request and returns the decoded body (null for
// 204). It throws APIError.
export async function request(method, path, body) {
  const init = { method, headers: headers({ Accept: "application/json" }), cache: "no-store" };
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  let res;
  try {
    res = await fetch(path, init);
  } catch (err) {
    throw networkError(err);
  }
  if (!res.ok) throw await errorOf(res);
  if (res.status === 204) return null;
  return res.json();
}

// parseSSE splits a buffer into complete events; it returns them and the
// unfinished rest. Comments (heartbeats) come back as {comment: true}.
export function parseSSE(buffer) {
  const events = [];
  const text = buffer.replace(/\r\n?/g, "\n");
  const blocks = text.split("\n\n");
  const rest = blocks.pop();
  for (const block of blocks) {
    const ev = { id: null, event: "message", data: "", comment: false };
    const data = [];
    let fields = 0;
    for (const line of block.split("\n")) {
      if (line === "") continue;
      if (line.startsWith(":")) { ev.comment = true; continue; }
      const i = line.indexOf(":");
      const name = i < 0 ? line : line.slice(0, i);
      let value = i < 0 ? "" : line.slice(i + 1);
      if (value.startsWith(" ")) value = value.slice(1);
      fields++;
      if (name === "id") ev.id = Number(value);
      else if (name === "event") ev.event = value;
      else if (name === "data") data.push(value);
    }
    if (fields === 0) {
      if (ev.comment) events.push({ comment: true });
      continue;
    }
    ev.data = data.join("\n");
    try { ev.data = ev.data ? JSON.parse(ev.data) : null; } catch { /* keep the text */ }
    events.push(ev);
  }
  return { events, rest };
}

// CLOSE_MS is how long a stream may stay open after its turn's done event
// before the page stops waiting for the server to close it.
const CLOSE_MS = 60000;

// draining holds the readers of finished streams until the server closes
// them: a reader nothing refers to may be garbage-collected, and the
// browser then cancels its request.
const draining = new Set();

// drain reads a finished turn's stream to its end in the background, so
// the request ends as the server closes it (not as an aborted request),
// and gives up on a server that keeps it open past CLOSE_MS.
function drain(reader) {
  draining.add(reader);
  const end = () => { clearTimeout(timer); draining.delete(reader); };
  const timer = setTimeout(() => reader.cancel().catch(() => {}), CLOSE_MS);
  const next = () => reader.read().then(({ done }) => (done ? end() : next()), end);
  next();
}

// stream runs a request whose answer is an event stream and calls onEvent
// for each event. It resolves with how the stream ended: "done" (the
// turn's last event arrived), "dropped" (the connection ended or broke
// before), or "aborted" (signal). Errors the server sends before the
// stream starts throw APIError.
//
// It resolves at done, and the rest of the stream is read in the
// background: the server closes a turn's stream itself, and a page that
// cancelled it would log every turn as an aborted request. A stream that
// follows a conversation (follow: true, the events endpoint) stays open
// on the server, so it is left at once.
export async function stream(method, path, body, onEvent, { lastEventID = 0, signal, follow = false } = {}) {
  const init = { method, headers: headers({ Accept: "text/event-stream" }), cache: "no-store", signal };
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  if (lastEventID > 0) init.headers["Last-Event-ID"] = String(lastEventID);
  let res;
  try {
    res = await fetch(path, init);
  } catch (err) {
    if (signal && signal.aborted) return "aborted";
    return "dropped";
  }
  const type = res.headers.get("Content-Type") || "";
  if (!res.ok || !type.startsWith("text/event-stream")) {
    if (res.ok) throw new APIError("BAD_RESPONSE", "The server did not answer with an event stream.", res.status);
    throw await errorOf(res);
  }
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return "dropped";
      buffer += decoder.decode(value, { stream: true });
      const parsed = parseSSE(buffer);
      buffer = parsed.rest;
      for (const ev of parsed.events) {
        if (ev.comment) continue;
        if (ev.event === "shutdown") {
          await reader.cancel().catch(() => {});
          return "dropped";
        }
        onEvent(ev);
        if (ev.event === "done") {
          if (follow) {
            await reader.cancel().catch(() => {});
            return "done";
          }
          drain(reader); // nothing follows done but the close
          return "done";
        }
      }
    }
  } catch (err) {
    if (signal && signal.aborted) return "aborted";
    return "dropped";
  }
}

// Formatting of values for people: numbers with the reader's separators,
// identifiers and years left alone, durations in ms or s — and, for the
// columns of an answer, values read by what they mean (money, dates and
// months in the reader's locale, units, flags, reference ranges).

const intFmt = new Intl.NumberFormat(undefined, { maximumFractionDigits: 0 });
const realFmt = new Intl.NumberFormat(undefined, { maximumFractionDigits: 2 });
const smallFmt = new Intl.NumberFormat(undefined, { maximumSignificantDigits: 3 });

// isNumericType reports whether a column type holds numbers.
export function isNumericType(type) {
  return type === "integer" || type === "real";
}

// isIdentifier reports whether a column holds codes rather than amounts
// (ids, years, zip codes): they are shown without grouping.
export function isIdentifier(name) {
  const n = String(name).toLowerCase();
  return n === "id" || n.endsWith("_id") || n.endsWith("id") && n.length <= 4 || /(^|_)(year|code|zip|phone)$/.test(n);
}

// formatNumber formats a number for a column.
export function formatNumber(v, name = "") {
  if (typeof v !== "number" || !Number.isFinite(v)) return String(v);
  if (isIdentifier(name)) return String(v);
  if (Number.isInteger(v)) return intFmt.format(v);
  if (Math.abs(v) < 1) return smallFmt.format(v);
  return realFmt.format(v);
}

// formatCell returns the text of one value and whether it is a number.
export function formatCell(v, col) {
  if (v === null || v === undefined) return { text: "—", empty: true };
  if (typeof v === "boolean") return { text: v ? "Yes" : "No" };
  if (typeof v === "number") return { text: formatNumber(v, col && col.name), number: true };
  if (typeof v === "object") return { text: JSON.stringify(v) };
  return { text: String(v) };
}

// formatMS formats a duration given in milliseconds.
export function formatMS(ms) {
  if (typeof ms !== "number" || !Number.isFinite(ms)) return "";
  if (ms < 1) return "<1 ms";
  if (ms < 1000) return `${Math.round(ms)} ms`;
  return `${(ms / 1000).toFixed(ms < 10000 ? 1 : 0)} s`;
}

// plural returns "1 row" or "3 rows".
export function plural(n, one, many = `${one}s`) {
  return `${intFmt.format(n)} ${n === 1 ? one : many}`;
}

// humanize turns a column name into a heading: "area_cm2" → "Area cm2".
export function humanize(name) {
  const t = String(name).replace(/_/g, " ").trim();
  return t.charAt(0).toUpperCase() + t.slice(1);
}

// normalizeText folds a text for comparing what people typed: case,
// accents, punctuation and runs of spaces do not count.
export function normalizeText(t) {
  return String(t || "").normalize("NFKD").replace(/\p{M}/gu, "").toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, " ").trim();
}

// hasWords reports whether a text has anything to look up: a letter or a
// digit (an emoji or punctuation alone has not).
export function hasWords(t) {
  return /[\p{L}\p{N}]/u.test(String(t || ""));
}

// slotLabel names an assumption's slot for people: "vague:large" → “large”.
export function slotLabel(slot) {
  const known = { scope: "Whose data", format: "Table or plot", history: "Latest or all results", time_window: "Time period", aggregation: "What to compute" };
  if (known[slot]) return known[slot];
  const i = slot.indexOf(":");
  if (i >= 0) return `“${slot.slice(i + 1).replace(/_/g, " ")}”`;
  return humanize(slot);
}

// methodLabel says how an assumption was made.
export function methodLabel(method) {
  return {
    user: "your answer",
    preference: "your usual choice",
    default: "assumed",
    skip: "my best judgment",
    open_question: "best guess",
    fuzzy: "closest match",
    exact: "matched",
  }[method] || method || "assumed";
}

// --- columns of an answer -------------------------------------------------

// Columns may say what their values mean (label, kind, grain, unit,
// range_low, range_high); an older server gives only name and type, and
// the meaning is then read from the name and the values.

const COMPACT_FROM = 100000; // a column reaching this is shown as 734K, 1.2M
const MONTH = /^(\d{4})-(\d{2})$/;
const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
const STAMP = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?$/;
const QUARTER = /^(\d{4})-?Q([1-4])$/i;
const WEEK = /^(\d{4})-?W(\d{2})$/i;
// units that column names end with: "area_cm2" is an area in cm²
const NAME_UNITS = { cm2: "cm²", m2: "m²", km2: "km²", mm: "mm", cm: "cm", km: "km", kg: "kg", g: "g", mg: "mg", ml: "ml", pct: "%", percent: "%", usd: "USD", eur: "EUR", gbp: "GBP" };
const RANGE_PAIRS = [["reference_low", "reference_high"], ["ref_low", "ref_high"], ["normal_low", "normal_high"], ["low_normal", "high_normal"], ["range_low", "range_high"], ["lower_limit", "upper_limit"]];
const VALUE_NAMES = /^(value|result|result_value|value_numeric|numeric_value|measurement|reading)$/;
const NOT_A_FLAG = /(count|number|total|sum|qty|quantity|amount|score|rank|level|stage|grade|_id$|^id$|year|avg|min|max|days|hours)/;

let currencies = null;

// isCurrency reports whether a unit is an ISO 4217 currency code.
export function isCurrency(unit) {
  if (!/^[A-Z]{3}$/.test(unit || "")) return false;
  if (!currencies) {
    try { currencies = new Set(Intl.supportedValuesOf("currency")); } catch { currencies = new Set(["USD", "EUR", "GBP", "JPY", "CHF", "CAD", "AUD", "CNY", "INR", "SEK", "NOK", "DKK", "PLN", "CZK", "RUB", "BRL", "MXN", "ZAR"]); }
  }
  return currencies.has(unit);
}

function capitalized(t) {
  const x = String(t).trim();
  return x.charAt(0).toUpperCase() + x.slice(1);
}

// decimalsOf counts the decimals a number is written with (at most 6).
function decimalsOf(v) {
  if (Number.isInteger(v)) return 0;
  const t = String(Math.abs(v));
  if (t.includes("e")) return 6;
  return Math.min(6, (t.split(".")[1] || "").length);
}

function utc(y, m, d = 1, hh = 0, mm = 0, ss = 0) {
  return new Date(Date.UTC(Number(y), Number(m) - 1, Number(d), Number(hh), Number(mm), Number(ss)));
}

const dateFmt = new Intl.DateTimeFormat(undefined, { year: "numeric", month: "short", day: "numeric", timeZone: "UTC" });
const monthFmt = new Intl.DateTimeFormat(undefined, { year: "numeric", month: "short", timeZone: "UTC" });
const stampFmt = new Intl.DateTimeFormat(undefined, { year: "numeric", month: "short", day: "numeric", hour: "numeric", minute: "2-digit", timeZone: "UTC" });
const zonedFmt = new Intl.DateTimeFormat(undefined, { year: "numeric", month: "short", day: "numeric", hour: "numeric", minute: "2-digit", timeZoneName: "short" });

// formatTime shows a date, month, quarter, week or timestamp written the
// ISO way ("2023-11", "2023-11-06", "2024-Q1") in the reader's locale;
// grain says which period a date stands for. Anything else comes back as
// it is. A timestamp without a zone is shown as written (wall-clock time).
export function formatTime(v, grain = "") {
  const t = String(v).trim();
  let m;
  if ((m = QUARTER.exec(t))) return `Q${m[2]} ${m[1]}`;
  if ((m = WEEK.exec(t))) return `Week ${Number(m[2])}, ${m[1]}`;
  if ((m = MONTH.exec(t))) return monthFmt.format(utc(m[1], m[2]));
  if (grain === "year" && /^\d{4}$/.test(t)) return t;
  const period = ["week", "month", "quarter", "year"].includes(grain);
  if ((m = DAY.exec(t)) || period && (m = STAMP.exec(t))) {
    const d = utc(m[1], m[2], m[3]);
    if (grain === "month") return monthFmt.format(d);
    if (grain === "quarter") return `Q${Math.floor((Number(m[2]) - 1) / 3) + 1} ${m[1]}`;
    if (grain === "year") return m[1];
    if (grain === "week") return `Week of ${dateFmt.format(d)}`;
    return dateFmt.format(d);
  }
  if ((m = STAMP.exec(t))) {
    if (m[7]) {
      const d = new Date(t.replace(" ", "T"));
      return Number.isNaN(d.getTime()) ? t : zonedFmt.format(d);
    }
    const d = utc(m[1], m[2], m[3], m[4], m[5], m[6] || 0);
    if (grain === "day") return dateFmt.format(d);
    return stampFmt.format(d);
  }
  return t;
}

// timeKind reads a text column's values: all months, dates, timestamps…
function timeKind(values) {
  const seen = values.filter((v) => typeof v === "string");
  if (seen.length === 0 || seen.length !== values.length) return null;
  const all = (re) => seen.every((v) => re.test(v));
  if (all(MONTH)) return { kind: "period", grain: "month" };
  if (all(QUARTER)) return { kind: "period", grain: "quarter" };
  if (all(WEEK)) return { kind: "period", grain: "week" };
  if (all(DAY)) return { kind: "date" };
  if (all(STAMP)) return { kind: "timestamp" };
  return null;
}

// unitFromName reads a unit from a column name's last word ("area_cm2").
function unitFromName(name) {
  const m = /_([a-z0-9]+)$/.exec(String(name).toLowerCase());
  return m && NAME_UNITS[m[1]] ? { unit: NAME_UNITS[m[1]], base: String(name).slice(0, -m[0].length) } : null;
}

// readColumn works out what a column's values mean, from what the API
// says and, where it says nothing, from the name and the values.
function readColumn(col, values) {
  const name = String(col.name || "");
  const lower = name.toLowerCase();
  const present = values.filter((v) => v !== null && v !== undefined);
  const numbers = present.filter((v) => typeof v === "number");
  const allNumbers = present.length > 0 && numbers.length === present.length;
  let { kind = "", grain = "", unit = "", label = "" } = col;
  let base = name;
  if (!unit) {
    const u = unitFromName(name);
    if (u) { unit = u.unit; base = u.base; }
  }
  if (!kind) {
    const type = String(col.type || "").toLowerCase();
    const time = type === "text" || !type ? timeKind(present) : null;
    if (type === "boolean" || type === "bool" || present.length > 0 && present.every((v) => typeof v === "boolean")) kind = "bool";
    else if (type === "date") kind = "date";
    else if (type === "timestamp" || type === "datetime") kind = "timestamp";
    else if (time) { kind = time.kind; grain = grain || time.grain || ""; }
    else if (/(^|_)year$/.test(lower) && (allNumbers || present.length === 0)) kind = "year";
    else if (isIdentifier(name)) kind = "id";
    else if (allNumbers && type === "integer" && numbers.every((v) => v === 0 || v === 1) && !NOT_A_FLAG.test(lower)) kind = "bool";
    else if (allNumbers || isNumericType(type)) kind = "measure";
    else kind = "text";
  }
  if (kind === "period" && !grain) grain = (timeKind(present) || {}).grain || "";
  if (kind === "year") grain = "year";
  return { name, kind, grain, unit, label: label || humanize(base) };
}

// describeColumn prepares the formatting of one column of an answer from
// all its values: its heading, whether it holds numbers, and format(v),
// which returns {text, exact, empty, number} — exact is the full value
// when text is shortened (734K), for a title and screen readers.
export function describeColumn(col, values = []) {
  const c = readColumn(col, values);
  const numbers = values.filter((v) => typeof v === "number" && Number.isFinite(v));
  const money = isCurrency(c.unit) ? c.unit : "";
  const numeric = ["measure", "count", "id", "year"].includes(c.kind) && numbers.length > 0 || isNumericType(col.type) && c.kind !== "bool";
  const measured = c.kind === "measure" || c.kind === "count";
  const maxAbs = numbers.reduce((m, v) => Math.max(m, Math.abs(v)), 0);
  let decimals = numbers.reduce((m, v) => Math.max(m, decimalsOf(v)), 0);
  if (money) decimals = decimals > 0 ? 2 : 0;
  else decimals = Math.min(decimals, maxAbs < 1 ? 4 : maxAbs < 10 ? 3 : 2);
  if (c.kind === "count") decimals = Math.min(decimals, 2);
  const compact = measured && maxAbs >= COMPACT_FROM;
  const exactFmt = new Intl.NumberFormat(undefined, money
    ? { style: "currency", currency: money, minimumFractionDigits: decimals, maximumFractionDigits: decimals }
    : { minimumFractionDigits: decimals, maximumFractionDigits: decimals });
  const shortFmt = compact ? new Intl.NumberFormat(undefined, { ...(money ? { style: "currency", currency: money } : {}), notation: "compact", maximumSignificantDigits: 3 }) : null;
  const unit = c.unit && !money ? c.unit : "";
  const heading = capitalized(c.label) + (unit && !c.label.includes(unit) ? ` (${unit})` : "");

  function format(v) {
    if (v === null || v === undefined) return { text: "—", empty: true };
    if (c.kind === "bool" && (typeof v === "boolean" || v === 0 || v === 1 || v === "0" || v === "1")) {
      return { text: v === true || v === 1 || v === "1" ? "Yes" : "No" };
    }
    if (typeof v === "boolean") return { text: v ? "Yes" : "No" };
    if (typeof v === "number") {
      if (!Number.isFinite(v)) return { text: String(v), number: true };
      if (c.kind === "id" || c.kind === "year" || c.grain === "year" || isIdentifier(c.name) && !measured) return { text: String(v), number: true };
      const exact = exactFmt.format(v);
      if (shortFmt) return { text: shortFmt.format(v), exact, number: true };
      return { text: exact, number: true };
    }
    if (typeof v === "object") return { text: JSON.stringify(v) };
    if (["date", "timestamp", "period"].includes(c.kind)) {
      const text = formatTime(v, c.grain);
      return text === String(v) ? { text } : { text, raw: String(v) };
    }
    return { text: String(v) };
  }
  return { name: c.name, kind: c.kind, grain: c.grain, unit: c.unit, money, heading, numeric, decimals, compact, format };
}

// rangeChecks finds, for each column of an answer, the columns of the same
// row that hold its reference range: named by the column (range_low,
// range_high) or, from an older server, a pair such as reference_low and
// reference_high beside a value or result column. It returns an array:
// [lowIndex, highIndex] for a checked column, null for the others.
export function rangeChecks(columns) {
  const index = new Map(columns.map((c, i) => [String(c.name), i]));
  const out = columns.map((c) => {
    if (!c.range_low && !c.range_high) return null;
    const lo = index.has(c.range_low) ? index.get(c.range_low) : -1;
    const hi = index.has(c.range_high) ? index.get(c.range_high) : -1;
    return lo < 0 && hi < 0 ? null : [lo, hi];
  });
  if (out.some(Boolean)) return out;
  for (const [low, high] of RANGE_PAIRS) {
    if (!index.has(low) || !index.has(high)) continue;
    const lo = index.get(low), hi = index.get(high);
    const candidates = columns.map((c, i) => i).filter((i) => i !== lo && i !== hi &&
      VALUE_NAMES.test(String(columns[i].name).toLowerCase()));
    for (const i of candidates) out[i] = [lo, hi];
    break;
  }
  return out;
}

// outOfRange says whether a value lies outside its row's reference range:
// "High", "Low", or "".
export function outOfRange(v, low, high) {
  if (typeof v !== "number") return "";
  if (typeof high === "number" && v > high) return "High";
  if (typeof low === "number" && v < low) return "Low";
  return "";
}

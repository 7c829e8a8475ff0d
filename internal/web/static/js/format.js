// Formatting of values for people: numbers with the reader's separators,
// identifiers and years left alone, durations in ms or s.

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
  if (typeof v === "boolean") return { text: v ? "yes" : "no" };
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

// slotLabel names an assumption's slot for people: "vague:large" → “large”.
export function slotLabel(slot) {
  const known = { scope: "Whose data", format: "Table or plot", history: "Latest or all results" };
  if (known[slot]) return known[slot];
  const i = slot.indexOf(":");
  if (i >= 0) return `“${slot.slice(i + 1)}”`;
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

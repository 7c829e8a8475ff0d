// Time on a chart's x axis: reading the periods SQL answers carry ("2023",
// 2023, "2023-Q4", "2023-11", "2023-11-06", timestamps), naming them in the
// reader's locale, and ticks on calendar boundaries (whole days, weeks,
// months, quarters, years) chosen from the span and the room there is.
//
// Times are milliseconds in UTC: a date in the data is a calendar date, not
// an instant, so it is drawn and named as written, wherever the reader is.

const DAY = 86400000;
const GRAINS = ["time", "day", "week", "month", "quarter", "year"];
const DATE_RE = /^(\d{4})-(\d{2})(?:-(\d{2}))?(?:[ T](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/;
const QUARTER_RE = /^(\d{4})[ -]?Q([1-4])$|^Q([1-4])[ -]?(\d{4})$/i;
const WEEK_RE = /^(\d{4})-?W(\d{2})$/i;

// coarser reports whether grain a is at least as coarse as grain b.
export function coarser(a, b) {
  return GRAINS.indexOf(a) >= GRAINS.indexOf(b);
}

// parsePeriod reads one x value as a time: {t, grain} with t the start of
// the period in UTC milliseconds, or null when it is not one. Numbers are
// years only when years are expected (yearLike).
export function parsePeriod(v, yearLike = false) {
  if (typeof v === "number") {
    return yearLike && Number.isInteger(v) && v >= 1000 && v <= 9999 ? { t: Date.UTC(v, 0, 1), grain: "year" } : null;
  }
  if (typeof v !== "string") return null;
  const s = v.trim();
  if (/^\d{4}$/.test(s)) return { t: Date.UTC(Number(s), 0, 1), grain: "year" };
  let m = QUARTER_RE.exec(s);
  if (m) return { t: Date.UTC(Number(m[1] || m[4]), (Number(m[2] || m[3]) - 1) * 3, 1), grain: "quarter" };
  m = WEEK_RE.exec(s);
  if (m) {
    // ISO week 1 holds 4 January; weeks start on Monday
    const jan4 = Date.UTC(Number(m[1]), 0, 4);
    const monday = jan4 - ((new Date(jan4).getUTCDay() + 6) % 7) * DAY;
    return { t: monday + (Number(m[2]) - 1) * 7 * DAY, grain: "week" };
  }
  m = DATE_RE.exec(s);
  if (!m) return null;
  const [, y, mo, d, hh, mi, ss, zone] = m;
  if (d === undefined) return hh === undefined ? { t: Date.UTC(Number(y), Number(mo) - 1, 1), grain: "month" } : null;
  if (hh === undefined) return { t: Date.UTC(Number(y), Number(mo) - 1, Number(d)), grain: "day" };
  const t = Date.parse(`${y}-${mo}-${d}T${hh}:${mi}:${ss || "00"}${zone ? zone.replace(/^([+-]\d{2})(\d{2})$/, "$1:$2") : "Z"}`);
  if (!Number.isFinite(t)) return null;
  return { t, grain: t % DAY === 0 ? "day" : "time" };
}

const fmtCache = new Map();

// fmt returns a cached Intl.DateTimeFormat in UTC for the reader's locale.
function fmt(opts) {
  const key = JSON.stringify(opts);
  if (!fmtCache.has(key)) fmtCache.set(key, new Intl.DateTimeFormat(undefined, { ...opts, timeZone: "UTC" }));
  return fmtCache.get(key);
}

// periodLabel names the period starting at t ("Nov 2023", "Q4 2023",
// "Week of Nov 6, 2023", "Nov 6, 2023").
export function periodLabel(t, grain) {
  const d = new Date(t);
  switch (grain) {
    case "year": return fmt({ year: "numeric" }).format(d);
    case "quarter": return `Q${Math.floor(d.getUTCMonth() / 3) + 1} ${d.getUTCFullYear()}`;
    case "month": return fmt({ month: "short", year: "numeric" }).format(d);
    case "week": return `Week of ${fmt({ month: "short", day: "numeric", year: "numeric" }).format(d)}`;
    case "day": return fmt({ weekday: "short", month: "short", day: "numeric", year: "numeric" }).format(d);
    default: return fmt({ month: "short", day: "numeric", year: "numeric", hour: "numeric", minute: "2-digit" }).format(d);
  }
}

// shortPeriodLabel is a period's name where room is short (bar labels):
// the same without the weekday.
export function shortPeriodLabel(t, grain) {
  return grain === "day" ? fmt({ month: "short", day: "numeric", year: "numeric" }).format(new Date(t)) : periodLabel(t, grain);
}

// The tick steps, finest first: a unit, how many of it, and the grain a
// tick of it is (a step is never finer than the data's grain).
const STEPS = [
  ["hour", 1, "time"], ["hour", 3, "time"], ["hour", 6, "time"], ["hour", 12, "time"],
  ["day", 1, "day"], ["day", 2, "day"], ["week", 1, "week"], ["week", 2, "week"],
  ["month", 1, "month"], ["month", 3, "quarter"], ["month", 6, "quarter"],
  ["year", 1, "year"], ["year", 2, "year"], ["year", 5, "year"], ["year", 10, "year"],
  ["year", 20, "year"], ["year", 50, "year"], ["year", 100, "year"],
];

// boundaries lists the starts of unit×n periods in [lo, hi]. Weeks start
// on weekStart (0 Sunday … 6 Saturday).
function boundaries(lo, hi, unit, n, weekStart) {
  const out = [];
  const d = new Date(lo);
  const y = d.getUTCFullYear(), mo = d.getUTCMonth();
  if (unit === "year") {
    for (let yr = Math.ceil(y / n) * n; ; yr += n) {
      const t = Date.UTC(yr, 0, 1);
      if (t < lo) continue;
      if (t > hi) break;
      out.push(t);
    }
  } else if (unit === "month") {
    for (let i = Math.floor(mo / n) * n; ; i += n) {
      const t = Date.UTC(y, i, 1);
      if (t < lo) continue;
      if (t > hi) break;
      out.push(t);
    }
  } else if (unit === "hour") {
    for (let t = Math.ceil(lo / (3600000 * n)) * 3600000 * n; t <= hi; t += 3600000 * n) out.push(t);
  } else {
    // the first day (or week start) in the span, then every n of them
    let t = Math.ceil(lo / DAY) * DAY;
    if (unit === "week") while (new Date(t).getUTCDay() !== weekStart) t += DAY;
    const size = (unit === "week" ? 7 : 1) * n * DAY;
    for (; t <= hi; t += size) out.push(t);
  }
  return out;
}

// weekdayDay names a day by its weekday and date without the month
// ("Mon 6"): the locale's "Mon, Nov 6" with the month and what leads to
// it left out (the locale's own weekday-and-day form is "6 Mon" in English).
function weekdayDay(d) {
  const parts = fmt({ weekday: "short", month: "short", day: "numeric" }).formatToParts(d);
  const i = parts.findIndex((p) => p.type === "month");
  const keep = parts.filter((p, j) => j !== i && !(p.type === "literal" && j === (i > 0 ? i - 1 : i + 1)));
  return keep.map((p) => (p.type === "literal" ? " " : p.value)).join("").replace(/\s+/g, " ").trim();
}

// tickLabel names a tick at t of a step's unit; context (the month or the
// year) is written on the first tick and where it changes.
function tickLabel(t, prev, unit, short) {
  const d = new Date(t), p = prev === null ? null : new Date(prev);
  const newYear = !p || p.getUTCFullYear() !== d.getUTCFullYear();
  const newMonth = newYear || p.getUTCMonth() !== d.getUTCMonth();
  switch (unit) {
    case "year": return fmt({ year: "numeric" }).format(d);
    case "month": return fmt(newYear ? { month: "short", year: "numeric" } : { month: "short" }).format(d);
    case "hour": {
      const newDay = newMonth || p.getUTCDate() !== d.getUTCDate();
      return newDay ? fmt({ month: "short", day: "numeric", hour: "numeric" }).format(d) : fmt({ hour: "numeric" }).format(d);
    }
    default:
      if (short) return newMonth ? fmt({ weekday: "short", month: "short", day: "numeric" }).format(d) : weekdayDay(d);
      return fmt(newYear ? { month: "short", day: "numeric", year: "numeric" } : { month: "short", day: "numeric" }).format(d);
  }
}

// calendarTicks returns ticks {v, label} on calendar boundaries in
// [lo, hi]: the finest step no finer than grain whose labels fit in width
// (measured with measure(text) → px). weekStart is the weekday weeks start
// on. When no boundary falls in the span, the given points are the ticks.
export function calendarTicks(lo, hi, width, grain, measure, { weekStart = 1, points = [] } = {}) {
  const short = hi - lo <= 14 * DAY;
  let last = null;
  for (const [unit, n, g] of STEPS) {
    if (!coarser(g, grain)) continue;
    const ts = boundaries(lo, hi, unit, n, weekStart);
    if (ts.length === 0) continue;
    const ticks = ts.map((t, i) => ({ v: t, label: tickLabel(t, i ? ts[i - 1] : null, unit, short) }));
    const room = Math.max(...ticks.map((tk) => measure(tk.label))) + 14;
    if (ticks.length === 1 || room * ticks.length <= width) return ticks;
    last = { ticks, room };
  }
  if (last) {
    // nothing fits: every k-th of the coarsest step
    const k = Math.ceil((last.room * last.ticks.length) / Math.max(1, width));
    return last.ticks.filter((_, i) => i % k === 0);
  }
  const uniq = [...new Set(points)].sort((a, b) => a - b);
  return uniq.slice(0, 1).map((t) => ({ v: t, label: shortPeriodLabel(t, grain) }));
}

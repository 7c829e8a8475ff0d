// The numbers on a chart: round ticks for a value axis, and how a column's
// values are written — as money when its unit is a currency, with the unit
// otherwise — from the metadata an answer's columns may carry (kind, grain,
// unit, label) or, without it, from their names.

import { formatNumber, humanize } from "../format.js";

// niceTicks returns about n round numbers covering [lo, hi].
export function niceTicks(lo, hi, n = 5) {
  if (!Number.isFinite(lo) || !Number.isFinite(hi)) return [0, 1];
  if (lo === hi) {
    const pad = Math.abs(lo) * 0.1 || 1;
    lo -= pad;
    hi += pad;
  }
  const raw = (hi - lo) / Math.max(1, n);
  const mag = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * mag).find((st) => st >= raw) || 10 * mag;
  const first = Math.floor(lo / step) * step;
  const ticks = [];
  for (let v = first; v <= hi + step * 1e-9; v += step) ticks.push(Number(v.toPrecision(12)));
  if (ticks[ticks.length - 1] < hi) ticks.push(Number((ticks[ticks.length - 1] + step).toPrecision(12)));
  return ticks;
}

// columnLabel is a column's heading: its label (with a capital), or its
// name made readable.
export function columnLabel(col) {
  return humanize(col.label || col.name);
}

// isCurrency reports whether a unit is an ISO 4217 currency code the
// browser knows ("USD", "EUR").
export function isCurrency(unit) {
  if (typeof unit !== "string" || !/^[A-Z]{3}$/.test(unit)) return false;
  if (typeof Intl.supportedValuesOf === "function") return Intl.supportedValuesOf("currency").includes(unit);
  try {
    new Intl.NumberFormat(undefined, { style: "currency", currency: unit });
    return true;
  } catch {
    return false;
  }
}

// measureOf describes the y column: its heading, its unit (the column's,
// or a unit column that is the same on every row, as lab results have) and
// two formats: tick(v, step) for the axis, full(v) for a tooltip.
export function measureOf(col, cols, rows) {
  let unit = col.unit || "";
  if (!unit) {
    const ui = cols.findIndex((c) => c.name === "unit");
    const units = ui >= 0 ? new Set(rows.map((r) => r[ui]).filter((u) => u !== null && u !== "")) : new Set();
    if (units.size === 1) unit = String([...units][0]);
  }
  const money = isCurrency(unit);
  const label = columnLabel(col);
  const compact = (v, cur) => new Intl.NumberFormat(undefined, { notation: "compact", maximumSignificantDigits: 3, ...cur }).format(v);
  const cur = money ? { style: "currency", currency: unit } : {};
  const suffix = !unit || money ? "" : unit === "%" ? "%" : ` ${unit}`;
  return {
    label,
    unit,
    money,
    title: unit ? `${label} (${unit})` : label,
    tick(v, step = 1) {
      if (Math.abs(v) >= 1e6) return compact(v, cur);
      if (!money) return formatNumber(v, col.name);
      const digits = step >= 1 || v === 0 ? 0 : 2;
      return new Intl.NumberFormat(undefined, { ...cur, minimumFractionDigits: digits, maximumFractionDigits: digits }).format(v);
    },
    full(v) {
      if (money) return new Intl.NumberFormat(undefined, cur).format(v);
      return formatNumber(v, col.name) + suffix;
    },
    short(v) {
      if (Math.abs(v) >= 1e6) return compact(v, cur);
      if (!money) return formatNumber(v, col.name);
      const digits = Number.isInteger(v) ? 0 : 2;
      return new Intl.NumberFormat(undefined, { ...cur, minimumFractionDigits: digits, maximumFractionDigits: digits }).format(v);
    },
  };
}

// Measuring and fitting the text of a chart before it is drawn, with the
// page's own font, so labels get the room they need and no more.

let ctx = null, family = "";

// measure returns the width in px of text in the chart's label font.
export function measure(text, size = 11.5, weight = "normal") {
  if (!ctx) {
    ctx = document.createElement("canvas").getContext("2d");
    family = getComputedStyle(document.documentElement).getPropertyValue("--font").trim() || "system-ui, sans-serif";
  }
  ctx.font = `${weight} ${size}px ${family}`;
  return Math.ceil(ctx.measureText(String(text)).width);
}

// wrap breaks text into at most maxLines lines no wider than width,
// between words (a word wider than the line is cut). It returns the lines
// and whether anything had to be cut off (the last line then ends in "…").
export function wrap(text, width, maxLines = 3) {
  const words = String(text).split(/\s+/).filter(Boolean);
  const lines = [];
  let line = "", cut = false;
  const push = (l) => {
    if (measure(l) > width) { l = fit(l, width); cut = true; }
    lines.push(l);
  };
  for (let i = 0; i < words.length; i++) {
    const next = line ? `${line} ${words[i]}` : words[i];
    if (!line || measure(next) <= width) {
      line = next;
      continue;
    }
    push(line);
    line = words[i];
    if (lines.length === maxLines) return { lines: ellipsize(lines, words.slice(i).join(" "), width), cut: true };
  }
  if (line || lines.length === 0) push(line);
  return { lines, cut };
}

function ellipsize(lines, rest, width) {
  const out = lines.slice();
  out[out.length - 1] = fit(`${out[out.length - 1]} ${rest}`, width);
  return out;
}

// fit cuts text to width, ending it with "…" when cut.
export function fit(text, width) {
  const t = String(text);
  if (measure(t) <= width) return t;
  let lo = 0, hi = t.length;
  while (lo < hi) {
    const mid = Math.ceil((lo + hi) / 2);
    if (measure(`${t.slice(0, mid).trimEnd()}…`) <= width) lo = mid;
    else hi = mid - 1;
  }
  return `${t.slice(0, lo).trimEnd()}…`;
}

// Series colours that depend on the series' name only, so that "Clinic B"
// is drawn in the same colour in every answer. The palette itself (eight
// colours with at least 4.5:1 contrast on the card, light and dark) is in
// app.css as --series-1 … --series-8, picked by the classes s1 … s8.

export const PALETTE_SIZE = 8;

// colourOf returns the palette slot (1 … 8) of a series name: an FNV-1a
// hash of the name, trimmed and in lower case.
export function colourOf(name) {
  let h = 0x811c9dc5;
  const s = String(name).trim().toLowerCase();
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return (h % PALETTE_SIZE) + 1;
}

// colours gives each name its slot. When two names of one chart hash to
// the same slot, the later one takes the next free slot: a clash is rare,
// and two series in one colour would be worse than a colour that moves.
export function colours(names) {
  const used = new Set();
  return names.map((name) => {
    let c = colourOf(name);
    for (let i = 0; i < PALETTE_SIZE && used.has(c); i++) c = (c % PALETTE_SIZE) + 1;
    used.add(c);
    return c;
  });
}

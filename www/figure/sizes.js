// What a figure's box measures before anything else is known (no WASM needed): the height an
// embedded figure is given by its iframe snippet, CSS px. The embedded page lays the figure out
// to fill its iframe (widget.js, fit), so one height holds the figure at every width up to the
// snippet's 800 px, and the snippet needs no script in the host page.
export const EMBED_HEIGHT = {
  strip: 560,
  grid: 500,
  residency: 500,
  sweep: 500,
  // The lab's write path and policies, and the article's Beyond figures (beyond.js): taller
  // figures, whose boxes scroll inside on a phone when the reader opens their tables.
  write: 760,
  policies: 620,
  pair: 640,
  scale: 560,
  phase: 640,
};

/** The figures a reader can embed, in the order the lab's dialog offers them. */
export const EMBED_VIEWS = [
  ["strip", "The close-up of the boundary (strip)"],
  ["grid", "The whole pool (grid)"],
  ["residency", "Residency over the run"],
  ["sweep", "The sweep"],
  ["write", "The write path"],
  ["policies", "Other replacement policies"],
  ["pair", "Stock and patched side by side"],
  ["scale", "Kept against pool size"],
  ["phase", "The phase heat map"],
];

// What a figure's box measures before anything else is known (no WASM needed): the height an
// embedded figure is given by its iframe snippet, CSS px. The embedded page lays the figure out
// to fill its iframe (widget.js, fit), so one height holds the figure at every width up to the
// snippet's 800 px, and the snippet needs no script in the host page.
export const EMBED_HEIGHT = {
  strip: 560,
  grid: 500,
  residency: 500,
  sweep: 500,
};

/** The figures a reader can embed, in the order the lab's dialog offers them. */
export const EMBED_VIEWS = [
  ["strip", "The close-up of the boundary (strip)"],
  ["grid", "The whole pool (grid)"],
  ["residency", "Residency over the run"],
  ["sweep", "The sweep"],
];

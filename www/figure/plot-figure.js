// What the residency plot and the sweep share as figures: actions at the top of their caption,
// and, on a page that shares its height among them (the lab's flex layout), their canvas's height
// now, its least and its natural one, and a height given from outside. A subclass sets `canvas`,
// `figcap` and `natural` and has `layout()`.
import { el } from "../util.js";

/** A plot's canvas with its caption, sized in a shared column. */
export class PlotFigure {
  constructor() {
    this.natural = null;
    this.flexH = null;
  }
  /** Puts an element (the figure's Embed button) at the top of its caption. */
  addAction(node) {
    const acts = this.figcap.querySelector(".mp-figacts") ?? el("span", { class: "mp-figacts" });
    acts.append(node);
    this.figcap.prepend(acts);
  }
  flexHeight() {
    return this.canvas.getBoundingClientRect().height || this.natural || 270;
  }
  minHeight() {
    // A plot area of at least 160 px under the canvas's axis labels.
    return 230;
  }
  naturalHeight() {
    return this.natural ?? 270;
  }
  setFlexHeight(h) {
    this.flexH = h;
    this.layout();
  }
}

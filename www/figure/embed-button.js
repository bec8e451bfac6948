// A figure's Embed button: opens the figure's Embed dialog (embed-dialog.js, loaded on the first
// press: a figure that is only read never fetches it).
import { el } from "../util.js";

export class EmbedButton {
  /** `views`: the figures this button embeds (a select when several, the first by default). */
  constructor(w, views) {
    this.w = w;
    this.views = views;
    this.button = el("button", { type: "button", class: "mp-small mp-embedbtn", "data-act": "embed", "data-testid": "embed-button", "aria-haspopup": "dialog", text: "Embed" });
    this.el = this.button;
    this.button.hidden = !w.base;
    this.button.addEventListener("click", () => this.open());
  }

  async open() {
    if (!this.w.base) return;
    this.dialog ??= import("./embed-dialog.js").then((m) => new m.EmbedDialog(this.w, this.views, this.button));
    try {
      (await this.dialog).open();
    } catch (e) {
      // Its script did not arrive (offline since the page loaded): the next press tries again.
      this.dialog = null;
      console.error(e);
    }
  }
}

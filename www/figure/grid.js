// The whole pool: every frame as a cell, from the LRU head (top left) to the tail, then the
// free list. The pixels and the labels are drawn by Rust (src/ui/grid.rs, src/web/explorer.rs).
import { el, markFont } from "../util.js";
import { showTip, swipe } from "./strip.js";

export class Grid {
  constructor(w) {
    this.w = w;
    // The widget reads a component's kind (widget.js, component()): a frame in which the grid
    // drew builds its cells; in one where it did not, the widget settles them.
    this.kind = "grid";
    this.el = el("div", { class: "mp-stage" });
    this.canvas = el("canvas", {
      class: "mp-pool",
      "data-testid": "pool-grid",
      tabindex: "0",
      role: "img",
      "aria-label": "The buffer pool: one cell per frame, from the head of the LRU list (top left) to its tail, then the free list. Keyboard shortcuts work when this is focused.",
    });
    this.tip = el("div", { class: "mp-tip", hidden: true });
    this.el.append(this.canvas, this.tip);
    this.ctx = this.canvas.getContext("2d");
    this.flexH = null;
    this.fillBox = this.el;
    this.bindPointer();
  }

  defaultMax() {
    const v = this.w.viewName;
    const narrow = window.innerWidth < 760;
    if (v === "lab") return Math.max(220, Math.min(window.innerHeight * (narrow ? 0.45 : 0.62), 560));
    return Math.max(200, Math.min(window.innerHeight * (narrow ? 0.34 : 0.5), 420));
  }

  layout() {
    this.layoutExplorer();
  }

  layoutExplorer() {
    const dpr = this.w.dpr;
    const css = this.el.clientWidth || 800;
    const fill = this.w.fill ? this.el.clientHeight : null;
    const max = fill ?? this.flexH ?? this.defaultMax();
    const h = this.w.ex.resize(Math.round(css * dpr), Math.round(max * dpr), dpr);
    const boxH = fill ?? h / dpr;
    this.cssH = boxH;
    const c = this.canvas;
    c.width = Math.round(css * dpr);
    c.height = Math.round(boxH * dpr);
    c.style.width = `${css}px`;
    c.style.height = `${boxH}px`;
    // Past 65,536 frames each cell stands for several positions of the list (a summary).
    const k = this.w.ex.grid_per_cell();
    c.dataset.perCell = String(k);
    c.setAttribute(
      "aria-label",
      k > 1
        ? `The buffer pool, summarised: each cell stands for ${k} consecutive frames of the list and shows the first of them, from the head of the LRU list (top left) to its tail, then the free list. Keyboard shortcuts work when this is focused.`
        : "The buffer pool: one cell per frame, from the head of the LRU list (top left) to its tail, then the free list. Keyboard shortcuts work when this is focused.",
    );
    this.drawn = false;
  }

  flexHeight() {
    return this.cssH ?? this.defaultMax();
  }
  minHeight() {
    return 120;
  }
  naturalHeight() {
    return this.defaultMax();
  }
  setFlexHeight(h) {
    this.flexH = h;
    this.layoutExplorer();
  }

  recolour() {
    this.drawn = false;
  }

  /** Draws the grid when it changed (or was never drawn), and the selected frame's ring. */
  frame(t, flags) {
    const w = this.w;
    if (this.canvas.offsetParent === null && w.status?.mode !== "paused") return false;
    if (!(flags & 1) && this.drawn) return false;
    const font = w.ex.draw(this.ctx);
    this.drawn = true;
    markFont(this.canvas, font > 0 ? font / w.dpr : NaN);
    const f = w.ex.selected();
    if (f >= 0) {
      const r = w.ex.grid_rect_of(f);
      if (r.length === 3) {
        const k = w.dpr;
        this.ctx.strokeStyle = getComputedStyle(w.root).getPropertyValue("--focus").trim() || "#c2410c";
        this.ctx.lineWidth = 2 * k;
        const pad = 2 * k;
        this.ctx.strokeRect(r[0] - pad, r[1] - pad, r[2] + 2 * pad, r[2] + 2 * pad);
      }
    }
    return true;
  }

  bindPointer() {
    const c = this.canvas;
    const at = (e) => {
      const r = c.getBoundingClientRect();
      return this.w.ex.grid_frame_at((e.clientX - r.left) * this.w.dpr, (e.clientY - r.top) * this.w.dpr);
    };
    c.addEventListener("pointermove", (e) => {
      if (e.pointerType !== "mouse") return;
      const r = c.getBoundingClientRect();
      const text = this.w.ex.describe_cell((e.clientX - r.left) * this.w.dpr, (e.clientY - r.top) * this.w.dpr);
      this.w.ex.select_frame(at(e));
      if (!text) {
        this.tip.hidden = true;
        return;
      }
      this.tip.textContent = text;
      this.tip.hidden = false;
      const sr = this.el.getBoundingClientRect();
      this.tip.style.left = `${Math.max(0, Math.min(e.clientX - sr.left + 12, sr.width - this.tip.offsetWidth - 4))}px`;
      this.tip.style.top = `${e.clientY - sr.top + 14}px`;
    });
    c.addEventListener("pointerleave", (e) => {
      if (e.pointerType !== "mouse") return;
      this.tip.hidden = true;
      this.w.ex.select_frame(-1);
    });
    swipe(this.w, c, at, this.el, this.tip);
    void showTip;
  }
}

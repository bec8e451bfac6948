// The boundary close-up and the code panel beside it: the LRU list near LRU_old as big cells
// that move (src/ui/explorer/strip.rs computes them; paint-strip.js draws them), its caption
// (what the last LRU batch did and what the boundary did since, in the batch's own counts), and
// the paraphrased pseudo-code with the lines the current event ran (src/ui/code.rs), its live
// variables and the terms it uses, each in words.
import * as mp from "../../pkg/midpoint.js";
import { el, fmt, markFont, setText, sizeCanvas } from "../util.js";
import { paintStrip, STRIP_FONT_PX, stripColours } from "./paint-strip.js";

// Lines of the code panel a figure on a phone shows at most.
const CODE_PHONE_LINES = 2;

export class Strip {
  constructor(w, { code = true, scrub = false } = {}) {
    this.w = w;
    this.kind = "strip";
    const id = w.id;
    this.el = el("div", { class: "mp-closeup" });
    this.el.innerHTML = `
      <figure class="mp-stripfig">
        <div class="mp-stripbox"><canvas class="mp-strip" data-testid="boundary-strip" tabindex="0" role="img" aria-label="Close-up of the LRU list around LRU_old: the head row, the pages around the boundary, the tail row and the free list. Each cell is a frame and moves as pages are read, evicted or moved to the head."></canvas>
        <div class="mp-tip mp-striptip" hidden></div></div>
        <figcaption class="mp-stripcap" data-testid="strip-caption"></figcaption>
      </figure>
      ${scrub ? `<div class="mp-scrub" data-testid="drain-timeline">
        <label for="${id}-scrub">Drain</label>
        <input type="range" id="${id}-scrub" data-testid="drain-scrubber" min="0" max="0" step="1" value="0" disabled aria-describedby="${id}-scrubout" ${w.viewName === "present" ? `title="Drag, or ↑ ↓: one read forward or back" aria-keyshortcuts="ArrowUp ArrowDown"` : `title="Drag, or ← → (↑ ↓): one read back or forward"`}>
        <output id="${id}-scrubout" for="${id}-scrub" class="mp-scrubout"></output>
      </div>` : ""}
      ${code ? `<aside class="mp-code" data-testid="code-panel" aria-labelledby="${id}-codeh" tabindex="0">
        <h3 class="mp-code-h" id="${id}-codeh">What InnoDB runs <span class="mp-code-note">(paraphrased)</span></h3>
        <p class="mp-code-what" aria-live="off"></p>
        <div class="mp-code-routines"></div>
        <p class="mp-code-more"></p>
        <p class="mp-terms" data-testid="code-terms"></p>
        <dl class="mp-vars"></dl>
      </aside>` : ""}`;
    const $ = (s) => this.el.querySelector(s);
    this.canvas = $(".mp-strip");
    this.box = $(".mp-stripbox");
    this.fig = $(".mp-stripfig");
    this.tip = $(".mp-striptip");
    this.cap = $(".mp-stripcap");
    this.ctx = this.canvas.getContext("2d");
    this.code = $(".mp-code");
    if (this.code) {
      this.codeWhat = $(".mp-code-what");
      this.codeMore = $(".mp-code-more");
      this.codeRoutines = $(".mp-code-routines");
      this.codeVars = $(".mp-vars");
      this.terms = $(".mp-terms");
      this.buildCode();
    }
    this.scrub = $(".mp-scrub input");
    if (this.scrub) {
      this.scrubOut = $(".mp-scrubout");
      // The drain's timeline: each position a frame taken from the free list since the batch
      // (a read-ahead takes 64 at once: the thumb lands on the read that took it).
      // A drag goes the pointer's way: the explorer takes a value below the thumb's read as a
      // step back, but the thumb stands on a read's end, past the pointer; so a drag's
      // direction is the pointer's, and a move within the thumb's read, that way, is nothing.
      let dragFrom = null;
      this.scrub.addEventListener("pointerdown", () => (dragFrom = Number(this.scrub.value)));
      const dragEnd = () => (dragFrom = null);
      addEventListener("pointerup", dragEnd, true);
      addEventListener("pointercancel", dragEnd, true);
      this.scrub.addEventListener("input", () => {
        if (w.dead) return;
        w.wake();
        const v = Number(this.scrub.value);
        if (dragFrom !== null) {
          const at = w.status?.drain_k ?? v;
          const way = Math.sign(v - dragFrom);
          dragFrom = v;
          if (way === 0 || way * (v - at) <= 0) {
            this.scrub.value = String(at);
            return;
          }
        }
        w.ex.scrub_drain(v);
        w.updateStatus();
      });
    }
    this.flexH = null;
    // In an embed, the box the close-up fills.
    this.fillBox = this.box;
    this.bindPointer();
  }

  // ---- the close-up ---------------------------------------------------------------------

  /** The height the close-up is laid out for by default, CSS px. */
  defaultMax() {
    const w = this.w;
    const v = w.viewName;
    if (v === "present") return Math.max(300, window.innerHeight * 0.52);
    if (window.innerWidth < 760) return v === "lab" ? 200 : 230;
    return Math.min(380, Math.max(230, window.innerHeight * 0.42));
  }

  layout() {
    this.layoutExplorer();
  }

  layoutExplorer() {
    const c = this.canvas;
    if (c.offsetParent === null) {
      this.shown = false;
      return;
    }
    this.shown = true;
    const w = this.box.clientWidth || 600;
    const present = this.w.viewName === "present";
    // The presentation draws the close-up magnified (cells and labels scale together): its
    // labels are as large as the page's text, which scales with the screen.
    const zoom = present ? Math.min(3, Math.max(1, parseFloat(getComputedStyle(this.w.root).fontSize) / STRIP_FONT_PX)) : 1;
    this.zoom = zoom;
    // Filling a box (an embed's share of its iframe, the presentation's share of the screen),
    // the canvas takes it all; the cells keep their rows at the top.
    const fill = this.w.fill || present ? this.box.clientHeight : null;
    const maxH = fill ?? this.flexH ?? this.defaultMax();
    const h = this.w.ex.strip_resize(w / zoom, maxH / zoom) * zoom;
    const boxH = fill ?? h;
    this.cssH = boxH;
    sizeCanvas(c, w, boxH, this.w.dpr);
    // The code panel beside it keeps its height (on a wide screen).
    if (this.code) this.code.style.maxHeight = window.innerWidth >= 1000 && this.w.viewName !== "present" ? `${this.w.viewName === "lab" ? Math.max(h + 60, 300) : h + 50}px` : "";
    this.recolour();
  }

  flexHeight() {
    return this.cssH ?? this.defaultMax();
  }
  minHeight() {
    return this.w.ex.strip_resize((this.box.clientWidth || 600) / (this.zoom || 1), 0) * (this.zoom || 1);
  }
  naturalHeight() {
    return this.defaultMax();
  }
  setFlexHeight(h) {
    this.flexH = h;
    this.layoutExplorer();
  }

  recolour() {
    this.sc = stripColours(this.w.root);
    // New colours or a resized canvas (which clears it): paint the next frame whatever changed.
    this.stale = true;
  }

  /** One frame of the close-up: repainted if its picture changed; returns whether it was. */
  frame(t) {
    if (!this.shown) return false;
    const ex = this.w.ex;
    // Nothing moved, nothing new: leave the canvas as it is (a paused page stays idle).
    if (!ex.strip_update(t) && !this.stale) return false;
    this.stale = false;
    const n = ex.strip_len();
    const v = new Float32Array(this.w.wasm.memory.buffer, ex.strip_ptr(), n);
    const m = ex.strip_meta();
    const font = paintStrip(this.ctx, v, n, m, this.sc, this.w.dpr * (this.zoom || 1));
    markFont(this.canvas, font * (this.zoom || 1));
    this.seen = { n: n / 8, slid: m.slid, toHead: m.to_head };
    // Where LRU_old is (its list position, 1-based): the boundary the reader watches move.
    // Whether the picture is at rest (no page on its way): a slow watch waits for it.
    const moving = m.moving ? "1" : "0";
    if (this.w.root.dataset.moving !== moving) this.w.root.dataset.moving = moving;
    // The free list the close-up's label shows (data-strip-free), beside the counters' own.
    if (this.w.root.dataset.stripFree !== String(m.free_len)) this.w.root.dataset.stripFree = m.free_len;
    const pos = String(m.boundary_pos);
    if (this.w.root.dataset.lruOld !== pos) this.w.root.dataset.lruOld = pos;
    setText(this.cap, m.caption);
    return true;
  }

  /** Tooltip and selection for a cell, linked with the grid (selection lives in the explorer). */
  bindPointer() {
    const c = this.canvas;
    const at = (e) => {
      const r = c.getBoundingClientRect();
      const z = this.zoom || 1;
      return this.w.ex.strip_frame_at((e.clientX - r.left) / z, (e.clientY - r.top) / z);
    };
    c.addEventListener("pointermove", (e) => e.pointerType === "mouse" && showTip(this.w, at(e), e, this.box, this.tip));
    c.addEventListener("pointerleave", (e) => {
      if (e.pointerType !== "mouse") return;
      this.tip.hidden = true;
      this.w.ex.select_frame(-1);
    });
    swipe(this.w, c, at, this.box, this.tip);
  }

  /** The drain's timeline follows the run: its length the refill, its thumb the frames taken. */
  scrubStatus(s) {
    const r = this.scrub;
    if (!r) return;
    const on = s.drain_size > 0 && (s.mode === "paused" || s.mode === "watching");
    if (r.disabled === on) r.disabled = !on;
    if (String(r.max) !== String(s.drain_size)) r.max = String(s.drain_size);
    if (s.drain_size > 0 && r.value !== String(s.drain_k)) r.value = String(s.drain_k);
    const text =
      s.drain_size > 0
        ? `${fmt.format(s.drain_k)} of ${fmt.format(s.drain_size)} free frames taken since the batch; ${fmt.format(Math.round(s.drain_young))} turned young`
        : "no refill yet: Watch (W) runs to the next LRU batch";
    setText(this.scrubOut, text);
    r.setAttribute("aria-valuetext", text);
  }

  // ---- the code panel ---------------------------------------------------------------------

  /** Builds the code panel's listing once. */
  buildCode() {
    const box = this.codeRoutines;
    box.textContent = "";
    this.codeLines = [];
    this.codeRules = [];
    this.allTerms = mp.code_terms();
    const rules = mp.code_rules();
    for (const [r, routine] of mp.code_routines().entries()) {
      const pre = el("pre", { class: "mp-code-pre" });
      // Each rule's lines in one block named by data-rule (src/ui/code.rs, RULES).
      let block = null;
      const lines = routine.lines.map((text, l) => {
        const rule = rules[r][l];
        if (!block || block.dataset.rule !== rule) {
          block = el("span", { class: "mp-rule", "data-rule": rule });
          this.codeRules.push(block);
          pre.append(block);
        }
        const span = el("span", { class: "mp-cl", "data-r": r, "data-l": l, text, title: text.trim() });
        block.append(span);
        return span;
      });
      this.codeLines.push(lines);
      box.append(el("section", { class: "mp-routine", "data-routine": routine.name }, el("h3", {}, el("code", { text: routine.name }), " ", el("span", { class: "mp-code-rwhat", text: routine.what })), pre));
    }
  }

  /** Marks the code lines in `on` ("routine:line") as run and shows them (on a phone the first
   *  CODE_PHONE_LINES), says how many more, and scrolls the first into the panel's view;
   *  `shownText` keeps the text of the lines shown. */
  showLines(on, phone) {
    let shown = 0;
    const shownText = [];
    for (const [r, lines] of this.codeLines.entries()) {
      for (const [l, span] of lines.entries()) {
        const hit = on.has(`${r}:${l}`);
        const show = hit && (!phone || shown < CODE_PHONE_LINES);
        if (show) {
          shown++;
          shownText.push(span.textContent);
        }
        span.classList.toggle("mp-show", show);
        span.classList.toggle("mp-on", hit);
        if (hit) span.dataset.active = "true";
        else delete span.dataset.active;
      }
      const sec = this.codeRoutines.children[r];
      sec.classList.toggle("mp-active", lines.some((x) => x.classList.contains("mp-on")));
      sec.classList.toggle("mp-shown", lines.some((x) => x.classList.contains("mp-show")));
    }
    this.shownText = shownText.join(" ");
    const more = on.size - shown;
    setText(this.codeMore, more > 0 ? `… and ${more} more line${more === 1 ? "" : "s"} (the full listing in the lab)` : "");
    for (const b of this.codeRules) {
      if (b.querySelector(".mp-on")) b.dataset.active = "true";
      else delete b.dataset.active;
    }
    this.code.classList.toggle("mp-code-some", on.size > 0);
    // The first line that ran, scrolled into the panel's view.
    const firstOn = on.size ? this.codeRoutines.querySelector(".mp-on") : null;
    if (firstOn && firstOn !== this.lastFirstOn) {
      const box = this.code;
      const top = firstOn.offsetTop - box.offsetTop;
      if (top < box.scrollTop || top + firstOn.offsetHeight > box.scrollTop + box.clientHeight) box.scrollTop = Math.max(0, top - 40);
    }
    this.lastFirstOn = firstOn;
  }

  status(s) {
    this.scrubStatus(s);
    if (!this.code || this.code.offsetParent === null) return;
    const w = this.w;
    const c = w.ex.code_state();
    const follow = s.mode === "paused" || s.mode === "watching";
    const on = new Set(follow && c.at ? c.at.lines.map(([r, l]) => `${r}:${l}`) : []);
    // A figure on a phone shows the first CODE_PHONE_LINES lines that ran (all of them keep
    // data-active), and says how many more: the panel stays a few lines under the strip.
    const phone = (w.viewName !== "lab" && window.innerWidth < 760) || w.viewName === "present";
    // The lines' classes are a function of the lines that ran and the phone's limit: set again
    // only when those change (while the animation plays, every frame shows none).
    const key = `${phone} ${[...on].join(",")}`;
    if (key !== this.linesKey) {
      this.linesKey = key;
      this.showLines(on, phone);
    }
    const what = !follow ? "Playing: pause or step to see which lines each event runs." : c.at ? `This event: ${c.at.what || "a touch of a page"}.` : w.arrowsStep() ? "No event yet: step (→) to run one." : "No event yet: Step runs one.";
    setText(this.codeWhat, what);
    // The terms the lines on screen use, in words, where they appear.
    const text = this.shownText;
    const used = this.allTerms.filter(([term]) => text.includes(term === "the quarter rule" ? "quarter" : term));
    setText(this.terms, used.map(([t, m]) => `${t}: ${m}.`).join(" "));
    const vars = this.codeVars;
    if (vars.childElementCount !== c.vars.length) {
      vars.textContent = "";
      for (const v of c.vars) {
        vars.append(el("div", { class: "mp-var", "data-var": v.name }, el("dt", {}, el("code", { text: v.name })), el("dd", { class: "mp-var-v" }), el("dd", { class: "mp-var-what", text: v.what })));
      }
    }
    const dds = vars.querySelectorAll("dd.mp-var-v");
    c.vars.forEach((v, i) => setText(dds[i], v.value));
  }
}

/** Shows the tooltip of frame `f` (−1: none) at the pointer, and selects it in every view. */
export function showTip(w, f, e, box, tip) {
  w.ex.select_frame(f);
  if (f < 0) {
    tip.hidden = true;
    return;
  }
  tip.textContent = w.ex.describe_frame(f);
  tip.hidden = false;
  const r = box.getBoundingClientRect();
  const left = Math.min(e.clientX - r.left + 12, r.width - tip.offsetWidth - 4);
  tip.style.left = `${Math.max(0, left)}px`;
  tip.style.top = `${e.clientY - r.top + 14}px`;
}

/** Touch: a tap shows the tooltip, a swipe steps (left: forward, right: back). */
export function swipe(w, target, tapAt, box, tip) {
  let start = null;
  target.addEventListener("pointerdown", (e) => {
    if (e.pointerType !== "mouse") start = { x: e.clientX, y: e.clientY };
  });
  target.addEventListener("pointerup", (e) => {
    if (!start || e.pointerType === "mouse") return;
    const dx = e.clientX - start.x;
    const dy = e.clientY - start.y;
    start = null;
    if (Math.abs(dx) > 40 && Math.abs(dx) > 2 * Math.abs(dy)) w.act(dx < 0 ? "step" : "back");
    else if (Math.abs(dx) < 10 && Math.abs(dy) < 10) showTip(w, tapAt(e), e, box, tip);
  });
  target.style.touchAction = "pan-y";
}

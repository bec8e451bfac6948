// The boundary close-up and the code panel: glue only. The strip's cells, their eased
// positions, the follow marks and the trails are computed in Rust (src/ui/explorer/strip.rs);
// this reads them as a Float32Array view of WASM memory each frame and draws rectangles. The
// code panel's lines and which ones the current event ran come from src/ui/code.rs.
import * as mp from "../pkg/midpoint.js";
import { el, fmt } from "./util.js";

// Cell flags (src/ui/explorer/strip.rs).
const S_SLID = 1;
const S_TO_HEAD = 2;
const S_DEMOTED_HOT = 4;
const S_LOST = 8;
const S_SELECTED = 16;
// Lines of the code panel a figure on a phone shows at most.
const CODE_PHONE_LINES = 2;

function css(root, name) {
  return getComputedStyle(root).getPropertyValue(name).trim() || "#888";
}

/** The colours of a close-up, read from the CSS custom properties of `root`. */
export function stripColours(root) {
  return {
    k: [css(root, "--k0"), css(root, "--k1"), css(root, "--k2"), css(root, "--k3"), css(root, "--k4")],
    t: [css(root, "--k0"), css(root, "--t1"), css(root, "--t2"), css(root, "--t3"), css(root, "--t4")],
    text: css(root, "--text"),
    muted: css(root, "--muted"),
    card: css(root, "--card"),
    ringYoung: css(root, "--ring-young"),
    ringOld: css(root, "--ring-old"),
    flash: css(root, "--flash"),
    focus: css(root, "--focus"),
  };
}

/**
 * Paints one frame of a boundary close-up on `ctx`: `v` holds its `n` cell numbers (a view of
 * WASM memory, 8 per cell) and `m` its meta (`strip_meta()`), `sc` the colours, `dpr` the
 * device pixel ratio. Shared by the widget and the side-by-side what-if figure.
 */
export function paintStrip(ctx, v, n, m, sc, dpr) {
  const L = m.layout;
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  ctx.clearRect(0, 0, L.width, L.height);
  ctx.font = "12px system-ui, sans-serif";
  ctx.textBaseline = "middle";
  // The row labels go on top of the cells, each on a card-coloured backing: mid-drain, cells in
  // flight to the head cross the label rows, and drawn under them the text stayed readable.
  const line = (y, left, right) => {
    const put = (text, x, align) => {
      ctx.textAlign = align;
      const w = ctx.measureText(text).width;
      ctx.fillStyle = sc.card;
      ctx.globalAlpha = 0.88;
      ctx.fillRect(align === "left" ? x - 2 : x - w - 2, y - 7, w + 4, 14);
      ctx.globalAlpha = 1;
      ctx.fillStyle = sc.muted;
      ctx.fillText(text, x, y);
    };
    put(left, L.x0, "left");
    if (right) put(right, L.x0 + L.cols * L.pitch - (L.pitch - L.cell), "right");
  };
  const narrow = L.width < 500;
  const labels = () => {
    ctx.font = "12px system-ui, sans-serif";
    line(L.y_head - L.line / 2, "head: young end", narrow ? `young: ${fmt.format(m.young_len)}` : `young sublist: ${fmt.format(m.young_len)} pages`);
    line(L.y_head + L.pitch + L.line / 2, `⋯ ${fmt.format(m.hidden_young)} young pages not drawn ⋯`, narrow ? "" : `list positions ${fmt.format(m.window_from)}–${fmt.format(m.window_to)}`);
    line(L.y_tail - L.line / 2, `⋯ ${fmt.format(m.hidden_old)} old pages not drawn ⋯`, "tail: evicted next");
    line(L.y_free - L.line / 2, `free list: ${fmt.format(m.free_len)} frame${m.free_len === 1 ? "" : "s"}`, m.free_len ? (narrow ? "next read ←" : "the next read takes the leftmost") : "");
  };
  // Trails behind pages the boundary turned young, on their way to the head.
  for (const tr of m.trails) {
    ctx.strokeStyle = sc.ringYoung;
    ctx.globalAlpha = 0.8 * tr.alpha;
    ctx.lineWidth = 2;
    const c = L.cell / 2;
    ctx.beginPath();
    ctx.moveTo(tr.x0 + c, tr.y0 + c);
    const mx = (tr.x0 + tr.x1) / 2 + 30;
    ctx.quadraticCurveTo(mx, (tr.y0 + tr.y1) / 2, tr.x1 + c, tr.y1 + c);
    ctx.stroke();
  }
  ctx.globalAlpha = 1;
  const s = L.cell;
  for (let i = 0; i + 7 < n; i += 8) {
    const x = v[i + 1];
    const y = v[i + 2];
    const b = v[i + 3];
    const fl = v[i + 4];
    ctx.globalAlpha = v[i + 5];
    const kind = b & 7;
    const old = b & 8;
    ctx.fillStyle = old ? sc.t[kind] : sc.k[kind];
    ctx.fillRect(x, y, s, s);
    if (old && kind) {
      // Old pages: faded, with a diagonal stroke, as in the grid's hatch.
      ctx.strokeStyle = sc.k[kind];
      ctx.lineWidth = 1;
      ctx.beginPath();
      ctx.moveTo(x + 1, y + s - 1);
      ctx.lineTo(x + s - 1, y + 1);
      ctx.stroke();
    }
    if (fl & S_SLID) {
      ctx.strokeStyle = sc.ringYoung;
      ctx.lineWidth = 2;
      ctx.strokeRect(x + 1, y + 1, s - 2, s - 2);
      if (fl & S_TO_HEAD) {
        ctx.fillStyle = sc.ringYoung;
        ctx.fillRect(x + s / 2 - 2, y + s / 2 - 2, 4, 4);
      }
    }
    if (fl & S_DEMOTED_HOT) {
      ctx.strokeStyle = sc.ringOld;
      ctx.lineWidth = 3;
      ctx.strokeRect(x + 1.5, y + 1.5, s - 3, s - 3);
    }
    if (fl & S_LOST) {
      ctx.strokeStyle = sc.ringOld;
      ctx.lineWidth = 2;
      ctx.beginPath();
      ctx.moveTo(x + 3, y + 3);
      ctx.lineTo(x + s - 3, y + s - 3);
      ctx.moveTo(x + s - 3, y + 3);
      ctx.lineTo(x + 3, y + s - 3);
      ctx.stroke();
    }
    if (b & 0x40 && kind) {
      ctx.fillStyle = sc.flash;
      ctx.fillRect(x, y + s - 3, s, 3);
    }
    if (fl & S_SELECTED) {
      ctx.strokeStyle = sc.focus;
      ctx.lineWidth = 2;
      ctx.strokeRect(x - 2, y - 2, s + 4, s + 4);
    }
  }
  ctx.globalAlpha = 1;
  labels();
  if (m.boundary) {
    const [bx, by] = m.boundary;
    const gap = L.pitch - L.cell;
    ctx.fillStyle = sc.text;
    ctx.fillRect(bx - gap / 2 - 1.5, by - 4, 3, s + 8);
    const label = "LRU_old ▸ old";
    ctx.font = "600 11px system-ui, sans-serif";
    const w = ctx.measureText(label).width + 8;
    const lx = Math.min(Math.max(0, bx - gap / 2 - 1.5), L.width - w);
    const ly = by - 4 - 14;
    ctx.fillRect(lx, ly, w, 14);
    ctx.fillStyle = sc.card;
    ctx.textAlign = "left";
    ctx.fillText(label, lx + 4, ly + 7);
  }
}

/** Methods of MidpointApp (mixed into its prototype by app.js). */
export class StripMethods {
  /** Builds the code panel's listing once. */
  buildCode() {
    const box = this.el.codeRoutines;
    box.textContent = "";
    this.codeLines = [];
    this.codeRules = [];
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
      box.append(
        el("section", { class: "mp-routine", "data-routine": routine.name }, el("h3", {}, el("code", { text: routine.name }), " ", el("span", { class: "mp-code-rwhat", text: routine.what })), pre),
      );
    }
  }

  /** Highlights the lines the current event ran, and shows the variables. */
  updateCode() {
    if (!this.codeLines || this.el.code.offsetParent === null) return;
    const c = this.ex.code_state();
    const mode = this.status?.mode;
    const follow = mode === "paused" || mode === "watching";
    const on = new Set(follow && c.at ? c.at.lines.map(([r, l]) => `${r}:${l}`) : []);
    let first = true;
    // A figure on a phone shows the first CODE_PHONE_LINES lines that ran (all of them keep
    // data-active), and says how many more: the panel stays a few lines under the strip.
    const phone = this.viewName !== "lab" && window.innerWidth < 760;
    let shown = 0;
    for (const [r, lines] of this.codeLines.entries()) {
      for (const [l, span] of lines.entries()) {
        const hit = on.has(`${r}:${l}`);
        const show = hit && (!phone || shown < CODE_PHONE_LINES);
        if (show) shown++;
        span.classList.toggle("mp-show", show);
        span.classList.toggle("mp-on", hit);
        if (hit) span.dataset.active = "true";
        else delete span.dataset.active;
        if (hit && first) first = false;
      }
      const sec = this.el.codeRoutines.children[r];
      sec.classList.toggle("mp-active", lines.some((s) => s.classList.contains("mp-on")));
      sec.classList.toggle("mp-shown", lines.some((s) => s.classList.contains("mp-show")));
    }
    const more = on.size - shown;
    const moreText = more > 0 ? `… and ${more} more line${more === 1 ? "" : "s"} (the full listing in the lab)` : "";
    if (this.el.codeMore.textContent !== moreText) this.el.codeMore.textContent = moreText;
    for (const b of this.codeRules) {
      if (b.querySelector(".mp-on")) b.dataset.active = "true";
      else delete b.dataset.active;
    }
    this.el.code.classList.toggle("mp-code-some", on.size > 0);
    // The first line that ran, scrolled into the panel's view (the panel keeps the close-up's
    // height).
    const firstOn = on.size ? this.el.codeRoutines.querySelector(".mp-on") : null;
    if (firstOn && firstOn !== this.lastFirstOn) {
      const box = this.el.code;
      const top = firstOn.offsetTop - box.offsetTop;
      if (top < box.scrollTop || top + firstOn.offsetHeight > box.scrollTop + box.clientHeight) box.scrollTop = Math.max(0, top - 40);
    }
    this.lastFirstOn = firstOn;
    const what = !follow
      ? "Playing: pause or step to see which lines each event runs."
      : c.at
        ? `This event: ${c.at.what || "a touch of a page"}.`
        : "No event yet: step (→) to run one.";
    if (this.el.codeWhat.textContent !== what) this.el.codeWhat.textContent = what;
    const vars = this.el.codeVars;
    if (vars.childElementCount !== c.vars.length * 2) {
      vars.textContent = "";
      for (const v of c.vars) vars.append(el("dt", {}, el("code", { text: v.name })), el("dd"));
    }
    const dds = vars.querySelectorAll("dd");
    c.vars.forEach((v, i) => {
      if (dds[i].textContent !== v.value) dds[i].textContent = v.value;
    });
  }

  stripColours() {
    this.sc = stripColours(this.root);
    // New colours or a resized canvas (which clears it): paint the next frame whatever changed.
    this.stripStale = true;
  }

  layoutStrip() {
    const c = this.el.strip;
    if (!c || c.offsetParent === null) {
      this.stripShown = false;
      return;
    }
    this.stripShown = true;
    const w = this.el.stripFig.clientWidth || 600;
    const embedStrip = this.embedView && this.viewName === "strip";
    const present = this.viewName === "present";
    // The presentation draws the close-up magnified (cells and labels scale together), so a
    // projector shows text of 24 px and more.
    const zoom = present ? Math.min(3, Math.max(1, w / 620)) : 1;
    this.zoom = zoom;
    const maxH = embedStrip ? (w < 500 ? 140 : 250) : window.innerWidth < 760 ? (this.viewName === "lab" ? 200 : 165) : present ? Math.max(300, window.innerHeight * 0.52) : Math.min(380, Math.max(230, window.innerHeight * 0.42));
    const h = this.ex.strip_resize(w / zoom, maxH / zoom) * zoom;
    const dpr = this.dpr || 1;
    c.width = Math.round(w * dpr);
    c.height = Math.round(h * dpr);
    c.style.width = `${w}px`;
    c.style.height = `${h}px`;
    // The code panel beside it keeps its height (on a wide screen).
    this.el.code.style.maxHeight = window.innerWidth >= 1000 ? `${Math.max(h + 50, 300)}px` : "";
    this.stripColours();
  }

  /** One frame of the close-up: repainted if its picture changed; returns whether it was. */
  drawStrip(t) {
    if (!this.stripShown) return false;
    const ex = this.ex;
    // Nothing moved, nothing new: leave the canvas as it is (a paused page stays idle).
    if (!ex.strip_update(t) && !this.stripStale) return false;
    this.stripStale = false;
    const n = ex.strip_len();
    const v = new Float32Array(this.wasm.memory.buffer, ex.strip_ptr(), n);
    const m = ex.strip_meta();
    paintStrip(this.sctx, v, n, m, this.sc, (this.dpr || 1) * (this.zoom || 1));
    this.stripSeen = { n: n / 8, slid: m.slid, toHead: m.to_head };
    const cap = m.caption;
    if (this.el.stripCap.textContent !== cap) this.el.stripCap.textContent = cap;
    return true;
  }

  /** Tooltip and selection for a cell of the close-up or the grid, linked both ways. */
  bindStrip() {
    const tip = this.el.stripTip;
    const show = (f, e, box, tipEl) => {
      this.ex.select_frame(f);
      if (f < 0) {
        tipEl.hidden = true;
        return;
      }
      tipEl.textContent = this.ex.describe_frame(f);
      tipEl.hidden = false;
      const r = box.getBoundingClientRect();
      const left = Math.min(e.clientX - r.left + 12, r.width - tipEl.offsetWidth - 4);
      tipEl.style.left = `${Math.max(0, left)}px`;
      tipEl.style.top = `${e.clientY - r.top + 14}px`;
    };
    const stripAt = (e) => {
      const r = this.el.strip.getBoundingClientRect();
      const z = this.zoom || 1;
      return this.ex.strip_frame_at((e.clientX - r.left) / z, (e.clientY - r.top) / z);
    };
    this.el.strip.addEventListener("pointermove", (e) => e.pointerType === "mouse" && show(stripAt(e), e, this.el.stripFig, tip));
    this.el.strip.addEventListener("pointerleave", (e) => {
      if (e.pointerType !== "mouse") return;
      tip.hidden = true;
      this.ex.select_frame(-1);
    });
    // Touch: a tap shows the tooltip, a swipe steps (left: forward, right: back).
    const swipe = (target, tapAt, box, tipEl) => {
      let start = null;
      target.addEventListener("pointerdown", (e) => {
        if (e.pointerType !== "mouse") start = { x: e.clientX, y: e.clientY, t: performance.now() };
      });
      target.addEventListener("pointerup", (e) => {
        if (!start || e.pointerType === "mouse") return;
        const dx = e.clientX - start.x;
        const dy = e.clientY - start.y;
        start = null;
        if (Math.abs(dx) > 40 && Math.abs(dx) > 2 * Math.abs(dy)) {
          this.act(dx < 0 ? "step" : "back");
        } else if (Math.abs(dx) < 10 && Math.abs(dy) < 10) {
          show(tapAt(e), e, box, tipEl);
        }
      });
      target.style.touchAction = "pan-y";
    };
    swipe(this.el.strip, stripAt, this.el.stripFig, tip);
    const gridAt = (e) => {
      const r = this.el.pool.getBoundingClientRect();
      return this.ex.grid_frame_at((e.clientX - r.left) * this.dpr, (e.clientY - r.top) * this.dpr);
    };
    swipe(this.el.pool, gridAt, this.el.stage, this.el.tip);
    this.el.pool.addEventListener("pointermove", (e) => e.pointerType === "mouse" && this.ex.select_frame(gridAt(e)));
    this.el.pool.addEventListener("pointerleave", (e) => e.pointerType === "mouse" && this.ex.select_frame(-1));
  }

  /** Click or drag on the residency plot: the animation seeks to that time. */
  bindResidencySeek() {
    const c = this.el.residency;
    let dragging = false;
    let last = 0;
    const seek = (e) => {
      const r = c.getBoundingClientRect();
      const t = this.ex.residency_time_at(e.clientX - r.left, r.width, c.width, this.plotScale || 1);
      const now = performance.now();
      if (now - last < 120 && e.type === "pointermove") return;
      last = now;
      this.ex.pause();
      this.ex.seek_time(Math.max(t, 0.001));
      this.dirtyResidency = true;
    };
    c.addEventListener("pointerdown", (e) => {
      dragging = true;
      c.setPointerCapture?.(e.pointerId);
      seek(e);
    });
    c.addEventListener("pointermove", (e) => dragging && seek(e));
    const end = () => (dragging = false);
    c.addEventListener("pointerup", end);
    c.addEventListener("pointercancel", end);
    c.style.cursor = "ew-resize";
    c.title = "Click or drag to move the animation to that time";
  }

  /** The selected frame's ring over the grid (drawn after the grid's pixels). */
  drawGridSelection() {
    const f = this.ex.selected();
    if (f < 0) return;
    const r = this.ex.grid_rect_of(f);
    if (r.length !== 3) return;
    const k = this.dpr || 1;
    this.ctx.strokeStyle = this.sc?.focus ?? "#c2410c";
    this.ctx.lineWidth = 2 * k;
    const pad = 2 * k;
    this.ctx.strokeRect(r[0] - pad, r[1] - pad, r[2] + 2 * pad, r[2] + 2 * pad);
  }
}

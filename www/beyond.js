// The article's "Beyond" figures: glue only. The side-by-side what-if runs (src/ui/pair.rs,
// bound as WhatIfPair in src/web/beyond.rs) keep their state in WASM memory; this reads each
// close-up as a Float32Array view and paints it with the widget's painter (figure/paint-strip.js). The
// scale curve and the phase heat map are drawn by Rust (crates/lab/src/study/charts.rs) on canvases from
// the committed www/data/ files; a heat-map cell's setting and text come from src/ui/beyond.rs.
//
// Each figure has its own Embed button (figure/embed-button.js, the widgets' dialog): its
// snippets load index.html?embed=1&view=pair|scale|phase (main.js keeps that figure alone) or
// the <midpoint-explainer view="…"> element (embed.js, which takes the figure's markup from
// index.html), the pair's patch in `whatif=`.
import * as mp from "../pkg/midpoint.js";
import { data } from "./figure/data.js";
import { EmbedButton } from "./figure/embed-button.js";
import { paintStrip, stripColours } from "./figure/paint-strip.js";
import { el, markFont } from "./util.js";

/** The Beyond figures' views (`view=` of their embeds). */
export const BEYOND_VIEWS = ["pair", "scale", "phase"];

const esc = (v) => String(v).replace(/&/g, "&amp;").replace(/"/g, "&quot;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

let nextId = 0;

/** What the Embed dialog asks of a figure (as of a widget, figure/widget.js `snippets`): the
 *  snippets of Beyond figure `fig` as it stands (its view, the pair's patch), `height` px tall. */
class BeyondEmbed {
  constructor(fig, base) {
    this.root = fig;
    this.base = base;
    this.id = `mpb${nextId++}`;
  }
  state() {
    const kind = this.root.dataset.beyond;
    const q = [["view", kind]];
    if (kind === "pair" && this.root.dataset.whatif) q.push(["whatif", this.root.dataset.whatif]);
    return q;
  }
  snippets(_view, height) {
    if (!this.base) return null;
    const q = this.state();
    const page = new URL("index.html", this.base).href;
    const src = `${page}?embed=1&${new URLSearchParams(q)}`;
    const h = Math.round(height) || 600;
    return {
      iframe: `<iframe src="${esc(src)}" title="midpoint: an interactive simulator of the InnoDB buffer pool's LRU list" width="100%" height="${h}" style="display:block; border:0; width:100%; max-width:800px; height:${h}px" loading="lazy"></iframe>`,
      element: `<script type="module" src="${esc(new URL("embed.js", this.base).href)}"></script>\n<midpoint-explainer\n${q.map(([k, v]) => `  ${k}="${esc(v)}"`).join("\n")}>\n</midpoint-explainer>`,
      page: `${page}#beyond-h`,
    };
  }
}

/** The figure's Embed button (and, embedded, its link to the article), on its toolbar or
 *  above its canvas. */
function addEmbed(fig, base, embedded) {
  const emb = new BeyondEmbed(fig, base);
  const button = new EmbedButton(emb, [fig.dataset.beyond]);
  const acts = el("span", { class: "bf-acts" }, button.el);
  if (embedded && base) {
    acts.append(
      el("a", { class: "mp-full", href: new URL("index.html#beyond-h", base).href, target: "_blank", rel: "noopener" }, "Open the article ", el("span", { "aria-hidden": "true", text: "↗" })),
    );
  }
  // The pair's: after its buttons, on their last row (a row of its own would make the figure
  // taller than a phone's screen).
  const bar = fig.querySelector(".bf-btns");
  if (bar) bar.append(acts);
  else fig.prepend(el("div", { class: "bf-bar bf-actbar" }, acts));
}

function showError(fig, msg) {
  const p = fig.querySelector("[data-error]");
  p.textContent = msg;
  p.hidden = false;
}

const dark = matchMedia("(prefers-color-scheme: dark)");
const reduced = matchMedia("(prefers-reduced-motion: reduce)");
const dprOf = () => Math.min(window.devicePixelRatio || 1, 3);

/** Sizes a canvas to `w` × `h` CSS pixels at the screen's density. */
function size(canvas, w, h) {
  const dpr = dprOf();
  canvas.width = Math.round(w * dpr);
  canvas.height = Math.round(h * dpr);
  canvas.style.width = `${w}px`;
  canvas.style.height = `${h}px`;
  return dpr;
}

/** data-at-moment="1" on the figure (set once): it has drawn its opening moment (the pair both
 *  runs paused just before the scan phase's first LRU batch, at rest; the scale curve and the
 *  heat map their committed data); an embed's poster of that moment stays until then (main.js,
 *  as widget.js publishes it for a widget). */
function atMoment(fig) {
  if (!fig.dataset.atMoment) fig.dataset.atMoment = "1";
}

/** Runs `start` once `fig` comes near the screen (a phone runs only what it shows). */
function whenNear(fig, start) {
  const io = new IntersectionObserver(
    (entries) => {
      if (entries.some((e) => e.isIntersecting)) {
        io.disconnect();
        start();
      }
    },
    { rootMargin: "300px 0px" },
  );
  io.observe(fig);
}

// ---- stock and patched side by side --------------------------------------------------------

class PairFigure {
  constructor(fig, wasm) {
    this.fig = fig;
    this.wasm = wasm;
    this.pair = null;
    this.canvases = [...fig.querySelectorAll("canvas[data-side]")];
    // On a phone one run at a time, picked by two buttons (both stay in lockstep).
    const sides = fig.querySelector(".bf-sides");
    for (const b of fig.querySelectorAll("[data-side-pick]")) {
      b.addEventListener("click", () => {
        sides.dataset.showing = b.dataset.sidePick;
        for (const o of fig.querySelectorAll("[data-side-pick]")) o.setAttribute("aria-pressed", String(o === b));
        this.layout();
      });
    }
    this.ctxs = this.canvases.map((c) => c.getContext("2d"));
    this.notes = [...fig.querySelectorAll("[data-note]")];
    this.caption = fig.querySelector("[data-caption]");
    this.select = fig.querySelector("select[data-act='whatif']");
    this.desc = fig.querySelector("[data-whatif-desc]");
    this.patchedName = fig.querySelector("[data-label='1']");
    this.playBtn = fig.querySelector("[data-act='play']");
    this.visible = true;
  }

  /** `want`: the patch to open with (an embed's `whatif=`), else the menu's default. */
  async start(want) {
    const [whatifs, sweep] = await Promise.all([data("whatifs"), data("sweep")]);
    const c = mp.whatif_choices(whatifs, sweep);
    this.choices = c.choices;
    const pick = c.choices.findIndex((ch) => ch.name === want);
    for (const [i, ch] of c.choices.entries()) {
      const o = document.createElement("option");
      o.value = ch.name;
      o.textContent = ch.label;
      this.select.append(o);
      if (i === (pick >= 0 ? pick : c.default)) o.selected = true;
    }
    this.fig.querySelector("[data-provenance]").textContent = c.provenance;
    this.select.addEventListener("change", () => this.open(this.select.value));
    this.fig.addEventListener("click", (e) => {
      const b = e.target.closest("button[data-act]");
      if (b) this.act(b.dataset.act);
    });
    this.fig.addEventListener("keydown", (e) => {
      if (e.target.closest("select") || e.altKey || e.ctrlKey || e.metaKey) return;
      const act = { " ": "play", ArrowRight: "step", ArrowLeft: "back", w: "watch", W: "watch", Home: "reset" }[e.key];
      if (!act || (e.key === " " && e.target.closest("button"))) return;
      e.preventDefault();
      this.act(act);
    });
    for (const [side, c] of this.canvases.entries()) {
      c.addEventListener("pointermove", (e) => this.hover(side, e));
      c.addEventListener("pointerleave", () => (this.fig.querySelector(`[data-tip='${side}']`).hidden = true));
    }
    new ResizeObserver(() => this.layout()).observe(this.fig);
    new IntersectionObserver((en) => (this.visible = en.some((x) => x.isIntersecting))).observe(this.fig);
    dark.addEventListener("change", () => this.recolour());
    this.open(this.select.value);
    const loop = (t) => {
      if (this.visible && this.pair) this.tick(t);
      requestAnimationFrame(loop);
    };
    requestAnimationFrame(loop);
  }

  open(name) {
    this.pair?.free();
    this.pair = null;
    try {
      this.pair = new mp.WhatIfPair(name);
    } catch (e) {
      showError(this.fig, `The side-by-side runs could not start: ${e?.message ?? e}`);
      return;
    }
    const ch = this.choices.find((c) => c.name === name);
    // Stock's figure is a quote of the stock default cell (its declared ensemble, ui::cells).
    if (ch?.stock) {
      const q = document.createElement("span");
      q.dataset.cell = "default";
      q.textContent = ch.stock;
      this.desc.replaceChildren(ch.summary_before, q, ch.summary_after);
    } else this.desc.textContent = ch ? ch.summary : "";
    this.patchedName.textContent = `Patched: ${name}`;
    this.recolour();
    this.pair.set_reduced_motion(reduced.matches);
    this.layout();
    this.fig.dataset.whatif = name;
  }

  recolour() {
    this.sc = stripColours(this.fig);
    this.pair?.set_dark(dark.matches);
    this.stale = [true, true];
  }

  layout() {
    if (!this.pair) return;
    for (const [side, c] of this.canvases.entries()) {
      const w = c.parentElement.clientWidth || 320;
      const h = this.pair.strip_resize(side, w, w < 500 ? 180 : 260);
      size(c, w, h);
    }
    // A resized canvas is blank: paint both on the next frame.
    this.stale = [true, true];
  }

  act(a) {
    const p = this.pair;
    if (!p) return;
    if (a === "play") p.toggle();
    else if (a === "step") p.step();
    else if (a === "back") p.step_back();
    else if (a === "watch") p.watch();
    else if (a === "reset") p.reset();
  }

  hover(side, e) {
    const tip = this.fig.querySelector(`[data-tip='${side}']`);
    const r = this.canvases[side].getBoundingClientRect();
    const f = this.pair?.strip_frame_at(side, e.clientX - r.left, e.clientY - r.top) ?? -1;
    if (f < 0) {
      tip.hidden = true;
      return;
    }
    tip.textContent = this.pair.describe_frame(side, f);
    tip.hidden = false;
    tip.style.left = `${Math.max(0, Math.min(e.clientX - r.left + 12, r.width - tip.offsetWidth - 4))}px`;
    tip.style.top = `${e.clientY - r.top + 14}px`;
  }

  tick(t) {
    const p = this.pair;
    const flags = p.frame(t);
    const dpr = dprOf();
    let painted = false;
    for (const side of [0, 1]) {
      // Nothing moved and the canvas is as painted: leave it (an idle figure stays idle).
      if (!p.strip_update(side, t) && !this.stale?.[side]) continue;
      painted = true;
      if (this.stale) this.stale[side] = false;
      const n = p.strip_len(side);
      const v = new Float32Array(this.wasm.memory.buffer, p.strip_ptr(side), n);
      markFont(this.canvases[side], paintStrip(this.ctxs[side], v, n, p.strip_meta(side), this.sc, dpr));
    }
    if (flags & 2 || !this.status) {
      const s = p.status();
      this.status = s;
      const set = (node, text) => node.textContent !== text && (node.textContent = text);
      set(this.caption, s.busy || s.caption);
      set(this.notes[0], s.stock.summary);
      set(this.notes[1], s.patched.summary);
      const playing = s.mode === "playing";
      // Announce the comparison when the runs stop, not at every frame of play.
      this.caption.setAttribute("aria-live", s.mode === "paused" ? "polite" : "off");
      set(this.playBtn.querySelector(".bf-lbl"), playing ? "Pause" : "Play");
      this.playBtn.setAttribute("aria-pressed", String(playing));
      this.fig.dataset.eventsStock = s.stock.events;
      this.fig.dataset.eventsPatched = s.patched.events;
      this.fig.dataset.mode = s.mode;
    }
    // At its opening moment once both runs are painted, paused and at rest (a frame that had
    // nothing left to paint).
    const s = this.status;
    if (!painted && s && !s.busy && s.mode === "paused" && !this.stale?.some(Boolean)) atMoment(this.fig);
  }
}

// ---- the scale curve -----------------------------------------------------------------------

async function scaleFigure(fig) {
  const scale = await data("scale");
  const canvas = fig.querySelector("canvas");
  fig.querySelector("[data-provenance]").textContent = mp.data_provenance("scale", scale);
  canvas.setAttribute("aria-label", mp.describe_scale(scale));
  const draw = () => {
    const w = canvas.parentElement.clientWidth || 360;
    const h = Math.round(Math.min(400, Math.max(320, w * 0.55)));
    const dpr = size(canvas, w, h);
    canvas.dataset.points = mp.draw_scale(canvas, dpr, scale, dark.matches);
    markFont(canvas, mp.last_font_px() / dpr);
  };
  draw();
  atMoment(fig);
  new ResizeObserver(() => draw()).observe(canvas.parentElement);
  dark.addEventListener("change", draw);
}

// ---- the phase heat map --------------------------------------------------------------------

async function phaseFigure(fig, lab, base) {
  const view = new mp.PhaseView(await data("phase"));
  const canvas = fig.querySelector("canvas");
  const tip = fig.querySelector("[data-tip]");
  const live = fig.querySelector("[data-cell]");
  fig.querySelector("[data-provenance]").textContent = view.provenance();
  // Alone (an embed), no lab below: a cell gives a link to the lab at its setting.
  if (!lab) live.textContent = "Hover over a cell, or Tab to the map and use the arrow keys. Click a cell (or press Enter) for a link that runs that setting in the lab.";
  let w = 0;
  let h = 0;
  const draw = () => {
    w = canvas.parentElement.clientWidth || 360;
    h = Math.round(Math.min(480, Math.max(340, w * 0.6)));
    const dpr = size(canvas, w, h);
    view.draw(canvas, dpr, dark.matches);
    markFont(canvas, mp.last_font_px() / dpr);
  };
  const at = (e) => {
    const r = canvas.getBoundingClientRect();
    return view.cell_at(w, h, e.clientX - r.left, e.clientY - r.top);
  };
  const run = ([i, j]) => {
    view.select(i, j);
    draw();
    const q = view.query(i, j);
    fig.dataset.ran = q;
    if (!lab) {
      // An embedded map: the lab opens in a new tab at that cell's setting.
      const a = el("a", { href: new URL(`lab.html?${q}`, base ?? location.href).href, target: "_blank", rel: "noopener", text: "Run it in the lab ↗" });
      live.replaceChildren(`${view.describe(i, j).replace(/ Click or press Enter.*$/, "")} `, a);
      return;
    }
    lab.applyQuery(q);
    live.textContent = `Running in the lab below: ${view.describe(i, j).replace(/ Click or press Enter.*$/, "")}`;
    lab.root.scrollIntoView({ behavior: reduced.matches ? "auto" : "smooth", block: "start" });
  };
  canvas.addEventListener("pointermove", (e) => {
    const c = at(e);
    if (c.length !== 2) {
      tip.hidden = true;
      canvas.style.cursor = "default";
      return;
    }
    canvas.style.cursor = "pointer";
    tip.textContent = view.describe(c[0], c[1]);
    tip.hidden = false;
    const r = canvas.getBoundingClientRect();
    tip.style.left = `${Math.max(0, Math.min(e.clientX - r.left + 12, r.width - tip.offsetWidth - 4))}px`;
    tip.style.top = `${e.clientY - r.top + 14}px`;
  });
  canvas.addEventListener("pointerleave", () => (tip.hidden = true));
  canvas.addEventListener("click", (e) => {
    const c = at(e);
    if (c.length === 2) run(c);
  });
  canvas.addEventListener("keydown", (e) => {
    const d = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, 1], ArrowDown: [0, -1] }[e.key];
    if (d) {
      e.preventDefault();
      const [i, j] = view.move_selection(d[0], d[1]);
      draw();
      live.textContent = view.describe(i, j);
    } else if (e.key === "Enter" || e.key === " ") {
      e.preventDefault();
      const s = view.selected();
      run(s.length === 2 ? s : view.move_selection(0, 0));
    }
  });
  canvas.addEventListener("focus", () => {
    if (view.selected().length !== 2) {
      const [i, j] = view.move_selection(0, 0);
      draw();
      live.textContent = view.describe(i, j);
    }
  });
  draw();
  atMoment(fig);
  new ResizeObserver(() => draw()).observe(canvas.parentElement);
  dark.addEventListener("change", draw);
}

/** Starts Beyond figure `fig` when it comes near the screen, with its Embed button; `lab` is
 *  the widget a heat-map click runs (null: none on the page); `embedded`: the figure alone
 *  (an iframe of index.html?embed=1&view=…, or the element), `query` its address. */
export function startBeyondFigure(fig, env, lab, { embedded = false, query = "" } = {}) {
  for (const c of fig.querySelectorAll("canvas")) c.dataset.minFontPx ??= "none";
  const kind = fig.dataset.beyond;
  addEmbed(fig, env.base ?? null, embedded);
  const fail = (e) => {
    console.error(e);
    showError(fig, `This figure could not load: ${e?.message ?? e}`);
  };
  const want = new URLSearchParams(query).get("whatif")?.trim() ?? "";
  whenNear(fig, () => {
    const p =
      kind === "pair" ? new PairFigure(fig, env.wasm).start(want) : kind === "scale" ? scaleFigure(fig) : phaseFigure(fig, lab, env.base ?? null);
    p.then(() => (fig.dataset.ready = "1")).catch(fail);
  });
}

/** Starts the figures of every [data-beyond] element; `lab` is the widget a heat-map click runs. */
export function startBeyond(env, lab, opts) {
  for (const fig of document.querySelectorAll("[data-beyond]")) startBeyondFigure(fig, env, lab, opts);
}

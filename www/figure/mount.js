// Puts a widget's figures together for its view. The article's figures, the lab, `embed=1`
// pages and the <midpoint-explainer> element all mount through here: a figure is the same
// components wherever it appears, each with its canvas, its controls, its Embed and its key.
//
//   strip      the close-up and the code panel, the transport, the key, the counters, the
//              depth slider
//   grid       the whole pool, the transport, the key
//   residency  the residency plot, its key and caption, the depth and old_blocks_time sliders
//   sweep      the sweep (opening drawn), its key, the hot-set and pause sliders
//   write      the lab's write path alone: its write preset, sliders, run, pool and charts
//   policies   the lab's other replacement policies alone, on the widget's parameters
//   lab        everything: the settings, both plots, the close-up and the pool, the tour,
//              the policies and (on the lab's own page) the write path
//   present    the classroom's presentation: the tour's beats beside the close-up
//
// The close-up's components are imported here; the others (the pool, the plots, the settings,
// the tour, the policies, the write path) only by the views that show them, so that an embedded
// close-up fetches none of the lab's scripts (ARCHITECTURE.md, "The page's modules").
import { el, fmt, KEYS_HELP, setText } from "../util.js";
import { EmbedButton } from "./embed-button.js";
import { CellKey, Counters } from "./keys.js";
import { EMBED_HEIGHT } from "./sizes.js";
import { Sliders } from "./sliders.js";
import { Strip } from "./strip.js";
import { Transport } from "./transport.js";
import { Widget } from "./widget.js";

/** The sliders each figure of the article carries, right under it. */
export const FIGURE_SLIDERS = {
  strip: ["lru_scan_depth"],
  grid: [],
  residency: ["lru_scan_depth", "old_blocks_time"],
  sweep: ["hot_pages", "scan_pause_ms"],
};

/** The scripts of the components a view shows beyond the close-up's, loaded on demand:
 *  { Grid, Residency, Sweep, Settings, Tour, Policies, WritePath } as the view needs them. */
async function viewModules(view, withWrite) {
  const want = {
    grid: ["grid"],
    residency: ["residency"],
    sweep: ["sweep"],
    write: ["write"],
    policies: ["policies"],
    lab: ["grid", "residency", "sweep", "settings", "tour", "policies", ...(withWrite ? ["write"] : [])],
    present: ["tour"],
  }[view] ?? [];
  const load = {
    grid: () => import("./grid.js"),
    residency: () => import("./residency.js"),
    sweep: () => import("./sweep.js"),
    settings: () => import("./settings.js"),
    tour: () => import("./tour.js"),
    policies: () => import("./policies.js"),
    write: () => import("../write.js"),
  };
  return Object.assign({}, ...(await Promise.all(want.map((k) => load[k]()))));
}

/**
 * Mounts a widget in `root` and starts it; resolves to the widget once the scripts of its view
 * have arrived. `opts`: `query` (the address's query string), `syncUrl` (it writes the page's
 * address), `embedded` (a <midpoint-explainer> element).
 */
export async function mountWidget(root, env, opts) {
  const w = new Widget(root, env, opts);
  const [m, runs] = await Promise.all([viewModules(w.viewName, !w.embedView && w.syncUrl), w.needsWorkers ? import("./runs.js") : null]);
  if (runs) w.attachRuns(runs);
  if (w.viewName === "lab") mountLab(w, m);
  else if (w.viewName === "present") mountPresent(w, m);
  else mountFigure(w, m);
  w.start();
  return w;
}

/** The numbers an article figure's caption gives of its settings (`<span
 *  data-caption-param="lru_scan_depth">` in the figcaption): the figure's parameters now, so the
 *  caption follows its sliders. */
class CaptionParams {
  constructor(w) {
    this.w = w;
    const cap = w.root.closest("figure")?.querySelector(":scope > figcaption");
    this.spans = cap ? [...cap.querySelectorAll("[data-caption-param]")] : [];
  }
  paramsChanged() {
    for (const s of this.spans) {
      const v = this.w.params[s.dataset.captionParam];
      if (typeof v === "number") setText(s, fmt.format(v));
    }
  }
}

/** "Open the full explainer ↗", in an embedded figure: the full page at this state. */
class FullLink {
  constructor(w) {
    this.w = w;
    this.el = el("a", { class: "mp-full", target: "_blank", rel: "noopener" }, "Open the full explainer ", el("span", { "aria-hidden": "true", text: "↗" }));
    this.el.hidden = !(w.embedView && w.base);
  }
  addressChanged() {
    if (this.el.hidden) return;
    const s = this.w.snippets(this.w.viewName, 0);
    if (s && this.el.href !== s.page) this.el.href = s.page;
  }
}

function mountFigure(w, { Grid, Residency, Sweep, Policies, WritePath }) {
  const view = w.viewName;
  const root = w.root;
  const embed = w.add(new EmbedButton(w, [view]));
  const link = w.add(new FullLink(w));
  w.add(new CaptionParams(w));
  const card = el("section", { class: "mp-card mp-figure", "aria-label": "Figure" });
  let flex;
  if (view === "write" || view === "policies") {
    // The lab's write path or policies alone: a panel taller than its box on a phone, which
    // scrolls inside it (.mp-scrolls); its own Embed and link beside its title.
    const fig = view === "write" ? w.add(new WritePath(w)) : w.add(new Policies(w));
    fig.addAction(embed.el);
    if (w.embedView) fig.addAction(link.el);
    const panel = view === "write" ? fig.el.sec : fig.el;
    panel.classList.remove("mp-card");
    card.classList.add("mp-scrolls");
    card.append(panel);
    flex = { layout: () => fig.layout?.() };
  } else if (view === "strip" || view === "grid") {
    const t = w.add(new Transport(w, { compact: true }));
    // A figure's Embed (and, embedded, its link to the full page) on the clock's line, right:
    // the toolbar stays one row on a phone.
    t.clock.append(el("span", { class: "mp-clockacts" }, embed.el, w.embedView ? link.el : ""));
    card.append(t.el);
    if (view === "strip") {
      flex = w.add(new Strip(w));
      card.append(flex.el, w.add(new CellKey(w, "strip")).el, w.add(new Counters(w, { compact: true })).el);
    } else {
      flex = w.add(new Grid(w));
      card.append(flex.el, w.add(new CellKey(w, "grid")).el);
    }
  } else if (view === "residency") {
    flex = w.add(new Residency(w, { exports: false, table: false, cursor: false }));
    flex.addAction(embed.el);
    if (w.embedView) flex.addAction(link.el);
    card.append(flex.el);
  } else {
    flex = w.add(new Sweep(w, { auto: true, exports: false, table: false }));
    flex.addAction(embed.el);
    if (w.embedView) flex.addAction(link.el);
    card.append(flex.el);
  }
  const keys = FIGURE_SLIDERS[view] ?? [];
  if (keys.length) card.append(w.add(new Sliders(w, { keys, help: false, label: "This figure's settings", className: "mp-figsliders" })).el);
  root.append(card);
  w.place({ flex, fitBox: w.embedView ? root : root.closest("figure") ?? root, embedHeight: EMBED_HEIGHT[view] });
}

function mountLab(w, { Grid, Residency, Sweep, Settings, Tour, Policies, WritePath }) {
  const root = w.root;
  const id = w.id;
  root.prepend(el("a", { class: "mp-skip", href: `#${id}-controls`, text: "Skip to the simulation controls" }));
  const dash = el("div", { class: "mp-dash" });
  const settings = w.add(new Settings(w));
  const plots = el("section", { class: "mp-card mp-plots", "aria-label": "Plots" });
  const residency = w.add(new Residency(w));
  const sweep = w.add(new Sweep(w));
  residency.addAction(w.add(new EmbedButton(w, ["residency"])).el);
  sweep.addAction(w.add(new EmbedButton(w, ["sweep"])).el);
  plots.append(residency.el, sweep.el);
  dash.append(settings.el, plots);
  if (!w.embedView && w.syncUrl) {
    const write = w.add(new WritePath(w));
    write.addAction(w.add(new EmbedButton(w, ["write"])).el);
    dash.append(write.el.sec);
  }

  const fig = el("section", { class: "mp-card mp-figure", "aria-labelledby": `${id}-h1` });
  const tour = w.add(new Tour(w));
  const link = w.add(new FullLink(w));
  const head = el(
    "div",
    { class: "mp-head" },
    el("h2", { class: "mp-h", id: `${id}-h1`, text: "The buffer pool, frame by frame" }),
    el("div", { class: "mp-headacts" }, tour.button, link.el),
  );
  const t = w.add(new Transport(w));
  t.addAction(w.add(new EmbedButton(w, ["strip", "grid", "residency", "sweep"])).el);
  const strip = w.add(new Strip(w, { scrub: true }));
  const grid = w.add(new Grid(w));
  const below = el("div", { class: "mp-below" }, w.add(new CellKey(w, "lab")).el, w.add(new Counters(w)).el);
  fig.append(head, tour.el, t.el, strip.el, grid.el, below);
  const policies = w.add(new Policies(w));
  policies.addAction(w.add(new EmbedButton(w, ["policies"])).el);
  root.append(dash, fig, policies.el, el("p", { class: "mp-keys", text: KEYS_HELP }));
}

function mountPresent(w, { Tour }) {
  // One screen, no scroll, at any projector's size: the beat and its buttons on top; the
  // close-up (filling what the rest leaves), its caption, the drain's timeline and the
  // transport on the left; the beat's text, the counters it points at, the narration and the
  // code that ran on the right. The components' nodes are placed in the regions; each still
  // owns and updates them.
  const fig = el("section", { class: "mp-card mp-figure mp-present", "aria-label": "The story, beat by beat" });
  const tour = w.add(new Tour(w));
  const t = w.add(new Transport(w));
  const strip = w.add(new Strip(w, { scrub: true }));
  const full = t.el.querySelector('[data-act="fullscreen"]');
  const head = el("div", { class: "mp-pres-head" }, el("div", { class: "mp-pres-title" }, tour.count, tour.h), tour.nav, ...(full ? [full] : []));
  const left = el("div", { class: "mp-pres-left" }, strip.fig, ...(tour.key ? [tour.key] : []), strip.el.querySelector(".mp-scrub"), t.el.querySelector(".mp-toolbar"));
  const side = el("div", { class: "mp-pres-side" }, tour.text, ...(tour.kept ? [tour.kept] : []), tour.counts, t.el.querySelector(".mp-clock"), t.el.querySelector(".mp-narration"), ...(strip.code ? [strip.code] : []));
  fig.append(head, left, side, ...(tour.room ? [tour.room] : []));
  w.root.append(fig);
  if (tour.proj) left.querySelector(".mp-toolbar")?.append(tour.proj);
  tour.paintKey?.();
  if (tour.projector) tour.setProjector(true);
  new ResizeObserver(() => tour.fitSide?.()).observe(side);
  const narr = side.querySelector(".mp-narration");
  if (narr) new ResizeObserver(() => tour.fitSide?.()).observe(narr);
  let last = "";
  new ResizeObserver(() => {
    const size = `${strip.box.clientWidth}x${strip.box.clientHeight}`;
    if (size === last) return;
    last = size;
    w.wake();
    strip.layoutExplorer();
  }).observe(strip.box);
}

// A widget: one simulation under the reader's control, and the figures that show it. Its state
// has one owner, a Rust `Page` (src/ui/page.rs: the parameters, the preset and measurement they
// match, the address, the command line, the captions' words); the run's large state stays in
// WASM memory, in an `Explorer` (src/ui/explorer/), which the figures read a view of each frame.
// This file holds what every figure shares: the frame loop (which comes to rest when nothing
// moves), the transport (play, step, watch…), the keys, the parameters' changes, the address,
// the full runs in workers (runs.js, attached by mount.js for the views that show a run) and
// visibility. The figures themselves are components
// (strip.js, grid.js, residency.js, sweep.js, …) that mount.js puts together for each view.
import * as mp from "../../pkg/midpoint.js";
import { el, newId, screenDpr } from "../util.js";

// The test surface's reader (debug.js): `widgetDebug` once loaded.
let surface = null;
let surfaceLoad = null;
/** Loads the test surface's reader; main.js awaits it on the full pages before they say ready. */
export function loadSurface() {
  return (surfaceLoad ??= import("./debug.js").then((m) => (surface = m.widgetDebug)));
}

// Until runs.js is attached (attachRuns), and for good in a view that shows no run: no run, no
// worker.
const NO_RUNS = { first: null, ens: null, pendingRun: false, schedule() {}, start() {}, stop() {}, statusChanged() {} };
const NO_WORKERS = { busy: () => false };

// After this many frames in a row with nothing to do, the loop polls every IDLE_POLL_MS (a
// test sets the root's `data-idle-after` lower, to be idle whenever a message or an input
// arrives).
const IDLE_FRAMES = 30;
const IDLE_POLL_MS = 250;

/** Whether the focused `target` keeps `key`: a control keeps the keys it documents and gives
 *  the rest back (docs/page.md, "Keyboard"); in the presentation (`present`) fewer. */
export function controlKeeps(target, key, present) {
  if (!target || !target.tagName) return false;
  if (target.isContentEditable || target.closest?.("dialog")) return true;
  const tag = target.tagName;
  if (tag === "TEXTAREA") return true;
  if (tag === "INPUT") {
    if (target.type !== "range") return true;
    if (key === "ArrowUp" || key === "ArrowDown" || key === "Home" || key === "End") return true;
    return !present && (key === "ArrowLeft" || key === "ArrowRight" || key === "PageUp" || key === "PageDown");
  }
  if (tag === "SELECT") return !present || ["ArrowUp", "ArrowDown", "Home", "End", "Enter", "Escape"].includes(key);
  if (tag === "BUTTON" || tag === "SUMMARY" || tag === "A") return key === "Enter" || (!present && (key === " " || key === "Spacebar"));
  return false;
}

export class Widget {
  /**
   * `root`: the element the figures go in; `env`: what boot() gave; `query`: the address's
   * query string (the lab reads the page's own, a figure its data-query, an element its
   * attributes); `syncUrl`: this widget writes the page's address.
   */
  constructor(root, env, { query, syncUrl = false, embedded = false }) {
    this.root = root;
    this.env = env;
    this.wasm = env.wasm;
    this.base = env.base ?? null;
    this.id = newId();
    this.syncUrl = syncUrl;
    this.darkQuery = matchMedia("(prefers-color-scheme: dark)");
    this.motionQuery = matchMedia("(prefers-reduced-motion: reduce)");
    this.page = new mp.Page(query);
    this.messages = this.page.messages();
    this.view = this.page.view();
    this.params = this.page.params();
    this.viewName = this.view.view.view;
    this.embedView = this.view.view.embed || embedded;
    this.embedded = embedded;
    this.components = [];
    this.workers = NO_WORKERS;
    this.runs = NO_RUNS;
    // The frame loop's idle state (tick, wake): frames in a row that did nothing, the pending
    // poll's timer, and polls that found work nothing had woken them for.
    this.quietFrames = 0;
    this.idleTimer = 0;
    this.polling = false;
    this.idleMisses = 0;
    this.visible = true;
    this.offscreenPaused = false;
    this.dead = false;
    this.status = null;
    this.lastSeq = -1;
    this.resumeAfterSeek = false;
    // Whether start() has asked for the opening moment (data-at-moment waits for that).
    this.openAsked = false;
    this.dpr = screenDpr();
    // Set by place().
    this.flex = null;
    this.fitBox = null;
    this.embedHeight = undefined;
    // Whether the residency plot (or its caption) shows the setting's runs: then the widget
    // runs the ensemble, else one run.
    this.showsRuns = this.viewName === "lab" || this.viewName === "residency";
    // The close-up and the pool alone show no run's result: they load no runs.js and start no
    // worker (on a phone that run took CPU from the figure's first frame, for nothing on screen).
    this.needsRun = !["strip", "grid", "write", "policies"].includes(this.viewName);
    // The write path and the policies alone run their own jobs in workers, and no run of the
    // widget's setting.
    this.needsWorkers = this.needsRun || this.viewName === "write" || this.viewName === "policies";
    root.dataset.view = this.viewName;
    root.dataset.testid = "midpoint-widget";
    root.classList.add("mp");
    if (this.embedView) root.classList.add("mp-embed");
    this.alert = el("div", { class: "mp-alert", role: "alert", hidden: true });
    this.notes = el("div", { class: "mp-notes", role: "status", hidden: true });
    root.append(this.alert, this.notes);
    // The test surface on the figure's own element: an article's figures mount as they come
    // near the screen, so a test finds one by its root, not by its place in __midpoint.apps.
    root.debug = () => (this.ex ? this.debug() : null);
  }

  /** The full runs and their workers, from runs.js (`{ Runs, Workers }`), before start(). */
  attachRuns({ Runs, Workers }) {
    const env = this.env;
    // A page of the small module (which has no runners) gives its workers neither its module
    // nor its bindings: they load the full module's (boot.js, workerModule).
    this.workers = new Workers(env.workerModule, env.workerUrl ?? new URL("../worker.js", import.meta.url), env.workerType ?? "module", (msg) => this.fatal(msg), env.core ? undefined : env.bindings);
    this.workers.onActivity = () => this.wake();
    this.runs = new Runs(this);
  }

  /** Adds a component (a figure or a control); returns it. */
  add(c) {
    this.components.push(c);
    return c;
  }

  /** Calls `name(...args)` on every component that has it: the components' events (docs/page.md,
   *  "How the page is built"). */
  emit(name, ...args) {
    for (const c of this.components) c[name]?.(...args);
  }

  /** The first component of a kind ("strip", "grid", "residency", "sweep", "tour"). */
  component(kind) {
    return this.components.find((c) => c.kind === kind) ?? null;
  }
  get tour() {
    return this.component("tour");
  }
  /** For tests and the debug hook. */
  get stripFigure() {
    return this.component("strip");
  }
  get residencyFigure() {
    return this.component("residency");
  }
  get sweepFigure() {
    return this.component("sweep");
  }

  /** mount.js: `flex` takes the height the rest leaves, `fitBox` keeps within a screen. */
  place({ flex, fitBox, embedHeight }) {
    this.flex = flex;
    this.fitBox = fitBox;
    this.embedHeight = embedHeight;
  }

  /** Starts the widget once its components are mounted: the explorer, the layout, the first
   *  run, the opening moment and the frame loop. */
  start() {
    // A canvas that has drawn nothing yet drew no text.
    for (const c of this.root.querySelectorAll("canvas")) c.dataset.minFontPx ??= "none";
    this.showNotes(this.messages);
    this.newExplorer(0);
    this.emit("paramsChanged", this.view);
    this.layout();
    this.writeUrl();
    this.runs.schedule(0);
    const o = this.page.opening(this.motionQuery.matches);
    if (o.tour !== undefined && o.tour !== null && this.tour) this.tour.go(o.tour, false);
    else if (o.ev !== undefined && o.ev !== null) this.ex.seek_event(o.ev);
    // A figure's opening moment (the scan's start, its first LRU batch, watching it): one
    // request, run at full speed in Rust.
    else if (o.at) this.ex.open_at(o.at);
    else if (o.play) {
      if (o.speed !== undefined && o.speed !== null) this.ex.set_speed(o.speed);
      this.ex.play();
    }
    this.openAsked = true;
    this.bind();
    this.loop = (t) => this.tick(t);
    requestAnimationFrame(this.loop);
  }

  // ---- parameters ------------------------------------------------------------------------

  /** The page's view changed with the same parameters (a tour's beat of the same preset): read
   *  it again, and tell the components; the explorer stays. */
  viewChanged() {
    this.view = this.page.view();
    this.emit("paramsChanged", this.view);
  }

  /** The page's state changed: read it again (one value), and tell the components. */
  refresh(keepTime) {
    const t = keepTime && this.ex ? this.ex.t_s() : 0;
    const playing = this.status?.mode === "playing";
    this.view = this.page.view();
    this.params = this.page.params();
    this.newExplorer(t);
    this.resumeAfterSeek = playing && t > 0;
    if (playing && t <= 0) this.ex.play();
    this.emit("paramsChanged", this.view);
    this.writeUrl();
    this.runs.schedule(0);
  }

  setParam(key, value) {
    this.showNotes(this.page.set(key, String(value)));
    this.refresh(true);
  }

  pickPreset(name) {
    if (!this.page.pick_preset(name)) return;
    this.refresh(false);
  }

  setSeed(seed) {
    this.showNotes(this.page.set_seed(seed));
    this.refresh(true);
  }

  /** Runs per setting: the runs already here stay, the others are queued. */
  setRuns(n) {
    if (this.page.set_runs(n) === this.view.runs) return;
    this.view = this.page.view();
    this.emit("paramsChanged", this.view);
    this.writeUrl();
    this.runs.schedule(0);
  }

  /**
   * Runs the setting of a URL query (the phase heat map asks the lab to): its parameters, a
   * fresh run from the start, playing, the address updated.
   */
  applyQuery(query) {
    this.showNotes(this.page.apply_query(query));
    this.refresh(false);
    if (!this.motionQuery.matches) this.ex.play();
  }

  newExplorer(t) {
    try {
      const old = this.ex;
      this.ex = new mp.Explorer(this.params);
      if (old) {
        this.ex.keep_curve_of(old);
        old.free();
      }
    } catch (e) {
      this.fatal(`could not start the simulation: ${e?.message ?? e}`);
      return;
    }
    // The pool as set and what the figure simulates of it (one instance's share of a pool of
    // several, see crates/lab/src/url.rs), for tests and readers of the markup.
    this.root.dataset.poolMb = String(this.params.pool_mb);
    this.root.dataset.instances = String(this.params.buffer_pool_instances);
    this.root.dataset.simulatedFrames = String(this.ex.status().frames);
    this.ex.set_view_budget(this.viewName);
    // A view with a residency plot to scrub (the lab's) keeps snapshots over the whole run.
    this.ex.set_scouting(this.viewName === "lab");
    this.scoutHeld = undefined;
    this.ex.set_dark(this.darkQuery.matches);
    this.ex.set_reduced_motion(this.motionQuery.matches);
    this.emit("explorer", this.ex);
    if (this.laidOut) this.emit("layoutExplorer");
    if (t > 0) this.ex.seek_time(t);
    this.lastSeq = -1;
  }

  showNotes(messages) {
    if (!messages?.length) return;
    if (!this.notes.firstChild) {
      this.notesList = el("ul");
      this.notes.append(
        el("p", {}, el("strong", { text: "Some settings in the link could not be used as given:" })),
        this.notesList,
        el("button", { type: "button", class: "mp-small", "data-act": "dismiss", text: "Dismiss" }),
      );
    }
    for (const m of messages) this.notesList.append(el("li", { text: m }));
    this.notes.hidden = false;
    // How many notes are shown (a clamped value, a fallback), published on the figure's root.
    this.root.dataset.notes = String(this.notesList.children.length);
  }

  fatal(msg) {
    if (this.dead) return;
    this.dead = true;
    this.alert.hidden = false;
    this.alert.textContent = `Something went wrong inside the simulator: ${msg}. It has stopped; reload the page to start again.`;
    this.root.classList.add("mp-dead");
    this.runs.stop();
    this.emit("stop");
  }

  // ---- the address ------------------------------------------------------------------------

  /** The event count to write (paused, moved, not in the tour), or 0. */
  momentEv() {
    const s = this.status;
    return s && s.mode === "paused" && s.events > 0 && this.tour?.index == null ? s.events : 0;
  }

  /** Whether the figure is still on its way to its opening moment (`at=` stays in links). */
  keepAt() {
    const s = this.status;
    return !!this.view.view.at && !(s && s.mode === "paused" && s.events > 0);
  }

  writeUrl() {
    this.emit("addressChanged");
    const q = this.page.address(this.momentEv(), this.keepAt());
    // The parameters this figure runs, as its address holds them (a value past a limit as it
    // was clamped to), for tests and readers of the markup; the page's own address too.
    if (this.root.dataset.address !== q) this.root.dataset.address = q;
    if (!this.syncUrl) return;
    const url = `${location.pathname}?${q}${location.hash}`;
    if (url !== `${location.pathname}${location.search}${location.hash}`) history.replaceState(history.state, "", url);
  }

  /** The embed snippets of figure `view` at this moment, `height` px tall (null without a
   *  host to point them at: the single file). */
  snippets(view, height) {
    if (!this.base) return null;
    // While it plays, the snippet still takes the moment shown (the URL waits for a pause).
    const s = this.status;
    const ev = s && s.events > 0 && s.mode !== "seeking" && this.tour?.index == null ? s.events : 0;
    return this.page.snippets(view, ev, ev ? false : this.keepAt(), height, new URL("index.html", this.base).href, new URL("embed.js", this.base).href);
  }

  // ---- the frame loop ----------------------------------------------------------------------

  layout() {
    this.wake();
    this.dpr = screenDpr();
    this.emit("layout");
    this.laidOut = true;
    this.fit();
  }

  /**
   * Makes the figure fit its box. An embedded figure fills the height its iframe gives it (or,
   * opened on its own or as an element, the height its snippet names): the widget's root takes
   * that height and the component with the view's big canvas (`flex`) takes what the rest
   * leaves (CSS `.mp-fill`), so the snippet needs no script in the host page. A figure of the
   * article keeps within one screen: its canvas gives up what the figure is over.
   */
  fit() {
    const flex = this.flex;
    if (!flex || this.viewName === "lab" || this.viewName === "present") return;
    if (this.embedView) {
      const own = this.embedHeight ?? 520;
      const inFrame = window.parent !== window && !this.embedded;
      const target = this.embedded ? own : inFrame ? window.innerHeight : Math.min(window.innerHeight, own);
      this.fill = true;
      this.root.classList.add("mp-fill");
      this.root.style.height = `${target}px`;
      flex.layout();
      return;
    }
    const box = this.fitBox ?? this.root;
    const target = window.innerHeight - 12;
    const h = box.getBoundingClientRect().height;
    if (h <= target + 1) return;
    const cur = flex.flexHeight();
    flex.setFlexHeight(Math.max(flex.minHeight(), Math.floor(cur - (h - target))));
  }

  tick(t) {
    if (this.dead) return;
    if (!this.visible) {
      // Off screen: no frames at all until the IntersectionObserver sees it again.
      this.looping = false;
      return;
    }
    this.looping = true;
    const polled = this.polling;
    this.polling = false;
    let quiet = false;
    try {
      // The scout (snapshots for scrubbing) waits while workers compute the runs the reader
      // is waiting for: on two cores it would take a third of one from them.
      const held = this.workers.busy();
      if (held !== this.scoutHeld) {
        this.scoutHeld = held;
        this.ex.hold_scout(held);
      }
      const flags = this.ex.frame(t);
      let painted = false;
      let gridDrawn = false;
      for (const c of this.components) {
        if (!c.frame?.(t, flags)) continue;
        painted = true;
        if (c.kind === "grid") gridDrawn = true;
      }
      // No component drew the grid: its cells are built (the counts) and the flag cleared, or
      // a paused page would never rest.
      if (flags & 1 && !gridDrawn) this.ex.settle();
      if (flags & 2 || !this.status) this.updateStatus();
      const ds = this.root.dataset;
      const st = this.status;
      // A beat of the tour is drawn at its moment: no longer seeking.
      if (ds.seeking && painted && st.mode !== "seeking") delete ds.seeking;
      // Nothing moved or was drawn, and nothing will until the reader or a worker acts.
      quiet = flags === 0 && !painted && st.mode === "paused" && (held || this.ex.scouted());
    } catch (e) {
      this.fatal(e?.message ?? String(e));
    }
    if (this.dead) return;
    // A poll that found work means a change that did not call wake(): counted, for the tests.
    if (polled && !quiet) this.idleMisses++;
    this.quietFrames = quiet ? this.quietFrames + 1 : 0;
    if (this.quietFrames < (Number(this.root.dataset.idleAfter) || IDLE_FRAMES)) {
      requestAnimationFrame(this.loop);
      return;
    }
    // Idle: the loop slows from every display frame to a poll (a paused page took 5 % of a
    // core for frames that drew nothing). Input, a worker's message, a resize, a theme change
    // or coming into view call wake(), which brings the frames back at once.
    this.idleTimer = setTimeout(() => {
      this.idleTimer = 0;
      this.polling = true;
      requestAnimationFrame(this.loop);
    }, IDLE_POLL_MS);
  }

  /** Back to a frame every display refresh if the loop had slowed to its idle poll. */
  wake() {
    this.quietFrames = 0;
    // A poll's frame already asked for does the woken work: not a miss.
    this.polling = false;
    if (!this.idleTimer) return;
    clearTimeout(this.idleTimer);
    this.idleTimer = 0;
    requestAnimationFrame(this.loop);
  }

  updateStatus() {
    const prev = this.status;
    const s = this.ex.status();
    this.status = s;
    // The moment as published, in the same task as the status it comes from (an input's scrub
    // or step is read at once, not a frame later).
    const ds = this.root.dataset;
    ds.mode = s.mode;
    const tt = s.t_s.toFixed(4);
    if (ds.t !== tt) ds.t = tt;
    if (ds.event !== String(s.events)) ds.event = String(s.events);
    if (ds.freeLen !== String(s.free)) ds.freeLen = String(s.free);
    const phase = s.phase === "warm-up" ? "warmup" : s.phase === "scan" ? "scan" : "ended";
    if (ds.phase !== phase) ds.phase = phase;
    // How the last scrub got there: "snapshot" (restored, then a short replay) or "forward".
    if (s.seek && ds.seek !== s.seek) ds.seek = s.seek;
    this.runs.statusChanged(s);
    this.emit("status", s, prev);
    // data-at-moment="1" (set once): the figure has reached its opening moment (its at=, ev= or
    // tour beat: keepAt() is false and no seek is under way); an embed's poster of that moment
    // stays until then (main.js).
    if (this.openAsked && !this.root.dataset.atMoment && s.mode !== "seeking" && !this.keepAt()) this.root.dataset.atMoment = "1";
    if (prev && prev.mode === "seeking" && s.mode === "paused" && this.resumeAfterSeek) {
      this.resumeAfterSeek = false;
      this.ex.play();
    }
    // The URL records the moment while paused (debounced: holding → steps quickly).
    if (prev && (prev.mode !== s.mode || (s.mode === "paused" && prev.events !== s.events))) {
      clearTimeout(this.urlTimer);
      this.urlTimer = setTimeout(() => this.writeUrl(), 200);
    }
  }

  // ---- the transport -------------------------------------------------------------------------

  act(name) {
    const ex = this.ex;
    if (this.dead) return;
    this.wake();
    // The reader takes over: the figure no longer plays on after a recompute. A move pressed while
    // the explorer seeks (its opening moment, a slider's recompute) is kept by the explorer and
    // acts once the seek has landed.
    const moves = ["play", "step", "back", "batch", "step-boundary", "step-drain-end", "watch", "reset"];
    if (moves.includes(name)) this.resumeAfterSeek = false;
    switch (name) {
      case "play":
        if (this.status?.mode === "paused") ex.play();
        else ex.pause();
        break;
      case "step":
        ex.step();
        break;
      case "back":
        ex.step_back();
        break;
      case "batch":
        ex.next_batch();
        break;
      case "step-boundary":
        ex.step_boundary();
        break;
      case "step-drain-end":
        ex.step_drain_end();
        break;
      case "watch":
        ex.watch();
        break;
      case "reset":
        ex.reset();
        break;
      case "faster":
        ex.change_speed(1);
        break;
      case "slower":
        ex.change_speed(-1);
        break;
      case "fullscreen":
        if (document.fullscreenElement) document.exitFullscreen?.();
        else this.root.requestFullscreen?.().catch(() => {});
        return;
      case "dismiss":
        this.notes.hidden = true;
        this.notesList?.replaceChildren();
        this.root.dataset.notes = "0";
        return;
      default:
        this.emit("act", name);
        return;
    }
    this.updateStatus();
  }

  /** Whether ← → step the run here (not the presentation's beats nor an embed host's keys). */
  arrowsStep() {
    return this.viewName !== "present" && !this.embedView;
  }

  /** A key's action in this view, or null: the presentation's → PageDown ← PageUp are the
   *  beats; an embed leaves the arrows, PageUp/PageDown, Home/End to its host page. */
  keyAct(e) {
    const present = this.viewName === "present";
    const host = this.embedView && !present;
    switch (e.key) {
      case " ":
      case "Spacebar":
        return "play";
      case "ArrowRight":
      case "PageDown":
        if (present) return "tour-next";
        if (host || e.key === "PageDown") return null;
        return e.shiftKey ? "batch" : "step";
      case "ArrowLeft":
      case "PageUp":
        if (present) return "tour-back";
        if (host || e.key === "PageUp") return null;
        return "back";
      case "n":
      case "N":
        return "batch";
      case "w":
      case "W":
        return "watch";
      case "b":
      case "B":
        return "step-boundary";
      case "e":
      case "E":
        return "step-drain-end";
      case "f":
      case "F":
        return "fullscreen";
      case "+":
      case "=":
        return "faster";
      case "-":
      case "_":
        return "slower";
      case "Home":
        return present || host ? null : "reset";
      default:
        return null;
    }
  }

  /** A key's action, unless a modifier is held, a dialog is open or the focus keeps the key. */
  onKey(e) {
    if (e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey) return;
    if (e.target?.closest?.("dialog") || document.querySelector("dialog[open]")) return;
    const act = this.keyAct(e);
    if (!act || controlKeeps(e.target, e.key, this.viewName === "present")) return;
    e.preventDefault();
    e.stopPropagation();
    this.act(act);
  }

  bind() {
    this.root.addEventListener("click", (e) => {
      const b = e.target.closest("button[data-act]");
      if (b && this.root.contains(b) && !b.closest("[data-own-acts]")) this.act(b.dataset.act);
    });
    // Whatever the reader does in the widget brings an idle loop's frames back at once.
    for (const type of ["pointerdown", "pointermove", "keydown", "input", "change", "click", "wheel", "focusin"]) {
      this.root.addEventListener(type, () => this.wake(), { capture: true, passive: true });
    }
    if (this.viewName === "present") {
      // The presentation's keys, from load and whatever has focus (a clicker's).
      document.addEventListener("keydown", (e) => this.onKey(e), true);
    } else {
      // Keys while focus is inside this widget (the arrows still scroll the page around it).
      this.root.addEventListener("keydown", (e) => this.onKey(e));
      // With nothing focused, from load, where the page is this widget: the lab, an embed.
      const ownsPage = this.syncUrl && ((this.viewName === "lab" && document.body.classList.contains("mp-lab-page")) || (this.embedView && !this.embedded));
      if (ownsPage) {
        document.addEventListener("keydown", (e) => {
          const t = e.target;
          if (t === document.body || t === document.documentElement || t === null) this.onKey(e);
        });
      }
    }
    this.darkQuery.addEventListener("change", () => {
      this.wake();
      this.ex.set_dark(this.darkQuery.matches);
      this.emit("recolour", this.darkQuery.matches);
    });
    this.motionQuery.addEventListener("change", () => {
      this.wake();
      this.ex.set_reduced_motion(this.motionQuery.matches);
    });
    let lastW = this.root.clientWidth;
    let lastH = window.innerHeight;
    new ResizeObserver(() => {
      const w = this.root.clientWidth;
      if (w !== lastW || (this.embedView && window.innerHeight !== lastH)) {
        lastW = w;
        lastH = window.innerHeight;
        this.layout();
      }
    }).observe(this.root);
    if (this.embedView) {
      addEventListener("resize", () => {
        if (window.innerHeight !== lastH) {
          lastH = window.innerHeight;
          this.layout();
        }
      });
    }
    // The figure's canvas follows its box: in an embed, the box is what the text above and
    // below it leaves of the iframe's height; in the article, the figure keeps within a screen.
    const flex = this.flex;
    if (flex?.fillBox && this.fill) {
      let last = flex.fillBox.clientHeight;
      new ResizeObserver(() => {
        const h = flex.fillBox.clientHeight;
        if (Math.abs(h - last) < 1) return;
        last = h;
        this.wake();
        flex.layout();
      }).observe(flex.fillBox);
    } else if (flex && this.fitBox && this.viewName !== "lab" && this.viewName !== "present") {
      new ResizeObserver(() => this.fit()).observe(this.fitBox);
    }
    new IntersectionObserver((entries) => {
      for (const en of entries) this.setVisible(en.isIntersecting || document.fullscreenElement != null);
    }).observe(this.root);
    window.addEventListener("midpoint-panic", (e) => this.fatal(String(e.detail)));
  }

  /** On screen or not: off screen, playback pauses and nothing is drawn or computed. */
  setVisible(v) {
    if (v === this.visible) return;
    this.visible = v;
    if (this.dead || !this.ex) return;
    this.emit("visible", v);
    if (!v) {
      if (this.status?.mode === "playing") {
        this.ex.pause();
        this.offscreenPaused = true;
      }
      return;
    }
    if (this.offscreenPaused) {
      this.offscreenPaused = false;
      this.ex.play();
    }
    if (this.runs.pendingRun) this.runs.start();
    if (!this.looping) requestAnimationFrame(this.loop);
    else this.wake();
  }

  /** Counts and state for tests and curious readers (docs/testing.md, "The test surface"):
   *  `window.__midpoint.debug(i)`, or `debug()` on the widget's root element. Its reader
   *  (debug.js) is loaded on first use: undefined until then (the full page loads it at start,
   *  an embed only when asked, so that a reader of a blog post does not download it). */
  debug() {
    if (surface) return surface(this);
    loadSurface().then(() => this.wake());
    return undefined;
  }
}

// The explainer widget: glue between the DOM and the simulator. The logic (the simulation,
// the narration, URL checks, drawing) lives in Rust (src/ui/, bound in src/web/); this file wires it to buttons,
// sliders, animation frames and Web Workers. One MidpointApp per root element, no globals, so
// several can live on one page.
import * as mp from "../pkg/midpoint.js";

const KEYS_HELP =
  "Keyboard, once the figure has focus (click it or Tab to it): Space play/pause · ← → step back/forward · N next LRU batch · W watch a refill · + − speed · Home reset";

let nextId = 0;

const fmt = new Intl.NumberFormat("en-US");
const pct = (x) => (Number.isFinite(x) ? `${Math.round(x * 100)} %` : "–");

function el(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "class") e.className = v;
    else if (k === "text") e.textContent = v;
    else if (v !== undefined && v !== null && v !== false) e.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children) e.append(c);
  return e;
}

/** A small pool of module workers sharing one compiled WASM module. */
class Workers {
  constructor(module, url, type, onPanic) {
    this.module = module;
    this.url = url;
    this.type = type;
    this.onPanic = onPanic;
    this.nextId = 1;
  }
  spawn() {
    const w = new Worker(this.url, { type: this.type });
    w.postMessage({ type: "init", module: this.module });
    w.jobs = new Map();
    w.onmessage = (e) => {
      const m = e.data;
      if (m.type === "panic") return this.onPanic(m.message);
      if (m.type === "ready") return;
      const job = w.jobs.get(m.id);
      if (m.id === -1) return this.onPanic(m.message);
      if (!job) return;
      if (m.type === "progress") job.onProgress?.(m.frac);
      else {
        w.jobs.delete(m.id);
        if (m.type === "done") job.resolve(m);
        else job.reject(new Error(m.message));
      }
    };
    w.onerror = (e) => {
      e.preventDefault();
      for (const job of w.jobs.values()) job.reject(new Error(e.message || "worker error"));
      w.jobs.clear();
    };
    return w;
  }
  run(w, msg, onProgress) {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      w.jobs.set(id, { resolve, reject, onProgress });
      w.postMessage({ ...msg, id });
    });
  }
}

export class MidpointApp {
  constructor(root, { wasm, module, workerUrl, workerType = "module", base = null, embedded = false }) {
    this.root = root;
    this.wasm = wasm;
    this.base = base;
    this.embedded = embedded;
    this.id = `mp${nextId++}`;
    this.syncUrl = root.dataset.query === undefined;
    this.darkQuery = matchMedia("(prefers-color-scheme: dark)");
    this.motionQuery = matchMedia("(prefers-reduced-motion: reduce)");
    this.workers = new Workers(module, workerUrl ?? new URL("./worker.js", import.meta.url), workerType, (msg) => this.fatal(msg));
    this.pendingRun = false;
    this.offscreenPaused = false;
    this.tourIndex = null;
    this.tourSteps = mp.tour_steps();
    this.runWorker = null;
    this.runToken = 0;
    this.sweep = null;
    this.sweepCache = new Map();
    this.lastSeq = -1;
    this.visible = true;
    this.dead = false;
    this.resumeAfterSeek = false;
    this.lastResidency = { t: -1, at: 0 };
    this.status = null;

    const parsed = mp.parse_query(this.syncUrl ? location.search : root.dataset.query);
    this.params = parsed.params;
    this.presetName = parsed.preset ?? null;
    this.view = parsed;
    this.presets = mp.presets();
    this.embedView = !!parsed.embed || embedded;
    this.build();
    if (this.embedView) root.classList.add("mp-embed");
    this.showNotes(parsed.messages);
    this.newExplorer(0);
    this.renderControls(true);
    this.updatePresetUi();
    this.updateCli();
    this.resetSweep();
    this.writeUrl();
    this.scheduleRun(0);

    const autoplay = parsed.autoplay ?? !this.motionQuery.matches;
    if (parsed.tour) this.tourGo(parsed.tour - 1, false);
    else if (parsed.ev !== undefined && parsed.ev !== null) this.ex.seek_event(parsed.ev);
    else if (autoplay) this.ex.play();

    this.bindEvents();
    if (!this.embedView) this.write = new WritePath(this);
    this.loop = (t) => this.tick(t);
    requestAnimationFrame(this.loop);
  }

  // ---- DOM -------------------------------------------------------------------------------

  build() {
    const id = this.id;
    this.root.classList.add("mp");
    this.root.innerHTML = `
      <div class="mp-alert" role="alert" hidden></div>
      <div class="mp-notes" role="status" hidden>
        <p><strong>Some settings in the link could not be used as given:</strong></p>
        <ul></ul>
        <button type="button" class="mp-small" data-act="dismiss">Dismiss</button>
      </div>
      <section class="mp-card mp-figure" aria-labelledby="${id}-h1">
        <div class="mp-head">
          <h2 class="mp-h" id="${id}-h1">The buffer pool, frame by frame</h2>
          <div class="mp-headacts">
            <button type="button" class="mp-small" data-act="tour">Tell me the story</button>
            <a class="mp-full" target="_blank" rel="noopener" hidden>Open the full explainer <span aria-hidden="true">↗</span></a>
          </div>
        </div>
        <section class="mp-tour" aria-labelledby="${id}-tourh" hidden>
          <p class="mp-tour-count"></p>
          <h3 class="mp-tour-h" id="${id}-tourh" tabindex="-1"></h3>
          <p class="mp-tour-text"></p>
          <p class="mp-tour-look"></p>
          <div class="mp-tour-nav">
            <button type="button" data-act="tour-back"><span aria-hidden="true">←</span> Back</button>
            <button type="button" data-act="tour-next" class="mp-primary">Next <span aria-hidden="true">→</span></button>
            <button type="button" class="mp-small" data-act="tour-end">Leave the tour</button>
          </div>
        </section>
        <div class="mp-toolbar" role="toolbar" aria-label="Simulation controls">
          <div class="mp-group">
            <button type="button" data-act="play" aria-keyshortcuts="Space"><span aria-hidden="true" class="mp-ico">▶</span> <span class="mp-lbl">Play</span></button>
            <button type="button" data-act="back" aria-keyshortcuts="ArrowLeft" title="Step back one event (←)"><span aria-hidden="true">◀</span> Back</button>
            <button type="button" data-act="step" aria-keyshortcuts="ArrowRight" title="Process one event (→)">Step <span aria-hidden="true">▶</span></button>
            <button type="button" data-act="batch" aria-keyshortcuts="N" title="Run at full speed to just before the next LRU batch (N)">Next LRU batch <span aria-hidden="true">»</span></button>
            <button type="button" data-act="watch" aria-keyshortcuts="W" class="mp-primary" title="Run to the next LRU batch, then show the refill and the drain in slow motion (W)">Watch a refill &amp; drain</button>
          </div>
          <div class="mp-group">
            <label class="mp-speed">Speed <select data-ctl="speed" aria-keyshortcuts="+ -"></select></label>
            <button type="button" data-act="reset" aria-keyshortcuts="Home">Reset</button>
          </div>
        </div>
        <div class="mp-clock"><span class="mp-t">t = 0 s</span><span class="mp-phase"></span><span class="mp-busy"></span></div>
        <p class="mp-narration"></p>
        <div class="mp-sr mp-live" aria-live="polite" aria-atomic="true"></div>
        <div class="mp-stage">
          <canvas class="mp-pool" tabindex="0" role="img" aria-label="The buffer pool: one cell per frame, from the head of the LRU list (top left) to its tail, then the free list. Keyboard shortcuts work when this is focused."></canvas>
          <div class="mp-tip" hidden></div>
        </div>
        <div class="mp-below">
          <ul class="mp-legend" aria-label="Legend">
            <li><span class="mp-sw mp-k1"></span>hot set</li>
            <li class="mp-rest" hidden><span class="mp-sw mp-k2"></span>rest of the hot table</li>
            <li><span class="mp-sw mp-k3"></span>scanned table</li>
            <li class="mp-filler" hidden><span class="mp-sw mp-k4"></span>filler table</li>
            <li><span class="mp-sw mp-k0"></span>free frame</li>
            <li><span class="mp-sw mp-k3 mp-old"></span>faded, hatched: old sublist</li>
            <li><span class="mp-sw mp-k3 mp-ry"></span>ringed: turned young by the boundary since the last LRU batch</li>
            <li><span class="mp-sw mp-k3 mp-old mp-ro"></span>pink ring: turned old by it (bulk demotion)</li>
            <li><span class="mp-sw mp-flash"></span>yellow: just now</li>
            <li><span class="mp-line"></span><code>LRU_old</code>, the boundary</li>
          </ul>
          <dl class="mp-counters">
            <div><dt>Hot set resident</dt><dd data-k="hot">–</dd></div>
            <div><dt>Free list</dt><dd data-k="free">–</dd></div>
            <div><dt>LRU list / old pages</dt><dd data-k="lru">–</dd></div>
            <div><dt>Scanned table, young</dt><dd data-k="scany">–</dd></div>
            <div><dt title="InnoDB's counter: old pages promoted on access">Pages made young <sup>*</sup></dt><dd data-k="my">–</dd></div>
            <div><dt title="InnoDB's counter: old-page touches that failed the time test">Pages not made young <sup>*</sup></dt><dd data-k="nmy">–</dd></div>
            <div><dt title="Pages whose old flag the boundary cleared (and, since the last LRU batch, how many are ringed)">Turned young by the slide</dt><dd data-k="slid">–</dd></div>
            <div><dt>Refills (LRU batches)</dt><dd data-k="refills">–</dd></div>
          </dl>
          <p class="mp-foot"><sup>*</sup> InnoDB's <code>Pages made young</code> / <code>not young</code> (<code>SHOW ENGINE INNODB STATUS</code>). Neither counts the pages the boundary turns young, nor young pages moved back to the head (<span data-k="ymh">–</span> so far): the leak is invisible in <code>youngs/s</code>.</p>
        </div>
      </section>
      <section class="mp-card mp-settings" aria-labelledby="${id}-h2">
        <h2 class="mp-h" id="${id}-h2">Settings</h2>
        <div class="mp-presetrow">
          <label for="${id}-preset">Preset</label>
          <select id="${id}-preset" data-ctl="preset"></select>
          <p class="mp-preset-desc"></p>
        </div>
        <div class="mp-sliders"></div>
        <p class="mp-cli">The same run on the command line: <code></code></p>
        <p class="mp-share"><button type="button" class="mp-small" data-act="copy">Copy a link to this view</button> <button type="button" class="mp-small" data-act="embed" aria-haspopup="dialog">Embed…</button> <span class="mp-copied" role="status"></span></p>
        <dialog class="mp-dialog" aria-labelledby="${id}-embh">
          <h2 class="mp-h" id="${id}-embh">Embed this view</h2>
          <p>Both snippets carry every parameter of the current state, so the embed keeps showing this run even if the defaults change.</p>
          <label for="${id}-emb-iframe">An <code>&lt;iframe&gt;</code> (works anywhere HTML is allowed)</label>
          <textarea id="${id}-emb-iframe" class="mp-snippet" readonly rows="4" spellcheck="false"></textarea>
          <p class="mp-dlgrow"><button type="button" class="mp-small" data-act="copy-iframe">Copy the iframe</button> <span class="mp-copied-iframe" role="status"></span></p>
          <label for="${id}-emb-el">A custom element (one script per page; several figures can share it)</label>
          <textarea id="${id}-emb-el" class="mp-snippet" readonly rows="8" spellcheck="false"></textarea>
          <p class="mp-dlgrow"><button type="button" class="mp-small" data-act="copy-element">Copy the element</button> <span class="mp-copied-element" role="status"></span></p>
          <p class="mp-dlgrow"><button type="button" data-act="embed-close">Close</button></p>
        </dialog>
      </section>
      <section class="mp-card mp-plots" aria-label="Plots">
        <figure class="mp-plot">
          <canvas class="mp-residency" role="img" aria-label="Plot: hot-set residency and the scanned table's young pages over the run, with a cursor at the current time"></canvas>
          <figcaption><p class="mp-runcap">Computing the full run…</p>
            <p class="mp-export"><button type="button" class="mp-small" data-act="csv-run" disabled>Download CSV</button> <button type="button" class="mp-small" data-act="png-run">Download PNG</button></p>
            <details class="mp-data" data-table="run"><summary>The plot's data as a table</summary><div class="mp-tablebox"></div></details>
          </figcaption>
        </figure>
        <figure class="mp-plot">
          <canvas class="mp-sweep" role="img" aria-label="Plot: hot set kept against innodb_lru_scan_depth, one line per innodb_old_blocks_time"></canvas>
          <figcaption>
            <div class="mp-sweepbar">
              <button type="button" data-act="sweep">Run the sweep</button>
              <button type="button" data-act="cancel" hidden>Cancel</button>
              <progress class="mp-progress" max="1" value="0" hidden></progress>
              <span class="mp-sweepmsg" role="status"></span>
            </div>
            <p class="mp-sweepnote"></p>
            <p class="mp-export"><button type="button" class="mp-small" data-act="csv-sweep" disabled>Download CSV</button> <button type="button" class="mp-small" data-act="png-sweep">Download PNG</button></p>
            <details class="mp-data" data-table="sweep"><summary>The plot's data as a table</summary><div class="mp-tablebox"></div></details>
          </figcaption>
        </figure>
      </section>
      <p class="mp-keys">${KEYS_HELP}</p>`;
    const $ = (s) => this.root.querySelector(s);
    this.el = {
      alert: $(".mp-alert"),
      notes: $(".mp-notes"),
      notesList: $(".mp-notes ul"),
      play: $('[data-act="play"]'),
      back: $('[data-act="back"]'),
      step: $('[data-act="step"]'),
      batch: $('[data-act="batch"]'),
      watch: $('[data-act="watch"]'),
      reset: $('[data-act="reset"]'),
      speed: $('[data-ctl="speed"]'),
      t: $(".mp-t"),
      phase: $(".mp-phase"),
      busy: $(".mp-busy"),
      narration: $(".mp-narration"),
      live: $(".mp-live"),
      stage: $(".mp-stage"),
      pool: $(".mp-pool"),
      tip: $(".mp-tip"),
      counters: Object.fromEntries(
        [...this.root.querySelectorAll("[data-k]")].map((d) => [d.dataset.k, d]),
      ),
      legendRest: $(".mp-rest"),
      legendFiller: $(".mp-filler"),
      preset: $('[data-ctl="preset"]'),
      presetDesc: $(".mp-preset-desc"),
      sliders: $(".mp-sliders"),
      cli: $(".mp-cli code"),
      residency: $(".mp-residency"),
      runcap: $(".mp-runcap"),
      sweep: $(".mp-sweep"),
      sweepBtn: $('[data-act="sweep"]'),
      cancelBtn: $('[data-act="cancel"]'),
      progress: $(".mp-progress"),
      sweepMsg: $(".mp-sweepmsg"),
      sweepNote: $(".mp-sweepnote"),
      tourBtn: $('[data-act="tour"]'),
      full: $(".mp-full"),
      tour: $(".mp-tour"),
      tourCount: $(".mp-tour-count"),
      tourH: $(".mp-tour-h"),
      tourText: $(".mp-tour-text"),
      tourLook: $(".mp-tour-look"),
      tourBack: $('[data-act="tour-back"]'),
      tourNext: $('[data-act="tour-next"]'),
      embedBtn: $('[data-act="embed"]'),
      dialog: $(".mp-dialog"),
      snipIframe: $(`#${id}-emb-iframe`),
      snipEl: $(`#${id}-emb-el`),
      csvRun: $('[data-act="csv-run"]'),
      csvSweep: $('[data-act="csv-sweep"]'),
      runTable: $('[data-table="run"]'),
      sweepTable: $('[data-table="sweep"]'),
    };
    if (!this.base) this.el.embedBtn.hidden = true;
    if (this.embedView && this.base) this.el.full.hidden = false;
    this.ctx = this.el.pool.getContext("2d");
    for (const [i, label] of mp.Explorer.speed_labels().entries()) {
      this.el.speed.append(el("option", { value: i, text: label }));
    }
    // Presets: the seed's main cells first.
    const main = el("optgroup", { label: "Seed 000 and a demo" });
    const more = el("optgroup", { label: "More presets" });
    const custom = el("option", { value: "", text: "(custom settings)" });
    this.el.preset.append(custom, main, more);
    for (const p of this.presets) {
      const text = p.seed ? `${p.name} (seed: ${p.seed_short} kept)` : p.name;
      (p.main ? main : more).append(el("option", { value: p.name, text }));
    }
  }

  renderControls(rebuild) {
    const controls = mp.controls(this.params);
    const box = this.el.sliders;
    const sig = controls.map((c) => c.key + ":" + c.stops.map((s) => s.value).join(",")).join("|");
    if (rebuild || sig !== this.controlsSig) {
      box.textContent = "";
      this.controlsSig = sig;
      this.controls = new Map();
      for (const c of controls) {
        const iid = `${this.id}-${c.key}`;
        const input = el("input", {
          type: "range",
          id: iid,
          min: 0,
          max: c.stops.length - 1,
          step: 1,
          value: c.index,
          "aria-describedby": `${iid}-help`,
          "data-key": c.key,
        });
        const out = el("output", { for: iid });
        const name = c.server_variable ? el("code", { text: c.name }) : document.createTextNode(c.name);
        const help = el("p", { class: "mp-help", id: `${iid}-help` }, `${c.help} `, el("span", { class: "mp-facts", text: c.facts }));
        const row = el(
          "div",
          { class: "mp-ctl" },
          el("div", { class: "mp-ctl-head" }, el("label", { for: iid }, name), out),
          input,
          help,
        );
        box.append(row);
        input.addEventListener("input", () => {
          const spec = this.controls.get(c.key).spec;
          const stop = spec.stops[Number(input.value)];
          out.textContent = stop.label;
          input.setAttribute("aria-valuetext", stop.label);
          this.setParam(c.key, stop.value);
        });
        this.controls.set(c.key, { input, out, spec: c });
      }
    }
    for (const c of controls) {
      const k = this.controls.get(c.key);
      k.spec = c;
      if (Number(k.input.value) !== c.index) k.input.value = c.index;
      k.out.textContent = c.value_label;
      k.input.setAttribute("aria-valuetext", c.value_label);
    }
  }

  // ---- parameters, URL -------------------------------------------------------------------

  /** The preset these parameters are, if any (the one named in the URL first). */
  samePreset() {
    const q = mp.params_query(this.params);
    if (this.presetKey === q) return this.presetHit;
    const named = this.presets.find((x) => x.name === this.presetName);
    const hit =
      (named && mp.params_query(named.params) === q ? named : null) ??
      this.presets.find((x) => x.main && mp.params_query(x.params) === q) ??
      this.presets.find((x) => mp.params_query(x.params) === q) ??
      null;
    this.presetKey = q;
    this.presetHit = hit;
    return hit;
  }

  updatePresetUi() {
    const p = this.samePreset();
    this.el.preset.value = p ? p.name : "";
    if (p) {
      this.el.presetDesc.textContent = `${p.description}.${p.seed ? ` Seed 000 measured: ${p.seed} of the hot set kept.` : ""}`;
    } else {
      this.el.presetDesc.textContent =
        "Custom settings: no seed-000 figure to compare with. Pick a preset to reproduce one of the seed's cells.";
    }
    this.el.legendRest.hidden = this.params.hot_pages >= this.params.hot_table_pages;
    this.el.legendFiller.hidden = this.params.start !== "cold";
  }

  updateCli() {
    const def = mp.parse_query("").params;
    const defPairs = new URLSearchParams(mp.params_query(def));
    const pairs = new URLSearchParams(mp.params_query(this.params));
    const p = this.samePreset();
    let base = def;
    let cmd = "midpoint run";
    if (p) {
      cmd += ` --preset ${p.name}`;
      base = p.params;
    }
    const basePairs = new URLSearchParams(mp.params_query(base));
    for (const [k, v] of pairs) {
      if (basePairs.get(k) !== v) cmd += ` --${k.replaceAll("_", "-")} ${v}`;
    }
    void defPairs;
    this.el.cli.textContent = cmd;
  }

  /** View options of the current state: the paused moment and a custom sweep. */
  viewQuery() {
    const parts = [];
    if (this.tourIndex === null && this.status && this.status.mode === "paused" && this.status.events > 0) parts.push(`ev=${this.status.events}`);
    if (this.view.sweep_custom) {
      parts.push(`sweep_depths=${this.view.sweep_depths.join(",")}`, `sweep_times=${this.view.sweep_times.join(",")}`);
    }
    return parts.join("&");
  }

  /** The embed snippets and the full page's URL for the current state (null without a base). */
  snippets() {
    if (!this.base) return null;
    return mp.embed_snippets(
      this.params,
      this.samePreset()?.name ?? "",
      this.viewQuery(),
      new URL("index.html", this.base).href,
      new URL("embed.js", this.base).href,
    );
  }

  writeUrl() {
    if (this.embedView && this.base) this.el.full.href = this.snippets().page;
    if (!this.syncUrl) return;
    let q = mp.params_query(this.params);
    const p = this.samePreset();
    if (p) q = `preset=${encodeURIComponent(p.name)}&${q}`;
    if (this.view.embed) q += "&embed=1";
    if (this.tourIndex !== null) q += `&tour=${this.tourIndex + 1}`;
    const vq = this.viewQuery();
    if (vq) q += `&${vq}`;
    const url = `${location.pathname}?${q}${location.hash}`;
    if (url !== `${location.pathname}${location.search}${location.hash}`) {
      history.replaceState(history.state, "", url);
    }
  }

  setParam(key, value) {
    const r = mp.set_param(this.params, key, value);
    this.params = r.params;
    if (r.messages.length) this.showNotes(r.messages);
    this.applyParams(true);
  }

  applyParams(keepTime) {
    const t = keepTime && this.ex ? this.ex.t_s() : 0;
    const playing = this.status?.mode === "playing";
    this.newExplorer(t);
    this.resumeAfterSeek = playing && t > 0;
    if (playing && t <= 0) this.ex.play();
    this.renderControls(false);
    this.updatePresetUi();
    this.updateCli();
    this.resetSweep();
    this.writeUrl();
    this.scheduleRun(250);
  }

  newExplorer(t) {
    try {
      this.ex?.free();
      this.ex = new mp.Explorer(this.params);
    } catch (e) {
      this.fatal(`could not start the simulation: ${e?.message ?? e}`);
      return;
    }
    this.ex.set_dark(this.darkQuery.matches);
    this.ex.set_reduced_motion(this.motionQuery.matches);
    this.run = null;
    this.runCsv = null;
    if (this.el.csvRun) this.el.csvRun.disabled = true;
    this.layout();
    if (t > 0) this.ex.seek_time(t);
    this.lastSeq = -1;
    this.dirtyResidency = true;
  }

  showNotes(messages) {
    if (!messages?.length) return;
    for (const m of messages) this.el.notesList.append(el("li", { text: m }));
    this.el.notes.hidden = false;
  }

  fatal(msg) {
    if (this.dead) return;
    this.dead = true;
    this.el.alert.hidden = false;
    this.el.alert.textContent = `Something went wrong inside the simulator: ${msg}. It has stopped; reload the page to start again.`;
    this.root.classList.add("mp-dead");
    this.stopSweep();
    this.runWorker?.terminate();
    this.write?.stop();
  }

  // ---- layout and drawing ----------------------------------------------------------------

  layout() {
    const dpr = Math.min(window.devicePixelRatio || 1, 3);
    const css = this.el.stage.clientWidth || 800;
    const maxCss = Math.max(220, Math.min(window.innerHeight * 0.62, 560));
    const h = this.ex.resize(Math.round(css * dpr), Math.round(maxCss * dpr), dpr);
    const c = this.el.pool;
    c.width = Math.round(css * dpr);
    c.height = h;
    c.style.width = `${css}px`;
    c.style.height = `${h / dpr}px`;
    // The plots lay out at least 500 CSS pixels wide and scale down below that, so that their
    // labels never collide on a phone.
    const w = this.el.residency.parentElement.clientWidth || 500;
    const logical = Math.max(w, 500);
    this.plotScale = (dpr * w) / logical;
    for (const cv of [this.el.residency, this.el.sweep]) {
      const hh = Math.round(Math.min(360, Math.max(250, logical * 0.56)) * (w / logical));
      cv.width = Math.round(w * dpr);
      cv.height = Math.round(hh * dpr);
      cv.style.width = `${w}px`;
      cv.style.height = `${hh}px`;
    }
    this.dpr = dpr;
    this.dirtyResidency = true;
    this.drawSweep();
    this.write?.drawAll();
  }

  drawResidency() {
    try {
      this.ex.draw_residency(this.el.residency, this.plotScale, this.darkQuery.matches);
    } catch (e) {
      this.fatal(`drawing the residency plot failed: ${e?.message ?? e}`);
    }
  }

  drawSweep() {
    if (!this.sweepView) return;
    this.el.csvSweep.disabled = this.sweepView.done() === 0;
    if (this.el.sweepTable.open) this.fillTables();
    try {
      this.sweepView.draw(this.el.sweep, this.plotScale, this.params.lru_scan_depth, this.params.old_blocks_time, this.darkQuery.matches);
    } catch (e) {
      this.fatal(`drawing the sweep failed: ${e?.message ?? e}`);
    }
  }

  tick(t) {
    if (this.dead) return;
    if (!this.visible) {
      // Off screen: no frames at all until the IntersectionObserver sees it again.
      this.looping = false;
      return;
    }
    this.looping = true;
    requestAnimationFrame(this.loop);
    try {
      const flags = this.ex.frame(t);
      if (flags & 1) this.ex.draw(this.ctx);
      if (flags & 2 || !this.status) this.updateStatus();
      const now = performance.now();
      const cursor = this.status.t_s;
      const moved = Math.abs(cursor - this.lastResidency.t) > (this.status.end_s || 1) / 400;
      if (this.dirtyResidency || (moved && now - this.lastResidency.at > 120)) {
        this.drawResidency();
        this.lastResidency = { t: cursor, at: now };
        this.dirtyResidency = false;
      }
    } catch (e) {
      this.fatal(e?.message ?? String(e));
    }
  }

  updateStatus() {
    const prev = this.status;
    const s = this.ex.status();
    this.status = s;
    const e = this.el;
    const set = (node, text) => {
      if (node.textContent !== text) node.textContent = text;
    };
    set(e.t, `t = ${s.t_s.toFixed(s.mode === "playing" && s.speed_index >= 4 ? 1 : 4)} s`);
    set(
      e.phase,
      s.phase === "warm-up"
        ? ` · warm-up: lookups only; the scan starts at ${s.scan_start_s} s`
        : s.phase === "scan"
          ? ` · scan phase (ends at ${s.end_s} s)`
          : " · the run is over",
    );
    set(e.busy, s.busy ? ` · ${s.busy}` : "");
    set(e.narration, s.narration);
    if (s.seq !== this.lastSeq) {
      this.lastSeq = s.seq;
      set(e.live, s.narration);
    }
    const c = e.counters;
    set(c.hot, `${fmt.format(s.hot_resident)} / ${fmt.format(s.hot_pages)} · ${pct(s.hot_resident / Math.max(1, s.hot_pages))}`);
    set(c.free, fmt.format(s.free));
    set(c.lru, `${fmt.format(s.lru)} / ${fmt.format(s.old)}`);
    set(c.scany, fmt.format(s.scan_young));
    set(c.my, fmt.format(s.made_young));
    set(c.nmy, fmt.format(s.not_made_young));
    set(c.slid, `${fmt.format(s.slid_young)} · ${fmt.format(s.marked_young)} ringed`);
    set(c.refills, fmt.format(s.refills));
    set(c.ymh, fmt.format(s.young_moved_to_head));
    const playing = s.mode === "playing";
    const busy = s.mode === "seeking" || s.mode === "watching";
    set(e.play.querySelector(".mp-lbl"), playing || busy ? "Pause" : "Play");
    set(e.play.querySelector(".mp-ico"), playing || busy ? "❚❚" : "▶");
    e.play.disabled = s.ended && !busy;
    e.step.disabled = s.ended;
    e.back.disabled = !s.can_back;
    e.batch.disabled = s.ended;
    e.watch.disabled = s.ended;
    if (Number(e.speed.value) !== s.speed_index) e.speed.value = s.speed_index;
    this.root.dataset.mode = s.mode;
    if (prev && prev.mode !== s.mode && prev.mode === "seeking" && s.mode === "paused" && this.resumeAfterSeek) {
      this.resumeAfterSeek = false;
      this.ex.play();
    }
    // The URL records the moment while paused (debounced: holding → steps quickly).
    if (prev && (prev.mode !== s.mode || (s.mode === "paused" && prev.events !== s.events))) {
      clearTimeout(this.urlTimer);
      this.urlTimer = setTimeout(() => this.writeUrl(), 200);
    }
  }

  // ---- full run and sweep (workers) ------------------------------------------------------

  scheduleRun(delay) {
    clearTimeout(this.runTimer);
    this.el.runcap.textContent = "Computing the full run…";
    this.runTimer = setTimeout(() => this.startRun(), delay);
  }

  async startRun() {
    // An embed off screen does no work: the run starts when it scrolls into view.
    if (!this.visible) {
      this.pendingRun = true;
      return;
    }
    this.pendingRun = false;
    const token = ++this.runToken;
    if (this.runWorker?.jobs.size) {
      this.runWorker.terminate();
      this.runWorker = null;
    }
    this.runWorker ??= this.workers.spawn();
    const params = this.params;
    try {
      const m = await this.workers.run(this.runWorker, { kind: "run", params, maxPoints: 1500 }, (frac) => {
        if (token === this.runToken) this.el.runcap.textContent = `Computing the full run… ${Math.round(frac * 100)} %`;
      });
      if (token !== this.runToken || this.dead) return;
      this.run = m.result;
      this.runCsv = m.csv;
      this.el.csvRun.disabled = !m.csv;
      this.ex.set_run(m.result);
      this.dirtyResidency = true;
      this.captionRun(m);
    } catch (err) {
      if (token === this.runToken && !this.dead) this.el.runcap.textContent = `The full run failed: ${err.message}`;
    }
  }

  captionRun(m) {
    const r = m.result;
    const p = this.samePreset();
    const seed = p?.seed ? ` Seed 000 measured ${p.seed}.` : p ? "" : " (Custom settings: no seed figure to compare.)";
    const w = r.kept_window_s;
    this.el.runcap.textContent = "";
    this.el.runcap.append(
      el("strong", { text: `Kept: ${pct(r.kept)}` }),
      ` of the hot set on average over ${Math.round(w[0])}–${Math.round(w[1])} s.${seed} ` +
        `Scan pages turned young: ${r.slid_young_per_s.toFixed(1)}/s by the slide, ${r.promoted_per_s.toFixed(1)}/s by promotion; ` +
        `${fmt.format(r.refills_during_scan)} refills during the scan (mean ${fmt.format(Math.round(r.mean_refill_pages))} pages); ` +
        `lookups ${fmt.format(Math.round(r.lookups_per_s_warmup))}/s before the scan, ${fmt.format(Math.round(r.lookups_per_s))}/s during it. ` +
        `(${fmt.format(r.page_accesses)} page accesses, computed in ${(m.ms / 1000).toFixed(1)} s in a worker.)`,
    );
    this.fillTables();
  }

  sweepKey() {
    const p = { ...this.params, lru_scan_depth: 0, old_blocks_time: 0 };
    return `${mp.params_query(p)}|${this.view.sweep_depths}|${this.view.sweep_times}`;
  }

  resetSweep() {
    const key = this.sweepKey();
    if (this.sweep && this.sweep.key === key) {
      this.drawSweep();
      return;
    }
    this.stopSweep(true);
    let entry = this.sweepCache.get(key);
    if (!entry) {
      entry = { view: new mp.SweepView(this.view.sweep_depths, this.view.sweep_times), done: 0, ms: 0 };
      this.sweepCache.set(key, entry);
    }
    this.sweepKeyNow = key;
    this.sweepView = entry.view;
    const total = this.view.sweep_depths.length * this.view.sweep_times.length;
    const done = entry.view.done();
    this.el.sweepBtn.textContent = done === total ? "Run again" : done ? "Resume the sweep" : "Run the sweep";
    this.el.sweepMsg.textContent = done ? `${done} of ${total} points${entry.ms ? `, ${(entry.ms / 1000).toFixed(0)} s` : ""}` : "";
    this.el.sweepNote.textContent =
      `Each point is a full run of these settings (${fmt.format(this.params.warmup_s + this.params.scan_s)} simulated seconds) with one ` +
      `innodb_lru_scan_depth and innodb_old_blocks_time; ${total} runs in ${this.sweepWorkers()} background worker${this.sweepWorkers() > 1 ? "s" : ""}. ` +
      `The ring marks the current setting. Where lines coincide, the later ones hide the earlier ones.`;
    this.drawSweep();
  }

  sweepWorkers() {
    return Math.max(1, Math.min(4, navigator.hardwareConcurrency || 2));
  }

  startSweep() {
    if (this.sweep) return;
    const key = this.sweepKey();
    const entry = this.sweepCache.get(key);
    const total = this.view.sweep_depths.length * this.view.sweep_times.length;
    if (entry.view.done() === total) {
      entry.view = new mp.SweepView(this.view.sweep_depths, this.view.sweep_times);
      entry.ms = 0;
      entry.done_points = [];
      this.sweepView = entry.view;
    }
    // Depth-major order: every line grows from the left together.
    const queue = [];
    for (const d of this.view.sweep_depths) for (const t of this.view.sweep_times) queue.push([d, t]);
    const have = new Set(entry.done_points ?? []);
    const todo = queue.filter(([d, t]) => !have.has(`${d}/${t}`));
    const n = Math.min(this.sweepWorkers(), todo.length);
    const sw = { key, entry, todo, total, workers: [], started: performance.now(), msSum: 0, count: 0, params: this.params };
    this.sweep = sw;
    entry.done_points ??= [];
    this.el.sweepBtn.hidden = true;
    this.el.cancelBtn.hidden = false;
    this.el.progress.hidden = false;
    this.el.progress.max = total;
    this.el.progress.value = entry.view.done();
    this.el.sweepMsg.textContent = `Starting ${n} worker${n > 1 ? "s" : ""}…`;
    for (let i = 0; i < n; i++) {
      const w = this.workers.spawn();
      sw.workers.push(w);
      this.sweepNext(sw, w);
    }
  }

  async sweepNext(sw, w) {
    while (this.sweep === sw && sw.todo.length) {
      const [depth, time] = sw.todo.shift();
      try {
        const m = await this.workers.run(w, { kind: "sweep", params: sw.params, depth, time });
        if (this.sweep !== sw) return;
        sw.entry.view.set_point(m.result);
        sw.entry.done_points.push(`${depth}/${time}`);
        sw.msSum += m.ms;
        sw.count += 1;
        const done = sw.entry.view.done();
        this.el.progress.value = done;
        const left = sw.total - done;
        const eta = ((sw.msSum / sw.count) * left) / sw.workers.length / 1000;
        this.el.sweepMsg.textContent = left
          ? `${done} of ${sw.total} points · about ${Math.max(1, Math.round(eta))} s left`
          : `${done} of ${sw.total} points`;
        if (this.sweepKeyNow === sw.key) this.drawSweep();
        if (!left) this.finishSweep(sw);
      } catch (err) {
        if (this.sweep === sw) {
          this.stopSweep();
          this.el.sweepMsg.textContent = `The sweep failed: ${err.message}`;
        }
        return;
      }
    }
  }

  finishSweep(sw) {
    sw.entry.ms = performance.now() - sw.started;
    this.stopSweep(true);
    this.el.sweepMsg.textContent = `${sw.total} of ${sw.total} points in ${(sw.entry.ms / 1000).toFixed(1)} s`;
    this.el.sweepBtn.textContent = "Run again";
    this.lastSweepMs = sw.entry.ms;
  }

  stopSweep(quiet) {
    const sw = this.sweep;
    if (!sw) return;
    this.sweep = null;
    for (const w of sw.workers) w.terminate();
    this.el.sweepBtn.hidden = false;
    this.el.cancelBtn.hidden = true;
    this.el.progress.hidden = true;
    if (!quiet) {
      const done = sw.entry.view.done();
      this.el.sweepMsg.textContent = `Cancelled at ${done} of ${sw.total} points.`;
      this.el.sweepBtn.textContent = "Resume the sweep";
    }
  }

  // ---- events ----------------------------------------------------------------------------

  act(name) {
    const ex = this.ex;
    if (this.dead) return;
    switch (name) {
      case "play": {
        const m = this.status?.mode;
        if (m === "paused") ex.play();
        else ex.pause();
        break;
      }
      case "step":
        ex.step();
        break;
      case "back":
        ex.step_back();
        break;
      case "batch":
        ex.next_batch();
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
      case "dismiss":
        this.el.notes.hidden = true;
        this.el.notesList.textContent = "";
        return;
      case "sweep":
        this.startSweep();
        return;
      case "copy":
        this.copyLink();
        return;
      case "cancel":
        this.stopSweep();
        return;
      case "tour":
        this.tourGo(0, true);
        return;
      case "tour-next":
        if (this.tourIndex !== null && this.tourIndex + 1 < this.tourSteps.length) this.tourGo(this.tourIndex + 1, true);
        return;
      case "tour-back":
        if (this.tourIndex) this.tourGo(this.tourIndex - 1, true);
        return;
      case "tour-end":
        this.tourEnd();
        return;
      case "embed":
        this.openEmbed();
        return;
      case "embed-close":
        this.el.dialog.close();
        return;
      case "copy-iframe":
        this.copyText(this.el.snipIframe.value, ".mp-copied-iframe");
        return;
      case "copy-element":
        this.copyText(this.el.snipEl.value, ".mp-copied-element");
        return;
      case "csv-run":
        if (this.runCsv) this.download(`${this.fileStem()}-run.csv`, new Blob([this.runCsv], { type: "text/csv" }));
        return;
      case "csv-sweep":
        this.download(`${this.fileStem()}-sweep.csv`, new Blob([this.sweepView.to_csv(this.params)], { type: "text/csv" }));
        return;
      case "png-run":
        this.downloadCanvas(this.el.residency, `${this.fileStem()}-residency.png`);
        return;
      case "png-sweep":
        this.downloadCanvas(this.el.sweep, `${this.fileStem()}-sweep.png`);
        return;
      default:
        return;
    }
    this.updateStatus();
  }

  bindEvents() {
    this.root.addEventListener("click", (e) => {
      const b = e.target.closest("button[data-act]");
      if (b && this.root.contains(b)) this.act(b.dataset.act);
    });
    this.el.speed.addEventListener("change", () => {
      this.ex.set_speed(Number(this.el.speed.value));
      this.updateStatus();
    });
    this.el.preset.addEventListener("change", () => {
      const name = this.el.preset.value;
      const p = this.presets.find((x) => x.name === name);
      if (!p) return;
      this.presetName = p.name;
      this.presetKey = null;
      this.params = p.params;
      this.applyParams(false);
      this.renderControls(true);
    });
    // Keyboard shortcuts: only while focus is inside this widget (not in a slider or a
    // select), so that Space and the arrows still scroll the page around it.
    this.root.addEventListener("keydown", (e) => this.onKey(e));
    // Tooltip over the grid.
    this.el.pool.addEventListener("pointermove", (e) => {
      const r = this.el.pool.getBoundingClientRect();
      const x = (e.clientX - r.left) * this.dpr;
      const y = (e.clientY - r.top) * this.dpr;
      const text = this.ex.describe_cell(x, y);
      const tip = this.el.tip;
      if (!text) {
        tip.hidden = true;
        return;
      }
      tip.textContent = text;
      tip.hidden = false;
      const sr = this.el.stage.getBoundingClientRect();
      const left = Math.min(e.clientX - sr.left + 12, sr.width - tip.offsetWidth - 4);
      tip.style.left = `${Math.max(0, left)}px`;
      tip.style.top = `${e.clientY - sr.top + 14}px`;
    });
    this.el.pool.addEventListener("pointerleave", () => (this.el.tip.hidden = true));
    // Theme, motion, size, visibility.
    this.darkQuery.addEventListener("change", () => {
      this.ex.set_dark(this.darkQuery.matches);
      this.dirtyResidency = true;
      this.drawSweep();
      this.write?.drawAll();
    });
    this.motionQuery.addEventListener("change", () => this.ex.set_reduced_motion(this.motionQuery.matches));
    let lastW = this.el.stage.clientWidth;
    new ResizeObserver(() => {
      const w = this.el.stage.clientWidth;
      if (w !== lastW) {
        lastW = w;
        this.layout();
      }
    }).observe(this.el.stage);
    new IntersectionObserver((entries) => {
      for (const en of entries) this.setVisible(en.isIntersecting || document.fullscreenElement != null);
    }).observe(this.root);
    for (const d of [this.el.runTable, this.el.sweepTable]) d.addEventListener("toggle", () => d.open && this.fillTables());
    this.el.dialog.addEventListener("close", () => this.el.embedBtn.focus());
    window.addEventListener("midpoint-panic", (e) => this.fatal(String(e.detail)));
  }

  onKey(e) {
    if (e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey) return;
    const t = e.target;
    const tag = t?.tagName;
    if (tag === "INPUT" || tag === "SELECT" || tag === "TEXTAREA") return;
    const onButton = tag === "BUTTON";
    let act = null;
    switch (e.key) {
      case " ":
      case "Spacebar":
        if (!onButton) act = "play";
        break;
      case "ArrowRight":
        act = e.shiftKey ? "batch" : "step";
        break;
      case "ArrowLeft":
        act = "back";
        break;
      case "n":
      case "N":
        act = "batch";
        break;
      case "w":
      case "W":
        act = "watch";
        break;
      case "+":
      case "=":
        act = "faster";
        break;
      case "-":
      case "_":
        act = "slower";
        break;
      case "Home":
        act = "reset";
        break;
    }
    if (act) {
      e.preventDefault();
      e.stopPropagation();
      this.act(act);
    }
  }

  async copyLink() {
    this.writeUrl();
    let url = location.href;
    if (!this.syncUrl) {
      const u = new URL(location.href);
      u.search = mp.params_query(this.params);
      url = u.href;
    }
    const out = this.root.querySelector(".mp-copied");
    try {
      await navigator.clipboard.writeText(url);
      out.textContent = this.status?.mode === "paused" && this.status.events > 0 ? "Copied: the link opens at this moment." : "Copied.";
    } catch {
      out.textContent = url;
    }
  }

  // ---- visibility ------------------------------------------------------------------------

  /** On screen or not: off screen, playback pauses and nothing is drawn or computed. */
  setVisible(v) {
    if (v === this.visible) return;
    this.visible = v;
    if (this.dead || !this.ex) return;
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
    if (this.pendingRun) this.startRun();
    this.dirtyResidency = true;
    if (!this.looping) requestAnimationFrame(this.loop);
  }

  // ---- the guided tour -------------------------------------------------------------------

  /** Sets the simulation up for tour step `i` (0-based) and shows its text. */
  tourGo(i, focus) {
    const step = this.tourSteps[i];
    if (!step || this.dead) return;
    this.tourIndex = i;
    const p = this.presets.find((x) => x.name === step.preset);
    this.presetName = step.preset;
    this.presetKey = null;
    this.params = p ? p.params : mp.parse_query(`preset=${step.preset}`).params;
    this.applyParams(false);
    this.renderControls(true);
    this.ex.pause();
    if (step.action === "time") this.ex.seek_time(step.t_s);
    else if (step.action === "batch") this.ex.next_batch();
    else if (step.action === "watch") this.ex.watch();
    const e = this.el;
    e.tour.hidden = false;
    e.tourBtn.hidden = true;
    e.tourCount.textContent = `The story, step ${i + 1} of ${this.tourSteps.length}`;
    e.tourH.textContent = step.title;
    e.tourText.textContent = step.text;
    e.tourLook.textContent = `Look: ${step.look}`;
    e.tourBack.disabled = i === 0;
    e.tourNext.disabled = i + 1 === this.tourSteps.length;
    this.root.dataset.tour = String(i + 1);
    this.updateStatus();
    this.writeUrl();
    if (focus) e.tourH.focus();
  }

  tourEnd() {
    this.tourIndex = null;
    delete this.root.dataset.tour;
    this.el.tour.hidden = true;
    this.el.tourBtn.hidden = false;
    this.el.tourBtn.focus();
    this.writeUrl();
  }

  // ---- embedding and export --------------------------------------------------------------

  openEmbed() {
    const s = this.snippets();
    if (!s) return;
    this.el.snipIframe.value = s.iframe;
    this.el.snipEl.value = s.element;
    for (const c of [".mp-copied-iframe", ".mp-copied-element"]) this.root.querySelector(c).textContent = "";
    this.el.dialog.showModal();
  }

  async copyText(text, outSel) {
    const out = this.root.querySelector(outSel);
    try {
      await navigator.clipboard.writeText(text);
      out.textContent = "Copied.";
    } catch {
      out.textContent = "Select the text above and copy it (the clipboard is not available here).";
    }
  }

  fileStem() {
    const p = this.samePreset();
    return `midpoint-${p ? p.name : "custom"}`;
  }

  download(name, blob) {
    const url = URL.createObjectURL(blob);
    const a = el("a", { href: url, download: name, hidden: true });
    this.root.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
  }

  downloadCanvas(canvas, name) {
    canvas.toBlob((b) => b && this.download(name, b), "image/png");
  }

  /** The plots' text alternative: tables of the residency samples and of the sweep points. */
  fillTables() {
    const hot = this.params.hot_pages;
    const runBox = this.el.runTable.querySelector(".mp-tablebox");
    if (this.el.runTable.open || !runBox.firstChild) {
      runBox.textContent = "";
      if (!this.run) runBox.append(el("p", { text: "The full run is still being computed." }));
      else {
        const pts = this.run.points;
        const every = Math.max(1, Math.ceil(pts.length / 60));
        const rows = pts.filter((_, i) => i % every === 0 || i === pts.length - 1);
        const t = el("table", { class: "mp-table" });
        t.append(
          el("caption", { text: `Hot-set residency over the run (${fmt.format(hot)} hot pages), every ${rows.length > 1 ? Math.round((rows[1].t - rows[0].t) * 10) / 10 : 0} s` }),
          el("thead", {}, el("tr", {}, ...["Time (s)", "Hot pages resident", "Share of the hot set", "Scanned-table pages young"].map((h) => el("th", { scope: "col", text: h })))),
        );
        const body = el("tbody");
        for (const q of rows) {
          body.append(el("tr", {}, el("td", { text: q.t.toFixed(1) }), el("td", { text: fmt.format(q.hot) }), el("td", { text: pct(q.hot / Math.max(1, hot)) }), el("td", { text: fmt.format(q.scan_young) })));
        }
        t.append(body);
        runBox.append(t);
      }
    }
    const sweepBox = this.el.sweepTable.querySelector(".mp-tablebox");
    if ((this.el.sweepTable.open || !sweepBox.firstChild) && this.sweepView) {
      sweepBox.textContent = "";
      const kept = this.sweepView.kept();
      const depths = this.view.sweep_depths;
      const times = this.view.sweep_times;
      const t = el("table", { class: "mp-table" });
      t.append(
        el("caption", { text: "Share of the hot set kept, by innodb_lru_scan_depth (rows) and innodb_old_blocks_time (columns); – not computed yet" }),
        el("thead", {}, el("tr", {}, el("th", { scope: "col", text: "lru_scan_depth" }), ...times.map((x) => el("th", { scope: "col", text: `old_blocks_time ${fmt.format(x)} ms` })))),
      );
      const body = el("tbody");
      depths.forEach((d, di) => {
        body.append(el("tr", {}, el("th", { scope: "row", text: fmt.format(d) }), ...times.map((_, ti) => el("td", { text: pct(kept[ti * depths.length + di]) }))));
      });
      t.append(body);
      sweepBox.append(t);
    }
  }

  /** Counts and state for tests and curious readers: `window.__midpoint.apps[0].debug()`. */
  debug() {
    const s = this.ex.status();
    const cells = new Uint8Array(this.wasm.memory.buffer, this.ex.cells_ptr(), this.ex.cells_len());
    let young = 0;
    let old = 0;
    let ringedYoung = 0;
    for (const b of cells) {
      if ((b & 7) === 0) continue;
      if (b & 8) old++;
      else young++;
      if ((b & 0x30) === 0x10) ringedYoung++;
    }
    return { ...s, cells: cells.length, young, oldCells: old, ringedYoung, hasRun: !!this.run, sweepMs: this.lastSweepMs ?? null };
  }
}

// ---- the write path ------------------------------------------------------------------------

const DEPTH_STOPS = [100, 128, 256, 312, 512, 1024, 2048, 4096, 8192];
const PAGES_STOPS = [4, 8, 16, 32, 64, 128, 256, 512];

const nearest = (stops, v) => stops.reduce((b, s, i) => (Math.abs(s - v) < Math.abs(stops[b] - v) ? i : b), 0);

/** The "Write path" section: a write preset run in a worker, instance 0's dirty pages at a few
 *  moments, the doublewrite buffers' writes, and the lru_scan_depth trade-off. */
export class WritePath {
  constructor(app) {
    this.app = app;
    this.workers = app.workers;
    this.presets = mp.write_presets();
    this.view = new mp.WriteView();
    this.token = 0;
    this.worker = null;
    this.depthJob = null;
    this.moment = 0;
    this.build();
    this.pick(this.presets[0].name);
    this.drawAll();
  }

  build() {
    const id = `${this.app.id}-w`;
    const sec = el("section", { class: "mp-card mp-write", "aria-labelledby": `${id}-h` });
    sec.innerHTML = `
      <h2 class="mp-h" id="${id}-h">Write path: dirty pages, the doublewrite buffer, and the scan depth</h2>
      <p class="mp-write-intro">The same core also models InnoDB's write path: sysbench write clients dirty pages,
        the page cleaner's LRU batch writes dirty tail pages through the doublewrite buffer before evicting them,
        the flush list is written by adaptive flushing, and a reader that finds no clean victim flushes a page itself
        and waits (<code>wait_free</code>). Pick a write preset and run it (in a background worker).</p>
      <div class="mp-presetrow">
        <label for="${id}-preset">Write preset</label>
        <select id="${id}-preset" data-wctl="preset"></select>
        <p class="mp-wpreset-desc"></p>
      </div>
      <div class="mp-sliders mp-wsliders"></div>
      <div class="mp-sweepbar">
        <button type="button" class="mp-primary" data-wact="run">Run</button>
        <progress class="mp-wprogress" max="1" value="0" hidden></progress>
        <span class="mp-wmsg" role="status"></span>
      </div>
      <dl class="mp-counters mp-wcounters">
        <div><dt>Doublewrite writes/s</dt><dd data-w="dblwr">–</dd></div>
        <div><dt>Mean doublewrite write latency</dt><dd data-w="lat">–</dd></div>
        <div><dt>Pages per doublewrite write</dt><dd data-w="ppw">–</dd></div>
        <div><dt><code>wait_free</code>/s</dt><dd data-w="wf">–</dd></div>
        <div><dt>Transactions/s</dt><dd data-w="tps">–</dd></div>
        <div><dt>Queries/s</dt><dd data-w="qps">–</dd></div>
      </dl>
      <div class="mp-wpool">
        <h3 class="mp-h3">Instance 0, frame by frame</h3>
        <div class="mp-wstage"><canvas class="mp-wcanvas" role="img" aria-label="Instance 0 of the buffer pool: frames in LRU order, clean, dirty or being written, old pages faded and hatched, then the free frames"></canvas></div>
        <div class="mp-ctl mp-wmoment">
          <div class="mp-ctl-head"><label for="${id}-moment">Moment of the run</label><output for="${id}-moment" class="mp-wmout">–</output></div>
          <input type="range" id="${id}-moment" min="0" max="0" step="1" value="0" disabled>
        </div>
        <ul class="mp-legend" aria-label="Legend of the write-path pool">
          <li><span class="mp-sw mp-wk1"></span>clean page</li>
          <li><span class="mp-sw mp-wk2"></span>dirty page (on the flush list)</li>
          <li><span class="mp-sw mp-wk3"></span>being written (io-fixed)</li>
          <li><span class="mp-sw mp-k0"></span>free frame</li>
          <li><span class="mp-sw mp-wk1 mp-old"></span>faded, hatched: old sublist</li>
        </ul>
      </div>
      <div class="mp-plots mp-wplots">
        <figure class="mp-plot">
          <canvas class="mp-wdblwr" role="img" aria-label="Plot: pages in each write of instance 0's LRU and flush-list doublewrite buffers over the run"></canvas>
          <figcaption class="mp-wdcap">Each marker is one write of a doublewrite buffer of instance 0 and how many pages it carried: a buffer is written when it is full, and once more, partly filled, at the end of each batch.</figcaption>
        </figure>
        <figure class="mp-plot">
          <canvas class="mp-wdepth" role="img" aria-label="Plot: transactions per second with and without a scan, and free-list waits per second, against innodb_lru_scan_depth"></canvas>
          <figcaption>
            <div class="mp-sweepbar">
              <button type="button" data-wact="depth">Compute the trade-off</button>
              <progress class="mp-dprogress" max="1" value="0" hidden></progress>
              <span class="mp-dmsg" role="status"></span>
            </div>
            <p>The write-heavy server of <code>writeheavy-depth-*</code> (oltp_read_write, 32 threads, a cloud volume, one 256 MiB instance) with a concurrent looping scan, one full run per depth, as <code>midpoint depth-sweep</code>.</p>
            <details class="mp-data"><summary>The plot's data as a table</summary><div class="mp-tablebox mp-dtable"></div></details>
          </figcaption>
        </figure>
      </div>
      <p class="mp-honest"><strong>What this reproduces, and what not.</strong> Seed 001 (MySQL bug #115328) compared
        <code>innodb_doublewrite_pages</code> 128 with 16: the simulator reproduces the doublewrite counters
        (bigger buffers, about 7.5× fewer doublewrite writes, each about 7× longer; the bug measured 8.3× and 9.7×),
        but not the throughput: the bug lost 6–13 % of its throughput with the larger buffer, the simulator gains a few
        per cent, most likely because its device serves requests strictly in order. The runs are scaled down
        (a 1 GiB pool in 8 instances, 20 virtual seconds), and the trade-off plot is a prediction no measurement backs yet.</p>`;
    this.app.root.querySelector(".mp-plots").after(sec);
    const $ = (s) => sec.querySelector(s);
    this.el = {
      sec,
      preset: $('[data-wctl="preset"]'),
      desc: $(".mp-wpreset-desc"),
      sliders: $(".mp-wsliders"),
      run: $('[data-wact="run"]'),
      progress: $(".mp-wprogress"),
      msg: $(".mp-wmsg"),
      counters: Object.fromEntries([...sec.querySelectorAll("[data-w]")].map((d) => [d.dataset.w, d])),
      stage: $(".mp-wstage"),
      canvas: $(".mp-wcanvas"),
      moment: $(`#${id}-moment`),
      momentOut: $(".mp-wmout"),
      dblwr: $(".mp-wdblwr"),
      depth: $(".mp-wdepth"),
      depthBtn: $('[data-wact="depth"]'),
      dprogress: $(".mp-dprogress"),
      dmsg: $(".mp-dmsg"),
      dtable: $(".mp-dtable"),
    };
    this.ctx = this.el.canvas.getContext("2d");
    for (const p of this.presets) this.el.preset.append(el("option", { value: p.name, text: p.name }));
    this.depthCtl = this.slider(`${id}-depth`, "innodb_lru_scan_depth", DEPTH_STOPS, "pages",
      "Free frames the page cleaner's LRU batch keeps per instance; it writes dirty tail pages to get them. MySQL's default 1,024, range 100 and up.");
    this.pagesCtl = this.slider(`${id}-pages`, "innodb_doublewrite_pages", PAGES_STOPS, "pages",
      "Pages a doublewrite buffer holds before it is written as one write. MySQL's default 128 (8.4), range up to 512.");
    this.el.preset.addEventListener("change", () => this.pick(this.el.preset.value));
    sec.addEventListener("click", (e) => {
      const b = e.target.closest("button[data-wact]");
      if (!b) return;
      if (b.dataset.wact === "run") this.start();
      else if (b.dataset.wact === "depth") this.startDepth();
    });
    this.el.moment.addEventListener("input", () => {
      this.moment = Number(this.el.moment.value);
      this.drawPool();
      this.drawDblwr();
    });
  }

  slider(iid, name, stops, unit, help) {
    const input = el("input", { type: "range", id: iid, min: 0, max: stops.length - 1, step: 1, value: 0, "aria-describedby": `${iid}-help` });
    const out = el("output", { for: iid });
    const row = el(
      "div",
      { class: "mp-ctl" },
      el("div", { class: "mp-ctl-head" }, el("label", { for: iid }, el("code", { text: name })), out),
      input,
      el("p", { class: "mp-help", id: `${iid}-help` }, help),
    );
    this.el.sliders.append(row);
    const ctl = {
      input,
      get value() {
        return stops[Number(input.value)];
      },
      set(v) {
        input.value = nearest(stops, v);
        this.show();
      },
      show() {
        const label = `${fmt.format(stops[Number(input.value)])} ${unit}`;
        out.textContent = label;
        input.setAttribute("aria-valuetext", label);
      },
    };
    input.addEventListener("input", () => {
      ctl.show();
      this.drawDepth();
    });
    return ctl;
  }

  pick(name) {
    const p = this.presets.find((x) => x.name === name) ?? this.presets[0];
    this.el.preset.value = p.name;
    this.el.desc.textContent = `${p.description}. Instance 0 has ${fmt.format(p.frames_per_instance)} frames (of ${p.instances}).`;
    this.depthCtl.set(p.lru_scan_depth);
    this.pagesCtl.set(p.doublewrite_pages);
    this.drawDepth();
  }

  layout() {
    const dpr = Math.min(window.devicePixelRatio || 1, 3);
    const w = this.el.dblwr.parentElement.clientWidth || 500;
    const logical = Math.max(w, 500);
    this.scale = (dpr * w) / logical;
    this.dpr = dpr;
    for (const cv of [this.el.dblwr, this.el.depth]) {
      const hh = Math.round(Math.min(340, Math.max(250, logical * 0.56)) * (w / logical));
      cv.width = Math.round(w * dpr);
      cv.height = Math.round(hh * dpr);
      cv.style.width = `${w}px`;
      cv.style.height = `${hh}px`;
    }
  }

  drawAll() {
    this.layout();
    this.drawPool();
    this.drawDblwr();
    this.drawDepth();
  }

  guard(what, f) {
    try {
      f();
    } catch (e) {
      this.app.fatal(`drawing ${what} failed: ${e?.message ?? e}`);
    }
  }

  drawPool() {
    const dark = this.app.darkQuery.matches;
    const css = this.el.stage.clientWidth || 800;
    const dpr = this.dpr ?? 1;
    this.guard("the write-path pool", () => {
      const h = this.view.draw_pool(this.el.canvas, this.ctx, this.moment, Math.round(css * dpr), Math.round(320 * dpr), dpr, dark);
      this.el.canvas.style.width = `${css}px`;
      this.el.canvas.style.height = `${h / dpr}px`;
    });
    const n = this.view.moments();
    if (n) {
      const m = this.view.moment(this.moment);
      this.el.momentOut.textContent =
        `t = ${m.t_s.toFixed(1)} s · ${fmt.format(m.dirty)} dirty · ${fmt.format(m.writing)} being written · ${fmt.format(m.free)} free`;
      this.el.moment.setAttribute("aria-valuetext", this.el.momentOut.textContent);
    }
  }

  drawDblwr() {
    this.guard("the doublewrite chart", () => this.view.draw_dblwr(this.el.dblwr, this.scale, this.moment, this.app.darkQuery.matches));
  }

  drawDepth() {
    this.guard("the trade-off", () => this.view.draw_depth(this.el.depth, this.scale, this.depthCtl.value, this.app.darkQuery.matches));
    const rows = this.view.depth_rows();
    const t = el("table", {}, el("tr", {}, el("th", { text: "innodb_lru_scan_depth" }), el("th", { text: "tps with a scan" }), el("th", { text: "tps without" }), el("th", { text: "wait_free/s" })));
    for (let i = 0; i < rows.length; i += 4) {
      const f = (x, d) => (Number.isFinite(x) ? x.toFixed(d) : "–");
      t.append(el("tr", {}, el("td", { text: String(rows[i]) }), el("td", { text: f(rows[i + 1], 0) }), el("td", { text: f(rows[i + 2], 0) }), el("td", { text: f(rows[i + 3], 1) })));
    }
    this.el.dtable.replaceChildren(t);
  }

  async start() {
    const token = ++this.token;
    this.worker?.terminate();
    this.worker = this.workers.spawn();
    const job = { kind: "write", preset: this.el.preset.value, depth: this.depthCtl.value, pages: this.pagesCtl.value };
    this.el.progress.hidden = false;
    this.el.progress.value = 0;
    this.el.msg.textContent = "Running…";
    try {
      const m = await this.workers.run(this.worker, job, (frac) => {
        if (token !== this.token) return;
        this.el.progress.value = frac;
        this.el.msg.textContent = `Running… ${Math.round(frac * 100)} %`;
      });
      if (token !== this.token || this.app.dead) return;
      this.worker.terminate();
      this.worker = null;
      this.view.set_run(m.result, m.cells);
      const r = m.result;
      const c = this.el.counters;
      c.dblwr.textContent = r.doublewrite ? fmt.format(Math.round(r.dblwr_writes_per_s)) : "off";
      c.lat.textContent = r.doublewrite ? `${r.dblwr_avg_write_ms.toFixed(2)} ms` : "–";
      c.ppw.textContent = r.doublewrite ? r.dblwr_pages_per_write.toFixed(1) : "–";
      c.wf.textContent = r.wait_free_per_s.toFixed(1);
      c.tps.textContent = r.has_scan
        ? `${fmt.format(Math.round(r.tps))} without a scan, ${fmt.format(Math.round(r.tps_with_scan))} with`
        : fmt.format(Math.round(r.tps));
      c.qps.textContent = fmt.format(Math.round(r.qps));
      const n = this.view.moments();
      this.el.moment.max = Math.max(0, n - 1);
      this.el.moment.disabled = n === 0;
      this.moment = Math.max(0, n - 1);
      this.el.moment.value = this.moment;
      this.el.progress.hidden = true;
      this.el.msg.textContent =
        `${r.preset}, innodb_lru_scan_depth ${r.lru_scan_depth}, innodb_doublewrite_pages ${r.doublewrite_pages}: ` +
        `counters over the last ${r.measured_s} s; ${fmt.format(r.events)} events in ${(m.ms / 1000).toFixed(1)} s in a worker.`;
      this.el.sec.dataset.ran = "1";
      this.drawPool();
      this.drawDblwr();
    } catch (err) {
      if (token === this.token) {
        this.el.progress.hidden = true;
        this.el.msg.textContent = `The run failed: ${err.message}`;
      }
    }
  }

  startDepth() {
    if (this.depthJob) return;
    const depths = mp.WriteView.depths();
    const todo = [...depths];
    const n = Math.min(this.app.sweepWorkers(), todo.length);
    const job = { workers: [], left: todo.length, t0: performance.now() };
    this.depthJob = job;
    this.el.depthBtn.disabled = true;
    this.el.dprogress.hidden = false;
    this.el.dprogress.max = depths.length;
    this.el.dprogress.value = 0;
    this.el.dmsg.textContent = `Starting ${n} worker${n > 1 ? "s" : ""}…`;
    const next = async (w) => {
      while (todo.length && this.depthJob === job) {
        const depth = todo.shift();
        try {
          const m = await this.workers.run(w, { kind: "write-depth", depth });
          if (this.depthJob !== job) return;
          this.view.set_depth_point(m.result);
          job.left -= 1;
          const done = depths.length - job.left;
          this.el.dprogress.value = done;
          this.el.dmsg.textContent = `${done} of ${depths.length} depths`;
          this.el.sec.dataset.depthPoints = String(this.view.depth_done());
          this.drawDepth();
          if (!job.left) {
            for (const x of job.workers) x.terminate();
            this.depthJob = null;
            this.el.depthBtn.disabled = false;
            this.el.depthBtn.textContent = "Compute again";
            this.el.dprogress.hidden = true;
            this.el.dmsg.textContent = `${depths.length} depths in ${((performance.now() - job.t0) / 1000).toFixed(1)} s`;
          }
        } catch (err) {
          for (const x of job.workers) x.terminate();
          this.depthJob = null;
          this.el.depthBtn.disabled = false;
          this.el.dprogress.hidden = true;
          this.el.dmsg.textContent = `The trade-off failed: ${err.message}`;
          return;
        }
      }
    };
    for (let i = 0; i < n; i++) {
      const w = this.workers.spawn();
      job.workers.push(w);
      next(w);
    }
  }

  stop() {
    this.worker?.terminate();
    this.worker = null;
    if (this.depthJob) for (const x of this.depthJob.workers) x.terminate();
    this.depthJob = null;
  }
}

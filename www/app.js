// The explainer widget: glue between the DOM and the simulator. The logic (the simulation,
// the narration, URL checks, drawing) lives in Rust (src/ui/, bound in src/web/); these modules
// wire it to buttons, sliders, animation frames and Web Workers. One MidpointApp per root
// element, no globals, so several can live on one page. This file builds the widget's DOM; its
// other methods come one concern per module: app-url.js (parameters, URL, embed snippets),
// app-view.js (layout, drawing, status), app-runs.js (workers: full runs, the sweep),
// app-events.js (buttons, keys, visibility, the tour), app-strip.js (the boundary close-up, the
// code panel, linked hover and touch, seeking from the residency plot), app-export.js (embed dialog, downloads,
// tables), app-policies.js (the other replacement policies' figure); write.js is the write-path section.
import * as mp from "../pkg/midpoint.js";
import { EventMethods } from "./app-events.js";
import { StripMethods } from "./app-strip.js";
import { ExportMethods } from "./app-export.js";
import { PolicyMethods } from "./app-policies.js";
import { RunMethods, Workers } from "./app-runs.js";
import { UrlMethods } from "./app-url.js";
import { ViewMethods } from "./app-view.js";
import { el, fmt, KEYS_HELP, newId } from "./util.js";
import { WritePath } from "./write.js";

export class MidpointApp {
  constructor(root, { wasm, module, workerUrl, workerType = "module", base = null, embedded = false }) {
    this.root = root;
    this.wasm = wasm;
    this.base = base;
    this.embedded = embedded;
    this.id = newId();
    this.syncUrl = root.dataset.query === undefined;
    this.darkQuery = matchMedia("(prefers-color-scheme: dark)");
    this.motionQuery = matchMedia("(prefers-reduced-motion: reduce)");
    this.workers = new Workers(module, workerUrl ?? new URL("./worker.js", import.meta.url), workerType, (msg) => this.fatal(msg));
    this.workers.onActivity = () => this.wake();
    // The frame loop's idle state (app-view.js: tick, wake): frames in a row that did nothing,
    // the pending poll's timer, and polls that found work nothing had woken them for.
    this.quietFrames = 0;
    this.idleTimer = 0;
    this.polling = false;
    this.idleMisses = 0;
    this.pendingRun = false;
    this.offscreenPaused = false;
    this.tourIndex = null;
    this.tourSteps = mp.tour_steps();
    this.runWorker = null;
    this.runToken = 0;
    this.liveJob = null;
    this.runCache = new Map();
    this.skipped = [];
    this.sweep = null;
    this.sweepCache = new Map();
    // The ensemble: the other runs of the current setting (RNG seeds seed + 1, …) in the
    // member workers (and the run worker once its own run is over).
    this.ens = null;
    this.memberWorkers = [];
    this.memberBusy = new Set();
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
    this.runs = parsed.runs ?? 5;
    this.presets = mp.presets();
    this.embedView = !!parsed.embed || embedded;
    this.viewName = parsed.view || "lab";
    root.dataset.view = this.viewName;
    root.dataset.testid = "midpoint-widget";
    this.build();
    this.buildCode();
    if (this.embedView) root.classList.add("mp-embed");
    this.showNotes(parsed.messages);
    this.newExplorer(0);
    this.renderControls(true);
    this.updatePresetUi();
    this.updateCli();
    this.resetSweep();
    this.writeUrl();
    this.scheduleRun(0);

    const autoplay = parsed.autoplay ?? (!this.motionQuery.matches && (parsed.view ?? "lab") === "lab");
    // The presentation walks the story's beats (the tour), from the first unless the link
    // names one.
    if (this.viewName === "present" && !parsed.tour) this.tourGo(0, false);
    else if (parsed.tour) this.tourGo(parsed.tour - 1, false);
    else if (parsed.ev !== undefined && parsed.ev !== null) this.ex.seek_event(parsed.ev);
    else if (parsed.at) this.startAt(parsed.at);
    else if (autoplay) {
      // A figure plays at 1×, slow enough to follow a page; the lab at its own default.
      if (this.viewName !== "lab") this.ex.set_speed(3);
      this.ex.play();
    }

    this.bindEvents();
    this.bindEnsemble();
    this.bindStrip();
    this.bindResidencySeek();
    this.bindPolicies();
    if (this.viewName === "present") this.bindPresent();
    if (!this.embedView && this.viewName === "lab" && this.syncUrl) this.write = new WritePath(this);
    this.loop = (t) => this.tick(t);
    requestAnimationFrame(this.loop);
  }

  // ---- DOM -------------------------------------------------------------------------------

  build() {
    const id = this.id;
    this.root.classList.add("mp");
    // The lab is a dashboard whose settings come first: a keyboard user skips them in one go.
    const skip = this.viewName === "lab"
      ? `<a class="mp-skip" href="#${id}-controls">Skip to the simulation controls</a>`
      : "";
    this.root.innerHTML = `
      ${skip}
      <div class="mp-alert" role="alert" hidden></div>
      <div class="mp-notes" role="status" hidden>
        <p><strong>Some settings in the link could not be used as given:</strong></p>
        <ul></ul>
        <button type="button" class="mp-small" data-act="dismiss">Dismiss</button>
      </div>
      <div class="mp-dash">
      <section class="mp-card mp-settings" aria-labelledby="${id}-h2">
        <h2 class="mp-h" id="${id}-h2">Settings</h2>
        <div class="mp-presetrow">
          <label for="${id}-preset">Preset</label>
          <select id="${id}-preset" data-ctl="preset"></select>
          <p class="mp-preset-desc"></p>
        </div>
        <div class="mp-sliders"></div>
        <div class="mp-ctl mp-ens" data-testid="ensemble">
          <div class="mp-ctl-head"><label for="${id}-runs">Runs per setting</label> <output class="mp-seeds" for="${id}-runs ${id}-seed" data-testid="seed-set"></output></div>
          <div class="mp-ensrow">
            <input type="number" id="${id}-runs" data-ctl="runs" min="1" max="20" step="1" inputmode="numeric" aria-describedby="${id}-ens-help">
            <label for="${id}-seed">first RNG seed</label>
            <input type="number" id="${id}-seed" data-ctl="seed" min="0" max="1000000000" step="1" inputmode="numeric" aria-describedby="${id}-ens-help">
          </div>
          <p class="mp-help" id="${id}-ens-help">Chance matters here as it did on the server: each setting runs this many times, with consecutive RNG seeds. The residency plot draws their median curve and band; kept is their median and range, the sweep's points their range.</p>
        </div>
        <p class="mp-cli">The same run on the command line: <code></code></p>
        <p class="mp-share"><button type="button" class="mp-small" data-act="copy">Copy a link to this view</button> <span class="mp-copied" role="status"></span></p>
        <dialog class="mp-dialog" aria-labelledby="${id}-embh">
          <h2 class="mp-h" id="${id}-embh">Embed this figure</h2>
          <p>One figure, at this moment and with these settings: both snippets carry every parameter of the current state, so the embed keeps showing this run even if the defaults change. <a class="mp-howto" target="_blank" rel="noopener">How to paste it into WordPress, Ghost or Hugo</a>.</p>
          <label for="${id}-emb-view">Figure</label>
          <select id="${id}-emb-view" data-ctl="embed-view">
            <option value="strip">The close-up of the boundary (strip)</option>
            <option value="grid">The whole pool (grid)</option>
            <option value="residency">Residency over the run</option>
            <option value="sweep">The sweep</option>
          </select>
          <label for="${id}-emb-iframe">An <code>&lt;iframe&gt;</code> (works anywhere HTML is allowed)</label>
          <textarea id="${id}-emb-iframe" class="mp-snippet" data-testid="embed-snippet" readonly rows="4" spellcheck="false"></textarea>
          <p class="mp-dlgrow"><button type="button" class="mp-small" data-act="copy-iframe">Copy the iframe</button> <span class="mp-copied-iframe" role="status"></span></p>
          <label for="${id}-emb-el">A custom element (one script per page; several figures can share it)</label>
          <textarea id="${id}-emb-el" class="mp-snippet" readonly rows="8" spellcheck="false"></textarea>
          <p class="mp-dlgrow"><button type="button" class="mp-small" data-act="copy-element">Copy the element</button> <span class="mp-copied-element" role="status"></span></p>
          <p class="mp-dlgrow"><button type="button" data-act="embed-close">Close</button></p>
        </dialog>
      </section>
      <section class="mp-card mp-plots" aria-label="Plots">
        <figure class="mp-plot">
          <canvas class="mp-residency" data-testid="residency-plot" role="img" aria-label="Plot: hot-set residency and the scanned table's young pages over the run, with a cursor at the current time"></canvas>
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
              <span class="mp-sweeplines">Bring a line forward: <span class="mp-sweepbtns"></span></span>
            </div>
            <p class="mp-sweepsame" data-testid="sweep-coincide" aria-live="polite"></p>
            <p class="mp-sweepnote"></p>
            <p class="mp-export"><button type="button" class="mp-small" data-act="csv-sweep" disabled>Download CSV</button> <button type="button" class="mp-small" data-act="png-sweep">Download PNG</button></p>
            <details class="mp-data" data-table="sweep"><summary>The plot's data as a table</summary><div class="mp-tablebox"></div></details>
          </figcaption>
        </figure>
      </section>
        <div class="mp-slot" data-slot="your-server"></div>
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
        <div class="mp-toolbar" role="toolbar" aria-label="Simulation controls" id="${id}-controls" tabindex="-1">
          <div class="mp-group">
            <button type="button" data-act="play" aria-keyshortcuts="Space"><span aria-hidden="true" class="mp-ico">▶</span> <span class="mp-lbl">Play</span></button>
            <button type="button" data-act="back" aria-keyshortcuts="ArrowLeft" title="Step back one event (←)"><span aria-hidden="true">◀</span> Back</button>
            <button type="button" data-act="step" aria-keyshortcuts="ArrowRight" title="Process one event (→)">Step <span aria-hidden="true">▶</span></button>
            <button type="button" data-act="step-boundary" data-testid="step-boundary" aria-keyshortcuts="B" title="Run until the boundary has moved by a twentieth of the refill, or to the drain's next beat (B)">Boundary<span class="mp-long"> step</span> <span aria-hidden="true">▸|</span></button>
            <button type="button" data-act="step-drain-end" data-testid="step-drain-end" aria-keyshortcuts="E" title="Run to the end of the drain: the free list empty (E)">Drain<span class="mp-long">'s</span> end <span aria-hidden="true">▸▸|</span></button>
            <button type="button" data-act="batch" aria-keyshortcuts="N" title="Run at full speed to just before the next LRU batch (N)">Next LRU batch <span aria-hidden="true">»</span></button>
            <button type="button" data-act="watch" data-testid="watch-refill" aria-keyshortcuts="W" class="mp-primary" title="Run to the next LRU batch, then show the refill and the drain in slow motion (W)">Watch<span class="mp-long"> a refill &amp; drain</span></button>
          </div>
          <div class="mp-group">
            <label class="mp-speed">Speed <select data-ctl="speed" aria-keyshortcuts="+ -"></select></label>
            <button type="button" data-act="reset" aria-keyshortcuts="Home">Reset</button>
            <span class="mp-figacts"><button type="button" class="mp-small" data-act="fullscreen" title="Full screen (F)">Full screen</button> <button type="button" class="mp-small" data-act="embed" data-testid="embed-button" aria-haspopup="dialog">Embed</button></span>
          </div>
        </div>
        <div class="mp-clock"><span class="mp-t">t = 0 s</span><span class="mp-phase"></span><span class="mp-busy"></span></div>
        <p class="mp-narration" data-testid="narration" tabindex="0"></p>
        <div class="mp-sr mp-live" aria-live="polite" aria-atomic="true"></div>
        <div class="mp-closeup">
          <figure class="mp-stripfig">
            <canvas class="mp-strip" data-testid="boundary-strip" tabindex="0" role="img" aria-label="Close-up of the LRU list around LRU_old: the head row, the pages around the boundary, the tail row and the free list. Each cell is a frame and moves as pages are read, evicted or moved to the head."></canvas>
            <div class="mp-tip mp-striptip" hidden></div>
            <figcaption class="mp-stripcap"></figcaption>
          </figure>
          <aside class="mp-code" data-testid="code-panel" aria-labelledby="${id}-codeh">
            <h3 class="mp-code-h" id="${id}-codeh">What InnoDB runs <span class="mp-code-note">(paraphrased)</span></h3>
            <p class="mp-code-what" aria-live="off"></p>
            <div class="mp-code-routines"></div>
            <p class="mp-code-more"></p>
            <dl class="mp-vars"></dl>
          </aside>
        </div>
        <div class="mp-stage">
          <canvas class="mp-pool" data-testid="pool-grid" tabindex="0" role="img" aria-label="The buffer pool: one cell per frame, from the head of the LRU list (top left) to its tail, then the free list. Keyboard shortcuts work when this is focused."></canvas>
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
      ${this.policiesHtml(id)}
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
      strip: $(".mp-strip"),
      stripFig: $(".mp-stripfig"),
      stripTip: $(".mp-striptip"),
      stripCap: $(".mp-stripcap"),
      code: $(".mp-code"),
      codeWhat: $(".mp-code-what"),
      codeMore: $(".mp-code-more"),
      codeRoutines: $(".mp-code-routines"),
      codeVars: $(".mp-vars"),
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
      runsIn: $('[data-ctl="runs"]'),
      seedIn: $('[data-ctl="seed"]'),
      seedSet: $(".mp-seeds"),
      cli: $(".mp-cli code"),
      residency: $(".mp-residency"),
      runcap: $(".mp-runcap"),
      sweep: $(".mp-sweep"),
      sweepBtn: $('[data-act="sweep"]'),
      cancelBtn: $('[data-act="cancel"]'),
      progress: $(".mp-progress"),
      sweepMsg: $(".mp-sweepmsg"),
      sweepNote: $(".mp-sweepnote"),
      sweepSame: $(".mp-sweepsame"),
      sweepBtns: $(".mp-sweepbtns"),
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
      embedView: $('[data-ctl="embed-view"]'),
      howto: $(".mp-howto"),
      fullscreen: $('[data-act="fullscreen"]'),
      stepBoundary: $('[data-act="step-boundary"]'),
      stepDrainEnd: $('[data-act="step-drain-end"]'),
      dialog: $(".mp-dialog"),
      snipIframe: $(`#${id}-emb-iframe`),
      snipEl: $(`#${id}-emb-el`),
      csvRun: $('[data-act="csv-run"]'),
      csvSweep: $('[data-act="csv-sweep"]'),
      runTable: $('[data-table="run"]'),
      sweepTable: $('[data-table="sweep"]'),
    };
    if (!this.base) this.el.embedBtn.hidden = true;
    else this.el.howto.href = new URL("../docs/embedding.md", this.base).href;
    if (!document.fullscreenEnabled) this.el.fullscreen.hidden = true;
    // The residency and sweep views show no close-up card: their Embed and Full screen buttons
    // go to the plot's caption (one of each per widget).
    const plotView = { residency: ".mp-residency", sweep: ".mp-sweep" }[this.viewName];
    if (plotView) this.root.querySelector(`${plotView}`).closest(".mp-plot").querySelector("figcaption").prepend(this.root.querySelector(".mp-figacts"));
    // An embedded close-up or grid: beside the link to the full page, leaving the toolbar one row.
    else if (this.embedView && this.viewName !== "lab") this.root.querySelector(".mp-headacts").prepend(this.root.querySelector(".mp-figacts"));
    if (this.embedView && this.base) this.el.full.hidden = false;
    this.ctx = this.el.pool.getContext("2d");
    this.sctx = this.el.strip.getContext("2d");
    for (const [i, label] of mp.Explorer.speed_labels().entries()) {
      this.el.speed.append(el("option", { value: i, text: label }));
    }
    // Presets, named in words and grouped; the main cells first in their group. The code name
    // stays in the URL.
    const custom = el("option", { value: "", text: "(custom settings)" });
    this.el.preset.append(custom);
    const groups = new Map();
    for (const p of this.presets) {
      if (!groups.has(p.group)) {
        const g = el("optgroup", { label: p.group });
        groups.set(p.group, g);
        this.el.preset.append(g);
      }
      const text = p.seed ? `${p.label} (measured: ${p.seed_short} kept)` : p.label;
      groups.get(p.group).append(el("option", { value: p.name, text, title: p.name }));
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
      let group = controls[0]?.group;
      for (const c of controls) {
        if (c.group !== group) {
          // A new group ("Your server"): its heading, and the rates the last run produced
          // beside the rates the reader enters, so a DBA can compare.
          group = c.group;
          box.append(
            el(
              "div",
              { class: "mp-ctl-group", "data-testid": "your-server" },
              el("h3", { class: "mp-h3", text: group }),
              el("p", { class: "mp-help", text: "What your server does, if you know it: the sliders set the CPU times so that an idle run reaches these rates (0 keeps the experiment's machine)." }),
              el("p", { class: "mp-yourrates", "data-testid": "run-rates" }),
            ),
          );
        }
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
          "data-param": c.key,
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
    this.showRunRates();
  }

  // The rates the last full run produced in its scan phase, beside the "your server" sliders.
  showRunRates() {
    const box = this.el.sliders.querySelector(".mp-yourrates");
    if (!box) return;
    const r = this.run;
    box.textContent = r
      ? `This run, scan phase: ${fmt.format(Math.round(r.lookups_per_s))} lookups/s and ${fmt.format(Math.round(r.scan_pages_per_s))} scan pages/s (warm-up: ${fmt.format(Math.round(r.lookups_per_s_warmup))} lookups/s).`
      : "This run's rates appear when the full run is computed.";
  }
}

// The rest of MidpointApp's methods, one module per concern.
for (const part of [UrlMethods, ViewMethods, RunMethods, EventMethods, ExportMethods, StripMethods, PolicyMethods]) {
  for (const name of Object.getOwnPropertyNames(part.prototype)) {
    if (name === "constructor") continue;
    if (Object.hasOwn(MidpointApp.prototype, name)) throw new Error(`MidpointApp.${name} defined twice`);
    Object.defineProperty(MidpointApp.prototype, name, Object.getOwnPropertyDescriptor(part.prototype, name));
  }
}

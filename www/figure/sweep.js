// The sweep: the hot set kept at the end of a run against innodb_lru_scan_depth, one line per
// innodb_old_blocks_time. At the default settings it opens drawn from the committed sweep
// (www/data/sweep.json, which the command-line simulator wrote and a test recomputes in full);
// other settings are computed in Web Workers, points drawn as they arrive: on request in the
// lab, at once in a figure whose controls moved.
import { PlotFigure } from "./plot-figure.js";
import * as mp from "../../pkg/midpoint.js";
import { el, fmt, markFont, pct, setText, sizeCanvas } from "../util.js";
import { data } from "./data.js";
import { download, downloadCanvas } from "./export.js";
import { PlotKey } from "./keys.js";
import { cores } from "./runs.js";

export class Sweep extends PlotFigure {
  /** `auto`: compute a sweep the committed data does not hold as soon as it is shown. */
  constructor(w, { auto = false, exports = true, table = true } = {}) {
    super();
    this.w = w;
    this.kind = "sweep";
    this.auto = auto;
    this.el = el("figure", { class: `mp-plot mp-plot-sweep${auto ? " mp-auto" : ""}` });
    this.el.innerHTML = `
      <div class="mp-plotbox"><canvas class="mp-sweep" data-testid="sweep-plot" data-points="0" role="img" aria-label="Plot: hot set kept against innodb_lru_scan_depth, one line per innodb_old_blocks_time"></canvas></div>
      <figcaption>
        <div class="mp-sweepbar">
          <button type="button" data-act="sweep">Run the sweep</button>
          <button type="button" data-act="cancel" hidden>Cancel</button>
          <progress class="mp-progress" max="1" value="0" hidden></progress>
          <span class="mp-sweepmsg" role="status"></span>
        </div>
        <p class="mp-sweepsame" data-testid="sweep-coincide" aria-live="polite"></p>
        <p class="mp-sweeplines">Bring a line forward: <span class="mp-sweepbtns"></span></p>
        <p class="mp-sweepnote"></p>
        <p class="mp-sweepsrc" data-testid="sweep-source"></p>
        ${exports ? `<p class="mp-export"><button type="button" class="mp-small" data-act="csv-sweep" disabled>Download CSV</button> <button type="button" class="mp-small" data-act="png-sweep">Download PNG</button></p>` : ""}
        ${table ? `<details class="mp-data" data-table="sweep"><summary>The plot's data as a table</summary><div class="mp-tablebox"></div></details>` : ""}
      </figcaption>`;
    const $ = (s) => this.el.querySelector(s);
    this.canvas = $(".mp-sweep");
    this.box = $(".mp-plotbox");
    this.figcap = $("figcaption");
    this.btn = $('[data-act="sweep"]');
    this.cancelBtn = $('[data-act="cancel"]');
    this.progress = $(".mp-progress");
    this.msg = $(".mp-sweepmsg");
    this.note = $(".mp-sweepnote");
    this.same = $(".mp-sweepsame");
    this.src = $(".mp-sweepsrc");
    this.btns = $(".mp-sweepbtns");
    this.csv = $('[data-act="csv-sweep"]');
    this.table = $('[data-table="sweep"]');
    this.key = new PlotKey();
    this.box.after(this.key.el);
    this.cache = new Map();
    this.job = null;
    this.highlight = null;
    this.fillBox = this.box;
    this.committed = null;
    this.table?.addEventListener("toggle", () => this.table.open && this.fillTable());
    this.ready = data("sweep")
      .then((d) => {
        this.committed = d;
        if (this.entry && this.entry.view.done() === 0 && this.fillCommitted(this.entry)) this.showEntry();
      })
      .catch(() => {});
  }

  layout() {
    const w = this.w;
    const dpr = w.dpr;
    const width = this.box.clientWidth || 500;
    const logical = Math.max(width, 300);
    this.scale = (dpr * width) / logical;
    let hh = Math.round(Math.min(360, Math.max(width < 500 ? 270 : 230, logical * 0.56)) * (width / logical));
    if (w.viewName === "lab" && window.innerWidth >= 1000) hh = Math.min(hh, Math.max(240, Math.round(window.innerHeight * 0.4)));
    this.natural = hh;
    if (w.fill) hh = Math.max(120, this.box.clientHeight);
    else if (this.flexH !== null) hh = this.flexH;
    sizeCanvas(this.canvas, width, hh, dpr);
    this.draw();
  }

  workerCount() {
    return cores();
  }

  recolour() {
    this.draw();
  }

  /** The parameters changed: this setting's sweep (cached, committed or to compute). */
  paramsChanged(v) {
    const key = v.sweep_key;
    if (this.entry && this.entry.key === key) {
      this.draw();
      return;
    }
    this.stop(true);
    let entry = this.cache.get(key);
    if (!entry) {
      entry = { key, view: new mp.SweepView(v.view.sweep_depths, v.view.sweep_times, this.w.params), ms: 0, donePoints: [], tried: false, fromFile: false };
      this.fillCommitted(entry);
      this.cache.set(key, entry);
    }
    this.entry = entry;
    this.view = entry.view;
    this.showEntry();
    // A figure computes what the committed sweep does not hold (once it is known whether it does).
    if (this.auto) {
      this.ready.then(() => {
        if (this.entry === entry && entry.view.done() < this.total()) this.whenShown(() => this.entry === entry && this.start());
      });
    }
  }

  fillCommitted(entry) {
    if (!this.committed || entry.tried) return entry.fromFile;
    entry.tried = true;
    entry.fromFile = entry.view.fill_committed(this.committed, this.w.page);
    return entry.fromFile;
  }

  total() {
    const o = this.w.view.view;
    return o.sweep_depths.length * o.sweep_times.length;
  }

  /** Runs `f` once the figure is on screen (now if it is). */
  whenShown(f) {
    if (this.w.visible) return f();
    this.onShown = f;
  }

  visible(v) {
    if (v && this.onShown) {
      const f = this.onShown;
      this.onShown = null;
      f();
    }
  }

  showEntry() {
    const entry = this.entry;
    const total = this.total();
    const done = entry.view.done();
    setText(this.btn, done === total ? "Run again" : done ? "Resume the sweep" : "Run the sweep");
    setText(this.msg, done ? `${done} of ${total} points${entry.ms ? `, ${(entry.ms / 1000).toFixed(0)} s` : ""}` : "");
    setText(this.note, this.w.page.sweep_note(this.workerCount()));
    setText(
      this.src,
      entry.fromFile && this.committed
        ? `Drawn from www/data/sweep.json: “${this.committed.command}” at commit ${this.committed.commit}, the same simulator on the command line.`
        : "",
    );
    this.buildLines();
    this.draw();
  }

  /** One button per old_blocks_time line: hovering or focusing it draws that line thick. */
  buildLines() {
    const box = this.btns;
    const times = [...this.w.view.view.sweep_times];
    if (box.dataset.times === times.join(",")) return;
    box.dataset.times = times.join(",");
    box.textContent = "";
    this.highlight = null;
    for (const t of times) {
      const b = el("button", { type: "button", class: "mp-small mp-sweepline", "data-line": t, "aria-pressed": "false", text: `${fmt.format(t)} ms` });
      const on = () => this.setHighlight(t);
      // Only this button's own line is let go: a pointer leaving it after another button took
      // the focus (the page's text above moved under a still pointer) leaves that one lit.
      const off = () => this.highlight === t && this.setHighlight(null);
      b.addEventListener("pointerenter", on);
      b.addEventListener("focus", on);
      b.addEventListener("pointerleave", () => document.activeElement !== b && off());
      b.addEventListener("blur", off);
      b.addEventListener("click", () => this.setHighlight(this.highlight === t ? null : t));
      box.append(b, " ");
    }
  }

  setHighlight(t) {
    if (this.highlight === t) return;
    this.highlight = t;
    for (const b of this.btns.querySelectorAll("button")) b.setAttribute("aria-pressed", String(Number(b.dataset.line) === t));
    this.canvas.dataset.highlight = t === null ? "" : String(t);
    this.draw();
  }

  draw() {
    const w = this.w;
    if (!this.view || this.scale === undefined) return;
    if (this.csv) this.csv.disabled = this.view.done() === 0;
    if (this.table && (this.table.open || !this.table.querySelector(".mp-tablebox").firstChild)) this.fillTable();
    try {
      this.view.draw(this.canvas, this.scale, w.view.lru_scan_depth, w.view.old_blocks_time, w.darkQuery.matches, this.highlight ?? -1);
      markFont(this.canvas, mp.last_font_px() / w.dpr);
      this.canvas.dataset.points = String(this.view.done());
      this.key.show(this.view.key(w.darkQuery.matches));
      setText(this.same, this.view.coincidence());
    } catch (e) {
      w.fatal(`drawing the sweep failed: ${e?.message ?? e}`);
    }
  }

  act(name) {
    const w = this.w;
    const stem = `midpoint-${w.view.preset ?? "custom"}`;
    if (name === "sweep") this.start();
    else if (name === "cancel") this.stop();
    else if (name === "csv-sweep") download(w.root, `${stem}-sweep.csv`, new Blob([this.view.to_csv(w.params)], { type: "text/csv" }));
    else if (name === "png-sweep") downloadCanvas(w.root, this.canvas, `${stem}-sweep.png`);
  }

  start() {
    if (this.job || this.w.dead) return;
    const w = this.w;
    const entry = this.entry;
    const total = this.total();
    if (entry.view.done() === total) {
      entry.view.free();
      entry.view = new mp.SweepView(w.view.view.sweep_depths, w.view.view.sweep_times, w.params);
      entry.ms = 0;
      entry.donePoints = [];
      entry.tried = true;
      entry.fromFile = false;
      this.view = entry.view;
      this.showEntry();
    }
    // Depth-major order: every line grows from the left together.
    const queue = [];
    for (const d of w.view.view.sweep_depths) for (const t of w.view.view.sweep_times) queue.push([d, t]);
    const have = new Set(entry.donePoints);
    const todo = queue.filter(([d, t]) => !have.has(`${d}/${t}`));
    const n = Math.min(this.workerCount(), todo.length);
    const job = { key: entry.key, entry, todo, total, workers: [], started: performance.now(), msSum: 0, count: 0, params: w.params, runs: w.view.runs };
    this.job = job;
    this.btn.hidden = true;
    this.cancelBtn.hidden = false;
    this.progress.hidden = false;
    this.progress.max = total;
    this.progress.value = entry.view.done();
    this.msg.textContent = `Starting ${n} worker${n > 1 ? "s" : ""}…`;
    for (let i = 0; i < n; i++) job.workers.push(w.workers.spawn());
    job.workers.forEach((wk, i) => this.next(job, wk, i));
  }

  async next(job, wk, index) {
    const w = this.w;
    while (this.job === job && job.todo.length) {
      // While the animation plays, the last of several workers leaves the page a core; it
      // takes it back when the animation pauses.
      if (index > 0 && index === job.workers.length - 1 && w.status?.mode === "playing") {
        await w.runs.untilNotPlaying();
        continue;
      }
      const [depth, time] = job.todo.shift();
      try {
        const m = await w.workers.run(wk, { kind: "sweep", params: job.params, depth, time, runs: job.runs });
        if (this.job !== job) return;
        job.entry.view.set_point(m.result);
        job.entry.donePoints.push(`${depth}/${time}`);
        job.msSum += m.ms;
        job.count += 1;
        const done = job.entry.view.done();
        this.progress.value = done;
        const left = job.total - done;
        const eta = ((job.msSum / job.count) * left) / job.workers.length / 1000;
        this.msg.textContent = left ? `${done} of ${job.total} points · about ${Math.max(1, Math.round(eta))} s left` : `${done} of ${job.total} points`;
        if (this.entry === job.entry) this.draw();
        if (!left) this.finish(job);
      } catch (err) {
        if (this.job === job) {
          this.stop();
          this.msg.textContent = `The sweep failed: ${err.message}`;
        }
        return;
      }
    }
  }

  finish(job) {
    job.entry.ms = performance.now() - job.started;
    this.stop(true);
    this.msg.textContent = `${job.total} of ${job.total} points in ${(job.entry.ms / 1000).toFixed(1)} s`;
    this.btn.textContent = "Run again";
    this.lastMs = job.entry.ms;
  }

  stop(quiet) {
    const job = this.job;
    if (!job) return;
    this.job = null;
    for (const wk of job.workers) wk.terminate();
    this.btn.hidden = false;
    this.cancelBtn.hidden = true;
    this.progress.hidden = true;
    if (!quiet) {
      this.msg.textContent = `Cancelled at ${job.entry.view.done()} of ${job.total} points.`;
      this.btn.textContent = "Resume the sweep";
    }
  }

  /** The plot's text alternative: kept by depth and old_blocks_time. */
  fillTable() {
    const box = this.table.querySelector(".mp-tablebox");
    box.textContent = "";
    const kept = this.view.kept();
    const depths = this.w.view.view.sweep_depths;
    const times = this.w.view.view.sweep_times;
    const t = el("table", { class: "mp-table" });
    t.append(
      el("caption", { text: "Share of the hot set kept in the model, by innodb_lru_scan_depth (rows) and innodb_old_blocks_time (columns); – not computed yet" }),
      el("thead", {}, el("tr", {}, el("th", { scope: "col", text: "lru_scan_depth" }), ...times.map((x) => el("th", { scope: "col", text: `old_blocks_time ${fmt.format(x)} ms` })))),
    );
    const body = el("tbody");
    // On a declared cell's settings (ui::cells), its own point is a quote of that cell.
    let cell;
    try {
      cell = this.committed ? mp.declared_cell(this.committed, this.w.page)?.cell : undefined;
    } catch {
      cell = undefined;
    }
    const own = (d, x) => cell && d === this.w.view.lru_scan_depth && x === this.w.view.old_blocks_time;
    depths.forEach((d, di) => {
      body.append(el("tr", {}, el("th", { scope: "row", text: fmt.format(d) }), ...times.map((x, ti) => el("td", { text: pct(kept[ti * depths.length + di]), ...(own(d, x) ? { "data-cell": cell } : {}) }))));
    });
    t.append(body);
    box.append(t);
  }
}

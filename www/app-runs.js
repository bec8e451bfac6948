// Full runs and the sweep, computed off the main thread in Web Workers.
import * as mp from "../pkg/midpoint.js";
import { el, fmt, pct } from "./util.js";

/** A small pool of module workers sharing one compiled WASM module. */
export class Workers {
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
      else if (m.type === "partial") job.onPartial?.(m);
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
  /** Posts a job; the promise resolves with its "done" message (null if cancelled) and carries
   *  the job's `id`. `onPartial` receives its "partial" messages (live runs). */
  run(w, msg, onProgress, onPartial) {
    const id = this.nextId++;
    const p = new Promise((resolve, reject) => {
      w.jobs.set(id, { resolve, reject, onProgress, onPartial });
      w.postMessage({ ...msg, id });
    });
    p.id = id;
    return p;
  }
  /** Stops a live job at once: the worker drops it at its next slice, its promise gets null. */
  cancel(w, id) {
    const job = w.jobs.get(id);
    if (!job) return;
    w.jobs.delete(id);
    w.postMessage({ kind: "cancel", id });
    job.resolve(null);
  }
}

/** Methods of MidpointApp (mixed into its prototype by app.js). */
export class RunMethods {
  // ---- full run and sweep (workers) ------------------------------------------------------

  scheduleRun(delay) {
    clearTimeout(this.runTimer);
    this.el.runcap.textContent = "Computing the full run…";
    this.runTimer = setTimeout(() => this.startRun(), delay);
  }

  // The full run for the residency plot and "kept", in one worker that streams its samples
  // (drawn over the previous curve, dimmed) and keeps the last run's snapshot at the scan's
  // start. A newer value cancels the stale run at once; the values skipped on the way (a drag
  // through several stops) are computed afterwards, newest first, into a cache, so that the
  // curve is there at once when the hand goes back.
  startRun() {
    // An embed off screen does no work: the run starts when it scrolls into view.
    if (!this.visible) {
      this.pendingRun = true;
      return;
    }
    this.pendingRun = false;
    const token = ++this.runToken;
    const params = this.params;
    const key = mp.params_query(params);
    const stale = this.liveJob;
    if (stale) {
      this.workers.cancel(this.runWorker, stale.id);
      if (stale.key !== key && !this.runCache.has(stale.key)) this.skipped.push(stale);
    }
    this.liveJob = null;
    this.skipped = this.skipped.filter((j) => j.key !== key);
    const cached = this.runCache.get(key);
    if (cached) {
      this.showRun(cached);
      this.runSkipped();
      return;
    }
    this.liveRun(params, key, token, (m) => {
      if (token !== this.runToken || this.dead) return;
      this.ex.add_run_points(m.points);
      this.dirtyResidency = true;
      this.el.runcap.textContent = `Computing the full run… ${Math.round(m.frac * 100)} %`;
    }).then((m) => {
      if (m && token === this.runToken && !this.dead) this.showRun(m);
    });
  }

  /** Runs `params` in the run worker; resolves with the "done" message (cached) or null. A
   *  failure is shown if the run is still the page's current one (`token`; null: a skipped
   *  value computed in the background). */
  liveRun(params, key, token, onPartial) {
    this.runWorker ??= this.workers.spawn();
    const job = this.workers.run(this.runWorker, { kind: "live", params, maxPoints: 1500 }, null, onPartial);
    this.liveJob = { id: job.id, key, params };
    return job.then(
      (m) => {
        if (this.liveJob?.id === job.id) this.liveJob = null;
        if (!m) return null;
        this.runCache.delete(key);
        this.runCache.set(key, m);
        while (this.runCache.size > 64) this.runCache.delete(this.runCache.keys().next().value);
        this.runSkipped();
        return m;
      },
      (err) => {
        if (this.liveJob?.id === job.id) this.liveJob = null;
        if (token === this.runToken && !this.dead) this.el.runcap.textContent = `The full run failed: ${err.message}`;
        return null;
      },
    );
  }

  /** While the run worker is idle, computes the newest value skipped on the way. */
  runSkipped() {
    if (this.liveJob || this.dead) return;
    let j;
    while ((j = this.skipped.pop()) && this.runCache.has(j.key));
    if (j) this.liveRun(j.params, j.key, null, null);
  }

  showRun(m) {
    this.run = m.result;
    this.runCsv = m.csv;
    this.el.csvRun.disabled = !m.csv;
    this.ex.set_run(m.result);
    this.dirtyResidency = true;
    this.captionRun(m);
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
        `(${fmt.format(r.page_accesses)} page accesses, computed in ${(m.ms / 1000).toFixed(1)} s in a worker` +
        `${m.reused ? ", continuing the last run from the scan's start" : ""}.)`,
    );
    this.showRunRates();
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
      entry = { view: new mp.SweepView(this.view.sweep_depths, this.view.sweep_times, this.params), done: 0, ms: 0 };
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
      `The ring marks the current setting.`;
    this.buildSweepLines();
    this.drawSweep();
  }

  /** One button per old_blocks_time line: hovering or focusing it draws that line thick over
   *  the others (the lines that coincide can then be told apart). */
  buildSweepLines() {
    const box = this.el.sweepBtns;
    const times = [...this.view.sweep_times];
    if (box.dataset.times === times.join(",")) return;
    box.dataset.times = times.join(",");
    box.textContent = "";
    this.sweepHighlight = null;
    for (const t of times) {
      const b = el("button", { type: "button", class: "mp-small mp-sweepline", "data-line": t, "aria-pressed": "false", text: `${fmt.format(t)} ms` });
      const on = () => this.setSweepHighlight(t);
      const off = () => this.setSweepHighlight(null);
      b.addEventListener("pointerenter", on);
      b.addEventListener("focus", on);
      b.addEventListener("pointerleave", () => document.activeElement !== b && off());
      b.addEventListener("blur", off);
      b.addEventListener("click", () => this.setSweepHighlight(this.sweepHighlight === t ? null : t));
      box.append(b, " ");
    }
  }

  setSweepHighlight(t) {
    if (this.sweepHighlight === t) return;
    this.sweepHighlight = t;
    for (const b of this.el.sweepBtns.querySelectorAll("button")) b.setAttribute("aria-pressed", String(Number(b.dataset.line) === t));
    this.el.sweep.dataset.highlight = t === null ? "" : String(t);
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
      entry.view = new mp.SweepView(this.view.sweep_depths, this.view.sweep_times, this.params);
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
    for (let i = 0; i < n; i++) sw.workers.push(this.workers.spawn());
    sw.workers.forEach((w, i) => this.sweepNext(sw, w, i));
  }

  /** Resolves when the animation stops playing (at once if it is not playing). */
  untilNotPlaying() {
    if (this.status?.mode !== "playing") return Promise.resolve();
    return new Promise((resolve) => (this.notPlaying ??= []).push(resolve));
  }

  async sweepNext(sw, w, index) {
    while (this.sweep === sw && sw.todo.length) {
      // While the animation plays, the last of several workers leaves the page a core; it
      // takes it back when the animation pauses.
      if (index > 0 && index === sw.workers.length - 1 && this.status?.mode === "playing") {
        await this.untilNotPlaying();
        continue;
      }
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
}

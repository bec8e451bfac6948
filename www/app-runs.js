// Full runs and the sweep, computed off the main thread in Web Workers.
import * as mp from "../pkg/midpoint.js";
import { el, fmt } from "./util.js";

/** Points of a run's time series the workers send for the residency plot. */
const MAX_POINTS = 1500;

/** A small pool of module workers sharing one compiled WASM module. */
export class Workers {
  constructor(module, url, type, onPanic) {
    this.module = module;
    this.url = url;
    this.type = type;
    this.onPanic = onPanic;
    this.nextId = 1;
    this.live = new Set();
    // Called on every message from a worker (the page's loop wakes from its idle poll).
    this.onActivity = null;
  }
  spawn() {
    const w = new Worker(this.url, { type: this.type });
    w.postMessage({ type: "init", module: this.module });
    w.jobs = new Map();
    this.live.add(w);
    const terminate = w.terminate.bind(w);
    w.terminate = () => {
      this.live.delete(w);
      terminate();
    };
    w.onmessage = (e) => {
      this.onActivity?.();
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
  /** Whether a worker is computing (a job posted and not yet done or cancelled). */
  busy() {
    for (const w of this.live) if (w.jobs.size) return true;
    return false;
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
    // A newer value stops the last one's other runs at once (their results would land in the
    // new explorer).
    this.cancelMembers();
    this.el.runcap.textContent = "Computing the full run…";
    delete this.el.runcap.dataset.runsDone;
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
    this.wake();
    const token = ++this.runToken;
    const params = this.params;
    const key = mp.params_query(params);
    this.cancelMembers();
    this.firstRun = null;
    const stale = this.liveJob;
    if (stale) {
      this.workers.cancel(this.runWorker, stale.id);
      if (stale.key !== key && !this.runCache.has(stale.key)) this.skipped.push(stale);
    }
    this.liveJob = null;
    this.skipped = this.skipped.filter((j) => j.key !== key);
    const cached = this.runCache.get(key);
    this.startMembers(params, token);
    if (cached) {
      this.showRun(cached);
      this.pumpMembers();
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
    // The other runs at once, in the other workers.
    this.pumpMembers();
  }

  /** Runs `params` in the run worker; resolves with the "done" message (cached) or null. A
   *  failure is shown if the run is still the page's current one (`token`; null: a skipped
   *  value computed in the background). */
  liveRun(params, key, token, onPartial) {
    this.runWorker ??= this.workers.spawn();
    const job = this.workers.run(this.runWorker, { kind: "live", params, maxPoints: MAX_POINTS }, null, onPartial);
    this.liveJob = { id: job.id, key, params };
    return job.then(
      (m) => {
        if (this.liveJob?.id === job.id) this.liveJob = null;
        if (m) this.cacheRun(key, m);
        // The ensemble's runs that waited for this one (pumpMembers) go now, whatever its end.
        this.pumpMembers();
        return m;
      },
      (err) => {
        if (this.liveJob?.id === job.id) this.liveJob = null;
        if (token === this.runToken && !this.dead) this.el.runcap.textContent = `The full run failed: ${err.message}`;
        this.pumpMembers();
        return null;
      },
    );
  }

  cacheRun(key, m) {
    this.runCache.delete(key);
    this.runCache.set(key, m);
    while (this.runCache.size > 160) this.runCache.delete(this.runCache.keys().next().value);
  }

  /** While the run worker is idle (and no run of the current ensemble waits), computes the
   *  newest value skipped on the way. */
  runSkipped() {
    if (this.liveJob || this.dead || this.memberBusy.has(this.runWorker) || this.ens?.queue.length) return;
    let j;
    while ((j = this.skipped.pop()) && this.runCache.has(j.key));
    if (j) this.liveRun(j.params, j.key, null, null);
  }

  showRun(m) {
    this.run = m.result;
    this.runCsv = m.csv;
    this.el.csvRun.disabled = !m.csv;
    this.ex.set_member(0, this.ensembleRuns(), m.result);
    this.dirtyResidency = true;
    if (this.ens) this.checkEnsembleDone(this.ens);
    this.captionRun(m);
  }

  captionRun(m) {
    this.firstRun = m;
    this.captionEnsemble();
    this.showRunRates();
    this.fillTables();
  }

  /** The kept line: the runs' median and range (so far), the seed's figure beside it when the
   *  settings other than the RNG seed are the seed's, the other figures as the runs' medians. */
  captionEnsemble() {
    const m = this.firstRun;
    if (!m) return;
    const r = m.result;
    const s = this.ex.run_set_summary();
    const p = this.samePreset();
    const server = p?.seed_compare ? `; the server measured ${p.seed_compare}` : "";
    const custom = p ? "" : " (Custom settings: no seed figure to compare.)";
    const w = r.kept_window_s;
    const seed = this.params.seed;
    const seeds = s.runs > 1 ? `RNG seeds ${seed}-${seed + s.runs - 1}` : `RNG seed ${seed}`;
    const left = s.runs - s.done;
    const more = left ? ` ${left} more run${left > 1 ? "s" : ""} computing…` : "";
    const over = s.done > 1 ? " (the runs' medians)" : "";
    const ens = this.ens;
    const took = !left && s.runs > 1 && ens?.ms ? `; the ${s.runs} runs in ${(ens.ms / 1000).toFixed(1)} s in ${ens.workers} worker${ens.workers > 1 ? "s" : ""}` : "";
    this.el.runcap.textContent = "";
    this.el.runcap.dataset.runs = s.runs;
    this.el.runcap.dataset.runsDone = s.done;
    this.el.runcap.append(
      el("strong", { text: `Kept: ${s.kept_words}` }),
      `${server}.${custom}${more} The hot set's mean residency over ${Math.round(w[0])}–${Math.round(w[1])} s, ${seeds}. ` +
        `Scan pages turned young${over}: ${s.slid_young_per_s.toFixed(1)}/s by the slide, ${s.promoted_per_s.toFixed(1)}/s by promotion; ` +
        `${fmt.format(Math.round(s.refills_during_scan))} refills during the scan (mean ${fmt.format(Math.round(s.mean_refill_pages))} pages); ` +
        `lookups ${fmt.format(Math.round(s.lookups_per_s_warmup))}/s before the scan, ${fmt.format(Math.round(s.lookups_per_s))}/s during it. `,
      // What the runs cost (not shown in a compact embed, where height is the iframe's).
      el("span", {
        class: "mp-runtime",
        text:
          `(${fmt.format(r.page_accesses)} page accesses a run; the first computed in ${(m.ms / 1000).toFixed(1)} s in a worker` +
          `${m.reused ? ", continuing the last run from the scan's start" : ""}${took}.)`,
      }),
    );
  }

  // ---- the ensemble's other runs ---------------------------------------------------------

  /** Runs per setting: the runs control's, where the residency plot or its caption shows them
   *  (the lab, the residency figure); one elsewhere (a close-up embed shows no kept line). */
  ensembleRuns() {
    return this.viewName === "lab" || this.viewName === "residency" ? this.runs : 1;
  }

  /** Workers the page uses while idle: one per core. */
  cores() {
    return Math.max(1, Math.min(64, navigator.hardwareConcurrency || 2));
  }

  /** Workers that may be busy at once: every core while idle, all but one (the page's) while
   *  the animation plays. */
  workerBudget() {
    const n = this.cores();
    return this.status?.mode === "playing" ? Math.max(1, n - 1) : n;
  }

  /** The runs of `params` after the first (RNG seeds seed + 1, …): those cached at once, the
   *  others queued for the workers. */
  startMembers(params, token) {
    const n = this.ensembleRuns();
    const ens = { token, n, queue: [], jobs: new Map(), started: performance.now(), ms: 0, workers: 1 };
    this.ens = ens;
    for (let i = 1; i < n; i++) {
      const p = { ...params, seed: params.seed + i };
      const key = mp.params_query(p);
      const cached = this.runCache.get(key);
      if (cached) this.ex.set_member(i, n, cached.result);
      else ens.queue.push({ i, p, key });
    }
    this.dirtyResidency = true;
    this.checkEnsembleDone(ens);
  }

  /** Stops the current ensemble's runs at once (a newer value replaces them). */
  cancelMembers() {
    const ens = this.ens;
    this.ens = null;
    if (!ens) return;
    for (const { w, id } of ens.jobs.values()) {
      this.memberBusy.delete(w);
      this.workers.cancel(w, id);
    }
    ens.jobs.clear();
  }

  /** Hands the queued runs to idle workers, within the budget; then, if the run worker is
   *  idle, the skipped values. */
  pumpMembers() {
    const ens = this.ens;
    if (this.dead) return;
    if (!ens || !ens.queue.length) return this.runSkipped();
    const want = Math.min(this.cores() - 1, ens.n - 1);
    while (this.memberWorkers.length < want) this.memberWorkers.push(this.workers.spawn());
    this.runWorker ??= this.workers.spawn();
    const busy = () => this.memberBusy.size + (this.liveJob ? 1 : 0);
    for (const w of [...this.memberWorkers, this.runWorker]) {
      if (!ens.queue.length) break;
      const idle = !this.memberBusy.has(w) && !(w === this.runWorker && this.liveJob);
      if (!idle) continue;
      if (busy() >= this.workerBudget()) {
        if (!ens.waiting) {
          ens.waiting = true;
          this.untilNotPlaying().then(() => {
            ens.waiting = false;
            if (this.ens === ens) this.pumpMembers();
          });
        }
        break;
      }
      // While the first run computes, the others leave it a core of its own and the page one:
      // on two cores they wait for it (its curve first, then the band).
      if (this.liveJob && this.memberBusy.size >= this.cores() - 2) break;
      this.runMember(ens, w, ens.queue.shift());
    }
    ens.workers = Math.max(ens.workers, busy());
  }

  runMember(ens, w, item) {
    this.memberBusy.add(w);
    const job = this.workers.run(w, { kind: "live", params: item.p, maxPoints: MAX_POINTS, stream: false });
    ens.jobs.set(item.i, { w, id: job.id });
    job.then(
      (m) => {
        if (ens.jobs.get(item.i)?.id !== job.id) return; // cancelled
        ens.jobs.delete(item.i);
        this.memberBusy.delete(w);
        if (!m) return;
        this.cacheRun(item.key, m);
        if (this.ens === ens && ens.token === this.runToken && !this.dead) {
          this.ex.set_member(item.i, ens.n, m.result);
          this.dirtyResidency = true;
          this.checkEnsembleDone(ens);
          this.captionEnsemble();
        }
        this.pumpMembers();
      },
      (err) => {
        ens.jobs.delete(item.i);
        this.memberBusy.delete(w);
        if (this.ens === ens && !this.dead) this.el.runcap.textContent = `Run ${item.i + 1} of ${ens.n} failed: ${err.message}`;
        this.pumpMembers();
      },
    );
  }

  /** Once every run of the ensemble is there: its time, and a "midpoint-ensemble" event. */
  checkEnsembleDone(ens) {
    if (ens.ms || ens.queue.length || ens.jobs.size) return;
    const s = this.ex.run_set_summary();
    if (s.done < s.runs) return;
    ens.ms = performance.now() - ens.started;
    this.lastEnsembleMs = ens.ms;
    this.root.dispatchEvent(new CustomEvent("midpoint-ensemble", { bubbles: true, composed: true, detail: { runs: s.runs, ms: ens.ms, kept: s.kept } }));
  }

  /** The runs and seed controls: their values, and the seed set in words. */
  showEnsembleControls() {
    if (!this.el.runsIn) return;
    const seed = this.params.seed;
    if (document.activeElement !== this.el.runsIn) this.el.runsIn.value = this.runs;
    if (document.activeElement !== this.el.seedIn) this.el.seedIn.value = seed;
    this.el.seedSet.textContent = this.runs > 1 ? `seeds ${seed}-${seed + this.runs - 1}` : `seed ${seed}`;
  }

  bindEnsemble() {
    this.showEnsembleControls();
    this.el.runsIn.addEventListener("change", () => {
      const v = Math.round(Number(this.el.runsIn.value));
      const n = Number.isFinite(v) ? Math.max(1, Math.min(20, v)) : this.runs;
      this.el.runsIn.value = n;
      if (n === this.runs) return;
      this.runs = n;
      this.showEnsembleControls();
      this.resetSweep();
      this.writeUrl();
      this.updateCli();
      // The runs already here stay (the explorer's set is resized); the others are queued.
      this.scheduleRun(0);
    });
    this.el.seedIn.addEventListener("change", () => {
      const v = Math.round(Number(this.el.seedIn.value));
      if (!Number.isFinite(v) || v < 0) {
        this.el.seedIn.value = this.params.seed;
        return;
      }
      const seed = Math.min(v, 1_000_000_000);
      this.el.seedIn.value = seed;
      if (seed !== this.params.seed) this.setParam("seed", String(seed));
    });
  }

  sweepKey() {
    const p = { ...this.params, lru_scan_depth: 0, old_blocks_time: 0 };
    return `${mp.params_query(p)}|${this.view.sweep_depths}|${this.view.sweep_times}|${this.runs}`;
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
      (this.runs > 1
        ? `Each point is ${this.runs} full runs of these settings (RNG seeds ${this.params.seed}-${this.params.seed + this.runs - 1}, ` +
          `${fmt.format(this.params.warmup_s + this.params.scan_s)} simulated seconds each) with one innodb_lru_scan_depth and innodb_old_blocks_time: ` +
          `kept their median, the bar their range; ${fmt.format(total * this.runs)} runs`
        : `Each point is a full run of these settings (${fmt.format(this.params.warmup_s + this.params.scan_s)} simulated seconds) with one ` +
          `innodb_lru_scan_depth and innodb_old_blocks_time; ${total} runs`) +
      ` in ${this.sweepWorkers()} background worker${this.sweepWorkers() > 1 ? "s" : ""}. ` +
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
      // Only this button's own line is let go: a pointer leaving it after another button took
      // the focus (the page's text above moved under a still pointer) leaves that one lit.
      const off = () => this.sweepHighlight === t && this.setSweepHighlight(null);
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
    return this.cores();
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
    const sw = { key, entry, todo, total, workers: [], started: performance.now(), msSum: 0, count: 0, params: this.params, runs: this.runs };
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
        const m = await this.workers.run(w, { kind: "sweep", params: sw.params, depth, time, runs: sw.runs });
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

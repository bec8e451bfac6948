// The runs of a widget's setting, computed off the main thread in Web Workers: the first run
// streamed for the residency plot, the ensemble's other runs (RNG seeds seed + 1, …) whole, the
// values a slider skipped on its way computed afterwards into a cache.
import * as mp from "../../pkg/midpoint.js";

/** Points of a run's time series the workers send for the residency plot. */
const MAX_POINTS = 1500;

/** A small pool of workers sharing one compiled WASM module. */
export class Workers {
  constructor(module, url, type, onPanic, bindings) {
    this.module = module;
    this.bindings = bindings;
    this.url = url;
    this.type = type;
    this.onPanic = onPanic;
    this.nextId = 1;
    this.live = new Set();
    // Called on every message from a worker (the page's loop wakes from its idle poll).
    this.onActivity = null;
  }
  spawn() {
    const wk = new Worker(this.url, { type: this.type });
    wk.postMessage({ type: "init", module: this.module, bindings: this.bindings });
    wk.jobs = new Map();
    this.live.add(wk);
    const terminate = wk.terminate.bind(wk);
    wk.terminate = () => {
      this.live.delete(wk);
      terminate();
    };
    wk.onmessage = (e) => {
      this.onActivity?.();
      const m = e.data;
      if (m.type === "panic") return this.onPanic(m.message);
      if (m.type === "ready") return;
      const job = wk.jobs.get(m.id);
      if (m.id === -1) return this.onPanic(m.message);
      if (!job) return;
      if (m.type === "progress") job.onProgress?.(m.frac);
      else if (m.type === "partial") job.onPartial?.(m);
      else {
        wk.jobs.delete(m.id);
        if (m.type === "done") job.resolve(m);
        else job.reject(new Error(m.message));
      }
    };
    wk.onerror = (e) => {
      e.preventDefault();
      for (const job of wk.jobs.values()) job.reject(new Error(e.message || "worker error"));
      wk.jobs.clear();
    };
    return wk;
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

/** Workers the page uses while idle: one per core. */
export const cores = () => Math.max(1, Math.min(64, navigator.hardwareConcurrency || 2));

/**
 * Run `i` of an ensemble of the setting `params` (0: the setting's own RNG seed): the CLI's
 * seed for that run, wrapping past 2^53 - 1 to 0 (a larger one is no integer a worker can read).
 */
export function memberParams(params, i) {
  return mp.member_params(params, i);
}

/**
 * The full runs of one widget's setting. The first streams its samples into the explorer
 * (drawn over the previous curve, dimmed); a newer value cancels a stale run at once, and the
 * values skipped on the way (a drag through several stops) are computed afterwards, newest
 * first, into a cache, so that the curve is there at once when the hand goes back. The
 * ensemble's other runs go to the other workers.
 */
export class Runs {
  constructor(widget) {
    this.w = widget;
    this.workers = widget.workers;
    this.runWorker = null;
    this.runToken = 0;
    this.liveJob = null;
    this.runCache = new Map();
    this.skipped = [];
    this.ens = null;
    this.memberWorkers = [];
    this.memberBusy = new Set();
    this.pendingRun = false;
    this.first = null;
    this.notPlaying = [];
  }

  /** Runs per setting where the residency plot or its caption shows them; one elsewhere. */
  ensembleRuns() {
    return this.w.showsRuns ? this.w.view.runs : 1;
  }

  /** Workers that may be busy at once: every core while idle, all but one (the page's) while
   *  the animation plays. */
  budget() {
    const n = cores();
    return this.w.status?.mode === "playing" ? Math.max(1, n - 1) : n;
  }

  /** Resolves when the animation stops playing (at once if it is not playing). */
  untilNotPlaying() {
    if (this.w.status?.mode !== "playing") return Promise.resolve();
    return new Promise((resolve) => this.notPlaying.push(resolve));
  }

  /** The widget's status changed: wakes what waited for the animation to stop. */
  statusChanged(s) {
    if (s.mode !== "playing" && this.notPlaying.length) for (const r of this.notPlaying.splice(0)) r();
  }

  schedule(delay) {
    clearTimeout(this.timer);
    // A newer value stops the last one's other runs at once, and a run still computing is no
    // longer shown (its result, cached, would land in the new explorer before the timer fires).
    this.runToken++;
    this.cancelMembers();
    this.first = null;
    this.w.emit("runs", { computing: true });
    this.timer = setTimeout(() => this.start(), delay);
  }

  start() {
    const w = this.w;
    // A figure that shows no run of its setting (the write path, the policies) starts none.
    if (!w.needsRun) return;
    // A widget off screen does no work: the run starts when it scrolls into view.
    if (!w.visible) {
      this.pendingRun = true;
      return;
    }
    this.pendingRun = false;
    w.wake();
    const token = ++this.runToken;
    const params = w.params;
    const key = w.view.key;
    this.cancelMembers();
    this.first = null;
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
      this.show(cached);
      this.pump();
      return;
    }
    this.liveRun(params, key, token, (m) => {
      if (token !== this.runToken || w.dead) return;
      w.ex.add_run_points(m.points);
      w.emit("curvesChanged");
      w.emit("runs", { computing: true, frac: m.frac });
    }).then((m) => {
      if (m && token === this.runToken && !w.dead) this.show(m);
    });
    this.pump();
  }

  /** Runs `params` in the run worker; resolves with the "done" message (cached) or null. */
  liveRun(params, key, token, onPartial) {
    this.runWorker ??= this.workers.spawn();
    const job = this.workers.run(this.runWorker, { kind: "live", params, maxPoints: MAX_POINTS }, null, onPartial);
    this.liveJob = { id: job.id, key, params };
    return job.then(
      (m) => {
        if (this.liveJob?.id === job.id) this.liveJob = null;
        if (m) this.cache(key, m);
        // The ensemble's runs that waited for this one go now, whatever its end.
        this.pump();
        return m;
      },
      (err) => {
        if (this.liveJob?.id === job.id) this.liveJob = null;
        if (token === this.runToken && !this.w.dead) this.w.emit("runs", { error: `The full run failed: ${err.message}` });
        this.pump();
        return null;
      },
    );
  }

  cache(key, m) {
    this.runCache.delete(key);
    this.runCache.set(key, m);
    while (this.runCache.size > 160) this.runCache.delete(this.runCache.keys().next().value);
  }

  /** While the run worker is idle (and no run of the current ensemble waits), computes the
   *  newest value skipped on the way. */
  runSkipped() {
    if (this.liveJob || this.w.dead || this.memberBusy.has(this.runWorker) || this.ens?.queue.length) return;
    let j;
    while ((j = this.skipped.pop()) && this.runCache.has(j.key));
    if (j) this.liveRun(j.params, j.key, null, null);
  }

  show(m) {
    const w = this.w;
    this.first = m;
    w.ex.set_member(0, this.ensembleRuns(), m.result);
    w.emit("curvesChanged");
    if (this.ens) this.checkDone(this.ens);
    w.emit("runs", { first: m });
  }

  /** The runs of `params` after the first: those cached at once, the others queued. */
  startMembers(params, token) {
    const w = this.w;
    const n = this.ensembleRuns();
    const ens = { token, n, queue: [], jobs: new Map(), started: performance.now(), ms: 0, workers: 1 };
    this.ens = ens;
    for (let i = 1; i < n; i++) {
      const p = memberParams(params, i);
      const key = mp.params_query(p);
      const cached = this.runCache.get(key);
      if (cached) w.ex.set_member(i, n, cached.result);
      else ens.queue.push({ i, p, key });
    }
    w.emit("curvesChanged");
    this.checkDone(ens);
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
    this.publishMembers();
  }

  /** The seeds of the runs the member workers compute now, on the root as data-member-seeds
   *  (space-separated, empty when none): a test sees a newer value cancel the older runs. */
  publishMembers() {
    this.w.root.dataset.memberSeeds = [...this.memberBusy].map((wk) => wk.memberSeed).join(" ");
  }

  /** Hands the queued runs to idle workers, within the budget; then the skipped values. */
  pump() {
    const ens = this.ens;
    if (this.w.dead) return;
    if (!ens || !ens.queue.length) return this.runSkipped();
    const want = Math.min(cores() - 1, ens.n - 1);
    while (this.memberWorkers.length < want) this.memberWorkers.push(this.workers.spawn());
    this.runWorker ??= this.workers.spawn();
    const busy = () => this.memberBusy.size + (this.liveJob ? 1 : 0);
    for (const wk of [...this.memberWorkers, this.runWorker]) {
      if (!ens.queue.length) break;
      const idle = !this.memberBusy.has(wk) && !(wk === this.runWorker && this.liveJob);
      if (!idle) continue;
      if (busy() >= this.budget()) {
        if (!ens.waiting) {
          ens.waiting = true;
          this.untilNotPlaying().then(() => {
            ens.waiting = false;
            if (this.ens === ens) this.pump();
          });
        }
        break;
      }
      // While the first run computes, the others leave it a core of its own and the page one:
      // on two cores they wait for it (its curve first, then the band).
      if (this.liveJob && this.memberBusy.size >= cores() - 2) break;
      this.runMember(ens, wk, ens.queue.shift());
    }
    ens.workers = Math.max(ens.workers, busy());
  }

  runMember(ens, wk, item) {
    const w = this.w;
    this.memberBusy.add(wk);
    wk.memberSeed = item.p.seed;
    this.publishMembers();
    const job = this.workers.run(wk, { kind: "live", params: item.p, maxPoints: MAX_POINTS, stream: false });
    ens.jobs.set(item.i, { w: wk, id: job.id });
    job.then(
      (m) => {
        if (ens.jobs.get(item.i)?.id !== job.id) return; // cancelled
        ens.jobs.delete(item.i);
        this.memberBusy.delete(wk);
        this.publishMembers();
        if (!m) return;
        this.cache(item.key, m);
        if (this.ens === ens && ens.token === this.runToken && !w.dead) {
          w.ex.set_member(item.i, ens.n, m.result);
          w.emit("curvesChanged");
          this.checkDone(ens);
          w.emit("runs", { member: item.i });
        }
        this.pump();
      },
      (err) => {
        ens.jobs.delete(item.i);
        this.memberBusy.delete(wk);
        this.publishMembers();
        if (this.ens === ens && !w.dead) w.emit("runs", { error: `Run ${item.i + 1} of ${ens.n} failed: ${err.message}` });
        this.pump();
      },
    );
  }

  /** Once every run of the ensemble is there: its time, and a "midpoint-ensemble" event. */
  checkDone(ens) {
    if (ens.ms || ens.queue.length || ens.jobs.size) return;
    const s = this.w.ex.run_set_summary();
    if (s.done < s.runs) return;
    ens.ms = performance.now() - ens.started;
    this.w.root.dispatchEvent(new CustomEvent("midpoint-ensemble", { bubbles: true, composed: true, detail: { runs: s.runs, ms: ens.ms, kept: s.kept } }));
  }

  /** What the runs cost, for the caption (`ui::page::RunCost`). */
  cost() {
    const m = this.first;
    const ens = this.ens;
    return { page_accesses: 0, ms: m?.ms ?? 0, reused: !!m?.reused, ensemble_ms: ens?.ms ?? 0, workers: ens?.workers ?? 1 };
  }

  stop() {
    this.runWorker?.terminate();
    for (const wk of this.memberWorkers) wk.terminate();
  }
}

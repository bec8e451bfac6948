// Web Worker: a second instance of the simulator's WASM module, running full runs and sweep
// points off the page's main thread. Messages:
//   in:  {type: "init", module, bindings?}           the compiled WebAssembly.Module and the URL
//                                                    of its bindings (none: the full module's)
//        {id, kind: "live", params, maxPoints,       a full run for the residency plot, its samples
//         stream?, csv?}                             streamed as "partial" messages (not with
//                                                    stream: false; no csv with csv: false); a
//                                                    newer live job or {kind: "cancel"} stops it
//        {id, kind: "sweep", params, depth, time,    one sweep point (over `runs` RNG seeds:
//         runs?}                                     kept's median and range)
//        {id, kind: "write", preset, depth, pages}   a write-path run (progress on the way;
//                                                    result + cells, instance 0 per moment)
//        {id, kind: "policies", params}              every replacement policy on these parameters
//                                                    (progress after each policy; result: rows)
//        {id, kind: "write-depth", depth}            one point of the write-path trade-off
//   out: {type: "ready"} | {id, type: "progress", frac} | {id, type: "done", result, ms, csv?}
//        (csv: a run's whole time series, every parameter in its header)
//        | {id, type: "partial", points, frac, reused} (points: new [t, hot, scan_young] triplets;
//          reused: the run continues the snapshot at the scan's start)
//        | {id, type: "error", message} | {type: "panic", message}
// The bindings of the module the page sends (its own), or the full module's when it sends none
// (a page of the small module, pkg/core/, has no runners).
const bindings = (url) => import(url ?? "../pkg/midpoint.js");
let mp = null;

let ready = null;

// Live runs: one LiveRunner (it keeps the last run's snapshot at the scan's start) and the id
// of the live job allowed to continue; the loop yields to the event loop between slices of
// about SLICE_MS so that a newer job or a cancel is seen at once.
let live = null;
let liveId = 0;
const SLICE_MS = 12;
const POST_MS = 80;
const yielder = new MessageChannel();
let resume = null;
yielder.port1.onmessage = () => {
  const r = resume;
  resume = null;
  r?.();
};
// A loop still waiting when a newer one yields is let go at once: it sees it is stale and ends.
const yieldToEvents = () =>
  new Promise((r) => {
    const stale = resume;
    resume = r;
    stale?.();
    yielder.port2.postMessage(0);
  });

async function runLive(m, t0) {
  liveId = m.id;
  live ??= new mp.LiveRunner();
  const reused = live.start(m.params);
  let slice = 20_000;
  let posted = -Infinity;
  for (;;) {
    const a = performance.now();
    const frac = live.advance(slice);
    const b = performance.now();
    slice = Math.round(Math.min(2_000_000, Math.max(2_000, (slice * SLICE_MS) / Math.max(0.25, b - a))));
    if (frac < 1 && m.stream !== false && b - posted >= POST_MS) {
      const points = new Float64Array(live.take_points());
      self.postMessage({ id: m.id, type: "partial", points, frac, reused }, [points.buffer]);
      posted = b;
    }
    if (frac >= 1) break;
    await yieldToEvents();
    if (liveId !== m.id) return;
  }
  liveId = 0;
  const result = live.result(m.maxPoints ?? 1500);
  const csv = m.csv === false ? null : live.samples_csv();
  self.postMessage({ id: m.id, type: "done", result, csv, reused, ms: performance.now() - t0 });
}

// A Rust panic is reported by the module as a "midpoint-panic" event on the global scope.
self.addEventListener("midpoint-panic", (e) => {
  self.postMessage({ type: "panic", message: String(e.detail) });
});

self.onmessage = async (e) => {
  const m = e.data;
  if (m.type === "init") {
    ready = bindings(m.bindings).then((b) => {
      mp = b;
      return b.default({ module_or_path: m.module });
    });
    try {
      await ready;
      self.postMessage({ type: "ready" });
    } catch (err) {
      self.postMessage({ type: "error", id: -1, message: `the worker could not start the WASM module: ${err}` });
    }
    return;
  }
  if (m.kind === "cancel") {
    if (liveId === m.id) liveId = 0;
    return;
  }
  await ready;
  const t0 = performance.now();
  try {
    if (m.kind === "sweep") {
      const result = mp.sweep_point(m.params, m.depth, m.time, m.runs ?? 1);
      self.postMessage({ id: m.id, type: "done", result, ms: performance.now() - t0 });
    } else if (m.kind === "live") {
      await runLive(m, t0);
    } else if (m.kind === "write") {
      const r = new mp.WriteRunner(m.preset, m.depth, m.pages);
      let frac = 0;
      let last = 0;
      while ((frac = r.advance(50_000)) < 1) {
        const now = performance.now();
        if (now - last > 100) {
          self.postMessage({ id: m.id, type: "progress", frac });
          last = now;
        }
      }
      const result = r.result();
      const cells = r.cells();
      r.free();
      self.postMessage({ id: m.id, type: "done", result, cells, ms: performance.now() - t0 }, [cells.buffer]);
    } else if (m.kind === "policies") {
      const c = new mp.Policies(m.params);
      let frac = 0;
      while ((frac = c.step()) < 1) self.postMessage({ id: m.id, type: "progress", frac });
      const result = c.rows();
      c.free();
      self.postMessage({ id: m.id, type: "done", result, ms: performance.now() - t0 });
    } else if (m.kind === "write-depth") {
      const result = mp.write_depth_point(m.depth);
      self.postMessage({ id: m.id, type: "done", result, ms: performance.now() - t0 });
    } else {
      throw new Error(`unknown job kind ${m.kind}`);
    }
  } catch (err) {
    self.postMessage({ id: m.id, type: "error", message: String(err?.message ?? err) });
  }
};

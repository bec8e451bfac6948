// Web Worker: a second instance of the simulator's WASM module, running full runs and sweep
// points off the page's main thread. Messages:
//   in:  {type: "init", module}                      the compiled WebAssembly.Module
//        {id, kind: "run", params, maxPoints}        a full run (progress messages on the way)
//        {id, kind: "sweep", params, depth, time}    one sweep point
//        {id, kind: "write", preset, depth, pages}   a write-path run (progress on the way;
//                                                    result + cells, instance 0 per moment)
//        {id, kind: "policies", params}              every replacement policy on these parameters
//                                                    (progress after each policy; result: rows)
//        {id, kind: "write-depth", depth}            one point of the write-path trade-off
//   out: {type: "ready"} | {id, type: "progress", frac} | {id, type: "done", result, ms, csv?}
//        (csv: a run's whole time series, every parameter in its header)
//        | {id, type: "error", message} | {type: "panic", message}
import init, { Policies, Runner, sweep_point, WriteRunner, write_depth_point } from "../pkg/midpoint.js";

let ready = null;

// A Rust panic is reported by the module as a "midpoint-panic" event on the global scope.
self.addEventListener("midpoint-panic", (e) => {
  self.postMessage({ type: "panic", message: String(e.detail) });
});

self.onmessage = async (e) => {
  const m = e.data;
  if (m.type === "init") {
    ready = init({ module_or_path: m.module });
    try {
      await ready;
      self.postMessage({ type: "ready" });
    } catch (err) {
      self.postMessage({ type: "error", id: -1, message: `the worker could not start the WASM module: ${err}` });
    }
    return;
  }
  await ready;
  const t0 = performance.now();
  try {
    if (m.kind === "sweep") {
      const result = sweep_point(m.params, m.depth, m.time);
      self.postMessage({ id: m.id, type: "done", result, ms: performance.now() - t0 });
    } else if (m.kind === "run") {
      const r = new Runner(m.params);
      let frac = 0;
      let last = 0;
      while ((frac = r.advance(250_000)) < 1) {
        const now = performance.now();
        if (now - last > 100) {
          self.postMessage({ id: m.id, type: "progress", frac });
          last = now;
        }
      }
      const result = r.result(m.maxPoints ?? 1500);
      const csv = r.samples_csv();
      r.free();
      self.postMessage({ id: m.id, type: "done", result, csv, ms: performance.now() - t0 });
    } else if (m.kind === "write") {
      const r = new WriteRunner(m.preset, m.depth, m.pages);
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
      const c = new Policies(m.params);
      let frac = 0;
      while ((frac = c.step()) < 1) self.postMessage({ id: m.id, type: "progress", frac });
      const result = c.rows();
      c.free();
      self.postMessage({ id: m.id, type: "done", result, ms: performance.now() - t0 });
    } else if (m.kind === "write-depth") {
      const result = write_depth_point(m.depth);
      self.postMessage({ id: m.id, type: "done", result, ms: performance.now() - t0 });
    } else {
      throw new Error(`unknown job kind ${m.kind}`);
    }
  } catch (err) {
    self.postMessage({ id: m.id, type: "error", message: String(err?.message ?? err) });
  }
};

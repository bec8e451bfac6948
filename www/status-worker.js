// Web Worker for the "Your server" panel: a second instance of the WASM module reads the paste
// (status_report) and runs the leak risk, the scenario read from the paste and the changes tried
// (StatusRisk in src/web/status.rs), each row a few seeds, a slice of events at a time, so the
// page's main thread never runs either (a 5 MB paste is read here, not in the tab). The panel
// keeps one worker for reading and starts one per leak-risk job, which it stops by terminating
// it (when the paste changes or a new job starts).
// Messages:
//   in:  {type: "init", module}          the compiled WebAssembly.Module
//        {id, type: "read", text, hot}   read the paste: answers {id, type: "report", result, ms}
//        {id, text, hot, runs}           the leak risk of the paste, the hot set (0: the
//                                        suggestion), runs per row (0: as many as the page allows)
//   out: {type: "ready"} | {id, type: "progress", frac, now, result, mem} (result: the JSON
//        string of the fit and the rows so far; the first comes before any run, with the
//        estimate; mem: the WebAssembly memory's bytes) | {id, type: "done", result, ms, mem}
//        | {id, type: "error", message} | {type: "panic", message}
import init, { StatusRisk, status_report } from "../pkg/midpoint.js";

let ready = null;
let wasm = null;
const mem = () => wasm?.memory?.buffer?.byteLength ?? 0;
// Slices of about SLICE_MS, progress every POST_MS.
const SLICE_MS = 25;
const POST_MS = 100;

self.addEventListener("midpoint-panic", (e) => {
  self.postMessage({ type: "panic", message: String(e.detail) });
});

self.onmessage = async (e) => {
  const m = e.data;
  if (m.type === "init") {
    ready = init({ module_or_path: m.module });
    try {
      wasm = await ready;
      self.postMessage({ type: "ready" });
    } catch (err) {
      self.postMessage({ type: "error", id: -1, message: `the worker could not start the WASM module: ${err}` });
    }
    return;
  }
  await ready;
  const t0 = performance.now();
  if (m.type === "read") {
    try {
      const result = status_report(m.text, m.hot ?? 0, m.tables ?? "");
      self.postMessage({ id: m.id, type: "report", result, ms: performance.now() - t0 });
    } catch (err) {
      self.postMessage({ id: m.id, type: "error", message: String(err?.message ?? err) });
    }
    return;
  }
  let r = null;
  try {
    r = new StatusRisk(m.text, m.hot ?? 0, m.tables ?? "", m.runs ?? 0);
    // The estimate (or the reason the page will not run it) before any run.
    self.postMessage({ id: m.id, type: "progress", frac: 0, now: r.current(), result: r.result(), mem: mem() });
    let slice = 20_000;
    let posted = -Infinity;
    let frac = 0;
    while (frac < 1) {
      const a = performance.now();
      frac = r.advance(slice);
      const b = performance.now();
      slice = Math.round(Math.min(2_000_000, Math.max(2_000, (slice * SLICE_MS) / Math.max(0.25, b - a))));
      if (frac < 1 && b - posted >= POST_MS) {
        self.postMessage({ id: m.id, type: "progress", frac, now: r.current(), result: r.result(), mem: mem() });
        posted = b;
      }
    }
    self.postMessage({ id: m.id, type: "done", result: r.result(), ms: performance.now() - t0, mem: mem() });
  } catch (err) {
    self.postMessage({ id: m.id, type: "error", message: String(err?.message ?? err) });
  } finally {
    r?.free();
  }
};

// The figures' test surface (docs/testing.md, "The test surface"): what `debug()` on a widget's
// root, or `window.__midpoint.debug(i)`, returns. Loaded on first use (widget.js, loadSurface):
// the full pages load it at start, an embedded figure only when something asks.
import * as mp from "../../pkg/midpoint.js";

/** A widget's counts and state: what `debug()` returns. */
export function widgetDebug(w) {
  const s = w.ex.status();
  const c = mp.strip_constants();
  const cells = new Uint8Array(w.wasm.memory.buffer, w.ex.cells_ptr(), w.ex.cells_len());
  let young = 0;
  let old = 0;
  let ringedYoung = 0;
  // The rings drawn on the pool's cells, counted by ring, table and age: "pink hot old" (a
  // hot-set page the last batch turned old, old now), "black scan young", ….
  const rings = {};
  const tables = ["free", "hot", "rest", "scan", "filler"];
  for (const b of cells) {
    if ((b & c.kind_mask) === 0) continue;
    if (b & c.old_bit) old++;
    else young++;
    const mark = b & c.mark_mask;
    if (mark === c.mark_young) ringedYoung++;
    if (mark !== c.mark_young && mark !== c.mark_old) continue;
    const k = `${mark === c.mark_young ? "black" : "pink"} ${tables[b & c.kind_mask] ?? "?"} ${b & c.old_bit ? "old" : "young"}`;
    rings[k] = (rings[k] ?? 0) + 1;
  }
  return {
    ...s,
    cells: cells.length,
    young,
    oldCells: old,
    ringedYoung,
    rings,
    hasRun: !!w.runs.first,
    sweepMs: w.sweepFigure?.lastMs ?? null,
    ensembleMs: w.runs.ens?.ms || null,
    runs: w.view.runs,
    idle: w.idleTimer !== 0,
    // Workers computing runs or a sweep (the frame loop is not idle meanwhile).
    workersBusy: w.workers.busy(),
    idleMisses: w.idleMisses,
    // The scout's snapshots for scrubbing all made (the loop rests only then).
    scouted: w.ex.scouted(),
    strip: stripDebug(w),
    // The time a click at each tenth of the residency plot's width seeks to (0 to 10 tenths).
    residencySeek: residencySeekDebug(w),
    // The full runs: one computing for the shown setting, the skipped stops still to compute,
    // the runs cached.
    liveRun: !!w.runs.liveJob,
    skippedRuns: w.runs.skipped?.length ?? 0,
    cachedRuns: w.runs.runCache?.size ?? 0,
    // The sweep's workers, and how many are computing a point now.
    sweepWorkers: w.sweepFigure?.workerCount() ?? 0,
    sweepBusy: w.sweepFigure?.job?.workers.filter((k) => k.jobs.size > 0).length ?? 0,
  };
}

/** The close-up's cells as its last frame computed them (`null` without a close-up): each
 *  cell's page, place (CSS px), flags (1: turned young by the boundary since the last batch)
 *  and region (0: the head row, 1: the window around LRU_old); the head row's counts; and its
 *  trails. */
function stripDebug(w) {
  if (!w.stripFigure) return null;
  const ex = w.ex;
  const stride = ex.constructor.strip_stride();
  const n = ex.strip_len();
  const v = new Float32Array(w.wasm.memory.buffer, ex.strip_ptr(), n);
  const c = mp.strip_constants();
  const cells = [];
  // The head row as drawn (region 0): its cells, its young scan pages (table 3), and how many of
  // those carry the black ring (the words of a beat are tested against it).
  const headRow = { cells: 0, youngScan: 0, ringed: 0 };
  for (let i = 0; i + stride - 1 < n; i += stride) {
    cells.push({ page: v[i], x: v[i + 1], y: v[i + 2], flags: v[i + 4], region: v[i + 6] });
    if (v[i + 6] !== 0) continue;
    headRow.cells++;
    const b = v[i + 3];
    if ((b & c.kind_mask) !== 3 || b & c.old_bit) continue;
    headRow.youngScan++;
    if ((b & c.mark_mask) === c.mark_young) headRow.ringed++;
  }
  return { cells, headRow, trails: ex.strip_meta().trails.length };
}

/** Where a click on the residency plot seeks to, at each tenth of its width (`null` without
 *  the plot): the times its seek computes from the pointer's place. */
function residencySeekDebug(w) {
  const r = w.residencyFigure;
  if (!r?.canvas) return null;
  const c = r.canvas;
  const width = c.getBoundingClientRect().width;
  return Array.from({ length: 11 }, (_, i) => w.ex.residency_time_at((width * i) / 10, width, c.width, r.scale || 1));
}

// One full-size seed000-hot4485-b2b run of a wasm-bindgen build in Node (scripts/profile-wasm.sh):
//   node scripts/profile-wasm.mjs PKG_DIR [RUNS]
// prints {"runs", "ms", "kept", "events"} (ms: each run's wall time). RUNS = 0 only loads the
// module, for the start-up's share of an instruction count.
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";

const dir = resolve(process.argv[2] ?? "pkg");
const runs = Number(process.argv[3] ?? 1);
const mp = await import(pathToFileURL(`${dir}/midpoint.js`));
mp.initSync({ module: readFileSync(`${dir}/midpoint_bg.wasm`) });
const params = mp.presets().find((x) => x.name === "seed000-hot4485-b2b").params;
const ms = [];
let res = null;
for (let i = 0; i < runs; i++) {
  const t0 = performance.now();
  const r = new mp.Runner(params);
  // Slices as the page's worker runs them (about 12 ms each idle): the boundary is crossed as often.
  while (r.advance(200_000) < 1);
  ms.push(Number((performance.now() - t0).toFixed(1)));
  res = r.result(10);
  r.free();
}
console.log(JSON.stringify({ runs, ms, kept: res?.kept ?? null, events: res?.events ?? null }));

// Prints the speed of the WASM core in headless Chromium beside the native figure, the cost of
// drawing the pool, and the time of the page's full 40-point sweep. Not a test:
//   scripts/serve.sh &   (or any server of the repository root)
//   node tests/browser/bench.mjs [--runs N] [--no-sweep] [--no-native]
// MIDPOINT_URL sets the server (default http://127.0.0.1:8000). Times use performance.now()
// (never --virtual-time-budget, which freezes it).
import { execFileSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { baseUrl, launch } from "./helpers.mjs";

const args = process.argv.slice(2);
const runsArg = args.indexOf("--runs");
const runs = runsArg >= 0 ? Number(args[runsArg + 1]) : 3;
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const mill = (x) => `${(x / 1e6).toFixed(1)} million`;

if (!args.includes("--no-native")) {
  try {
    const out = execFileSync("cargo", ["run", "--release", "-q", "--", "bench", "--json", "--runs", String(runs)], {
      cwd: root,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "inherit"],
    });
    const r = JSON.parse(out);
    console.log(`native (cargo run --release -- bench): ${mill(r.accesses_per_s)} page accesses/s, ${r.run_ms_median.toFixed(0)} ms per run (median of ${runs})`);
  } catch (e) {
    console.log(`native: could not run cargo bench (${e.message.split("\n")[0]})`);
  }
}

const browser = await launch();
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  await page.goto(`${baseUrl}/www/lab.html?autoplay=0`);
  await page.waitForFunction(() => document.documentElement.dataset.midpointReady === "1");
  const core = await page.evaluate(async (runs) => {
    const mp = await import("../pkg/midpoint.js");
    const p = mp.presets().find((x) => x.name === "seed000-hot4485-b2b").params;
    const ms = [];
    let res;
    for (let i = 0; i < runs; i++) {
      const t0 = performance.now();
      const r = new mp.Runner(p);
      while (r.advance(1_000_000) < 1);
      ms.push(performance.now() - t0);
      res = r.result(10);
      r.free();
    }
    ms.sort((a, b) => a - b);
    return { ms, med: ms[Math.floor(ms.length / 2)], accesses: res.page_accesses, events: res.events };
  }, runs);
  console.log(
    `WASM in headless Chromium (main thread): ${mill(core.accesses / (core.med / 1000))} page accesses/s, ` +
      `${core.med.toFixed(0)} ms per run (median of ${runs}; ${mill(core.accesses)} accesses, ${mill(core.events)} events)`,
  );
  // Drawing the 16,382-frame pool: build the cell bytes, render the pixels, putImageData.
  const draw = await page.evaluate(() => {
    const app = window.__midpoint.apps[0];
    const ctx = document.querySelector(".mp-pool").getContext("2d");
    const t0 = performance.now();
    for (let i = 0; i < 100; i++) app.ex.draw(ctx);
    const c = document.querySelector(".mp-pool");
    return { ms: (performance.now() - t0) / 100, w: c.width, h: c.height };
  });
  console.log(`pool drawing: ${draw.ms.toFixed(2)} ms per frame (${draw.w}×${draw.h} device px)`);
  // Frames while playing at 100×.
  const fps = await page.evaluate(async () => {
    const app = window.__midpoint.apps[0];
    app.ex.set_speed(6);
    app.ex.play();
    let n = 0;
    const t0 = performance.now();
    const v0 = app.ex.t_s();
    await new Promise((done) => {
      const f = () => (performance.now() - t0 < 3000 ? (n++, requestAnimationFrame(f)) : done());
      requestAnimationFrame(f);
    });
    app.ex.pause();
    return { fps: n / 3, virt: (app.ex.t_s() - v0) / 3 };
  });
  console.log(`playing at 100×: ${fps.fps.toFixed(0)} frames/s, ${fps.virt.toFixed(0)} simulated s per wall s`);
  if (!args.includes("--no-sweep")) {
    const hw = await page.evaluate(() => navigator.hardwareConcurrency);
    const t0 = Date.now();
    await page.click('[data-act="sweep"]');
    await page.waitForFunction(() => /40 of 40 points in/.test(document.querySelector(".mp-sweepmsg").textContent), null, {
      timeout: 600_000,
      polling: 500,
    });
    const d = await page.evaluate(() => window.__midpoint.debug());
    console.log(
      `full sweep (40 full-size runs, ${Math.min(4, hw)} workers, hardwareConcurrency ${hw}): ${(d.sweepMs / 1000).toFixed(1)} s ` +
        `(${((Date.now() - t0) / 1000).toFixed(1)} s wall)`,
    );
  }
} finally {
  await browser.close();
}

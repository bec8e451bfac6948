// Prints the speed of the WASM core in headless Chromium beside the native figure, the cost of
// drawing the pool, and the time of the page's full 40-point sweep. Not a test:
//   scripts/serve.sh &   (or any server of the repository root)
//   node tests/browser/bench.mjs [--runs N] [--no-sweep] [--no-native]
//   node tests/browser/bench.mjs --json --native-ms MS --budget-s S   (scripts/bench-web.sh)
// MIDPOINT_URL sets the server (default http://127.0.0.1:8000). Times use performance.now()
// (never --virtual-time-budget, which freezes it).
//
// --json prints one JSON line: native_run_ms (given), wasm_run_ms (median of 3 full-size
// seed000-hot4485-b2b runs, each in a fresh page worker after one run of another RNG seed there,
// so that none continues another's snapshot and none pays a new instance's memory growth and
// tier-up), wasm_native_ratio, wasm_cold_run_ms (median of those first runs, of the other seeds, in the
// fresh workers), slider_first_ms and slider_full_ms (median over 5 moves of the
// innodb_lru_scan_depth slider, from its input event to the first midpoint-residency event and
// to the final one, partial: false), ensemble5_ms (median over 3 moves of the
// innodb_old_blocks_time slider, from its input event to the page's midpoint-ensemble event: the
// 5-run band complete, in the page's own workers, the page idle), and sweep40_s (the page's
// 40-point sweep at one run per point; null when it would not finish inside what is left of
// --budget-s seconds, counted from this script's start), seek_cold_ms (the slowest of 10 seeks to
// moments spread over the full run, 10 % to 100 %, each in a fresh figure with nothing prepared,
// from the request to the frame drawn there), forecast_16g_ms (the Your server panel's leak-risk
// forecast of the 16 GiB, 8-instance status fixture, from the press of Leak risk to data-risk
// "done", in a page of its own; null when refused or not over in time), then the lines
// `seek_cold_ms N`, `seek_cold_each_ms N…` and `forecast_16g_ms N`.
import { execFileSync } from "node:child_process";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { baseUrl, launch } from "./helpers.mjs";

const started = Date.now();
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const args = process.argv.slice(2);
const argOf = (name, dflt) => (args.includes(name) ? Number(args[args.indexOf(name) + 1]) : dflt);
const runs = argOf("--runs", 3);
const median = (xs) => {
  const v = [...xs].sort((a, b) => a - b);
  return v.length % 2 ? v[(v.length - 1) / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
};

/** The lab's widget object itself, for the measurements of what no figure publishes (its workers'
 *  bare runs, a fresh explorer's cold seeks, the pool's drawing): the one reach in this file past
 *  the test surface (docs/testing.md, "The test surface"). */
const labWidget = (page) => page.evaluateHandle(() => window.__midpoint.apps[0]);

/** Runs the page's 40-point sweep (one run per point); resolves with its time (ms) as the page reports it, or null
 *  if it is not over within `timeoutMs`. */
async function sweep(page, timeoutMs) {
  // One run per point (sweep40_s's definition): the runs control at 1.
  await page.evaluate(() => {
    const i = document.querySelector('[data-ctl="runs"]');
    i.value = "1";
    i.dispatchEvent(new Event("change", { bubbles: true }));
  });
  await page.click('[data-act="sweep"]');
  try {
    await page.waitForFunction(() => /40 of 40 points in/.test(document.querySelector(".mp-sweepmsg").textContent), null, {
      timeout: Math.max(1, timeoutMs),
      polling: 500,
    });
  } catch {
    await page.click('[data-act="cancel"]').catch(() => {});
    return null;
  }
  return (await page.evaluate(() => window.__midpoint.debug())).sweepMs;
}

/** The page's leak-risk forecast of the 16 GiB, 8-instance status fixture (crates/status/tests/
 *  fixtures/status/mysql-8.0-16g-8-instances.txt), pasted into the lab's Your server panel and
 *  read: ms from the press of Leak risk to the panel's data-risk "done", in a page of its own;
 *  null if it is refused or not over within `timeoutMs`. */
async function forecast16g(browser, timeoutMs) {
  const fixture = path.join(root, "crates", "status", "tests", "fixtures", "status", "mysql-8.0-16g-8-instances.txt");
  const text = await readFile(fixture, "utf8");
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  try {
    await page.goto(`${baseUrl}/www/lab.html?autoplay=0`);
    await page.waitForFunction(() => document.querySelector("[data-testid=status-panel]")?.dataset.ready === "1", null, {
      timeout: 60_000,
    });
    await page.fill("[data-testid=status-paste]", text);
    await page.click("[data-testid=status-read]");
    await page.waitForFunction(() => document.querySelector("[data-testid=status-panel]").dataset.read === "done", null, {
      timeout: 60_000,
    });
    return await page.evaluate(
      (timeout) =>
        new Promise((resolve) => {
          const panel = document.querySelector("[data-testid=status-panel]");
          const t0 = performance.now();
          const obs = new MutationObserver(() => {
            const r = panel.dataset.risk;
            if (r !== "done" && r !== "refused") return;
            obs.disconnect();
            resolve(r === "done" ? performance.now() - t0 : null);
          });
          obs.observe(panel, { attributes: true, attributeFilter: ["data-risk"] });
          setTimeout(() => {
            obs.disconnect();
            resolve(null);
          }, timeout);
          panel.querySelector("[data-testid=status-risk-run]").click();
        }),
      Math.max(1, timeoutMs),
    );
  } finally {
    await page.close();
  }
}

if (args.includes("--json")) {
  const budgetMs = argOf("--budget-s", 240) * 1000;
  const nativeMs = argOf("--native-ms", NaN);
  const browser = await launch();
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    await page.goto(`${baseUrl}/www/lab.html?autoplay=0`);
    await page.waitForFunction(() => document.documentElement.dataset.midpointReady === "1");
    // The page's own first run, over before anything is timed.
    await page.waitForFunction(() => window.__midpoint.debug().hasRun, null, { timeout: 120_000, polling: 100 });
    const lab = await labWidget(page);
    const wasm = await lab.evaluate(async (app, runs) => {
      const mp = await import("../pkg/midpoint.js");
      const params = mp.presets().find((x) => x.name === "seed000-hot4485-b2b").params;
      const warm = [];
      const cold = [];
      for (let i = 0; i < runs; i++) {
        const w = app.workers.spawn();
        // First a run of another RNG seed (its snapshot is of no use to the timed run): the
        // worker's memory grown and its code tiered up, as the page's run worker is after its
        // first run and as native's median run is after the first.
        const first = await app.workers.run(w, { kind: "live", params: { ...params, seed: params.seed + 1000 + i }, maxPoints: 10 });
        const m = await app.workers.run(w, { kind: "live", params, maxPoints: 10 });
        w.terminate();
        if (m.reused) throw new Error("the timed run continued a snapshot");
        cold.push(first.ms);
        warm.push(m.ms);
      }
      return { warm, cold };
    }, runs);
    const slider = await page.evaluate(async () => {
      const root = document.querySelector('[data-testid="midpoint-widget"]');
      const s = document.querySelector('input[data-key="lru_scan_depth"]');
      const first = [];
      const full = [];
      for (let i = 1; i <= 5; i++) {
        // Five stops not visited yet, alternately right and left of the start (no cached run).
        const v = Number(s.value) + (i % 2 ? i : -i);
        const got = new Promise((resolve) => {
          const seen = [];
          const on = (e) => {
            seen.push(performance.now());
            if (!e.detail.partial) {
              root.removeEventListener("midpoint-residency", on);
              resolve(seen);
            }
          };
          root.addEventListener("midpoint-residency", on);
        });
        const t0 = performance.now();
        s.value = String(Math.max(0, Math.min(Number(s.max), v)));
        s.dispatchEvent(new Event("input", { bubbles: true }));
        const seen = await got;
        first.push(seen[0] - t0);
        full.push(seen[seen.length - 1] - t0);
      }
      // The ensemble: a setting's 5 runs (the page's default) complete, from the input event.
      const o = document.querySelector('input[data-key="old_blocks_time"]');
      const ensemble = [];
      for (let i = 1; i <= 3; i++) {
        const v = Number(o.value) + (i % 2 ? i : -i);
        const got = new Promise((resolve) => {
          const on = (e) => {
            if (e.detail.runs !== 5) return;
            root.removeEventListener("midpoint-ensemble", on);
            resolve(performance.now());
          };
          root.addEventListener("midpoint-ensemble", on);
        });
        const t0 = performance.now();
        o.value = String(Math.max(0, Math.min(Number(o.max), v)));
        o.dispatchEvent(new Event("input", { bubbles: true }));
        ensemble.push((await got) - t0);
      }
      return { first, full, ensemble };
    });
    // A seek, cold: 10 moments spread over the full run (the lab's default, experiment 000's
    // 210 s), each in a fresh figure (a new explorer: no snapshots, no scout), from the request
    // to the frame drawn there.
    const seeks = await lab.evaluate(async (app) => {
      const frame = () => new Promise((r) => requestAnimationFrame(r));
      const out = [];
      for (let i = 1; i <= 10; i++) {
        app.newExplorer(0);
        app.ex.set_scouting(false);
        app.wake();
        await frame();
        await frame();
        const end = app.ex.status().end_s;
        const target = (end * i) / 10;
        app.status = null;
        const t0 = performance.now();
        app.ex.seek_time(target);
        app.wake();
        for (;;) {
          await frame();
          const s = app.status;
          if (s && s.mode === "paused" && s.t_s >= Math.min(target, end) - 1e-6) break;
        }
        out.push(performance.now() - t0);
      }
      return out;
    });
    const workers = await page.evaluate(() => window.__midpoint.debug().sweepWorkers);
    const wasmMs = median(wasm.warm);
    // The page's forecast of a 16 GiB pool in 8 instances, with the figure's page idle.
    const forecastMs = await forecast16g(browser, Math.min(300_000, budgetMs - (Date.now() - started) - 10_000));
    const left = budgetMs - (Date.now() - started);
    // The page's workers share the 40 points; a quarter more for the page and the stragglers.
    const estimate = ((40 * wasmMs) / Math.max(1, workers)) * 1.25;
    const sweepMs = estimate < left - 5_000 ? await sweep(page, left - 5_000) : null;
    const round = (x, d = 1) => (x === null || !Number.isFinite(x) ? null : Number(x.toFixed(d)));
    console.log(
      JSON.stringify({
        native_run_ms: round(nativeMs),
        wasm_run_ms: round(wasmMs),
        wasm_native_ratio: round(nativeMs / wasmMs, 3),
        wasm_cold_run_ms: round(median(wasm.cold)),
        slider_first_ms: round(median(slider.first)),
        slider_full_ms: round(median(slider.full)),
        ensemble5_ms: round(median(slider.ensemble)),
        workers,
        sweep40_s: sweepMs === null ? null : round(sweepMs / 1000, 2),
        seek_cold_ms: round(Math.max(...seeks)),
        forecast_16g_ms: round(forecastMs, 0),
      }),
    );
    // The page's forecast of the 16 GiB, 8-instance status (null: refused or not over in time).
    console.log(`forecast_16g_ms ${forecastMs === null ? "null" : Math.round(forecastMs)}`);
    // The slowest cold seek, and each of them (10 % to 100 % of the run).
    console.log(`seek_cold_ms ${Math.round(Math.max(...seeks))}`);
    console.log(`seek_cold_each_ms ${seeks.map((x) => Math.round(x)).join(" ")}`);
  } finally {
    await browser.close();
  }
  process.exit(0);
}
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
  const draw = await (await labWidget(page)).evaluate((app) => {
    const ctx = document.querySelector(".mp-pool").getContext("2d");
    const t0 = performance.now();
    for (let i = 0; i < 100; i++) app.ex.draw(ctx);
    const c = document.querySelector(".mp-pool");
    return { ms: (performance.now() - t0) / 100, w: c.width, h: c.height };
  });
  console.log(`pool drawing: ${draw.ms.toFixed(2)} ms per frame (${draw.w}×${draw.h} device px)`);
  // Frames while playing at 100× (the Speed menu's last), counted over 3 s of playing.
  const speed = page.locator('[data-testid="midpoint-widget"] select[data-ctl="speed"]');
  await speed.selectOption(await speed.evaluate((s) => s.options[s.options.length - 1].value));
  await page.click('[data-act="play"]');
  const fps = await page.evaluate(async () => {
    let n = 0;
    const t0 = performance.now();
    const v0 = window.__midpoint.debug().t_s;
    await new Promise((done) => {
      const f = () => (performance.now() - t0 < 3000 ? (n++, requestAnimationFrame(f)) : done());
      requestAnimationFrame(f);
    });
    return { fps: n / 3, virt: (window.__midpoint.debug().t_s - v0) / 3 };
  });
  await page.click('[data-act="play"]');
  await page.waitForFunction(() => document.querySelector('[data-testid="midpoint-widget"]').dataset.mode === "paused");
  console.log(`playing at 100×: ${fps.fps.toFixed(0)} frames/s, ${fps.virt.toFixed(0)} simulated s per wall s`);
  // Scrubbing the residency plot: once the scout's snapshots cover the run, each jump (a click
  // on the plot) is a restore and a short replay. Wall time from the click to the view paused
  // there.
  {
    const s0 = Date.now();
    // Reset (Home, the focus on the Play button).
    await page.keyboard.press("Home");
    await page.waitForFunction(() => document.querySelector('[data-testid="midpoint-widget"]').dataset.t === "0.0000");
    await page.waitForFunction(() => window.__midpoint.debug().scouted, null, { timeout: 300_000, polling: 100 });
    const scoutS = (Date.now() - s0) / 1000;
    const plot = page.locator('[data-testid="residency-plot"]');
    await plot.scrollIntoViewIfNeeded();
    const jumps = [];
    for (const f of [0.8, 0.2, 0.6, 0.4, 0.95, 0.1]) {
      // From the click's pointerdown to the first frame that finds the explorer paused there.
      await page.evaluate(() => {
        window.__jump = new Promise((resolve) => {
          const c = document.querySelector('[data-testid="residency-plot"]');
          c.addEventListener(
            "pointerdown",
            () => {
              const t0 = performance.now();
              const tick = () => {
                const d = window.__midpoint.debug();
                if (d.mode === "paused") resolve({ ms: performance.now() - t0, seek: d.seek, replayed: d.seek_replayed });
                else requestAnimationFrame(tick);
              };
              requestAnimationFrame(tick);
            },
            { once: true, capture: true },
          );
        });
      });
      const box = await plot.boundingBox();
      await page.mouse.click(box.x + box.width * f, box.y + box.height / 2);
      jumps.push(await page.evaluate(() => window.__jump));
    }
    const ms = jumps.map((j) => j.ms);
    console.log(
      `scrubbing: snapshots over the run after ${scoutS.toFixed(1)} s; ${jumps.length} jumps, median ${median(ms).toFixed(0)} ms, max ${Math.max(...ms).toFixed(0)} ms ` +
        `(${jumps.map((j) => `${j.seek} ${j.replayed}`).join(", ")} events replayed)`,
    );
  }
  if (!args.includes("--no-sweep")) {
    const hw = await page.evaluate(() => navigator.hardwareConcurrency);
    const t0 = Date.now();
    const ms = await sweep(page, 600_000);
    console.log(
      `full sweep (40 full-size runs, ${hw} workers, hardwareConcurrency ${hw}): ${(ms / 1000).toFixed(1)} s ` +
        `(${((Date.now() - t0) / 1000).toFixed(1)} s wall)`,
    );
  }
} finally {
  await browser.close();
}

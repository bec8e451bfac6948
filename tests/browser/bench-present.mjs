// The presentation's beats, key to drawn (scripts/bench-present.sh prints what this prints: one
// JSON line). Not a test: it prints figures and asserts nothing about them.
//
//   MIDPOINT_URL=http://127.0.0.1:8000 node tests/browser/bench-present.mjs [--runs N] [--viewport WxH]
import { baseUrl, launch } from "./helpers.mjs";

const args = process.argv.slice(2);
const opt = (name, dflt) => (args.includes(name) ? args[args.indexOf(name) + 1] : dflt);
const runs = Number(opt("--runs", "3"));
const [width, height] = opt("--viewport", "1920x1080").split("x").map(Number);

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[(s.length - 1) >> 1] : null;
};
const round = (x) => Math.round(x * 10) / 10;

/** Presses `key` and returns the ms from the keydown to the first frame drawn at the beat
 *  (data-seeking removed), and the beat reached. */
async function beat(page, key) {
  await page.evaluate(() => {
    const root = document.querySelector("[data-testid=midpoint-widget]");
    window.__beat = { t0: null, t1: null };
    document.addEventListener("keydown", () => (window.__beat.t0 = performance.now()), { capture: true, once: true });
    const mo = new MutationObserver(() => {
      if (window.__beat.t0 !== null && !root.dataset.seeking) {
        window.__beat.t1 = performance.now();
        mo.disconnect();
      }
    });
    mo.observe(root, { attributes: true, attributeFilter: ["data-seeking"] });
  });
  await page.keyboard.press(key);
  await page.waitForFunction(() => window.__beat.t1 !== null, null, { timeout: 60_000, polling: 20 });
  return page.evaluate(() => ({ ms: window.__beat.t1 - window.__beat.t0, tour: Number(document.querySelector("[data-testid=midpoint-widget]").dataset.tour) }));
}

/** → to the next beat; beat 4 first takes a → for the class's prediction (data-predict). */
async function next(page) {
  if (await page.evaluate(() => document.querySelector("[data-testid=midpoint-widget]").dataset.predict === "1")) await page.keyboard.press("ArrowRight");
  return next(page);
}

const browser = await launch();
try {
  const page = await browser.newPage({ viewport: { width, height } });
  page.on("pageerror", (e) => console.error("page error:", e.message));
  const t0 = Date.now();
  await page.goto(`${baseUrl}/www/lab.html?view=present`);
  await page.waitForFunction(() => document.documentElement.dataset.midpointReady === "1", null, { timeout: 30_000 });
  await page.waitForFunction(() => !document.querySelector("[data-testid=midpoint-widget]").dataset.seeking, null, { timeout: 60_000 });
  // A first pass at once: the moments are not ready yet.
  const cold = {};
  for (let b = 2; b <= 6; b++) {
    const r = await next(page);
    cold[r.tour] = round(r.ms);
  }
  await page.waitForFunction(() => document.querySelector("[data-testid=midpoint-widget]").dataset.beatsReady === "6", null, { timeout: 120_000, polling: 100 });
  const ready = Date.now() - t0;
  // What the prepared moments hold (beats 3 and 4 share one).
  const momentsMb = await page.evaluate(() => {
    const ms = new Set(window.__midpoint.apps[0].tour.moments.filter(Boolean));
    return [...ms].reduce((a, m) => a + m.approx_bytes(), 0) / 2 ** 20;
  });
  for (let b = 5; b >= 1; b--) await beat(page, "ArrowLeft");
  const per = {};
  const all = [];
  for (let i = 0; i < runs; i++) {
    const run = {};
    for (let b = 2; b <= 6; b++) {
      const r = await next(page);
      run[r.tour] = round(r.ms);
    }
    for (let b = 5; b >= 1; b--) {
      const r = await beat(page, "ArrowLeft");
      if (r.tour === 1) run[1] = round(r.ms);
    }
    all.push(run);
    for (const [k, v] of Object.entries(run)) (per[k] ??= []).push(v);
  }
  const out = {
    viewport: `${width}x${height}`,
    beats_ready_ms: ready,
    moments_mb: round(momentsMb),
    key_to_drawn_ms: Object.fromEntries(Object.entries(per).map(([k, v]) => [k, median(v)])),
    cold_key_to_drawn_ms: cold,
    runs: all,
  };
  console.log(JSON.stringify(out));
} finally {
  await browser.close();
}

// The presentation's beats, key to drawn (scripts/bench-present.sh prints what this prints: one
// JSON line). Not a test: it prints figures and asserts nothing about them. Nothing is prepared
// ahead: every beat is a seek, so every figure is cold.
//
//   cold_key_to_drawn_ms      → from beat 1 to 6 right after load, one key per beat drawn
//   five_keys_last_to_drawn_ms five → pressed 150 ms apart right after beat 1 is drawn: from
//                             the last keydown to beat 6 drawn (target ≤ 1000)
//   tour6_load_to_drawn_ms    ?view=present&tour=6: from the load event to beat 6 drawn
//                             (target ≤ 2500)
//   key_to_drawn_ms           per beat, the median over --runs passes → then ←
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

/** Opens the presentation (query `q`) and waits until its beat is drawn; returns the page and
 *  ms from the load event to that first beat drawn. */
async function open(browser, q) {
  const page = await browser.newPage({ viewport: { width, height } });
  page.on("pageerror", (e) => console.error("page error:", e.message));
  // The time the widget's data-seeking clears (its beat drawn), recorded from the start.
  await page.addInitScript(() => {
    window.__drawn = null;
    new MutationObserver((ms) => {
      for (const m of ms) {
        const r = m.target;
        if (r.dataset?.testid === "midpoint-widget" && r.dataset.tour && !r.dataset.seeking && window.__drawn === null) window.__drawn = performance.now();
      }
    }).observe(document, { subtree: true, attributes: true, attributeFilter: ["data-seeking"] });
  });
  await page.goto(`${baseUrl}/www/lab.html?${q}`);
  await page.waitForFunction(() => document.documentElement.dataset.midpointReady === "1", null, { timeout: 30_000 });
  await page.waitForFunction(() => window.__drawn !== null, null, { timeout: 60_000, polling: 20 });
  const ms = await page.evaluate(() => window.__drawn - performance.getEntriesByType("navigation")[0].loadEventStart);
  return { page, ms };
}

const browser = await launch();
try {
  const { page } = await open(browser, "view=present");
  const cold = {};
  for (let b = 2; b <= 6; b++) {
    const r = await beat(page, "ArrowRight");
    cold[r.tour] = round(r.ms);
  }
  for (let b = 5; b >= 1; b--) await beat(page, "ArrowLeft");
  const per = {};
  const all = [];
  for (let i = 0; i < runs; i++) {
    const run = {};
    for (let b = 2; b <= 6; b++) {
      const r = await beat(page, "ArrowRight");
      run[r.tour] = round(r.ms);
    }
    for (let b = 5; b >= 1; b--) {
      const r = await beat(page, "ArrowLeft");
      if (r.tour === 1) run[1] = round(r.ms);
    }
    all.push(run);
    for (const [k, v] of Object.entries(run)) (per[k] ??= []).push(v);
  }
  await page.close();

  // Five → 150 ms apart right after beat 1 is drawn, on a fresh page: last key to beat 6 drawn.
  const fresh = await open(browser, "view=present");
  await fresh.page.evaluate(() => {
    const root = document.querySelector("[data-testid=midpoint-widget]");
    window.__five = { last: null, drawn: null };
    document.addEventListener("keydown", () => (window.__five.last = performance.now()), { capture: true });
    new MutationObserver(() => {
      if (root.dataset.tour === "6" && !root.dataset.seeking && window.__five.drawn === null) window.__five.drawn = performance.now();
    }).observe(root, { attributes: true, attributeFilter: ["data-seeking", "data-tour"] });
  });
  for (let i = 0; i < 5; i++) {
    if (i) await new Promise((r) => setTimeout(r, 150));
    await fresh.page.keyboard.press("ArrowRight");
  }
  await fresh.page.waitForFunction(() => window.__five.drawn !== null, null, { timeout: 60_000, polling: 20 });
  const five = await fresh.page.evaluate(() => window.__five.drawn - window.__five.last);
  await fresh.page.close();

  // Beat 6 by its address.
  const six = await open(browser, "view=present&tour=6");
  await six.page.close();

  const out = {
    viewport: `${width}x${height}`,
    cold_key_to_drawn_ms: cold,
    five_keys_last_to_drawn_ms: round(five),
    tour6_load_to_drawn_ms: round(six.ms),
    key_to_drawn_ms: Object.fromEntries(Object.entries(per).map(([k, v]) => [k, median(v)])),
    runs: all,
  };
  console.log(JSON.stringify(out));
} finally {
  await browser.close();
}

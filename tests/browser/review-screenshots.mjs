// Saves the review screenshots (review-<view>-<width>.png, in tests/browser/artifacts/shots/): what a reader sees on one screen
// at 1366×768 and 390×844 — the article's refill figure mid-drain, the scale figure, the lab's
// first screen after a slider move, its write-path section, the "Your server" panel with a
// pasted status, and view=present on a 1366×768 projector (and at 1920×1080, present-1920.png). Not a test:
//   scripts/serve.sh &   (or any server of the repository root)
//   node tests/browser/review-screenshots.mjs [--out DIR] [--only NAME]
// MIDPOINT_URL sets the server (default http://127.0.0.1:8000).
import { readFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { baseUrl, launch, painted } from "./helpers.mjs";
import { shotsDir } from "./shots.mjs";

const args = process.argv.slice(2);
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const out = args.includes("--out") ? args[args.indexOf("--out") + 1] : shotsDir;
const only = args.includes("--only") ? args[args.indexOf("--only") + 1] : null;
const ready = (page) => page.waitForFunction(() => document.documentElement.dataset.midpointReady === "1", null, { timeout: 60_000 });

const shots = {
  // The article's refill figure (the strip at the batch), Watch pressed, caught mid-drain.
  async drain(page) {
    await page.goto(`${baseUrl}/www/index.html`);
    await ready(page);
    const fig = page.locator('[data-query*="view=strip&at=batch"]').first();
    await fig.scrollIntoViewIfNeeded();
    const w = fig;
    await page.waitForFunction((q) => Number(document.querySelector(`[data-query="${q}"]`)?.dataset.event) > 0, await fig.getAttribute("data-query"), { timeout: 60_000 });
    await fig.locator("[data-testid=watch-refill]").click();
    // Mid-drain: the free list (data-free-len, read every frame) below 60 % of the refill.
    await w.evaluate(
      (r) =>
        new Promise((resolve) => {
          let full = 0;
          const t0 = performance.now();
          const tick = () => {
            const free = Number(r.dataset.freeLen);
            full = Math.max(full, free);
            if ((full > 100 && free < full * 0.6) || performance.now() - t0 > 60_000) resolve();
            else requestAnimationFrame(tick);
          };
          requestAnimationFrame(tick);
        }),
    );
    await fig.evaluate((e) => e.scrollIntoView({ block: "start" }));
    return fig;
  },
  async scale(page) {
    await page.goto(`${baseUrl}/www/index.html`);
    await ready(page);
    const fig = page.locator("[data-beyond=scale]");
    await fig.scrollIntoViewIfNeeded();
    await page.waitForFunction(() => Number(document.querySelector("[data-beyond=scale] canvas")?.dataset.points) > 0, null, { timeout: 60_000 });
    return fig;
  },
  // The lab's first screen, the depth slider moved three steps down by keyboard.
  async lab(page) {
    await page.goto(`${baseUrl}/www/lab.html`);
    await ready(page);
    const s = page.locator('input[data-param="lru_scan_depth"]');
    await s.focus();
    for (let i = 0; i < 3; i++) await page.keyboard.press("ArrowLeft");
    // The new setting's first run in: its caption is cleared while it computes (synchronously,
    // with the key's change) and names the runs done once it is there.
    await page.waitForFunction(() => document.querySelector(".mp-lab .mp-runcap")?.dataset.runsDone !== undefined, null, { timeout: 120_000 });
    await page.evaluate(() => window.scrollTo(0, 0));
    return null;
  },
  async write(page) {
    await page.goto(`${baseUrl}/www/lab.html?autoplay=0`);
    await ready(page);
    await page.locator(".mp-write").evaluate((e) => e.scrollIntoView({ block: "start" }));
    // Its canvases drawn (each carries data-min-font-px once drawn, util.js markFont).
    await page.waitForFunction(() => [...document.querySelectorAll(".mp-write canvas")].filter((c) => c.checkVisibility()).every((c) => c.dataset.minFontPx !== undefined), null, { timeout: 60_000 });
    return null;
  },
  async present(page) {
    await page.goto(`${baseUrl}/www/index.html?view=present`);
    await ready(page);
    // The first beat drawn at its moment (the tour clears data-seeking on the widget's root).
    await page.waitForFunction(() => {
      const r = document.querySelector("[data-testid=midpoint-widget]");
      return r.dataset.atMoment === "1" && r.dataset.seeking === undefined;
    }, null, { timeout: 60_000 });
    return null;
  },
  async status(page) {
    await page.goto(`${baseUrl}/www/lab.html`);
    await page.waitForFunction(() => document.querySelector("[data-testid=status-panel]")?.dataset.ready === "1", null, { timeout: 60_000 });
    const fx = path.join(root, "crates/status/tests/fixtures/status");
    const text = (await readFile(path.join(fx, "mariadb-10.11-status-G.txt"), "utf8")) + "\n" + (await readFile(path.join(fx, "mariadb-10.11-vars-table.txt"), "utf8"));
    await page.fill("[data-testid=status-paste]", text);
    await page.click("[data-testid=status-read]");
    await page.waitForFunction(() => document.querySelector("[data-testid=status-panel]").dataset.read === "done");
    await page.locator("[data-testid=status-message]").evaluate((e) => e.scrollIntoView({ block: "start" }));
    return null;
  },
};

const browser = await launch();
try {
  for (const [name, go] of Object.entries(shots)) {
    if (only && name !== only) continue;
    const sizes = [{ width: 1366, height: 768 }, { width: 390, height: 844 }];
    for (const vp of name === "present" ? sizes.slice(0, 1) : sizes) {
      const page = await browser.newPage({ viewport: vp });
      page.on("pageerror", (e) => console.error("page error:", e.message));
      await go(page);
      await page.mouse.move(0, 0);
      await painted(page);
      const file = path.join(out, `review-${name}-${vp.width}.png`);
      await page.screenshot({ path: file });
      console.log(`wrote ${file}`);
      await page.close();
    }
  }
} finally {
  await browser.close();
}

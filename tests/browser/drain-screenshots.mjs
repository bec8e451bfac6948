// Saves the drain sequence (drain-<width>-<a..d>-<moment>.png, in tests/browser/artifacts/shots/): the lab opened
// just after an LRU batch (at=batch), a few boundary steps in, mid-drain, and the drain's end, at
// 1366×768 and 390×844, each as one viewport (what a reader sees on one screen). Not a test:
//   scripts/serve.sh &   (or any server of the repository root)
//   node tests/browser/drain-screenshots.mjs [--out DIR]
// MIDPOINT_URL sets the server (default http://127.0.0.1:8000).
import path from "node:path";
import { fileURLToPath } from "node:url";
import { atRest, baseUrl, launch } from "./helpers.mjs";
import { shotsDir } from "./shots.mjs";

const args = process.argv.slice(2);
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const out = args.includes("--out") ? args[args.indexOf("--out") + 1] : shotsDir;

const browser = await launch();
try {
  for (const vp of [{ width: 1366, height: 768 }, { width: 390, height: 844 }]) {
    const page = await browser.newPage({ viewport: vp });
    page.on("pageerror", (e) => console.error("page error:", e.message));
    await page.goto(`${baseUrl}/www/lab.html?preset=seed000-hot4485-b2b&at=batch`);
    await page.waitForFunction(() => document.documentElement.dataset.midpointReady === "1");
    await page.waitForFunction(() => window.__midpoint.debug()?.after_batch === true, null, { timeout: 60_000, polling: 100 });
    const widget = page.locator("[data-testid=midpoint-widget]");
    const strip = page.locator("[data-testid=boundary-strip]");
    const shot = async (name) => {
      await strip.scrollIntoViewIfNeeded();
      await page.mouse.move(0, 0);
      // The figure at rest: the step's cells in place, no tooltip left.
      await atRest(page);
      const file = path.join(out, `drain-${vp.width}-${name}.png`);
      await page.screenshot({ path: file });
      const d = await widget.evaluate((w) => ({ t: w.dataset.t, free: w.dataset.freeLen }));
      console.log(`wrote ${file}: t = ${d.t} s, free list ${d.free}`);
    };
    const steps = async (n) => {
      for (let i = 0; i < n; i++) {
        const ev = Number(await widget.getAttribute("data-event"));
        await page.locator("[data-testid=step-boundary]").click();
        await page.waitForFunction((e) => Number(document.querySelector("[data-testid=midpoint-widget]").dataset.event) > e, ev, { timeout: 20_000 });
      }
    };
    await shot("a-batch");
    await steps(1);
    await shot("b-dead-band");
    await steps(2);
    await shot("c-sliding");
    // Boundary steps to the drain's end (the free list empty again).
    for (let i = 0; i < 60 && (await widget.getAttribute("data-free-len")) !== "0"; i++) await steps(1);
    await shot("d-end");
    await page.close();
  }
} finally {
  await browser.close();
}

// Saves the classroom's pictures in docs/: the presentation (lab.html?view=present) at beats 1, 3
// and 6 at 1366x768 and 1920x1080 (classroom-beat<N>-<W>.png, in tests/browser/artifacts/shots/; docs/ keeps those a document shows), reached by → from load, and the
// handout's still images of the close-up (docs/handout-*.png: beat 1, the end of beat 4's drain,
// beat 6). Not a test:
//   scripts/serve.sh &   (or any server of the repository root)
//   MIDPOINT_URL=http://127.0.0.1:8000 node tests/browser/classroom-screenshots.mjs
import path from "node:path";
import { fileURLToPath } from "node:url";
import { baseUrl, launch } from "./helpers.mjs";
import { shot } from "./shots.mjs";

const docs = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../docs");
const widget = "[data-testid=midpoint-widget]";

async function open(browser, width, height, query = "") {
  const page = await browser.newPage({ viewport: { width, height } });
  page.on("pageerror", (e) => console.error("page error:", e.message));
  await page.goto(`${baseUrl}/www/lab.html?view=present${query}`);
  await page.waitForFunction(() => document.documentElement.dataset.midpointReady === "1");
  return page;
}

/** Waits for the beat drawn at its moment and at rest (paused, nothing moving). */
async function settled(page) {
  await page.waitForFunction((s) => !document.querySelector(s).dataset.seeking && document.querySelector(s).dataset.mode === "paused", widget, { timeout: 60_000 });
  await page.mouse.move(0, 0);
  await page.waitForTimeout(1500);
}

const browser = await launch();
try {
  for (const [w, h] of [
    [1366, 768],
    [1920, 1080],
  ]) {
    const page = await open(browser, w, h);
    for (let beat = 1; beat <= 6; beat++) {
      if (beat > 1) await page.keyboard.press("ArrowRight");
      if (![1, 3, 6].includes(beat)) continue;
      await settled(page);
      const file = shot(`classroom-beat${beat}-${w}.png`);
      await page.screenshot({ path: file });
      console.log(`wrote ${file}`);
    }
    await page.close();
  }
  const page = await open(browser, 1366, 768);
  const strip = page.locator("[data-testid=boundary-strip]");
  await settled(page);
  await strip.screenshot({ path: path.join(docs, "handout-1-midpoint.png") });
  await page.keyboard.press("ArrowRight");
  await page.keyboard.press("ArrowRight");
  await page.keyboard.press("ArrowRight");
  await page.waitForFunction((s) => document.querySelector(s).dataset.tour === "4" && !document.querySelector(s).dataset.seeking, widget, { timeout: 60_000 });
  await page.waitForFunction(() => Number(document.querySelector("[data-testid=drain-scrubber]").max) > 0, null, { timeout: 60_000 });
  await page.keyboard.press("Space");
  await page.locator("[data-testid=drain-scrubber]").evaluate((r) => {
    r.value = r.max;
    r.dispatchEvent(new Event("input", { bubbles: true }));
  });
  await settled(page);
  await strip.screenshot({ path: path.join(docs, "handout-2-drain.png") });
  await page.keyboard.press("ArrowRight");
  await page.keyboard.press("ArrowRight");
  await settled(page);
  await strip.screenshot({ path: path.join(docs, "handout-3-depth128.png") });
  console.log("wrote docs/handout-{1-midpoint,2-drain,3-depth128}.png");
  await page.close();
} finally {
  await browser.close();
}

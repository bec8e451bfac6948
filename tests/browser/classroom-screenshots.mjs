// Saves the classroom's pictures in docs/: the presentation (lab.html?view=present) at beats 1, 3
// and 6 at 1366x768 and 1920x1080 (classroom-beat<N>-<W>.png, in tests/browser/artifacts/shots/; docs/ keeps those a document shows), reached by → from load, and the
// handout's still images of the close-up (docs/handout-*.png: beat 1, just after beat 4's batch, the end of its
// drain, beat 6). Not a test:
//   scripts/serve.sh &   (or any server of the repository root)
//   MIDPOINT_URL=http://127.0.0.1:8000 node tests/browser/classroom-screenshots.mjs
//   (HANDOUT_ONLY=1: only docs/handout-*.png)
import path from "node:path";
import { fileURLToPath } from "node:url";
import { baseUrl, launch, painted } from "./helpers.mjs";
import { shot } from "./shots.mjs";
import { HANDOUT_LABEL_PX } from "../../www/handout.js";

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
  // The close-up at rest too: no page on its way (data-moving="0", strip.js), and the frame loop
  // idle (debug().idle: nothing drawn for 30 frames, so the highlights of the pages that just
  // changed have faded).
  await page.mouse.move(0, 0);
  await page.waitForFunction((s) => {
    const r = document.querySelector(s);
    return !r.dataset.seeking && r.dataset.mode === "paused" && r.dataset.moving === "0" && window.__midpoint.debug().idle;
  }, widget, { timeout: 120_000 });
  await painted(page);
}

const browser = await launch();
try {
  // HANDOUT_ONLY=1: the handout's images alone.
  for (const [w, h] of process.env.HANDOUT_ONLY ? [] : [
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
  // The handout's images: projector mode (hot pages dotted, luminances apart for a photocopier),
  // the labels at HANDOUT_LABEL_PX so that they print at 8 pt or more in the handout's columns.
  const page = await open(browser, 1024, 1200, "&projector=1");
  await page.addStyleTag({ content: `.mp[data-view="present"] { font-size: ${HANDOUT_LABEL_PX}px !important; }` });
  // The close-up, cropped below its last drawn row (the canvas fills a taller box).
  const strip = {
    screenshot: async ({ path: file }) => {
      const clip = await page.locator("[data-testid=boundary-strip]").evaluate((c) => {
        const ctx = c.getContext("2d");
        const d = ctx.getImageData(0, 0, c.width, c.height).data;
        let last = 0;
        for (let y = c.height - 1; y >= 0 && !last; y--) {
          for (let x = 0; x < c.width; x++) if (d[(y * c.width + x) * 4 + 3]) { last = y; break; }
        }
        const r = c.getBoundingClientRect();
        return { x: r.left, y: r.top, width: r.width, height: Math.min(r.height, Math.ceil((last + 1) * (r.height / c.height)) + 4) };
      });
      await page.screenshot({ path: file, clip });
    },
  };
  const scrub = page.locator("[data-testid=drain-scrubber]");
  const scrubTo = (end) => scrub.evaluate((r, end) => {
    r.value = end ? r.max : 0;
    r.dispatchEvent(new Event("input", { bubbles: true }));
  }, end);
  await settled(page);
  await strip.screenshot({ path: path.join(docs, "handout-1-midpoint.png") });
  for (let i = 0; i < 3; i++) await page.keyboard.press("ArrowRight");
  await page.waitForFunction((s) => document.querySelector(s).dataset.tour === "4" && !document.querySelector(s).dataset.seeking, widget, { timeout: 60_000 });
  // Beat 4 starts the batch and its drain.
  await page.waitForFunction(() => Number(document.querySelector("[data-testid=drain-scrubber]").max) > 0, null, { timeout: 60_000 });
  await page.keyboard.press("Space");
  await scrubTo(false);
  await settled(page);
  await strip.screenshot({ path: path.join(docs, "handout-2-batch.png") });
  await scrubTo(true);
  await settled(page);
  await strip.screenshot({ path: path.join(docs, "handout-3-drain.png") });
  await page.keyboard.press("ArrowRight");
  await page.keyboard.press("ArrowRight");
  await settled(page);
  await strip.screenshot({ path: path.join(docs, "handout-4-depth128.png") });
  console.log("wrote docs/handout-{1-midpoint,2-batch,3-drain,4-depth128}.png");
  await page.close();
} finally {
  await browser.close();
}

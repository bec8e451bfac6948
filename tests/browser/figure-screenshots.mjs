// Saves the figures' review screenshots (figures-<width>-<what>.png, in tests/browser/artifacts/shots/), at 1366×768,
// 1920×1080 and 390×844: the article's first screen (the leak, mid-drain), a figure's Embed
// dialog, the residency and sweep figures with their sliders and keys, and an embedded close-up
// filling its iframe. Not a test:
//   scripts/serve.sh &   (or any server of the repository root)
//   node tests/browser/figure-screenshots.mjs
// MIDPOINT_URL sets the server (default http://127.0.0.1:8000).
import path from "node:path";
import { fileURLToPath } from "node:url";
import { atRest, baseUrl, launch } from "./helpers.mjs";
import { shotsDir } from "./shots.mjs";

const docs = shotsDir;
const ready = (page) => page.waitForFunction(() => document.documentElement.dataset.midpointReady === "1", null, { timeout: 20_000 });
/** Presses the button `act` of the first figure (hidden ones too: an article's figure shows fewer). */
const press = (page, act) => page.evaluate((a) => document.querySelector("[data-midpoint]").querySelector(`[data-act="${a}"]`).click(), act);
const SIZES = [
  { width: 1366, height: 768 },
  { width: 1920, height: 1080 },
  { width: 390, height: 844 },
];

const browser = await launch();
const shot = async (page, name, opts = {}) => {
  const out = path.join(docs, `${name}.png`);
  await page.screenshot({ path: out, ...opts });
  console.log(`wrote ${out}`);
};
try {
  for (const vp of SIZES) {
    const page = await browser.newPage({ viewport: vp, reducedMotion: "no-preference" });
    page.on("pageerror", (e) => console.error("page error:", e.message));
    // 1. The first screen: the first figure watching its refill, caught mid-drain.
    await page.goto(`${baseUrl}/www/index.html`);
    await ready(page);
    await page.waitForFunction(
      () => {
        const s = document.querySelector("[data-midpoint]").debug?.();
        return s?.mode === "watching" && s.drain_young > 250;
      },
      null,
      { timeout: 60_000, polling: "raf" },
    );
    await press(page, "play"); // pauses
    await atRest(page, "[data-midpoint]");
    await shot(page, `figures-${vp.width}-first-screen`);
    // 2. The same figure at the end of its drain, whole: the caption's, the counters' and the
    // code panel's numbers side by side.
    await press(page, "step-drain-end");
    await atRest(page, "[data-midpoint]");
    const lead = page.locator(".explain figure.mp-lead");
    await lead.scrollIntoViewIfNeeded();
    await lead.screenshot({ path: path.join(docs, `figures-${vp.width}-lead-drained.png`) });
    console.log(`wrote figures-${vp.width}-lead-drained.png`);
    // 3. Its Embed dialog.
    await page.locator(".explain figure.mp-lead [data-testid=embed-button]").click();
    await page.locator("[data-testid=embed-dialog][open]").waitFor();
    // The dialog's opening transition done.
    await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== "running"), null, { timeout: 10_000 });
    await shot(page, `figures-${vp.width}-embed-dialog`);
    await page.keyboard.press("Escape");
    // 4. The residency and the sweep figures, each with its sliders and key.
    for (const view of ["residency", "sweep"]) {
      const fig = page.locator(`.explain figure:has(> [data-midpoint][data-query*="view=${view}"])`);
      await fig.scrollIntoViewIfNeeded();
      if (view === "residency") await page.waitForFunction((f) => f.querySelector("[data-testid=residency-plot]")?.dataset.bandRuns === "5", await fig.elementHandle(), { timeout: 120_000, polling: 250 });
      else await page.waitForFunction((f) => Number(f.querySelector("[data-testid=sweep-plot]")?.dataset.points) > 0, await fig.elementHandle(), { timeout: 10_000 });
      await atRest(page, `.explain [data-midpoint][data-query*="view=${view}"]`);
      await fig.screenshot({ path: path.join(docs, `figures-${vp.width}-${view}.png`) });
      console.log(`wrote figures-${vp.width}-${view}.png`);
    }
    await page.close();
  }
  // 5. The close-up embedded in a post's iframe, at the snippet's height, on a phone and wide.
  for (const width of [390, 800]) {
    const page = await browser.newPage({ viewport: { width, height: 700 } });
    await page.setContent(
      `<!doctype html><body style="margin:0;padding:8px;background:#fffdf8;font:16px Georgia,serif"><p>A post, and the figure pasted from its Embed dialog:</p><iframe src="${baseUrl}/www/index.html?embed=1&amp;preset=seed000-hot4485-b2b&amp;view=strip&amp;at=batch" width="100%" height="560" style="display:block; border:0; width:100%; max-width:800px; height:560px"></iframe></body>`,
    );
    const frame = page.frames().find((f) => f !== page.mainFrame());
    await frame.waitForFunction(() => window.__midpoint?.debug()?.after_batch === true, null, { timeout: 60_000, polling: 100 });
    await atRest(frame);
    await shot(page, `figures-${width}-embedded-strip`, { fullPage: true });
    await page.close();
  }
} finally {
  await browser.close();
}

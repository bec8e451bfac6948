// The single-file build (dist/midpoint.html, made by scripts/build-single.sh, which
// scripts/test.sh runs first) opened from disk: file://, no server, no network.
import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { test } from "node:test";
import { painted, useBrowser, screenshot } from "./helpers.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const file = path.join(root, "dist", "midpoint.html");

const shared = useBrowser();

test("dist/midpoint.html works from file:// with no network: draws, steps, runs in a worker", async () => {
  assert.ok(existsSync(file), "run scripts/build-single.sh first");
  const context = await shared.browser.newContext({ viewport: { width: 1280, height: 900 }, offline: true });
  const page = await context.newPage();
  const errors = [];
  const requests = [];
  page.on("console", (m) => m.type() === "error" && errors.push(`console error: ${m.text()}`));
  page.on("pageerror", (e) => errors.push(`page error: ${e.message}`));
  page.on("request", (r) => {
    const u = r.url();
    if (!u.startsWith("file:") && !u.startsWith("data:") && !u.startsWith("blob:")) requests.push(u);
  });
  try {
    await page.goto(`${pathToFileURL(file).href}?autoplay=0`);
    await page.waitForFunction(() => document.documentElement.dataset.midpointReady === "1", null, { timeout: 15_000 });
    const debug = () => page.evaluate(() => window.__midpoint.debug());
    const d0 = await debug();
    assert.equal(d0.cells, 16382);
    // The lab is the article's last widget: bring it on screen (off screen it does no work).
    // Drawn there: the pool's canvas carries data-min-font-px once drawn (util.js markFont).
    await page.locator(".mp-lab").scrollIntoViewIfNeeded();
    await page.waitForFunction(() => document.querySelector(".mp-lab .mp-pool")?.dataset.minFontPx !== undefined && document.querySelector(".mp-lab").dataset.mode !== undefined, null, { timeout: 30_000 });
    await painted(page);
    const inked = await page.evaluate(() => {
      const c = document.querySelector(".mp-lab .mp-pool");
      const d = c.getContext("2d").getImageData(0, 0, c.width, c.height).data;
      let n = 0;
      for (let i = 0; i < d.length; i += 4) if (d[i] !== d[0] || d[i + 1] !== d[1] || d[i + 2] !== d[2]) n++;
      return n;
    });
    assert.ok(inked > 50_000, "the pool is drawn");
    // One step from where the lab is now (read just before the click: bringing it on screen
    // lets it start its work).
    const before = (await debug()).events;
    await page.click('.mp-lab [data-act="step"]');
    await page.waitForFunction((ev) => window.__midpoint.debug().events === ev + 1, before);
    // The full run comes back from a Blob-URL worker.
    await page.waitForFunction(() => window.__midpoint.debug().hasRun, null, { timeout: 20_000 });
    assert.match(await page.textContent(".mp-lab .mp-runcap"), /The model kept(, so far)?: \d+ %/);
    // No embed snippets for a file on disk: every Embed button of the page is hidden.
    const shown = await page.evaluate(() => [...document.querySelectorAll("[data-testid=embed-button]")].filter((b) => b.offsetParent !== null).length);
    assert.equal(shown, 0, "no embed snippets for a file on disk");
    assert.deepEqual(requests, [], "no network requests");
    assert.deepEqual(errors, [], errors.join("\n"));
    await screenshot(page, "single-file");
  } finally {
    await context.close();
  }
});

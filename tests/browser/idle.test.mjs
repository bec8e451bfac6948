// The paused page at rest (run by scripts/test.sh, section 5): once nothing moves, the frame
// loop slows from every display refresh to a poll four times a second, and whatever the reader
// or a worker does brings the frames back at once. `idleMisses` counts polls that found work no
// wake-up had announced: each would be a change shown up to 250 ms late.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { atRest, debugOfRoot, openPage, pageReady, useBrowser } from "./helpers.mjs";

const shared = useBrowser();

/** Animation-frame requests made by the page in `ms` milliseconds. */
const framesIn = (page, ms) =>
  page.evaluate(
    (ms) =>
      new Promise((done) => {
        const n0 = window.__rafCalls;
        setTimeout(() => done(window.__rafCalls - n0), ms);
      }),
    ms,
  );

const idle = (page) => atRest(page);

describe("the page at rest", () => {
  test("paused, the frame loop slows to a poll; a step, a key, a slider and the theme wake it", async () => {
    const { page, errors } = await openPage(shared.browser, "/www/lab.html?autoplay=0&runs=2", { viewport: { width: 1366, height: 768 } });
    try {
      await pageReady(page);
      await page.evaluate(() => {
        window.__rafCalls = 0;
        const raf = window.requestAnimationFrame.bind(window);
        window.requestAnimationFrame = (f) => {
          window.__rafCalls++;
          return raf(f);
        };
      });
      // The load's runs done and the scout's snapshots made, the page comes to rest.
      await page.waitForFunction(() => window.__midpoint.debug().hasRun && window.__midpoint.debug().scouted, null, { timeout: 90_000, polling: 200 });
      await idle(page);
      const resting = await framesIn(page, 2000);
      assert.ok(resting <= 12, `${resting} frames requested in 2 s at rest (a poll every 250 ms is 8)`);

      // A step: shown at once, the frames back while it settles, then at rest again.
      const ev0 = await page.evaluate(() => document.querySelector('[data-testid="midpoint-widget"]').dataset.event);
      await page.locator('[data-act="step"]').click();
      await page.waitForFunction((ev0) => document.querySelector('[data-testid="midpoint-widget"]').dataset.event !== ev0, ev0, { timeout: 5_000 });
      const woken = await framesIn(page, 300);
      assert.ok(woken >= 8, `only ${woken} frames in the 300 ms after a step`);
      await idle(page);

      // A keyboard shortcut inside the widget (→ steps one event).
      const ev1 = await page.evaluate(() => document.querySelector('[data-testid="midpoint-widget"]').dataset.event);
      await page.locator('[data-act="step"]').focus();
      await page.keyboard.press("ArrowRight");
      await page.waitForFunction((ev1) => document.querySelector('[data-testid="midpoint-widget"]').dataset.event !== ev1, ev1, { timeout: 5_000 });
      await idle(page);

      // From here on the loop rests after a single quiet frame, so that the workers' messages
      // (the run's streamed samples, the ensemble's other runs) arrive at a resting page.
      await page.evaluate(() => (document.querySelector('[data-testid="midpoint-widget"]').dataset.idleAfter = "1"));
      // A slider: the new runs arrive from the workers and are drawn.
      await page.evaluate(
        () =>
          new Promise((done) => {
            const root = document.querySelector('[data-testid="midpoint-widget"]');
            const on = () => {
              root.removeEventListener("midpoint-ensemble", on);
              done();
            };
            root.addEventListener("midpoint-ensemble", on);
            const s = root.querySelector('input[data-key="old_blocks_time"]');
            s.value = String(Number(s.value) + 1);
            s.dispatchEvent(new Event("input", { bubbles: true }));
          }),
      );
      await idle(page);

      // The theme: the close-up repaints in the new colours (each paint starts by clearing its
      // canvas).
      await page.evaluate(() => {
        const ctx = document.querySelector('[data-testid="boundary-strip"]').getContext("2d");
        const clear = ctx.clearRect.bind(ctx);
        window.__stripPaints = 0;
        ctx.clearRect = (...a) => {
          window.__stripPaints++;
          return clear(...a);
        };
      });
      await page.emulateMedia({ colorScheme: "dark" });
      await page.waitForFunction(() => window.__stripPaints > 0, null, { timeout: 5_000 });
      await idle(page);

      assert.equal((await debugOfRoot(page)).idleMisses, 0, "polls found work that nothing had woken them for");
      assert.deepEqual(errors, []);
    } finally {
      await page.close();
    }
  });

  test("the close-up's view, its grid hidden, comes to rest after the batch and after a watched refill", async () => {
    const { page, errors } = await openPage(shared.browser, "/www/lab.html?autoplay=0&view=strip&at=batch", { viewport: { width: 390, height: 844 } });
    try {
      await pageReady(page);
      await page.waitForFunction(() => window.__midpoint.debug()?.after_batch === true, null, { timeout: 30_000, polling: 100 });
      // Its hidden grid's changes (never drawn) kept the frames going before.
      await idle(page);
      await page.locator('[data-testid="watch-refill"]').click();
      await page.waitForFunction(() => document.querySelector('[data-testid="midpoint-widget"]').dataset.mode === "watching", null, { timeout: 10_000 });
      await page.waitForFunction(() => document.querySelector('[data-testid="midpoint-widget"]').dataset.mode === "paused", null, { timeout: 60_000 });
      // The refill's pages glide and fade in, then rest: the fade's last step must not wait for
      // a poll.
      await idle(page);
      assert.equal((await debugOfRoot(page)).idleMisses, 0, "polls found work that nothing had woken them for");
      assert.deepEqual(errors, []);
    } finally {
      await page.close();
    }
  });
});

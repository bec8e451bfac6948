// The live residency plot in headless Chromium (run by scripts/test.sh): dragging the
// innodb_lru_scan_depth slider with the mouse through several stops redraws the plot with
// partial curves (`midpoint-residency` events with partial: true) before the final one, the
// plot is never blank in between (its canvas is sampled every animation frame), and the stops
// skipped on the way are computed afterwards. While the animation plays, the sweep leaves the
// page a core.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { debugOfRoot, useBrowser, pageReady, openPage } from "./helpers.mjs";

const shared = useBrowser();

describe("live residency plot", () => {
  test("a drag through the depth stops streams partial curves over the previous one, never blank", async () => {
    // One run per setting: the live redraw of a single run (the ensemble's band filling in
    // afterwards, with its own events, is tests/browser/ensemble.test.mjs's).
    // Records every midpoint-residency event and, every animation frame, the plot's ink: its
    // strongly coloured pixels (the curves; the axes, labels and grid are grey). Installed before
    // the page's scripts run: the first run's events can come before the page says it is ready.
    const record = () => {
      const canvas = () => document.querySelector('[data-testid="midpoint-widget"] .mp-residency');
      const ink = () => {
        const cv = canvas();
        if (!cv) return 0;
        const d = cv.getContext("2d").getImageData(0, 0, cv.width, cv.height).data;
        let n = 0;
        for (let i = 0; i < d.length; i += 4) {
          if (Math.max(d[i], d[i + 1], d[i + 2]) - Math.min(d[i], d[i + 1], d[i + 2]) > 40) n++;
        }
        return n;
      };
      const rec = { events: [], frames: [], sampling: false };
      window.__live = rec;
      // Each redraw with the depth it shows (the URL follows the slider at once): a stop's run
      // may finish while the drag is still on its way to the last one.
      const depth = () => new URLSearchParams(location.search).get("lru_scan_depth");
      document.addEventListener("midpoint-residency", (e) => rec.events.push({ ...e.detail, ink: ink(), t: performance.now(), depth: depth() }), true);
      const frame = () => {
        if (rec.sampling) rec.frames.push(ink());
        requestAnimationFrame(frame);
      };
      requestAnimationFrame(frame);
    };
    const { page, errors } = await openPage(shared.browser, "/www/lab.html?autoplay=0&runs=1", { init: record });
    try {
      await pageReady(page);
      // The first full run: its final curve, and the ink of the plot before any curve.
      await page.waitForFunction(() => window.__live.events.some((e) => !e.partial), null, { timeout: 60_000 });
      const before = await page.evaluate(() => {
        const ev = window.__live.events;
        return { blank: ev[0].ink, full: ev[ev.length - 1].ink, url: new URLSearchParams(location.search).get("lru_scan_depth") };
      });
      assert.ok(before.full > before.blank * 1.5, `the finished curve has ink: ${JSON.stringify(before)}`);

      // Drag the thumb through four stops to the left, pausing on each until the plot has
      // redrawn for it.
      const slider = page.locator('input[data-key="lru_scan_depth"]');
      await slider.scrollIntoViewIfNeeded();
      const box = await slider.boundingBox();
      const [value, max] = await slider.evaluate((s) => [Number(s.value), Number(s.max)]);
      const xOf = (v) => box.x + 8 + ((box.width - 16) * v) / max;
      const y = box.y + box.height / 2;
      await page.evaluate(() => {
        window.__live.events = [];
        window.__live.frames = [];
        window.__live.sampling = true;
      });
      await page.mouse.move(xOf(value), y);
      await page.mouse.down();
      const stops = [value - 1, value - 2, value - 3, value - 4].filter((v) => v >= 0);
      assert.ok(stops.length >= 3, "the default depth has stops to its left");
      for (const v of stops) {
        await page.mouse.move(xOf(v), y, { steps: 4 });
        // The depth of that stop, as the address gives it.
        await page.waitForFunction((v) => document.querySelector('input[data-key="lru_scan_depth"]').value === v, String(v), { timeout: 5_000 });
        const d = await page.evaluate(() => new URLSearchParams(location.search).get("lru_scan_depth"));
        await page.waitForFunction((d) => window.__live.events.some((e) => e.depth === d), d, { timeout: 30_000, polling: 20 });
      }
      await page.mouse.up();
      const last = String(await slider.evaluate((s) => s.value));
      assert.equal(last, String(stops[stops.length - 1]), "the thumb followed the mouse");
      const depth = await page.evaluate(() => new URLSearchParams(location.search).get("lru_scan_depth"));
      assert.notEqual(depth, before.url);

      // The final curve of the last stop.
      await page.waitForFunction((d) => window.__live.events.some((e) => !e.partial && e.depth === d), depth, { timeout: 90_000, polling: 50 });
      const rec = await page.evaluate(() => {
        window.__live.sampling = false;
        return window.__live;
      });
      const finalAt = rec.events.findIndex((e) => !e.partial && e.depth === depth);
      const partials = rec.events.slice(0, finalAt);
      assert.ok(partials.length >= 2, `partial redraws before the final one: ${partials.length}`);
      assert.ok(
        partials.some((e) => e.samples > 0),
        "some partial redraws show samples of the new run",
      );
      assert.equal(rec.events[finalAt].partial, false);
      assert.equal(finalAt, rec.events.length - 1, "nothing redrew after the final curve");
      // Never blank: every redraw and every frame in between shows at least the previous curve
      // (dimmed) or the growing one.
      const floor = before.blank + (before.full - before.blank) * 0.2;
      const inks = [...rec.events.map((e) => e.ink), ...rec.frames];
      assert.ok(rec.frames.length > 10, `frames sampled: ${rec.frames.length}`);
      assert.ok(Math.min(...inks) > floor, `least ink ${Math.min(...inks)} ≤ ${floor} (blank ${before.blank}, full ${before.full})`);
      assert.equal(await page.evaluate(() => new URLSearchParams(location.search).get("lru_scan_depth")), depth);

      // The stops the drag skipped are computed afterwards, in the background; going back to
      // one then shows its final curve without a new run.
      await page.waitForFunction(() => {
        const d = window.__midpoint.debug();
        return !d.liveRun && d.skippedRuns === 0;
      }, null, { timeout: 90_000, polling: 100 });
      const cached = (await debugOfRoot(page)).cachedRuns;
      assert.ok(cached >= stops.length + 1, `runs cached: ${cached} (the first, and each stop)`);
      await page.evaluate(() => (window.__live.events = []));
      await slider.focus();
      await page.keyboard.press("ArrowRight");
      await page.waitForFunction(() => window.__live.events.some((e) => !e.partial), null, { timeout: 5_000, polling: 20 });
      assert.equal((await debugOfRoot(page)).liveRun, false, "no run started");
      assert.equal(String(await slider.evaluate((s) => s.value)), String(stops[stops.length - 2]));
      assert.deepEqual(errors, []);
    } finally {
      await page.close();
    }
  });
});

describe("sweep workers and the animation", () => {
  test("while the animation plays the sweep leaves the page a core, and takes it back on pause", async (t) => {
    const { page, errors } = await openPage(shared.browser, "/www/lab.html");
    try {
      await pageReady(page);
      const n = (await debugOfRoot(page)).sweepWorkers;
      if (n < 2) return t.skip(`one sweep worker here (hardwareConcurrency ${n})`);
      await page.waitForFunction(() => document.querySelector('[data-testid="midpoint-widget"]').dataset.mode === "playing");
      // Every animation frame while the animation plays: the most sweep workers computing at once.
      await page.evaluate(() => {
        window.__busy = { most: 0, frames: 0 };
        const frame = () => {
          const d = window.__midpoint.debug();
          if (d.mode === "playing") {
            window.__busy.most = Math.max(window.__busy.most, d.sweepBusy);
            window.__busy.frames++;
          }
          if (!window.__busy.stop) requestAnimationFrame(frame);
        };
        requestAnimationFrame(frame);
      });
      await page.click('[data-act="sweep"]');
      // The points drawn as the sweep starts (a finished sweep starts again from none).
      const points0 = Number(await page.locator('[data-testid="sweep-plot"]').getAttribute("data-points"));
      // The working ones busy, and then more points done than there are workers: each worker has
      // been handed a next point (the held one would have taken one then).
      await page.waitForFunction((n) => window.__busy.most >= n - 1, n, { timeout: 30_000, polling: 20 });
      await page.waitForFunction((p) => Number(document.querySelector('[data-testid="sweep-plot"]').dataset.points) >= p, points0 + n + 1, { timeout: 120_000, polling: 50 });
      const rec = await page.evaluate(() => {
        window.__busy.stop = true;
        return window.__busy;
      });
      assert.equal(await page.getAttribute('[data-testid="midpoint-widget"]', "data-mode"), "playing", "still playing after the sweep's first points");
      assert.equal(rec.most, n - 1, `busy sweep workers while playing (of ${n}, ${rec.frames} frames sampled)`);
      await page.click('[data-act="play"]');
      await page.waitForFunction(() => document.querySelector('[data-testid="midpoint-widget"]').dataset.mode === "paused");
      await page.waitForFunction((n) => window.__midpoint.debug().sweepBusy === n, n, { timeout: 10_000, polling: 20 });
      await page.click('[data-act="cancel"]');
      assert.deepEqual(errors, []);
    } finally {
      await page.close();
    }
  });
});

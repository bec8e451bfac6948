// An embedded figure's poster (lab.html, www/posters/) stays until the live figure has reached
// the poster's moment (the widget root's data-at-moment), and scales to its box whole (nothing of
// its right edge cropped in a box narrower than the poster).
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { baseUrl, useBrowser } from "./helpers.mjs";

const shared = useBrowser();

describe("posters", () => {
  test("the close-up's poster stays until the live figure is at its moment (at=batch)", async () => {
    const ctx = await shared.browser.newContext({ viewport: { width: 390, height: 844 } });
    try {
      const page = await ctx.newPage();
      // Records, when the poster leaves, whether the figure was at its opening moment.
      await page.addInitScript(() => {
        window.__posterGone = null;
        new MutationObserver((records) => {
          for (const r of records)
            for (const n of r.removedNodes)
              if (n.dataset?.testid === "figure-poster" && window.__posterGone === null) {
                const root = document.querySelector("[data-midpoint]");
                window.__posterGone = { atMoment: root?.dataset.atMoment ?? null, drawn: !!root?.querySelector("canvas[data-min-font-px]") };
              }
        }).observe(document, { childList: true, subtree: true });
      });
      await page.goto(`${baseUrl}/www/lab.html?view=strip&at=batch&embed=1`);
      await page.waitForFunction(() => window.__posterGone !== null, null, { timeout: 30_000 });
      assert.deepEqual(await page.evaluate(() => window.__posterGone), { atMoment: "1", drawn: true });
      // At its moment: just after the first LRU batch, paused.
      await page.evaluate(() => window.__midpoint.surface());
      const d = await page.evaluate(() => window.__midpoint.debug());
      assert.ok(d.events > 0, `the figure moved on to its batch: ${d.events} events`);
    } finally {
      await ctx.close();
    }
  });

  for (const width of [358, 700]) {
    test(`in a ${width} px box the poster is drawn whole (scaled, not cropped)`, async () => {
      const ctx = await shared.browser.newContext({ viewport: { width, height: 844 } });
      try {
        const page = await ctx.newPage();
        // Hold the module back: the poster is what the box shows.
        await page.route("**/*.wasm", () => {});
        await page.goto(`${baseUrl}/www/lab.html?view=strip&at=batch&embed=1`);
        await page.waitForFunction(() => {
          const p = document.querySelector("[data-testid=figure-poster]");
          return p && p.complete && p.naturalWidth > 0;
        });
        const r = await page.evaluate(() => {
          const p = document.querySelector("[data-testid=figure-poster]");
          const b = p.getBoundingClientRect();
          const fit = getComputedStyle(p).objectFit;
          const sx = b.width / p.naturalWidth;
          const sy = b.height / p.naturalHeight;
          const k = fit === "cover" ? Math.max(sx, sy) : fit === "contain" || fit === "scale-down" ? Math.min(sx, sy, fit === "scale-down" ? 1 : Infinity) : fit === "none" ? 1 : NaN;
          return { box: [b.width, b.height], drawn: [p.naturalWidth * k, p.naturalHeight * k], fit };
        });
        assert.ok(r.drawn[0] <= r.box[0] + 0.5 && r.drawn[1] <= r.box[1] + 0.5, `the poster fits its box: ${JSON.stringify(r)}`);
        assert.ok(r.drawn[0] >= r.box[0] - 0.5 || r.drawn[1] >= r.box[1] - 0.5, `and fills it on one side: ${JSON.stringify(r)}`);
      } finally {
        await ctx.close();
      }
    });
  }
});

test("watching a refill, the close-up's free-list label and the counters' Free list agree", async () => {
  const page = await shared.browser.newPage({ viewport: { width: 800, height: 900 } });
  try {
    await page.goto(`${baseUrl}/www/lab.html?view=strip&at=watch&embed=1`);
    // Frames of the eviction animation: the label's number (data-strip-free) is the counter's.
    const seen = await page.evaluate(
      () =>
        new Promise((resolve) => {
          const out = [];
          const poll = () => {
            const root = document.querySelector("[data-midpoint]");
            const free = root?.querySelector('[data-k="free"]')?.textContent.replaceAll(",", "");
            if (root?.dataset.mode === "watching" && root.dataset.stripFree !== undefined) out.push([root.dataset.stripFree, free]);
            if (out.length >= 30) return resolve(out);
            requestAnimationFrame(poll);
          };
          poll();
        }),
    );
    const differ = seen.filter(([a, b]) => a !== b);
    assert.deepEqual(differ, [], `label vs counter: ${JSON.stringify(seen.slice(0, 5))}`);
  } finally {
    await page.close();
  }
});

// End-to-end test of the page's "Write path" section: a small write preset run in a worker, its
// counters and the dirty-page canvas, and at least one point of the lru_scan_depth trade-off.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { useBrowser, pageReady, openPage, screenshot } from "./helpers.mjs";

const shared = useBrowser();

describe("the write-path section", () => {
  test("runs a write preset, shows the counters, draws dirty pages and a trade-off point", async () => {
    const t0 = Date.now();
    const { page, errors } = await openPage(shared.browser, "/www/lab.html?autoplay=0");
    try {
      await pageReady(page);
      const sec = page.locator(".mp-write");
      await sec.scrollIntoViewIfNeeded();
      assert.match(await sec.locator("h2").textContent(), /Write path/);
      // Only write presets in the picker.
      const names = await sec.locator('[data-wctl="preset"] option').allTextContents();
      assert.ok(names.includes("seed001-16thd-dblwr16") && names.every((n) => /^(seed001-|seed003-rw-|writeheavy-depth-)/.test(n)), names.join());
      await sec.locator('[data-wctl="preset"]').selectOption("seed001-16thd-dblwr16");
      assert.match(await sec.locator(".mp-wsliders output").nth(1).textContent(), /^16 pages/);
      await sec.locator('[data-wact="run"]').click();
      await sec.locator('[data-wact="depth"]').click();
      await page.waitForFunction(() => document.querySelector(".mp-write").dataset.ran === "1", null, { timeout: 12_000 });
      const dblwr = await sec.locator('[data-w="dblwr"]').textContent();
      assert.match(dblwr, /^[\d,]+$/, `doublewrite writes/s: ${dblwr}`);
      assert.ok(Number(dblwr.replace(/,/g, "")) > 0);
      assert.match(await sec.locator('[data-w="lat"]').textContent(), /^\d+\.\d\d ms$/);
      assert.match(await sec.locator('[data-w="wf"]').textContent(), /^\d+\.\d$/);
      assert.match(await sec.locator('[data-w="tps"]').textContent(), /^[\d,]+/);
      // The dirty-page canvas: dirty (purple) cells at the last moment.
      const px = await page.evaluate(() => {
        const c = document.querySelector(".mp-wcanvas");
        const d = c.getContext("2d").getImageData(0, 0, c.width, c.height).data;
        let dirty = 0, inked = 0;
        for (let i = 0; i < d.length; i += 4) {
          if (d[i] !== d[0] || d[i + 1] !== d[1] || d[i + 2] !== d[2]) inked++;
          if (d[i] === 0x7b && d[i + 1] === 0x32 && d[i + 2] === 0x94) dirty++;
        }
        return { dirty, inked, w: c.width, h: c.height };
      });
      assert.ok(px.inked > 5_000, `the pool canvas is drawn: ${JSON.stringify(px)}`);
      assert.ok(px.dirty > 100, `dirty pages are marked: ${JSON.stringify(px)}`);
      assert.match(await sec.locator(".mp-wmout").textContent(), /t = [\d.]+ s · [\d,]+ dirty/);
      // Earlier moments can be picked.
      await sec.locator(".mp-wmoment input").fill("5");
      assert.match(await sec.locator(".mp-wmout").textContent(), /t = [\d.]+ s/);
      // The trade-off: at least one depth computed.
      await page.waitForFunction(() => Number(document.querySelector(".mp-write").dataset.depthPoints ?? 0) >= 1, null, { timeout: 12_000 });
      const row = await sec.locator(".mp-dtable tr").nth(1).allTextContents();
      assert.ok(row.length > 0);
      await sec.screenshot({ path: (await screenshot(page, "write-path-full")).replace("write-path-full", "write-path") });
      assert.deepEqual(errors, [], errors.join("\n"));
      console.log(`write-path test: ${((Date.now() - t0) / 1000).toFixed(1)} s`);
    } finally {
      await page.close();
    }
  });

  test("at 1366×768 the lab's dashboard has no long blank column beside the write path", async () => {
    const { page, errors } = await openPage(shared.browser, "/www/lab.html?autoplay=0", { viewport: { width: 1366, height: 768 } });
    try {
      await pageReady(page);
      // Each column of the dashboard (its left and right halves), covered by the blocks in it (the
      // dashboard's own children, and the write section's, which spans both): the longest stretch
      // of a column with nothing in it, from the dashboard's top to its bottom.
      const r = await page.evaluate(() => {
        const dash = document.querySelector(".mp-dash").getBoundingClientRect();
        const write = document.querySelector(".mp-dash > .mp-write");
        const blocks = [...document.querySelector(".mp-dash").children, ...write.children]
          .filter((e) => e !== write)
          .map((e) => e.getBoundingClientRect())
          .filter((b) => b.height > 0);
        const mid = (dash.left + dash.right) / 2;
        const gap = (lo, hi) => {
          const spans = blocks
            .filter((b) => Math.min(b.right, hi) - Math.max(b.left, lo) > 50)
            .map((b) => [b.top, b.bottom])
            .sort((a, b) => a[0] - b[0]);
          let end = dash.top;
          let most = 0;
          for (const [t, b] of spans) {
            most = Math.max(most, t - end);
            end = Math.max(end, b);
          }
          return Math.round(Math.max(most, dash.bottom - end));
        };
        const w = write.getBoundingClientRect();
        return { left: gap(dash.left, mid), right: gap(mid, dash.right), writeWidth: w.width, dashWidth: dash.width, writeHeight: w.height };
      });
      console.log(`# dashboard blanks: left ${r.left} px, right ${r.right} px; write path ${Math.round(r.writeHeight)} px tall`);
      assert.ok(Math.abs(r.writeWidth - r.dashWidth) < 2, `the write path spans the dashboard: ${r.writeWidth} of ${r.dashWidth}`);
      assert.ok(r.left < 768 / 2 && r.right < 768 / 2, `longest blank: left ${r.left} px, right ${r.right} px`);
      assert.deepEqual(errors, [], errors.join("\n"));
    } finally {
      await page.close();
    }
  });

  test("is not in embed mode", async () => {
    const { page, errors } = await openPage(shared.browser, "/www/lab.html?embed=1&autoplay=0");
    try {
      await pageReady(page);
      assert.equal(await page.locator(".mp-write").count(), 0);
      assert.deepEqual(errors, [], errors.join("\n"));
    } finally {
      await page.close();
    }
  });
});

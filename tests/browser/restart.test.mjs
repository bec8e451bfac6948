// A restarted server (start=restart): the narration explains the growth slide, and the
// "Your server" sliders set the rate inputs in the URL. Run by scripts/test.sh (section 5)
// against a served repository.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { debugOfRoot, openPage, pageReady, screenshot, useBrowser } from "./helpers.mjs";

const shared = useBrowser();
const nums = (s) => (s.match(/\d[\d,]*/g) ?? []).map((x) => Number(x.replaceAll(",", "")));

describe("a restart in the lab", () => {
  test("stepping through the scan's first reads on an empty pool narrates the growth slide", async () => {
    const { page, errors } = await openPage(
      shared.browser,
      "/www/lab.html?preset=small-demo&start=restart&hot_pages=400&warmup_s=5&scan_s=20&at=scan",
      { viewport: { width: 1366, height: 768 } },
    );
    try {
      await pageReady(page);
      // Step one event at a time (the Step button, each click acting at once) until a step
      // slides the boundary by growth; then the page shows that narration.
      const found = await page.evaluate(() => {
        const step = document.querySelector('[data-testid="midpoint-widget"] [data-act="step"]');
        for (let i = 0; i < 1500; i++) {
          step.click();
          if (window.__midpoint.debug().narration.includes("growth slide, not a refill's")) return i;
        }
        return -1;
      });
      await page.waitForFunction(
        () => document.querySelector('[data-testid="narration"]').textContent.includes("growth slide, not a refill's"),
        null,
        { timeout: 10_000 },
      );
      const text = await page.locator('[data-testid="narration"]').textContent();
      assert.ok(found >= 0, `no step narrated the growth slide; last: ${text}`);
      const st = await debugOfRoot(page);
      // The numbers it gives are the state's: the free list is not empty, the list is past 512.
      assert.ok(st.free > 0, `free ${st.free}`);
      assert.ok(st.lru >= 512, `lru ${st.lru}`);
      assert.ok(nums(text).includes(st.free) && nums(text).includes(st.lru), `${text} / free ${st.free} lru ${st.lru}`);
      assert.match(text, /only 37 % of each insert/);
      await screenshot(page, "restart-lab-1366");
      assert.deepEqual(errors, []);
    } finally {
      await page.close();
    }
  });

  test("the two 'Your server' sliders are there and change the URL", async () => {
    const { page, errors } = await openPage(
      shared.browser,
      "/www/lab.html?preset=small-demo&start=restart&warmup_s=5&scan_s=20&autoplay=0",
      { viewport: { width: 390, height: 844 } },
    );
    try {
      await pageReady(page);
      await page.locator('[data-testid="your-server"]').waitFor();
      for (const key of ["idle_lookups_per_s", "idle_scan_pages_per_s"]) {
        const input = page.locator(`input[data-key="${key}"]`);
        assert.equal(await input.count(), 1, key);
        const before = Number(new URL(page.url()).searchParams.get(key) ?? 0);
        assert.equal(before, 0, page.url());
        await input.focus();
        await page.keyboard.press("ArrowRight");
        await page.keyboard.press("ArrowRight");
        await page.waitForFunction((k) => Number(new URLSearchParams(location.search).get(k)) > 0, key, { timeout: 5_000 });
        const v = new URL(page.url()).searchParams.get(key);
        assert.ok(Number(v) > 0, `${key}=${v}`);
      }
      // A bad value in the URL is clamped, with a note.
      await page.goto(page.url().replace(/idle_scan_pages_per_s=[^&]*/, "idle_scan_pages_per_s=-7"));
      await pageReady(page);
      const body = await page.locator("body").textContent();
      assert.match(body, /idle_scan_pages_per_s/);
      // The run's own rates are shown beside them once the full run is computed.
      await page.waitForFunction(
        () => /scan pages\/s/.test(document.querySelector('[data-testid="run-rates"]')?.textContent ?? ""),
        null,
        { timeout: 60_000 },
      );
      await page.locator('[data-testid="your-server"]').scrollIntoViewIfNeeded();
      await page.screenshot({ path: "tests/browser/artifacts/restart-sliders-390.png" });
      assert.deepEqual(errors, []);
    } finally {
      await page.close();
    }
  });
});

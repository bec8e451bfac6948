// The other replacement policies' figure (www/figure/policies.js): computed on request in a Web
// Worker, drawn with one bar group per policy, with a table of one row per policy.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { useBrowser, pageReady, openPage } from "./helpers.mjs";

const shared = useBrowser();
const PAGE = "/www/lab.html";
const POLICIES = ["innodb", "lru", "fifo", "clock", "2q", "arc", "sieve", "s3fifo", "lirs", "belady"];

describe("the policies figure", () => {
  test("Compare with other policies draws one bar per policy, InnoDB linked to the pool", async () => {
    // A short run of the small demo: ten simulations in one worker finish in seconds.
    const tiny = "preset=small-demo&scan_s=20&warmup_s=5&kept_window_s=10";
    const { page, errors } = await openPage(shared.browser, `${PAGE}?autoplay=0&${tiny}`);
    try {
      await pageReady(page);
      const fig = page.locator('[data-testid="policy-figure"]');
      assert.equal(await fig.count(), 1, "one policy figure in the lab");
      assert.equal(await page.locator('[data-testid="policy-table"]').count(), 0, "nothing computed on load");
      await fig.locator('[data-act="policies"]').click();
      await page.waitForFunction(() => /\d+ policies in [\d.]+ s/.test(document.querySelector(".mp-polmsg").textContent), null, {
        timeout: 60_000,
      });
      const canvas = fig.locator('[data-testid="policy-canvas"]');
      assert.equal(await canvas.isVisible(), true);
      assert.equal(await canvas.getAttribute("data-drawn"), String(POLICIES.length), "drawn with every policy");
      // The canvas has bars: pixels of the kept (orange) and miss-ratio (blue) colours.
      const inked = await canvas.evaluate((c) => {
        const d = c.getContext("2d").getImageData(0, 0, c.width, c.height).data;
        let n = 0;
        for (let i = 0; i < d.length; i += 4) if (d[i] !== d[0] || d[i + 1] !== d[1] || d[i + 2] !== d[2]) n++;
        return n;
      });
      assert.ok(inked > 5_000, `the figure is drawn (${inked} pixels)`);
      const rows = await fig.locator('[data-testid="policy-table"] tbody tr').evaluateAll((trs) =>
        trs.map((tr) => ({ policy: tr.dataset.policy, cells: [...tr.children].map((c) => c.textContent) })),
      );
      assert.deepEqual(rows.map((r) => r.policy), POLICIES, "one row per policy");
      for (const r of rows) {
        // InnoDB's is the one run the comparison ran, named (a quote of the setting's declared
        // ensemble stands beside it only on a declared cell's settings, numbers.test.mjs).
        if (r.policy === "innodb") assert.match(r.cells[1], /^\d+ % in run \d+$/, `${r.policy}: kept`);
        else assert.match(r.cells[1], /^\d+ %$/, `${r.policy}: kept`);
        assert.match(r.cells[2], /^[01]\.\d{3}$/, `${r.policy}: miss ratio`);
        assert.ok(r.cells[5].length > 40, `${r.policy}: a sentence on why`);
      }
      // The InnoDB row links to the pool view.
      await fig.locator('tr[data-policy="innodb"] button').click();
      await page.waitForFunction(() => document.activeElement?.classList.contains("mp-pool"));
      assert.deepEqual(errors, [], `errors on the page:\n${errors.join("\n")}`);
    } finally {
      await page.close();
    }
  });
});

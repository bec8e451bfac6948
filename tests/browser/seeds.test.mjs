// Any seed the page accepts runs: the ensemble's other runs take the CLI's seeds,
// wrapping past 2^53 - 1 to 0, so the largest seed, and a larger one the page clamps to it,
// draw the residency plot with every run's band instead of "Computing the full run…" forever.
// Run by scripts/test.sh (section 5) against a served repository:
//   node --test tests/browser/seeds.test.mjs   (MIDPOINT_URL: a server of the repository)
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { openPage, pageReady, useBrowser } from "./helpers.mjs";

const shared = useBrowser();

/** Waits until all `runs` runs are in and the residency plot draws their band. */
function complete(page, runs) {
  return page.waitForFunction(
    (runs) => {
      const cap = document.querySelector(".mp-runcap");
      const plot = document.querySelector(".mp-residency");
      return cap?.dataset.runsDone === String(runs) && plot?.dataset.bandRuns === String(runs);
    },
    runs,
    { timeout: 120_000, polling: 100 },
  );
}

/** Pixels of the residency plot that are not its background (the top-left pixel's colour). */
const drawn = (page) =>
  page.evaluate(() => {
    const c = document.querySelector(".mp-residency");
    const d = c.getContext("2d").getImageData(0, 0, c.width, c.height).data;
    let n = 0;
    for (let i = 0; i < d.length; i += 4) if (d[i] !== d[0] || d[i + 1] !== d[1] || d[i + 2] !== d[2]) n++;
    return n;
  });

describe("seeds at the top of the range", () => {
  for (const seed of ["9007199254740991", "9007199254740992"]) {
    test(`lab.html?seed=${seed} draws its residency plot with all 5 runs`, async () => {
      const { page, errors } = await openPage(
        shared.browser,
        `/www/lab.html?preset=small-demo&warmup_s=5&scan_s=20&kept_window_s=10&runs=5&autoplay=0&seed=${seed}`,
      );
      try {
        await pageReady(page);
        await complete(page, 5);
        const caption = await page.textContent(".mp-runcap");
        assert.doesNotMatch(caption, /computing/i, caption);
        assert.match(caption, /kept: \d+ % \(\d+-\d+ % over 5 runs\)/i, caption);
        // The runs named by the seeds they ran: the largest, then 0-3 (the CLI's wrap).
        assert.match(caption, /runs 9007199254740991 and 0-3\b/, caption);
        // The seed the page runs from is the largest it accepts (2^53 is clamped to it).
        assert.equal(await page.inputValue('[data-ctl="seed"]'), "9007199254740991");
        assert.ok((await drawn(page)) > 1000, "the residency plot is drawn");
        assert.deepEqual(errors, []);
      } finally {
        await page.close();
      }
    });
  }
});

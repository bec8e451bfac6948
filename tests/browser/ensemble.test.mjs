// The lab's ensembles in headless Chromium: a setting runs N times (RNG seeds seed, seed + 1,
// …) in the page's workers; the residency plot draws the runs' median curve with their band,
// the caption names kept's range and the run count beside the seed's figure, and another seed
// set gives other numbers while keeping the seed's comparison.
//   node --test tests/browser/ensemble.test.mjs   (MIDPOINT_URL: a server of the repository)
// With MIDPOINT_SHOTS=1 it also saves ensemble-1366.png and ensemble-390.png (tests/browser/shots.mjs).
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { useBrowser, pageReady, openPage, painted } from "./helpers.mjs";
import { shot } from "./shots.mjs";

const shared = useBrowser();

/** Waits until every one of `runs` runs of the seed set starting at `seed` is in. */
function complete(page, runs, seed) {
  return page.waitForFunction(
    ({ runs, seed }) => {
      const cap = document.querySelector(".mp-runcap");
      const plot = document.querySelector(".mp-residency");
      const seeds = runs > 1 ? `runs ${seed}-${seed + runs - 1}` : `run ${seed}`;
      return cap.dataset.runsDone === String(runs) && cap.textContent.includes(seeds) && plot.dataset.bandRuns === String(runs > 1 ? runs : 0);
    },
    { runs, seed },
    { timeout: 180_000, polling: 100 },
  );
}

/** The residency plot's pixels (RGBA bytes, as a plain array). */
const pixels = (page) =>
  page.evaluate(() => {
    const c = document.querySelector(".mp-residency");
    return Array.from(c.getContext("2d").getImageData(0, 0, c.width, c.height).data);
  });

/** Pixels whose colour differs between `a` and `b`. */
function differing(a, b) {
  let n = 0;
  for (let i = 0; i < a.length; i += 4) if (a[i] !== b[i] || a[i + 1] !== b[i + 1] || a[i + 2] !== b[i + 2]) n++;
  return n;
}

/** Kept's median, range and run count from the caption's "Kept: 47 % (29-63 % over 5 runs)". */
function keptOf(caption) {
  const m = caption.match(/kept: (\d+) % \((\d+)-(\d+) % over (\d+) runs\)/);
  assert.ok(m, `the caption names the range and the run count: ${caption}`);
  return { median: +m[1], min: +m[2], max: +m[3], runs: +m[4], words: m[0] };
}

const change = (page, sel, value) =>
  page.evaluate(
    ({ sel, value }) => {
      const i = document.querySelector(sel);
      i.value = String(value);
      i.dispatchEvent(new Event("change", { bubbles: true }));
    },
    { sel, value },
  );

describe("ensembles in the lab", () => {
  test("the band of the runs is drawn, the caption names their range and count, another seed set gives other numbers", async () => {
    const { page, errors } = await openPage(shared.browser, "/www/lab.html?autoplay=0&runs=3");
    try {
      await pageReady(page);
      assert.equal(await page.inputValue('[data-ctl="runs"]'), "3");
      assert.equal(await page.textContent('[data-testid="seed-set"]'), "runs 1-3");
      await complete(page, 3, 1);
      const first = keptOf(await page.textContent(".mp-runcap"));
      assert.equal(first.runs, 3);
      assert.ok(first.min <= first.median && first.median <= first.max, first.words);
      assert.ok(first.max > first.min, `three seeds differ: ${first.words}`);
      assert.match(await page.textContent(".mp-runcap"), /; the server measured 41 % \(mean of 3 runs\) in this setting\./);
      assert.match(await page.textContent(".mp-cli code"), /--runs 3$/);
      const withBand = await pixels(page);

      // Another seed set: other numbers, the seed's comparison kept (the other settings are
      // still the seed's), the seeds in the URL and on the command line.
      await change(page, '[data-ctl="seed"]', 4);
      assert.equal(await page.textContent('[data-testid="seed-set"]'), "runs 4-6");
      await complete(page, 3, 4);
      const caption = await page.textContent(".mp-runcap");
      const other = keptOf(caption);
      assert.notEqual(other.words, first.words, "seeds 4-6 are other runs than seeds 1-3");
      assert.match(caption, /the server measured 41 % \(mean of 3 runs\)/);
      assert.match(page.url(), /[?&]seed=4(&|$)/);
      assert.match(page.url(), /[?&]runs=3(&|$)/);
      assert.match(await page.textContent(".mp-cli code"), /^midpoint run --preset seed000-hot4485-b2b --seed 4 --runs 3$/);

      // One run: no band (its runs are cached, so at once), fewer pixels inked.
      await change(page, '[data-ctl="runs"]', 1);
      await complete(page, 1, 4);
      assert.match(await page.textContent(".mp-runcap"), /kept: \d+ %;/);
      assert.doesNotMatch(await page.textContent(".mp-runcap"), /over \d+ runs/);
      await change(page, '[data-ctl="seed"]', 1);
      await complete(page, 1, 1);
      const without = await pixels(page);
      assert.equal(withBand.length, without.length);
      // The band fills the area between the runs' lowest and highest curves (over the plain
      // and the scan phase's tinted background alike).
      const filled = differing(withBand, without);
      assert.ok(filled > 5000, `the band changes ${filled} pixels`);
      assert.deepEqual(errors, []);
    } finally {
      await page.close();
    }
  });

  /** The seeds the member workers compute, read in the same task that sees them busy (a
   *  second read could come after the last run ended and see none). */
  const busySeeds = async (page, root) => {
    const seeds = await page.waitForFunction((r) => document.querySelector(r).dataset.memberSeeds || null, root, { timeout: 60_000, polling: 20 });
    const text = await seeds.jsonValue();
    assert.match(text, /^\d+( \d+)*$/, `data-member-seeds is "${text}"`);
    return text.split(" ").map(Number);
  };

  test("a newer value cancels the runs still to come", async () => {
    const { page, errors } = await openPage(shared.browser, "/www/lab.html?autoplay=0&runs=4");
    try {
      await pageReady(page);
      // Runs of seeds 1-4 computing in the member workers (the root's data-member-seeds).
      const root = "[data-testid=midpoint-widget]";
      const old = await busySeeds(page, root);
      assert.ok(old.every((s) => s >= 1 && s <= 4), old.join(" "));
      // The new value cancels them at once, in the change's own task (the new runs start on a
      // timer).
      const left = await page.evaluate((r) => {
        const i = document.querySelector('[data-ctl="seed"]');
        i.value = "9";
        i.dispatchEvent(new Event("change", { bubbles: true }));
        return document.querySelector(r).dataset.memberSeeds;
      }, root);
      assert.equal(left, "", "no worker still runs the old seeds");
      assert.equal(await page.textContent('[data-testid="seed-set"]'), "runs 9-12");
      // Then only the new seeds' runs keep the member workers busy.
      const now = await busySeeds(page, root);
      assert.ok(now.every((s) => s >= 10 && s <= 12), now.join(" "));
      await complete(page, 4, 9);
      assert.deepEqual(errors, []);
    } finally {
      await page.close();
    }
  });

  if (process.env.MIDPOINT_SHOTS === "1") {
    for (const [w, h] of [
      [1366, 768],
      [390, 844],
    ]) {
      test(`screenshot of the band at ${w}×${h}`, async () => {
        const { page } = await openPage(shared.browser, "/www/lab.html?autoplay=0", { viewport: { width: w, height: h } });
        try {
          await pageReady(page);
          await complete(page, 5, 1);
          await page.locator(".mp-residency").scrollIntoViewIfNeeded();
          await painted(page);
          await page.locator(".mp-plot").first().screenshot({ path: shot(`ensemble-${w}.png`) });
        } finally {
          await page.close();
        }
      });
    }
  }
});

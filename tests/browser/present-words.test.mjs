// The presentation's words against its pictures: at beats 1 and 2, the close-up's head row (the
// list's first positions) holds scan pages that are young already (the boundary turned them young
// as the list grew into its last free frames). Words that say only "the scan's reads are below
// LRU_old" or that the time test "stops the scan" are then false of the picture: each beat whose
// head row shows young scan pages must say so, and name the black rings where they are drawn.
// Tests wait on data-tour, data-seeking and the widget's data-mode, never on time.
import assert from "node:assert/strict";
import { test } from "node:test";
import { openPage, pageReady, useBrowser } from "./helpers.mjs";

const shared = useBrowser();
const W = "[data-testid=midpoint-widget]";

/** The close-up's head row as drawn now (debug().strip.headRow: its cells, its young scan pages,
 *  and how many of those carry the black ring), and the beat's words and title. */
function picture(page) {
  return page.evaluate((s) => {
    const root = document.querySelector(s);
    const { cells, youngScan, ringed } = root.debug().strip.headRow;
    return { cells, youngScan, ringed, title: root.querySelector(".mp-tour-h").textContent, words: root.querySelector(".mp-tour-text").textContent };
  }, W);
}

test("beats 1 and 2 say what their close-up shows: young scan pages in the head row, and their black rings", async () => {
  const { page, errors } = await openPage(shared.browser, "/www/lab.html?view=present", { viewport: { width: 1366, height: 768 } });
  try {
    await pageReady(page);
    for (const beat of [1, 2]) {
      if (beat > 1) await page.keyboard.press("ArrowRight");
      await page.waitForFunction(([s, n]) => {
        const r = document.querySelector(s);
        return r.dataset.tour === String(n) && !r.dataset.seeking && r.dataset.mode === "paused" && r.dataset.moving === "0";
      }, [W, beat], { timeout: 60_000 });
      const p = await picture(page);
      const where = `beat ${beat} (${p.title}): ${p.words}`;
      assert.ok(p.cells > 0, `beat ${beat}: the close-up draws a head row`);
      assert.ok(p.youngScan > 0, `the head row shows young scan pages at beat ${beat} (the picture this test is about): ${JSON.stringify(p)}`);
      assert.match(p.words, /head row/i, `${where}: the head row's young scan pages are not named`);
      assert.match(p.words, /scan pages/i, where);
      if (p.ringed) assert.match(p.words, /black ring/i, `${where}: ${p.ringed} black-ringed scan pages drawn, not named`);
      assert.doesNotMatch(p.title, /stops the scan$/, `${where}: the title says the scan is stopped while its pages are young at the head`);
    }
    assert.deepEqual(errors, []);
  } finally {
    await page.close();
  }
});

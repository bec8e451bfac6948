// The presentation asks the class for its prediction before the answer: → into beat 3 (the
// figure paused just before the LRU batch) shows the question with no answer ("606") on screen
// (data-predict="1"); the next → is beat 4, which starts the refill and drain and shows its words
// and the count; the → after that goes to beat 5, which runs at the presentation's own speed, not
// the drain's slow motion. When the drain ends paused, no cell keeps flying (data-moving is 0 in
// the frames that follow). A beat still takes one → each: five from beat 1 reach beat 6.
import assert from "node:assert/strict";
import { test } from "node:test";
import { openPage, pageReady, useBrowser } from "./helpers.mjs";

const shared = useBrowser();
const W = "[data-testid=midpoint-widget]";

function beatDrawn(page, n) {
  return page.waitForFunction(([s, n]) => {
    const r = document.querySelector(s);
    return r.dataset.tour === String(n) && !r.dataset.seeking;
  }, [W, n], { timeout: 60_000, polling: 50 });
}

const state = (page) => page.evaluate((s) => {
  const r = document.querySelector(s);
  return { mode: r.dataset.mode, predict: r.dataset.predict ?? null, text: r.querySelector(".mp-tour-text").textContent, speed: r.querySelector("[data-ctl=speed]").value, tour: r.dataset.tour };
}, W);

test("the class predicts at beat 3, and the drain and its number come with beat 4", async () => {
  const { page, errors } = await openPage(shared.browser, "/www/lab.html?view=present", { viewport: { width: 1366, height: 768 } });
  try {
    await pageReady(page);
    await beatDrawn(page, 1);
    const speed1 = (await state(page)).speed;
    for (let beat = 2; beat <= 3; beat++) {
      await page.keyboard.press("ArrowRight");
      await beatDrawn(page, beat);
    }
    const asked = await state(page);
    assert.equal(asked.predict, "1", "beat 3 asks for the prediction");
    assert.equal(asked.mode, "paused", "nothing animates while the class predicts");
    assert.doesNotMatch(asked.text, /606|600 per/, `the answer is not on screen: ${asked.text}`);
    assert.match(asked.text, /predict/i);
    await page.keyboard.press("ArrowRight");
    await beatDrawn(page, 4);
    const shown = await state(page);
    assert.equal(shown.predict, null);
    assert.match(shown.text, /606/);
    assert.equal(shown.mode, "watching", "the refill and drain start");
    await page.waitForFunction((s) => document.querySelector(s).dataset.mode === "paused", W, { timeout: 60_000, polling: 50 });
    // Paused at the drain's end, the cells stop with it: the next frames are at rest.
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => requestAnimationFrame(r)))));
    assert.equal(await page.$eval(W, (r) => r.dataset.moving), "0", "no cell still flying once the drain's end says paused");
    await page.keyboard.press("ArrowRight");
    await beatDrawn(page, 5);
    assert.equal((await state(page)).speed, speed1, "beat 5 runs at the presentation's speed, not the drain's");
    await page.keyboard.press("ArrowLeft");
    await beatDrawn(page, 4);
    assert.equal((await state(page)).predict, null, "back into beat 4 asks nothing");
    await page.keyboard.press("ArrowLeft");
    await beatDrawn(page, 3);
    assert.equal((await state(page)).predict, null, "back into beat 3 (the class has answered) asks nothing");
    assert.deepEqual(errors, []);
  } finally {
    await page.close();
  }
});

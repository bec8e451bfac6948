// The article's faults a student met, each held by an assertion that failed before:
// the second "Predict first" box gave the first box's feedback (a refill and a drain of the
// close-up) for a question about one slid page's next touch; and the text bounded the slide at
// "at most 606" pages while the figure beside it counted 607 for its batch. Tests wait on the
// widgets' published state, never on time.
import assert from "node:assert/strict";
import { test } from "node:test";
import { openPage, pageReady, useBrowser } from "./helpers.mjs";

const shared = useBrowser();
const num = (s) => Number(String(s).replaceAll(",", ""));

test("each Predict box gives its own feedback", async () => {
  const { page, errors } = await openPage(shared.browser, "/www/index.html", { viewport: { width: 1366, height: 900 } });
  try {
    await pageReady(page);
    const boxes = page.locator("[data-predict]");
    const n = await boxes.count();
    assert.ok(n >= 2, `${n} Predict boxes`);
    const said = [];
    const playing = [];
    const strip = (t) => t.replace(/^You said [^.;]*[.;]\s*/, "").replace(/^(Right|Not quite)\.\s*/, "");
    for (let i = 0; i < n; i++) {
      const box = boxes.nth(i);
      await box.locator("button[data-guess]").first().click();
      // What it says as its figure starts to play the answer (set by the click itself).
      playing.push(strip(await box.locator(".predict-you").textContent()));
      // The feedback once the figure has played the answer.
      await page.waitForFunction((i) => document.querySelectorAll("[data-predict]")[i].dataset.played === "1" || !document.querySelectorAll("[data-predict]")[i].dataset.play, i, { timeout: 120_000 });
      const text = await box.locator(".predict-you").textContent();
      // What the box says beyond echoing the guess.
      said.push(strip(text));
    }
    assert.equal(new Set(playing).size, playing.length, `two boxes say the same as their figure plays: ${JSON.stringify(playing)}`);
    assert.equal(new Set(said).size, said.length, `two boxes give the same feedback: ${JSON.stringify(said)}`);
    assert.deepEqual(errors, []);
  } finally {
    await page.close();
  }
});

test("the slide's bound in the text holds for the count the figure shows", async () => {
  const { page, errors } = await openPage(shared.browser, "/www/index.html", { viewport: { width: 1366, height: 900 } });
  try {
    await pageReady(page);
    // The figure that follows the first Predict box: paused just after the scan phase's first batch.
    const fig = page.locator('.explain [data-query*="at=batch"][data-query*="view=strip"]').first();
    await fig.scrollIntoViewIfNeeded();
    await page.waitForFunction(() => {
      const r = document.querySelector('.explain [data-query*="at=batch"][data-query*="view=strip"]');
      const d = r?.querySelector('[data-k="demoted"]')?.textContent;
      return r?.dataset.atMoment === "1" && r.dataset.mode === "paused" && d && /\d/.test(d);
    }, null, { timeout: 60_000 });
    const counted = num(await fig.locator('[data-k="demoted"]').textContent());
    assert.ok(counted > 0, `the batch turned ${counted} pages old`);
    // Every "at most N" / "up to N" the article gives for the slide is at least the count shown.
    const text = await page.locator("article.explain").first().textContent();
    const bounds = [...text.replace(/\s+/g, " ").matchAll(/(?:at most|up to)[^.]*?([\d,]{3,}) pages/g)].map((m) => num(m[1]));
    for (const b of bounds) assert.ok(b >= counted, `the article bounds the slide at ${b} pages; the figure counts ${counted}`);
    // The number the article gives is the figure's within InnoDB's rounding (the text says so).
    const about = text.replace(/\s+/g, " ").match(/= (\d[\d,]*) pages each way/);
    assert.ok(about, "the article computes the slide for k = 1,024");
    assert.ok(Math.abs(num(about[1]) - counted) <= 1, `the article says ${about[1]}, the figure counts ${counted}`);
    assert.match(text.replace(/\s+/g, " "), /a page more or less/);
    assert.deepEqual(errors, []);
  } finally {
    await page.close();
  }
});

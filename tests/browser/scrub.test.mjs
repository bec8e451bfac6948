// The drain's timeline follows the pointer: a steady drag across it moves the thumb (which
// lands on the read that took the frame under the pointer) one way only, and the free list
// with it; a drag back the other way only. Each move's result is read once the move's input
// events are handled: the scrub, the status and the attributes published from it (data-free-len)
// are updated in the input's own task, not at the next animation frame; nothing is timed.
import assert from "node:assert/strict";
import { test } from "node:test";
import { openPage, pageReady, useBrowser } from "./helpers.mjs";

const shared = useBrowser();
const W = "[data-testid=midpoint-widget]";
const SCRUB = "[data-testid=drain-scrubber]";
const MOVES = 80;

const read = (page) =>
  page.evaluate(([s, q]) => ({ value: Number(document.querySelector(q).value), free: Number(document.querySelector(s).dataset.freeLen), mode: document.querySelector(s).dataset.mode }), [W, SCRUB]);

/** Drags the thumb from `from` to `to` (fractions of the track) in MOVES steady moves;
 *  returns what each move left (a drag's vertical drift does not matter). */
async function drag(page, from, to) {
  // Where the timeline is now (the lab's page can scroll as the close-up's caption changes).
  const box = await page.locator(SCRUB).boundingBox();
  // The thumb's centre runs from half a thumb in from each end (Chromium's thumb: 16 px).
  const x = (f) => box.x + 8 + f * (box.width - 16);
  const y = box.y + box.height / 2;
  await page.mouse.move(x(from), y);
  await page.mouse.down();
  const seen = [await read(page)];
  for (let i = 1; i <= MOVES; i++) {
    await page.mouse.move(x(from + ((to - from) * i) / MOVES), y);
    seen.push(await read(page));
  }
  await page.mouse.up();
  return seen;
}

for (const [name, path] of [
  ["the lab", "/www/lab.html?at=batch"],
  ["the presentation", "/www/lab.html?view=present&tour=4"],
]) {
  test(`${name}: a steady drag along the drain's timeline moves the thumb one way, and back`, async () => {
    const { page, errors } = await openPage(shared.browser, path, { viewport: { width: 1366, height: 900 } });
    try {
      await pageReady(page);
      if (path.includes("present")) {
        // Beat 4 watches the drain: paused (Space) once it has begun.
        await page.waitForFunction(([s, q]) => document.querySelector(s).dataset.mode === "watching" && Number(document.querySelector(q).value) > 0, [W, SCRUB], { timeout: 60_000 });
        await page.keyboard.press("Space");
      }
      // Paused, and the timeline showing the moment the counters show (the thumb follows a
      // pause in the frame after it).
      await page.waitForFunction(([s, q]) => {
        const r = document.querySelector(s);
        const t = document.querySelector(q);
        return r.dataset.mode === "paused" && !r.dataset.seeking && Number(t.max) > 0 && !t.disabled && Number(t.value) === Number(t.max) - Number(r.dataset.freeLen);
      }, [W, SCRUB], { timeout: 60_000 });
      await page.locator(SCRUB).scrollIntoViewIfNeeded();
      const size = Number(await page.locator(SCRUB).getAttribute("max"));
      const fwd = await drag(page, 0, 1);
      assert.equal(fwd[0].value, 0, "the drag starts at the batch");
      const back = await drag(page, 1, 0);
      for (const [dir, seen, sign] of [["forward", fwd, 1], ["back", back, -1]]) {
        const values = seen.map((s) => s.value);
        const wrong = seen.filter((s, i) => i > 0 && sign * (s.value - seen[i - 1].value) < 0).length;
        assert.equal(wrong, 0, `${dir}: ${wrong} of ${MOVES} moves sent the thumb back: ${values.join(" ")}`);
        const freeWrong = seen.filter((s, i) => i > 0 && sign * (s.free - seen[i - 1].free) > 0).length;
        assert.equal(freeWrong, 0, `${dir}: the free list went the other way ${freeWrong} times: ${seen.map((s) => s.free).join(" ")}`);
        for (const s of seen) assert.equal(s.free, size - s.value, `${dir}: the free list matches the thumb`);
      }
      assert.equal(fwd.at(-1).value, size, "the drag forward reached the drain's end");
      assert.equal(back.at(-1).value, 0, `the drag back reached the batch: ${back.map((s) => s.value).join(" ")}`);
      assert.ok(new Set(fwd.map((s) => s.value)).size > 4, `the thumb went through the reads: ${fwd.map((s) => s.value).join(" ")}`);
      assert.equal((await read(page)).mode, "paused");
      assert.deepEqual(errors, []);
    } finally {
      await page.close();
    }
  });
}

test("a scrub's moment is published in the task of its input: the free list agrees with the thumb before any frame", async () => {
  const { page, errors } = await openPage(shared.browser, "/www/lab.html?at=batch", { viewport: { width: 1366, height: 900 } });
  try {
    await pageReady(page);
    await page.waitForFunction(([s, q]) => {
      const r = document.querySelector(s);
      const t = document.querySelector(q);
      return r.dataset.mode === "paused" && !r.dataset.seeking && Number(t.max) > 0 && !t.disabled && Number(t.value) === Number(t.max) - Number(r.dataset.freeLen);
    }, [W, SCRUB], { timeout: 60_000 });
    // Three positions set and read in one task each (no animation frame between the input and
    // the reading): the drain's middle, its end, and back to the batch.
    for (const f of [0.5, 1, 0]) {
      const got = await page.evaluate(([s, q, f]) => {
        const r = document.querySelector(s);
        const t = document.querySelector(q);
        t.value = String(Math.round(f * Number(t.max)));
        t.dispatchEvent(new Event("input", { bubbles: true }));
        return { value: Number(t.value), max: Number(t.max), free: Number(r.dataset.freeLen), event: r.dataset.event };
      }, [W, SCRUB, f]);
      assert.equal(got.free, got.max - got.value, `at ${f} of the drain: data-free-len ${got.free}, the thumb ${got.value} of ${got.max}`);
    }
    assert.deepEqual(errors, []);
  } finally {
    await page.close();
  }
});

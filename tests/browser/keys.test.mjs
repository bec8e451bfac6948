// Keys by their owner, in the presentation (lab.html?view=present): the beat keys (→ ← PageUp
// PageDown) and Space (play/pause) act on the presentation whatever control has focus, as a
// clicker sends them; a focused control keeps only its own keys (the drain's timeline ↑/↓);
// B, E and N work from load; the tooltips name what the keys do in this view. Each key's
// effect is read in the same task as the key (data-tour is set by the key's handler) or waited
// for on the widget's published state; nothing is timed.
import assert from "node:assert/strict";
import { test } from "node:test";
import { openPage, pageReady, useBrowser } from "./helpers.mjs";

const shared = useBrowser();
const W = "[data-testid=midpoint-widget]";
const SCRUB = "[data-testid=drain-scrubber]";

/** Waits until the beat `n` is drawn at its moment (data-tour n, data-seeking absent). */
function beatDrawn(page, n) {
  return page.waitForFunction(([s, n]) => {
    const r = document.querySelector(s);
    return r.dataset.tour === String(n) && !r.dataset.seeking;
  }, [W, n], { timeout: 60_000, polling: 50 });
}

const state = (page) =>
  page.evaluate(([s, q]) => {
    const r = document.querySelector(s);
    const d = window.__midpoint.debug();
    return { tour: r.dataset.tour, mode: r.dataset.mode, event: d.events, refills: d.refills, speed: d.speed_index, scrub: Number(document.querySelector(q).value), focus: document.activeElement?.dataset?.testid ?? document.activeElement?.dataset?.act ?? document.activeElement?.dataset?.ctl ?? document.activeElement?.tagName };
  }, [W, SCRUB]);

async function present(query = "") {
  const { page, errors } = await openPage(shared.browser, `/www/lab.html?view=present${query}`, { viewport: { width: 1366, height: 768 } });
  await pageReady(page);
  return { page, errors };
}

test("after a click on the drain's timeline, PageDown and → change the beat, ↑ moves the timeline", async () => {
  const { page, errors } = await present("&tour=4");
  try {
    await beatDrawn(page, 4);
    await page.waitForFunction((q) => !document.querySelector(q).disabled && Number(document.querySelector(q).value) > 0, SCRUB, { timeout: 60_000 });
    await page.locator(SCRUB).click();
    await page.waitForFunction((s) => document.querySelector(s).dataset.mode === "paused", W);
    const before = await state(page);
    assert.equal(before.focus, "drain-scrubber", "the click focused the timeline");
    // The timeline keeps ↑ / ↓: one read forward, the beat stays.
    await page.keyboard.press("ArrowUp");
    const up = await state(page);
    assert.equal(up.tour, "4");
    assert.ok(up.scrub > before.scrub, `↑ moved the timeline forward: ${before.scrub} -> ${up.scrub}`);
    await page.keyboard.press("ArrowDown");
    assert.ok((await state(page)).scrub < up.scrub, "↓ moved it back");
    // The clicker's keys are the presentation's.
    await page.keyboard.press("PageDown");
    assert.equal((await state(page)).tour, "5", "PageDown on the focused timeline reached the next beat");
    await beatDrawn(page, 5);
    await page.keyboard.press("PageUp");
    assert.equal((await state(page)).tour, "4", "PageUp on the focused timeline went back a beat");
    await beatDrawn(page, 4);
    await page.waitForFunction((q) => !document.querySelector(q).disabled, SCRUB, { timeout: 60_000 });
    await page.locator(SCRUB).click();
    await page.keyboard.press("ArrowRight");
    assert.equal((await state(page)).tour, "5", "→ on the focused timeline reached the next beat");
    await beatDrawn(page, 5);
    assert.deepEqual(errors, []);
  } finally {
    await page.close();
  }
});

test("after a click on the Speed menu, → and ← change the beat, not the speed", async () => {
  const { page, errors } = await present();
  try {
    await beatDrawn(page, 1);
    await page.locator("[data-ctl=speed]").click();
    await page.keyboard.press("Escape");
    const before = await state(page);
    assert.equal(before.focus, "speed", "the click focused the Speed menu");
    await page.keyboard.press("ArrowRight");
    let s = await state(page);
    assert.equal(s.tour, "2", "→ on the Speed menu reached the next beat");
    assert.equal(s.speed, before.speed, "the speed stayed");
    await beatDrawn(page, 2);
    await page.keyboard.press("ArrowLeft");
    s = await state(page);
    assert.equal(s.tour, "1", "← on the Speed menu went back a beat");
    assert.equal(s.speed, before.speed, "the speed stayed");
    await beatDrawn(page, 1);
    // + and − are the speed's keys in the presentation, whatever has focus.
    await page.keyboard.press("-");
    assert.equal((await state(page)).speed, before.speed - 1);
    assert.deepEqual(errors, []);
  } finally {
    await page.close();
  }
});

test("after a click on Next, Space plays and pauses; after Watch, Space pauses the drain", async () => {
  const { page, errors } = await present();
  try {
    await beatDrawn(page, 1);
    await page.locator("[data-act=tour-next]").click();
    await beatDrawn(page, 2);
    assert.equal((await state(page)).focus, "tour-next");
    await page.keyboard.press("Space");
    assert.equal((await state(page)).tour, "2", "Space on Next played, the beat stayed");
    await page.waitForFunction((s) => document.querySelector(s).dataset.mode === "playing", W);
    await page.keyboard.press("Space");
    await page.waitForFunction((s) => document.querySelector(s).dataset.mode === "paused", W);
    assert.equal((await state(page)).tour, "2");
    // Watch: the batch, then the drain in slow motion; Space pauses it where it is.
    await page.locator("[data-testid=watch-refill]").click();
    await page.waitForFunction(([s, q]) => document.querySelector(s).dataset.mode === "watching" && Number(document.querySelector(q).value) > 0, [W, SCRUB], { timeout: 60_000 });
    const watching = await state(page);
    assert.equal(watching.focus, "watch-refill");
    await page.keyboard.press("Space");
    await page.waitForFunction((s) => document.querySelector(s).dataset.mode === "paused", W, { timeout: 10_000 });
    const paused = await state(page);
    assert.equal(paused.refills, watching.refills, "Space did not skip to the next refill");
    assert.ok(paused.scrub >= watching.scrub && paused.scrub > 0, `the drain paused where it was: ${watching.scrub} -> ${paused.scrub}`);
    await page.keyboard.press("Space");
    await page.waitForFunction((s) => document.querySelector(s).dataset.mode !== "paused", W);
    assert.equal((await state(page)).refills, watching.refills);
    assert.deepEqual(errors, []);
  } finally {
    await page.close();
  }
});

test("B, E and N work from load, with nothing clicked", async () => {
  const { page, errors } = await present();
  try {
    await beatDrawn(page, 1);
    const ev0 = (await state(page)).event;
    // Each key's act starts in its handler: the run has moved or is on its way.
    const moved = async (key, ev) => {
      await page.keyboard.press(key);
      const s = await state(page);
      assert.ok(s.mode !== "paused" || s.event !== ev, `${key} did something: ${JSON.stringify(s)}`);
    };
    const paused = () => page.waitForFunction((s) => document.querySelector(s).dataset.mode === "paused", W, { timeout: 30_000 });
    // N: just before the next LRU batch; B: the batch and the boundary's first move; E: the
    // drain's end, the free list empty.
    await moved("n", ev0);
    await page.waitForFunction(() => window.__midpoint.debug().at_batch && window.__midpoint.debug().mode === "paused", null, { timeout: 30_000 });
    const r0 = (await state(page)).refills;
    await moved("b", (await state(page)).event);
    await paused();
    assert.equal((await state(page)).refills, r0 + 1, "B ran the batch");
    await moved("e", (await state(page)).event);
    await page.waitForFunction((s) => document.querySelector(s).dataset.mode === "paused" && document.querySelector(s).dataset.freeLen === "0", W, { timeout: 30_000 });
    assert.equal((await state(page)).refills, r0 + 1, "E stopped at this drain's end");
    assert.equal((await state(page)).tour, "1");
    assert.deepEqual(errors, []);
  } finally {
    await page.close();
  }
});

test("the tooltips name what the keys do: in the presentation ← → are the beats, in the lab they step", async () => {
  const titles = (page) =>
    page.evaluate(() => {
      const t = (q) => {
        const e = document.querySelector(q);
        return e ? `${e.title} [${e.getAttribute("aria-keyshortcuts") ?? ""}]` : null;
      };
      return { step: t("[data-act=step]"), back: t("[data-act=back]"), next: t("[data-act=tour-next]"), prev: t("[data-act=tour-back]"), scrub: t("[data-testid=drain-scrubber]") };
    });
  const { page, errors } = await present();
  try {
    const p = await titles(page);
    for (const k of ["step", "back"]) assert.doesNotMatch(p[k], /[←→]|Arrow/, `present ${k}: ${p[k]}`);
    assert.match(p.next, /→/);
    assert.match(p.next, /PageDown/);
    assert.match(p.prev, /←/);
    assert.match(p.scrub, /↑/);
    assert.doesNotMatch(p.scrub, /[←→]|ArrowLeft|ArrowRight/);
    assert.deepEqual(errors, []);
    await page.goto(page.url().replace("view=present", "view=lab"));
    await pageReady(page);
    const l = await titles(page);
    assert.match(l.step, /→/);
    assert.match(l.back, /←/);
  } finally {
    await page.close();
  }
});

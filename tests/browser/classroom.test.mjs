// The classroom: the presentation (lab.html?view=present) fits one screen at 1280x720, 1366x768
// and 1920x1080 in every beat reached by → from load with nothing clicked (no page scroll, text
// and canvas labels at projector size, a close-up at least 1,200 px wide at 1920, touch targets
// 44 px tall, nothing cut off); the drain's timeline puts the run at the frame it names; the
// handout prints to two A4 pages at most; and a teacher's journey through the beats by key and
// the drain by its timeline. Tests wait for data-seeking to clear but time nothing
// (scripts/bench-present.sh prints the beats' latencies).
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { openPage, pageReady, useBrowser } from "./helpers.mjs";

const shared = useBrowser();
const W = "[data-testid=midpoint-widget]";

/** Waits until the beat `n` is drawn at its moment (data-tour n, data-seeking absent). */
function beatDrawn(page, n) {
  return page.waitForFunction(([s, n]) => {
    const r = document.querySelector(s);
    return r.dataset.tour === String(n) && !r.dataset.seeking;
  }, [W, n], { timeout: 60_000, polling: 50 });
}

/** What the layout test measures on the screen as it is. */
function measure(page) {
  return page.evaluate((s) => {
    let min = Infinity;
    let minText = "";
    for (const e of document.querySelectorAll("body *")) {
      if (![...e.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim())) continue;
      const r = e.getBoundingClientRect();
      if (r.width === 0 || r.height === 0) continue;
      const cs = getComputedStyle(e);
      if (cs.visibility === "hidden") continue;
      const f = parseFloat(cs.fontSize);
      if (f < min) {
        min = f;
        minText = e.textContent.trim().slice(0, 40);
      }
    }
    const canvas = document.querySelector("[data-testid=boundary-strip]");
    const side = document.querySelector(".mp-pres-side");
    const box = (q) => [...document.querySelectorAll(q)].filter((e) => e.getBoundingClientRect().height > 0).map((e) => Math.round(e.getBoundingClientRect().height));
    return {
      scrollHeight: document.documentElement.scrollHeight,
      minFont: min,
      minText,
      canvasFont: Number(canvas.dataset.minFontPx),
      canvasWidth: canvas.getBoundingClientRect().width,
      sideCut: side.scrollHeight - side.clientHeight,
      targets: [...box("[data-act=tour-next]"), ...box("[data-act=tour-back]"), ...box("[data-testid=drain-scrubber]")],
      seeking: document.querySelector(s).dataset.seeking ?? null,
    };
  }, W);
}

describe("the presentation fits the projector", () => {
  for (const [width, height, minPx] of [
    [1280, 720, 18],
    [1366, 768, 18],
    [1920, 1080, 24],
  ]) {
    test(`${width}x${height}: beats 1-6 by → from load, no scroll, text ≥ ${minPx} px`, async () => {
      const { page, errors } = await openPage(shared.browser, "/www/lab.html?view=present", { viewport: { width, height } });
      try {
        await pageReady(page);
        for (let beat = 1; beat <= 6; beat++) {
          if (beat > 1) await page.keyboard.press("ArrowRight");
          await beatDrawn(page, beat);
          const m = await measure(page);
          const at = `beat ${beat} at ${width}x${height}`;
          assert.ok(m.scrollHeight <= height + 2, `${at}: the page is ${m.scrollHeight} px tall`);
          assert.ok(m.minFont >= minPx - 0.01, `${at}: text of ${m.minFont} px ("${m.minText}")`);
          assert.ok(m.canvasFont >= minPx - 0.05, `${at}: canvas labels of ${m.canvasFont} px`);
          if (width === 1920) assert.ok(m.canvasWidth >= 1200, `${at}: close-up ${m.canvasWidth} px wide`);
          assert.ok(m.sideCut <= 1, `${at}: the beat's column cut off by ${m.sideCut} px`);
          assert.equal(m.targets.length, 3, `${at}: beat buttons and timeline shown`);
          for (const h of m.targets) assert.ok(h >= 44, `${at}: a touch target ${h} px tall`);
        }
        assert.deepEqual(errors, []);
      } finally {
        await page.close();
      }
    });
  }
});

/** Sets the drain's timeline to `v` (as a drag does: an input event) and returns the widget's
 *  free list and the timeline's value as published: the timeline's input handler moves the
 *  explorer and publishes its status in the event's own task (strip.js). */
async function scrub(page, v) {
  return page.evaluate(
    ([s, v]) => {
      const r = document.querySelector("[data-testid=drain-scrubber]");
      r.value = String(v);
      r.dispatchEvent(new Event("input", { bubbles: true }));
      return { free: Number(document.querySelector(s).dataset.freeLen), value: Number(r.value), max: Number(r.max), mode: document.querySelector(s).dataset.mode };
    },
    [W, v],
  );
}

/** Wait until the widget's published free list is other than `was`, and return it. */
async function freeAfter(page, was) {
  const h = await page.waitForFunction(([s, was]) => {
    const f = Number(document.querySelector(s).dataset.freeLen);
    return f !== was && String(f);
  }, [W, was], { timeout: 10_000 });
  return Number(await h.jsonValue());
}

test("the drain's timeline from at=batch: the middle and the end give the matching free list, and back", async () => {
  const { page, errors } = await openPage(shared.browser, "/www/lab.html?at=batch", { viewport: { width: 1366, height: 900 } });
  try {
    await pageReady(page);
    await page.waitForFunction((s) => document.querySelector(s).dataset.mode === "paused" && Number(document.querySelector("[data-testid=drain-scrubber]").max) > 0, W, { timeout: 60_000 });
    const size = Number(await page.locator("[data-testid=drain-scrubber]").getAttribute("max"));
    const start = await page.evaluate((s) => Number(document.querySelector(s).dataset.freeLen), W);
    assert.equal(start, size, "at=batch opens with the refill's frames free");
    assert.equal(Number(await page.locator("[data-testid=drain-scrubber]").inputValue()), 0);
    const mid = Math.floor(size / 2);
    for (const k of [mid, size, mid, 0]) {
      const r = await scrub(page, k);
      assert.equal(r.value, k, `the timeline at ${k} (a read's end)`);
      assert.equal(r.free, size - k, `k = ${k}: free list ${r.free} of ${size}`);
      assert.equal(r.mode, "paused");
    }
    assert.deepEqual(errors, []);
  } finally {
    await page.close();
  }
});

test("the handout prints to two A4 pages at most, with its figures and five questions", async () => {
  const { page, errors } = await openPage(shared.browser, "/www/lab.html?view=handout", { viewport: { width: 1280, height: 900 } });
  try {
    await page.waitForSelector("[data-testid=handout]");
    await page.waitForFunction(() => document.images.length === 4 && [...document.images].every((i) => i.complete && i.naturalWidth > 0), null, { timeout: 15_000 });
    assert.equal(await page.locator(".handout-qs li").count(), 5);
    assert.equal(await page.locator("[data-testid=midpoint-widget]").count(), 0, "no simulator on the handout");
    const pdf = await page.pdf({ format: "A4" });
    const pages = (pdf.toString("latin1").match(/\/Type\s*\/Page[^s]/g) ?? []).length;
    assert.ok(pages >= 1 && pages <= 2, `${pages} A4 pages`);
    assert.deepEqual(errors, []);
  } finally {
    await page.close();
  }
});

test("a teacher's journey: the beats by key from load, play and pause, the drain scrubbed read by read", async () => {
  const { page, errors } = await openPage(shared.browser, "/www/lab.html?view=present", { viewport: { width: 1366, height: 768 } });
  try {
    await pageReady(page);
    await beatDrawn(page, 1);
    const mode = () => page.evaluate((s) => document.querySelector(s).dataset.mode, W);
    // Space plays and pauses; the beat stays.
    await page.keyboard.press("Space");
    await page.waitForFunction((s) => document.querySelector(s).dataset.mode === "playing", W);
    await page.keyboard.press("Space");
    await page.waitForFunction((s) => document.querySelector(s).dataset.mode === "paused", W);
    // A clicker's keys: PageDown and → forward, PageUp and ← back.
    await page.keyboard.press("PageDown");
    await beatDrawn(page, 2);
    await page.keyboard.press("ArrowRight");
    await beatDrawn(page, 3);
    await page.keyboard.press("PageUp");
    await beatDrawn(page, 2);
    await page.keyboard.press("ArrowRight");
    await beatDrawn(page, 3);
    await page.keyboard.press("ArrowRight");
    await beatDrawn(page, 4);
    // Beat 4 watches the refill and its drain, and the timeline follows it.
    await page.waitForFunction(() => Number(document.querySelector("[data-testid=drain-scrubber]").value) > 0, null, { timeout: 60_000 });
    await page.keyboard.press("Space");
    await page.waitForFunction((s) => document.querySelector(s).dataset.mode === "paused", W);
    // Drag it to the start, then read by read with its keys (↑ ↓; ← → stay the beats'): the
    // beat does not change.
    const size = Number(await page.locator("[data-testid=drain-scrubber]").getAttribute("max"));
    assert.ok(size > 0);
    assert.equal((await scrub(page, 0)).free, size);
    await page.locator("[data-testid=drain-scrubber]").focus();
    const seen = [size];
    for (let i = 0; i < 3; i++) {
      await page.keyboard.press("ArrowUp");
      seen.push(await freeAfter(page, seen[seen.length - 1]));
    }
    for (let i = 1; i < seen.length; i++) assert.ok(seen[i] < seen[i - 1], `a read forward each press: ${seen}`);
    await page.keyboard.press("ArrowDown");
    assert.equal(await freeAfter(page, seen[3]), seen[2], "one read back");
    assert.equal(await page.evaluate((s) => document.querySelector(s).dataset.tour, W), "4");
    assert.equal(await mode(), "paused");
    // The last beats, and back to the first.
    await page.locator("body").evaluate((b) => document.activeElement?.blur());
    await page.keyboard.press("ArrowRight");
    await beatDrawn(page, 5);
    await page.keyboard.press("ArrowRight");
    await beatDrawn(page, 6);
    for (let b = 5; b >= 1; b--) {
      await page.keyboard.press("ArrowLeft");
      await beatDrawn(page, b);
    }
    assert.deepEqual(errors, []);
  } finally {
    await page.close();
  }
});

test("Watch at 1/1000×: the drain goes one read at a time, each once the last read's pages are at rest", async () => {
  const { page, errors } = await openPage(shared.browser, "/www/lab.html?view=present&tour=3", { viewport: { width: 1366, height: 768 } });
  try {
    await pageReady(page);
    await beatDrawn(page, 3);
    for (let i = 0; i < 7; i++) await page.keyboard.press("-");
    assert.equal(await page.locator("[data-ctl=speed]").inputValue(), "0", "the slowest speed");
    await page.keyboard.press("w");
    // The free list's values in every frame, until five reads have taken frames, and whether
    // the close-up was at rest in the frame before each.
    const seen = await page.evaluate(
      (s) =>
        new Promise((res) => {
          const r = document.querySelector(s);
          const out = [];
          const restBefore = [];
          let full = false;
          let rest = null;
          const f = () => {
            const free = Number(r.dataset.freeLen);
            if (r.dataset.mode === "watching" && Number(document.querySelector("[data-testid=drain-scrubber]").max) > 0 && free === Number(document.querySelector("[data-testid=drain-scrubber]").max)) full = true;
            if (full && out.at(-1) !== free) {
              if (out.length) restBefore.push(rest);
              out.push(free);
            }
            rest = r.dataset.moving === "0";
            if (out.length >= 6 || r.dataset.mode === "paused") res({ out, restBefore });
            else requestAnimationFrame(f);
          };
          f();
        }),
      W,
    );
    const { out, restBefore } = seen;
    assert.ok(out.length >= 6, `the drain went on: ${out}`);
    for (let i = 1; i < out.length; i++) assert.ok(out[i] < out[i - 1] && out[i - 1] - out[i] <= 64, `one read per change: ${out}`);
    assert.deepEqual(restBefore, restBefore.map(() => true), `the close-up at rest before each read: ${restBefore}`);
    assert.equal(await page.evaluate((s) => document.querySelector(s).dataset.mode, W), "watching");
    assert.deepEqual(errors, []);
  } finally {
    await page.close();
  }
});

test("the teacher's guide is linked from the article's and the lab's footers", async () => {
  for (const path of ["/www/index.html", "/www/lab.html"]) {
    const { page, errors } = await openPage(shared.browser, path, { viewport: { width: 1280, height: 900 } });
    try {
      const href = await page.locator("footer a[href$='docs/classroom.html']").getAttribute("href");
      const res = await page.request.get(new URL(href, page.url()).href);
      assert.equal(res.status(), 200, `${path}: ${href}`);
      assert.deepEqual(errors, []);
    } finally {
      await page.close();
    }
  }
});

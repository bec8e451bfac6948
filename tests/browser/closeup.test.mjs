// The boundary close-up, the code panel, the narration and the views: what the explainer shows
// at the boundary. Run by scripts/test.sh (section 5) against a served repository.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { atRest, debugOfRoot, openPage, pageReady, screenshot, useBrowser } from "./helpers.mjs";

const shared = useBrowser();

/** Samples the close-up's cells (its `debug().strip`) every animation frame until the widget
 *  pauses. */
async function watchAndRecord(page) {
  return page.evaluate(
    () =>
      new Promise((resolve) => {
        const t0 = performance.now();
        const slidInWindow = new Set();
        const reachedHead = new Set();
        let frames = 0;
        let changed = 0;
        let prev = null;
        let maxTrails = 0;
        document.querySelector('[data-testid="watch-refill"]').click();
        const tick = () => {
          const d = window.__midpoint.debug();
          const v = JSON.stringify(d.strip.cells);
          frames++;
          if (prev !== null && v !== prev) changed++;
          prev = v;
          for (const { page: f, flags, region } of d.strip.cells) {
            // Region 1: the window around LRU_old; 0: the head row. Flag 1: turned young by
            // the boundary since the last LRU batch.
            if (flags & 1 && region === 1) slidInWindow.add(f);
            if (region === 0 && slidInWindow.has(f)) reachedHead.add(f);
          }
          maxTrails = Math.max(maxTrails, d.strip.trails);
          if (d.mode === "paused" && performance.now() - t0 > 500) {
            resolve({ ms: performance.now() - t0, frames, changed, slid: slidInWindow.size, toHead: reachedHead.size, maxTrails, narration: d.narration });
          } else requestAnimationFrame(tick);
        };
        requestAnimationFrame(tick);
      }),
  );
}

describe("the boundary close-up", () => {
  test("Watch in the close-up: cells move every frame, pages turn young at the boundary and reach the head, for at least 6 s", async () => {
    const { page, errors } = await openPage(shared.browser, "/www/lab.html?view=strip&at=batch", { viewport: { width: 1366, height: 900 } });
    try {
      await pageReady(page);
      await page.waitForFunction(() => window.__midpoint.debug()?.after_batch === true, null, { timeout: 30_000, polling: 100 });
      for (const id of ["midpoint-widget", "boundary-strip", "narration", "code-panel", "watch-refill"]) {
        assert.equal(await page.locator(`[data-testid="${id}"]`).count(), 1, id);
      }
      const r = await watchAndRecord(page);
      assert.ok(r.ms >= 6000, `the watch lasted ${Math.round(r.ms)} ms`);
      assert.ok(r.changed > r.frames * 0.5, `cells changed in ${r.changed} of ${r.frames} frames`);
      assert.ok(r.slid > 0, "pages seen turning young in the window around LRU_old");
      assert.ok(r.toHead > 0, "a page seen turning young later reaches the head row");
      assert.ok(r.maxTrails > 0, "trails drawn");
      assert.match(r.narration, /the free list is empty again/);
      assert.deepEqual(errors, []);
    } finally {
      await page.close();
    }
  });

  test("paused, the close-up paints nothing until something changes; a step paints it again", async () => {
    const { page, errors } = await openPage(shared.browser, "/www/lab.html?view=strip&at=batch", { viewport: { width: 1366, height: 900 } });
    try {
      await pageReady(page);
      await page.waitForFunction(() => window.__midpoint.debug()?.after_batch === true, null, { timeout: 30_000, polling: 100 });
      // Count every call that draws on the close-up's canvas.
      await page.evaluate(() => {
        const ctx = document.querySelector('[data-testid="boundary-strip"]').getContext("2d");
        window.__stripDraws = 0;
        for (const m of ["clearRect", "fillRect", "strokeRect", "fillText", "fill", "stroke", "drawImage"]) {
          const f = ctx[m].bind(ctx);
          ctx[m] = (...a) => {
            window.__stripDraws++;
            return f(...a);
          };
        }
      });
      const count = (ms) =>
        page.evaluate(
          (ms) =>
            new Promise((done) => {
              const n0 = window.__stripDraws;
              setTimeout(() => done(window.__stripDraws - n0), ms);
            }),
          ms,
        );
      // Whatever was still easing or fading comes to rest (the frame loop says so).
      await atRest(page, undefined, { timeout: 30_000 });
      assert.equal((await debugOfRoot(page)).mode, "paused");
      assert.equal(await count(1500), 0, "draw calls on the paused close-up's canvas in 1.5 s");
      const before = await page.evaluate(() => window.__stripDraws);
      await page.locator('[data-act="step"]').click();
      // The step's repaint, or a timeout that fails the test.
      await page.waitForFunction((n) => window.__stripDraws > n, before, { timeout: 10_000 });
      assert.deepEqual(errors, []);
    } finally {
      await page.close();
    }
  });

  test("the code panel highlights the boundary's shrink step on a drain step that slides", async () => {
    const { page, errors } = await openPage(shared.browser, "/www/lab.html?view=strip&at=batch", { viewport: { width: 1366, height: 900 } });
    try {
      await pageReady(page);
      await page.waitForFunction(() => window.__midpoint.debug()?.after_batch === true, null, { timeout: 30_000, polling: 100 });
      await page.locator('[data-act="step"]').click();
      // Step through the drain (its Step button, each click acting at once) until an event turns
      // a page young.
      const found = await page.evaluate(() => {
        const step = document.querySelector('[data-testid="midpoint-widget"] [data-act="step"]');
        for (let i = 0; i < 3000; i++) {
          const before = window.__midpoint.debug().slid_young;
          step.click();
          if (window.__midpoint.debug().slid_young > before) return true;
        }
        return false;
      });
      assert.ok(found);
      await atRest(page, undefined, { timeout: 30_000 });
      const on = await page.locator('[data-testid="code-panel"] .mp-on').allTextContents();
      assert.ok(on.some((t) => t.includes("LRU_old.old = false")), on.join(" | "));
      const routine = await page.locator('[data-testid="code-panel"] .mp-active h3 code').allTextContents();
      assert.ok(routine.includes("buf_LRU_old_adjust_len"), routine.join(", "));
      const vars = await page.evaluate(() => Object.fromEntries([...document.querySelectorAll(".mp-vars dt")].map((dt) => [dt.querySelector("code").textContent, dt.nextElementSibling.textContent])));
      const st = await debugOfRoot(page);
      assert.equal(vars.old_len, st.old.toLocaleString("en-US"));
      assert.deepEqual(errors, []);
    } finally {
      await page.close();
    }
  });

  test("the narration at fixed events says what the state shows", async () => {
    const { page, errors } = await openPage(shared.browser, "/www/lab.html?preset=seed000-hot4485-b2b&autoplay=0", { viewport: { width: 1280, height: 900 } });
    try {
      await pageReady(page);
      const nums = (s) => (s.match(/\d[\d,]*/g) ?? []).map((x) => Number(x.replaceAll(",", "")));
      const shown = () => page.locator('[data-testid="narration"]').textContent();
      // Warm-up, after playing a while: derived from the state, not the opening line.
      const root = page.locator('[data-testid="midpoint-widget"]');
      await page.waitForFunction(() => window.__midpoint.debug()?.mode === "paused", null, { timeout: 30_000 });
      const ev0 = Number(await root.getAttribute("data-event"));
      await page.locator('[data-act="play"]').click();
      await page.waitForFunction((e) => Number(document.querySelector('[data-testid="midpoint-widget"]').dataset.event) >= e + 200, ev0, { timeout: 30_000 });
      await page.locator('[data-act="play"]').click();
      await page.waitForFunction(() => document.querySelector('[data-testid="midpoint-widget"]').dataset.mode === "paused", null, { timeout: 10_000 });
      let st = await debugOfRoot(page);
      let text = await shown();
      assert.equal(st.phase, "warm-up");
      assert.ok(!text.includes("warm-up begins"), text);
      assert.ok(nums(text).includes(st.lru) && nums(text).includes(st.free), `${text} / lru ${st.lru} free ${st.free}`);
      // Before a batch.
      await page.locator('[data-act="batch"]').click();
      await page.waitForFunction(() => window.__midpoint.debug().at_batch === true, null, { timeout: 30_000 });
      st = await debugOfRoot(page);
      text = await shown();
      assert.match(text, /paused just before/);
      assert.ok(nums(text).includes(st.free), text);
      // After it: the evictions and the free list as the state shows them.
      const before = st;
      await page.locator('[data-act="step"]').click();
      await page.waitForFunction((e) => window.__midpoint.debug().events > e, before.events, { timeout: 10_000 });
      st = await debugOfRoot(page);
      text = await shown();
      assert.ok(nums(text).includes(st.free), text);
      assert.ok(nums(text).includes(st.slid_old - before.slid_old), `${text} / demoted ${st.slid_old - before.slid_old}`);
      assert.match(text, /at most about/);
      assert.deepEqual(errors, []);
    } finally {
      await page.close();
    }
  });
});

describe("views and embeds", () => {
  // The heights the Embed dialog's snippets give (www/figure/sizes.js): an embedded figure
  // opened on its own, in a taller window, keeps to its snippet's height at any width.
  const budgets = [
    ["strip", 800, 560],
    ["grid", 800, 500],
    ["residency", 800, 500],
    ["sweep", 800, 500],
    ["strip", 390, 560],
  ];
  for (const [view, width, budget] of budgets) {
    test(`embed=1&view=${view} fits ${budget} px at ${width} px wide`, async () => {
      // The plot's first redraw, recorded from before the page's scripts run: it can come before
      // the page says it is ready.
      const init = () => document.addEventListener("midpoint-residency", (e) => (window.__firstResidency ??= e.detail), true);
      const { page, errors } = await openPage(shared.browser, `/www/index.html?embed=1&view=${view}&preset=seed000-hot4485-b2b&at=batch`, { viewport: { width, height: 900 }, init: view === "residency" ? init : undefined });
      try {
        await pageReady(page);
        await page.waitForFunction(() => window.__midpoint.debug()?.after_batch === true, null, { timeout: 30_000, polling: 100 });
        await atRest(page);
        const h = await page.evaluate(() => document.body.getBoundingClientRect().height);
        const w = await page.evaluate(() => document.documentElement.scrollWidth);
        assert.ok(h <= budget, `${Math.round(h)} px tall`);
        assert.ok(w <= width, `${w} px wide`);
        assert.equal(await page.locator('[data-testid="midpoint-widget"]').getAttribute("data-view"), view);
        if (view === "strip") {
          assert.ok(await page.locator('[data-testid="boundary-strip"]').isVisible());
          assert.ok(await page.locator('[data-testid="watch-refill"]').isVisible(), "Watch is there in the embedded strip");
          assert.ok((await debugOfRoot(page)).strip.cells.length > 0);
        }
        if (view === "residency") {
          const d = await (await page.waitForFunction(() => window.__firstResidency, null, { timeout: 30_000 })).jsonValue();
          assert.equal(typeof d.partial, "boolean");
          assert.ok(Number.isInteger(d.samples) && d.samples > 0, JSON.stringify(d));
          assert.ok(await page.locator('[data-testid="residency-plot"]').isVisible());
        }
        if (view === "grid") assert.ok(await page.locator('[data-testid="pool-grid"]').isVisible());
        if (width === 390) await screenshot(page, "embed-strip-390");
        assert.deepEqual(errors, []);
      } finally {
        await page.close();
      }
    });
  }

  test("in the lab, a click on the residency plot seeks the animation to that time", async () => {
    const { page, errors } = await openPage(shared.browser, "/www/lab.html?preset=small-demo&autoplay=0", { viewport: { width: 800, height: 700 } });
    try {
      await pageReady(page);
      const plot = page.locator('[data-testid="residency-plot"]');
      const box = await plot.boundingBox();
      // Six tenths of its width: where debug().residencySeek[6] says a click seeks to.
      const x = box.width * 0.6;
      const d0 = await debugOfRoot(page);
      const want = d0.residencySeek[6];
      const end = d0.end_s;
      assert.ok(want > end * 0.4 && want < end * 0.7, `${want} of ${end}`);
      await plot.click({ position: { x, y: box.height / 2 } });
      await page.waitForFunction((t) => { const s = window.__midpoint.debug(); return s.mode === "paused" && s.t_s >= t; }, want, { timeout: 30_000, polling: 100 });
      const t = (await debugOfRoot(page)).t_s;
      assert.ok(t - want < 1, `at ${t} s, wanted ${want}`);
      // And back: a click further left goes back in time.
      await plot.click({ position: { x: box.width * 0.3, y: box.height / 2 } });
      await page.waitForFunction((t) => { const s = window.__midpoint.debug(); return s.mode === "paused" && s.t_s < t; }, want, { timeout: 30_000, polling: 100 });
      assert.deepEqual(errors, []);
    } finally {
      await page.close();
    }
  });

  test("the strip works on a 390 px phone: tap a cell for its tooltip, swipe to step", async () => {
    const page = await shared.browser.newPage({ viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true });
    const errors = [];
    page.on("console", (m) => m.type() === "error" && errors.push(m.text()));
    page.on("pageerror", (e) => errors.push(e.message));
    try {
      const { baseUrl } = await import("./helpers.mjs");
      await page.goto(`${baseUrl}/www/lab.html?view=strip&at=batch&embed=1`);
      await pageReady(page);
      await page.waitForFunction(() => window.__midpoint.debug()?.after_batch === true, null, { timeout: 30_000, polling: 100 });
      const strip = page.locator('[data-testid="boundary-strip"]');
      const box = await strip.boundingBox();
      assert.ok(box.width <= 390 && box.width > 300, `${box.width}`);
      // A cell of the window: its position from the strip's own view.
      const cell = await page.evaluate(() => {
        const c = window.__midpoint.debug().strip.cells.find((c) => c.region === 1);
        return c ? [c.x + 4, c.y + 4] : null;
      });
      assert.ok(cell);
      const fire = (type, x, y) =>
        strip.dispatchEvent(type, { pointerType: "touch", clientX: box.x + x, clientY: box.y + y, isPrimary: true, bubbles: true });
      await fire("pointerdown", cell[0], cell[1]);
      await fire("pointerup", cell[0], cell[1]);
      const tip = page.locator(".mp-striptip");
      await tip.waitFor({ state: "visible" });
      assert.match(await tip.textContent(), /LRU position/);
      const ev0 = (await debugOfRoot(page)).events;
      await fire("pointerdown", 300, 60);
      await fire("pointerup", 200, 62);
      await page.waitForFunction((e) => window.__midpoint.debug().events === e + 1, ev0);
      assert.deepEqual(errors, []);
    } finally {
      await page.close();
    }
  });

  test("the article: a figure on a phone's first screen, figures start at their moment, no console error", async () => {
    const { page, errors } = await openPage(shared.browser, "/www/index.html", { viewport: { width: 390, height: 844 } });
    try {
      await pageReady(page);
      const first = page.locator("[data-midpoint][data-query]").first();
      await page.waitForFunction(() => document.querySelectorAll('[data-testid="midpoint-widget"][data-mode]').length >= 2);
      const top = await first.evaluate((e) => e.getBoundingClientRect().top);
      assert.ok(top < 600, `the first figure starts at ${top} px`);
      assert.ok((await page.locator("[data-predict]").count()) >= 2, "two predict-then-reveal moments");
      // Reveal works.
      const p = page.locator("[data-predict]").first();
      assert.equal(await p.locator(".predict-a").isHidden(), true);
      await p.locator("button[data-guess]").first().click();
      assert.equal(await p.locator(".predict-a").isVisible(), true);
      await screenshot(page, "article-390");
      assert.deepEqual(errors, []);
    } finally {
      await page.close();
    }
  });
});

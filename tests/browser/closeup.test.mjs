// The boundary close-up, the code panel, the narration and the views: what the explainer shows
// at the boundary. Run by scripts/test.sh (section 5) against a served repository.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { openPage, pageReady, screenshot, useBrowser } from "./helpers.mjs";

const shared = useBrowser();

/** Samples the close-up's cells every animation frame until the widget pauses. */
async function watchAndRecord(page) {
  return page.evaluate(
    () =>
      new Promise((resolve) => {
        const app = window.__midpoint.apps[0];
        const stride = app.ex.constructor.strip_stride();
        const t0 = performance.now();
        const slidInWindow = new Set();
        const reachedHead = new Set();
        let frames = 0;
        let changed = 0;
        let prev = null;
        let maxTrails = 0;
        document.querySelector('[data-testid="watch-refill"]').click();
        const tick = () => {
          const ex = app.ex;
          const v = new Float32Array(app.wasm.memory.buffer, ex.strip_ptr(), ex.strip_len()).slice();
          frames++;
          if (prev && (prev.length !== v.length || v.some((x, i) => x !== prev[i]))) changed++;
          prev = v;
          for (let i = 0; i + stride - 1 < v.length; i += stride) {
            const f = v[i];
            const flags = v[i + 4];
            const region = v[i + 6];
            // Region 1: the window around LRU_old; 0: the head row. Flag 1: turned young by
            // the boundary since the last LRU batch.
            if (flags & 1 && region === 1) slidInWindow.add(f);
            if (region === 0 && slidInWindow.has(f)) reachedHead.add(f);
          }
          maxTrails = Math.max(maxTrails, ex.strip_meta().trails.length);
          const mode = app.status?.mode;
          if (mode === "paused" && performance.now() - t0 > 500) {
            resolve({ ms: performance.now() - t0, frames, changed, slid: slidInWindow.size, toHead: reachedHead.size, maxTrails, narration: app.status.narration });
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
      await page.waitForFunction(() => window.__midpoint.apps[0].status?.after_batch === true, null, { timeout: 30_000 });
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
      await page.waitForFunction(() => window.__midpoint.apps[0].status?.after_batch === true, null, { timeout: 30_000 });
      // Count every call that draws on the close-up's canvas.
      await page.evaluate(() => {
        const ctx = window.__midpoint.apps[0].stripFigure.ctx;
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
      // Whatever was still easing or fading comes to rest within a second or two.
      await page.waitForTimeout(2500);
      assert.equal(await page.evaluate(() => window.__midpoint.apps[0].status.mode), "paused");
      assert.equal(await count(1500), 0, "draw calls on the paused close-up's canvas in 1.5 s");
      const before = await page.evaluate(() => window.__stripDraws);
      await page.locator('[data-act="step"]').click();
      await page.waitForTimeout(300);
      assert.ok((await page.evaluate(() => window.__stripDraws)) > before, "a step repainted nothing");
      assert.deepEqual(errors, []);
    } finally {
      await page.close();
    }
  });

  test("the code panel highlights the boundary's shrink step on a drain step that slides", async () => {
    const { page, errors } = await openPage(shared.browser, "/www/lab.html?view=strip&at=batch", { viewport: { width: 1366, height: 900 } });
    try {
      await pageReady(page);
      await page.waitForFunction(() => window.__midpoint.apps[0].status?.after_batch === true, null, { timeout: 30_000 });
      await page.locator('[data-act="step"]').click();
      // Step through the drain until an event turns a page young.
      const found = await page.evaluate(() => {
        const app = window.__midpoint.apps[0];
        for (let i = 0; i < 3000; i++) {
          const before = app.ex.status().slid_young;
          app.act("step");
          if (app.ex.status().slid_young > before) return true;
        }
        return false;
      });
      assert.ok(found);
      await page.waitForTimeout(100);
      const on = await page.locator('[data-testid="code-panel"] .mp-on').allTextContents();
      assert.ok(on.some((t) => t.includes("LRU_old.old = false")), on.join(" | "));
      const routine = await page.locator('[data-testid="code-panel"] .mp-active h3 code').allTextContents();
      assert.ok(routine.includes("buf_LRU_old_adjust_len"), routine.join(", "));
      const vars = await page.evaluate(() => Object.fromEntries([...document.querySelectorAll(".mp-vars dt")].map((dt) => [dt.querySelector("code").textContent, dt.nextElementSibling.textContent])));
      const st = await page.evaluate(() => window.__midpoint.apps[0].ex.status());
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
      // Warm-up, while playing: derived from the state, not the opening line.
      await page.evaluate(() => { const a = window.__midpoint.apps[0]; a.ex.set_speed(5); a.ex.play(); });
      await page.waitForTimeout(700);
      await page.evaluate(() => window.__midpoint.apps[0].ex.pause());
      await page.waitForTimeout(100);
      let st = await page.evaluate(() => window.__midpoint.apps[0].ex.status());
      let text = await shown();
      assert.equal(st.phase, "warm-up");
      assert.ok(!text.includes("warm-up begins"), text);
      assert.ok(nums(text).includes(st.lru) && nums(text).includes(st.free), `${text} / lru ${st.lru} free ${st.free}`);
      // Before a batch.
      await page.locator('[data-act="batch"]').click();
      await page.waitForFunction(() => window.__midpoint.apps[0].status?.at_batch === true, null, { timeout: 30_000 });
      st = await page.evaluate(() => window.__midpoint.apps[0].ex.status());
      text = await shown();
      assert.match(text, /paused just before/);
      assert.ok(nums(text).includes(st.free), text);
      // After it: the evictions and the free list as the state shows them.
      const before = st;
      await page.locator('[data-act="step"]').click();
      await page.waitForTimeout(100);
      st = await page.evaluate(() => window.__midpoint.apps[0].ex.status());
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
      const { page, errors } = await openPage(shared.browser, `/www/index.html?embed=1&view=${view}&preset=seed000-hot4485-b2b&at=batch`, { viewport: { width, height: 900 } });
      try {
        await pageReady(page);
        const residency = view === "residency" ? page.evaluate(() => new Promise((res) => document.querySelector('[data-testid="midpoint-widget"]').addEventListener("midpoint-residency", (e) => res(e.detail), { once: true }))) : null;
        await page.waitForFunction(() => window.__midpoint.apps[0].status?.after_batch === true, null, { timeout: 30_000 });
        await page.waitForTimeout(300);
        const h = await page.evaluate(() => document.body.getBoundingClientRect().height);
        const w = await page.evaluate(() => document.documentElement.scrollWidth);
        assert.ok(h <= budget, `${Math.round(h)} px tall`);
        assert.ok(w <= width, `${w} px wide`);
        assert.equal(await page.locator('[data-testid="midpoint-widget"]').getAttribute("data-view"), view);
        if (view === "strip") {
          assert.ok(await page.locator('[data-testid="boundary-strip"]').isVisible());
          assert.ok(await page.locator('[data-testid="watch-refill"]').isVisible(), "Watch is there in the embedded strip");
          assert.ok(await page.evaluate(() => window.__midpoint.apps[0].ex.strip_len() > 0));
        }
        if (view === "residency") {
          const d = await residency;
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
      const x = box.width * 0.6;
      const want = await page.evaluate(([x, w]) => {
        const a = window.__midpoint.apps[0];
        return a.ex.residency_time_at(x, w, a.residencyFigure.canvas.width, a.residencyFigure.scale);
      }, [x, box.width]);
      const end = await page.evaluate(() => window.__midpoint.apps[0].ex.status().end_s);
      assert.ok(want > end * 0.4 && want < end * 0.7, `${want} of ${end}`);
      await plot.click({ position: { x, y: box.height / 2 } });
      await page.waitForFunction((t) => { const s = window.__midpoint.apps[0].ex.status(); return s.mode === "paused" && s.t_s >= t; }, want, { timeout: 30_000 });
      const t = await page.evaluate(() => window.__midpoint.apps[0].ex.status().t_s);
      assert.ok(t - want < 1, `at ${t} s, wanted ${want}`);
      // And back: a click further left goes back in time.
      await plot.click({ position: { x: box.width * 0.3, y: box.height / 2 } });
      await page.waitForFunction((t) => { const s = window.__midpoint.apps[0].ex.status(); return s.mode === "paused" && s.t_s < t; }, want, { timeout: 30_000 });
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
      await page.waitForFunction(() => window.__midpoint.apps[0].status?.after_batch === true, null, { timeout: 30_000 });
      const strip = page.locator('[data-testid="boundary-strip"]');
      const box = await strip.boundingBox();
      assert.ok(box.width <= 390 && box.width > 300, `${box.width}`);
      // A cell of the window: its position from the strip's own view.
      const cell = await page.evaluate(() => {
        const ex = window.__midpoint.apps[0].ex;
        const v = new Float32Array(window.__midpoint.apps[0].wasm.memory.buffer, ex.strip_ptr(), ex.strip_len());
        for (let i = 0; i < v.length; i += 8) if (v[i + 6] === 1) return [v[i + 1] + 4, v[i + 2] + 4];
        return null;
      });
      assert.ok(cell);
      const fire = (type, x, y) =>
        strip.dispatchEvent(type, { pointerType: "touch", clientX: box.x + x, clientY: box.y + y, isPrimary: true, bubbles: true });
      await fire("pointerdown", cell[0], cell[1]);
      await fire("pointerup", cell[0], cell[1]);
      const tip = page.locator(".mp-striptip");
      await tip.waitFor({ state: "visible" });
      assert.match(await tip.textContent(), /LRU position/);
      const ev0 = await page.evaluate(() => window.__midpoint.apps[0].ex.events());
      await fire("pointerdown", 300, 60);
      await fire("pointerup", 200, 62);
      await page.waitForFunction((e) => window.__midpoint.apps[0].ex.events() === e + 1, ev0);
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
      await page.waitForFunction(() => window.__midpoint.apps.length >= 2);
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

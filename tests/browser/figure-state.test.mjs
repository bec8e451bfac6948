// A figure shows a function of (its settings, its moment), whatever the reader did before: in
// the article's figures, a run that is over can be reset from the figure itself, a ring on a
// cell says what the pool holds now, a caption follows its slider, an input pressed while the
// figure recomputes its moment acts on that moment, the residency plot offers no cursor it
// cannot honour, and counts agree with their nouns. Each test waits on the widget's published
// signals (data-mode, data-t, debug().idle), never on a fixed time.
import { test, describe } from "node:test";
import assert from "node:assert/strict";
import { debugOfRoot, openPage, pageReady, useBrowser } from "./helpers.mjs";

const shared = useBrowser();
const VIEWPORT = { width: 1366, height: 768 };

/** Opens the article and brings the figure `sel` (a selector of its [data-midpoint] root) on
 *  screen; resolves once its widget is mounted. */
async function articleFigure(sel) {
  const { page, errors } = await openPage(shared.browser, "/www/index.html", { viewport: VIEWPORT });
  await pageReady(page);
  await page.locator(sel).scrollIntoViewIfNeeded();
  // Mounted: its root publishes its mode.
  await page.waitForFunction((s) => document.querySelector(s).dataset.mode !== undefined, sel, { timeout: 20_000 });
  return { page, errors };
}

/** Plays the figure `sel` to its run's end at its fastest speed (+ pressed inside it until its
 *  Speed menu, hidden in an article's figure, shows the last), and waits until it is there and
 *  paused. */
async function playToEnd(page, sel) {
  await page.locator(`${sel} [data-act="play"]`).focus();
  const fastest = (s) => {
    const m = document.querySelector(s).querySelector('select[data-ctl="speed"]');
    return m.selectedIndex === m.options.length - 1;
  };
  for (let i = 0; i < 10 && !(await page.evaluate(fastest, sel)); i++) await page.keyboard.press("+");
  await page.waitForFunction(fastest, sel, { timeout: 5_000 });
  await page.locator(`${sel} [data-act="play"]`).click();
  await page.waitForFunction((s) => document.querySelector(s).dataset.phase === "ended" && document.querySelector(s).dataset.mode === "paused", sel, { timeout: 180_000 });
}

/** Waits until the figure is paused and its frame loop idle (nothing left to move or draw). */
function rest(page, sel, timeout = 60_000) {
  return page.waitForFunction(
    (s) => {
      const r = document.querySelector(s);
      return r.dataset.mode === "paused" && r.debug()?.idle === true;
    },
    sel,
    { timeout, polling: 50 },
  );
}

const narration = (page, sel) => page.locator(`${sel} [data-testid=narration]`).textContent();

describe("a figure's state is (its settings, its moment)", () => {
  test("the contest figure: at the run's end a Reset button brings it back, and its buttons follow its state", async () => {
    const sel = '.explain [data-midpoint][data-query*="view=grid&at=batch"]';
    const { page, errors } = await articleFigure(sel);
    try {
      // Its opening moment, then the end of the run (Play, at the fastest speed, to the end).
      await page.waitForFunction((s) => document.querySelector(s).dataset.phase === "scan", sel, { timeout: 60_000 });
      await rest(page, sel);
      await playToEnd(page, sel);
      await rest(page, sel);
      assert.match(await narration(page, sel), /the run is over\. Press Reset \(or Home\)/);
      const reset = page.locator(`${sel} button[data-act="reset"]`);
      assert.equal(await reset.count(), 1, "the figure has the Reset its narration names");
      assert.ok(await reset.isVisible(), "Reset is shown at the run's end");
      assert.ok(await reset.isEnabled());
      for (const act of ["play", "step", "watch"]) assert.ok(await page.locator(`${sel} [data-act="${act}"]`).isDisabled(), `${act} is disabled at the end`);
      await reset.click();
      await page.waitForFunction((s) => document.querySelector(s).dataset.t === "0.0000", sel);
      await rest(page, sel);
      assert.match(await narration(page, sel), /back at the start of the warm-up/);
      for (const act of ["play", "step", "step-boundary", "step-drain-end", "watch"]) assert.ok(await page.locator(`${sel} [data-act="${act}"]`).isEnabled(), `${act} is enabled after Reset`);
      assert.ok(await page.locator(`${sel} [data-act="back"]`).isDisabled(), "nothing to go back to at 0 s");
      // And it answers: a step is one event.
      await page.locator(`${sel} [data-act="step"]`).click();
      await page.waitForFunction((s) => document.querySelector(s).dataset.event === "1", sel);
      // Ended again and Home (the key) from inside the figure does the same.
      await playToEnd(page, sel);
      await page.locator(`${sel} [data-act="back"]`).focus();
      await page.keyboard.press("Home");
      await page.waitForFunction((s) => document.querySelector(s).dataset.t === "0.0000", sel);
      assert.ok(await page.locator(`${sel} [data-act="play"]`).isEnabled());
      assert.deepEqual(errors, []);
    } finally {
      await page.close();
    }
  });

  test("the small pool: after Pause, Boundary step, Drain's end and Watch, every ring is one the pool's state supports", async () => {
    const sel = '.explain [data-midpoint][data-query*="small-demo"]';
    const { page, errors } = await articleFigure(sel);
    try {
      const click = (act) => page.locator(`${sel} [data-act="${act}"]`).click();
      await page.waitForFunction((s) => document.querySelector(s).dataset.mode === "playing", sel);
      await click("play");
      await rest(page, sel);
      // From the start, so that the moments below are the same on any machine.
      await page.locator(`${sel} [data-act="back"]`).focus();
      await page.keyboard.press("Home");
      await rest(page, sel);
      // A pink ring: a hot-set page the last batch turned old, old now; a black ring: a page the
      // boundary turned young, young now. Nothing else has a ring.
      const bad = (d) => Object.entries(d.rings).filter(([k, v]) => v > 0 && k !== "pink hot old" && !/^black \S+ young$/.test(k));
      const seen = [];
      const check = async (where) => {
        const d = await debugOfRoot(page, sel);
        assert.ok(d.rings, "debug() publishes the rings drawn");
        seen.push(`${where} t=${d.t_s}: ${JSON.stringify(d.rings)}`);
        assert.deepEqual(bad(d), [], `${where} at t = ${d.t_s} s: ${JSON.stringify(d.rings)}`);
      };
      for (let round = 0; round < 5; round++) {
        await click("step-boundary");
        await rest(page, sel);
        await check(`round ${round}, boundary step`);
        await click("step-drain-end");
        await rest(page, sel);
        await check(`round ${round}, drain's end`);
        await click("watch");
        // During the watch (its batch, evictions and drain), at every mode change and at rest.
        await page.waitForFunction((s) => document.querySelector(s).dataset.mode === "watching", sel);
        await check(`round ${round}, watching`);
        await rest(page, sel);
        await check(`round ${round}, watched`);
      }
      assert.ok(seen.some((s) => s.includes("pink hot old")), `a batch demoted hot pages at some point: ${seen.join("\n")}`);
      assert.deepEqual(errors, []);
    } finally {
      await page.close();
    }
  });

  test("the first figure's caption follows its depth slider", async () => {
    const sel = '.explain [data-midpoint][data-query*="at=watch"]';
    const { page, errors } = await articleFigure(sel);
    try {
      const cap = page.locator(".explain figure.mp-lead > figcaption");
      assert.match(await cap.textContent(), /frees 1,024 frames/);
      const slider = page.locator(`${sel} input[data-param="lru_scan_depth"]`);
      await slider.focus();
      await page.keyboard.press("Home");
      const value = async () => (await page.locator(`${sel} [data-ctl-row="lru_scan_depth"] output`).textContent()).match(/[\d,]+/)[0];
      const low = await value();
      await page.waitForFunction(([c, v]) => document.querySelector(c).textContent.includes(`frees ${v} frames`), [".explain figure.mp-lead > figcaption", low]);
      assert.doesNotMatch(await cap.textContent(), /1,024/);
      await page.keyboard.press("End");
      const high = await value();
      assert.notEqual(high, low);
      await page.waitForFunction(([c, v]) => document.querySelector(c).textContent.includes(`frees ${v} frames`), [".explain figure.mp-lead > figcaption", high]);
      assert.deepEqual(errors, []);
    } finally {
      await page.close();
    }
  });

  test("Step pressed while a figure recomputes its moment acts on that moment, never half-way", async () => {
    const sel = '.explain [data-midpoint][data-query="preset=seed000-hot4485-b2b&view=strip&at=scan"]';
    const { page, errors } = await articleFigure(sel);
    try {
      // The figure opens at the scan's start (60 s): press Step while it says it is recomputing
      // its way there (or, if it got there first, once it is there).
      const pressed = await page.evaluate(
        (s) =>
          new Promise((resolve) => {
            const tick = () => {
              const r = document.querySelector(s);
              const busy = r.querySelector(".mp-busy")?.textContent ?? "";
              const there = r.dataset.mode === "paused" && r.dataset.phase === "scan";
              if (busy.includes("Recomputing") || there) {
                r.querySelector('[data-act="step"]').click();
                resolve({ busy, t: r.dataset.t });
              } else requestAnimationFrame(tick);
            };
            tick();
          }),
        sel,
      );
      await rest(page, sel);
      const d = await debugOfRoot(page, sel);
      assert.equal(d.phase, "scan", `pressed at ${JSON.stringify(pressed)}; now at ${d.t_s} s (${d.phase})`);
      assert.ok(d.t_s >= d.scan_start_s, `${d.t_s} s`);
      assert.match(await narration(page, sel), /^60\.\d{4} s: /, "the step's own narration, at the moment");
      assert.deepEqual(errors, []);
    } finally {
      await page.close();
    }
  });

  test("the article's residency plot, which shows no moment, offers no cursor: a click moves nothing", async () => {
    const sel = '.explain [data-midpoint][data-query*="view=residency"]';
    const { page, errors } = await articleFigure(sel);
    try {
      const plot = page.locator(`${sel} [data-testid=residency-plot]`);
      await plot.waitFor();
      await page.waitForFunction((s) => document.querySelector(s).querySelector("canvas[data-min-font-px]:not([data-min-font-px=none])"), sel);
      const offer = await plot.evaluate((c) => ({ cursor: getComputedStyle(c).cursor, title: c.title }));
      assert.notEqual(offer.cursor, "ew-resize", "no drag cursor");
      assert.doesNotMatch(offer.title, /move the animation/);
      assert.doesNotMatch(await page.locator(".explain figure:has([data-query*='view=residency']) > figcaption").textContent(), /Click or drag/);
      const box = await plot.boundingBox();
      await plot.click({ position: { x: box.width * 0.6, y: box.height / 2 } });
      await rest(page, sel);
      const d = await debugOfRoot(page, sel);
      assert.equal(d.events, 0, "the click moved no simulation");
      assert.deepEqual(errors, []);
    } finally {
      await page.close();
    }
  });

  test("the growth slide's code panel and narration count in the singular when it is one", async () => {
    const sel = '.explain [data-midpoint][data-query*="restart"]';
    const { page, errors } = await articleFigure(sel);
    try {
      await page.waitForFunction((s) => document.querySelector(s).dataset.phase === "scan", sel, { timeout: 60_000 });
      await rest(page, sel);
      const what = page.locator(`${sel} [data-testid=code-panel] .mp-code-what`);
      const wrong = /(^|[^\d,.])1 (pages|frames|reads|touches|scanned-table pages)\b/;
      let one = 0;
      for (let i = 0; i < 60 && one < 3; i++) {
        await page.locator(`${sel} [data-act="step"]`).click();
        await rest(page, sel);
        const code = await what.textContent();
        const nar = await narration(page, sel);
        assert.doesNotMatch(code, wrong, `code panel: ${code}`);
        assert.doesNotMatch(nar, wrong, `narration: ${nar}`);
        if (/turned 1 page young/.test(code)) one++;
      }
      assert.ok(one > 0, "a step turned exactly one page young");
      assert.deepEqual(errors, []);
    } finally {
      await page.close();
    }
  });
});

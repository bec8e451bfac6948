// Each figure whole, in headless Chromium: every Embed button opens a visible dialog
// for its figure and leaves the page usable; the article opens on the leak; the residency and
// sweep figures carry their sliders and the sweep is drawn without a click; every figure with a
// colour code has its key; on a phone no text is under 12 px, on the page or on a canvas.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { openPage, painted, pageReady, settled, useBrowser, visitAll } from "./helpers.mjs";

const shared = useBrowser();

/** Wait until the one figure of page `p` is at its opening moment and drawn. */
async function atMoment(p) {
  await p.waitForFunction(() => document.querySelector("[data-testid=midpoint-widget]")?.dataset.atMoment === "1", null, { timeout: 30_000 });
  await painted(p);
}

/** Opens every Embed button of the page in turn: each dialog is visible, inside the viewport,
 *  holds a snippet of its own figure, closes (by Escape or its Close button), and afterwards the
 *  page answers a click. */
async function everyEmbed(page, label) {
  const buttons = page.locator("[data-testid=embed-button]");
  const n = await buttons.count();
  assert.ok(n >= 1, `${label}: no Embed button`);
  let opened = 0;
  for (let i = 0; i < n; i++) {
    const b = buttons.nth(i);
    if (!(await b.isVisible())) continue;
    await b.scrollIntoViewIfNeeded();
    await b.click();
    const dlg = page.locator("[data-testid=embed-dialog][open]");
    await dlg.waitFor({ state: "visible", timeout: 5_000 });
    const box = await dlg.boundingBox();
    const vp = page.viewportSize();
    assert.ok(box && box.width > 100 && box.height > 100, `${label} #${i}: dialog ${JSON.stringify(box)}`);
    assert.ok(box.x >= 0 && box.y >= 0 && box.x + box.width <= vp.width + 1 && box.y + box.height <= vp.height + 1, `${label} #${i}: dialog outside the viewport ${JSON.stringify(box)}`);
    const snippet = dlg.locator("[data-testid=embed-snippet]");
    assert.ok(await snippet.isVisible(), `${label} #${i}: snippet hidden`);
    assert.match(await snippet.inputValue(), /^<iframe src="[^"]+embed=1[^"]*view=(strip|grid|residency|sweep|write|policies|pair|scale|phase)/);
    // Escape for every other one, the Close button for the rest.
    if (i % 2 === 0) await page.keyboard.press("Escape");
    else await dlg.locator("[data-testid=embed-close]").click();
    await page.waitForFunction(() => !document.querySelector("dialog[open]"), null, { timeout: 5_000 });
    opened++;
  }
  assert.ok(opened >= 1, `${label}: no visible Embed button`);
  // The page answers a click: the first figure's Step moves it on.
  const w = page.locator("[data-testid=midpoint-widget]:has([data-act=step])").first();
  if ((await w.count()) === 1) {
    await w.locator("[data-act=step]").first().scrollIntoViewIfNeeded();
    await page.waitForFunction((el) => el.dataset.mode === "paused" || el.dataset.mode === "playing", await w.elementHandle(), { timeout: 30_000 });
    if ((await w.getAttribute("data-mode")) === "playing") await w.locator("[data-act=play]").first().click();
    await page.waitForFunction((el) => el.dataset.mode === "paused", await w.elementHandle(), { timeout: 30_000 });
    const ev = Number(await w.getAttribute("data-event"));
    await w.locator("[data-act=step]").first().click({ timeout: 5_000 });
    await page.waitForFunction(([el, ev]) => Number(el.dataset.event) > ev, [await w.elementHandle(), ev], { timeout: 10_000 });
  }
  return opened;
}

describe("every figure whole", () => {
  test("every Embed button of the article opens a visible dialog, and the page answers clicks after", async () => {
    const { page, errors } = await openPage(shared.browser, "/www/index.html", { viewport: { width: 1366, height: 768 } });
    try {
      await pageReady(page);
      await visitAll(page);
      const n = await everyEmbed(page, "article");
      assert.ok(n >= 9, `${n} embed buttons`);
      assert.deepEqual(errors, []);
    } finally {
      await page.close();
    }
  });

  for (const view of ["strip", "grid", "residency", "sweep", "lab"]) {
    for (const embed of [false, true]) {
      test(`view=${view}${embed ? "&embed=1" : ""}: its Embed dialogs open, visible, and close`, async () => {
        const vp = embed ? { width: 390, height: 560 } : { width: 1366, height: 768 };
        const { page, errors } = await openPage(shared.browser, `/www/lab.html?preset=seed000-hot4485-b2b&view=${view}${embed ? "&embed=1" : ""}&autoplay=0`, { viewport: vp });
        try {
          await pageReady(page);
          await atMoment(page);
          await everyEmbed(page, `view=${view}${embed ? " embed" : ""}`);
          assert.deepEqual(errors, []);
        } finally {
          await page.close();
        }
      });
    }
  }

  for (const vp of [
    { width: 1366, height: 768 },
    { width: 390, height: 844 },
  ]) {
    test(`the article opens on the leak at ${vp.width}×${vp.height}: the first figure in the first screen, in the scan phase within 5 s`, async () => {
      const page = await shared.browser.newPage({ viewport: vp, reducedMotion: "no-preference" });
      const t0 = Date.now();
      try {
        const { baseUrl } = await import("./helpers.mjs");
        await page.goto(`${baseUrl}/www/index.html`);
        const first = page.locator("[data-midpoint]").first();
        const top = await first.evaluate((e) => e.getBoundingClientRect().top);
        assert.ok(vp.height - top >= 150, `the first figure starts at ${top} px: ${vp.height - top} px of it on the first screen`);
        await page.waitForFunction(() => document.querySelector("[data-midpoint]").dataset.phase === "scan", null, { timeout: 5_000 - (Date.now() - t0) });
        assert.equal(await first.getAttribute("data-view"), "strip");
        // It shows the leak: within the first seconds the boundary turns scan pages young.
        await page.waitForFunction(() => window.__midpoint?.debug(document.querySelector("[data-midpoint]"))?.drain_young > 0, null, { timeout: 30_000 });
      } finally {
        await page.close();
      }
    });
  }

  test("reduced motion: nothing on the article plays by itself", async () => {
    const page = await shared.browser.newPage({ viewport: { width: 1366, height: 768 }, reducedMotion: "reduce" });
    try {
      const { baseUrl } = await import("./helpers.mjs");
      await page.goto(`${baseUrl}/www/index.html`);
      await pageReady(page);
      // Every figure brought on screen until it has drawn a frame (a figure that played by
      // itself would be playing from its opening request on), then every one's mode as published.
      await visitAll(page);
      const modes = await page.evaluate(() => [...document.querySelectorAll("[data-midpoint]")].map((r) => `${r.dataset.view}:${r.dataset.mode}:${window.__midpoint.debug(r).mode}`));
      assert.ok(modes.every((m) => !/playing|watching/.test(m)), modes.join(" "));
      // The first figure waits at the refill, paused (it heads there while on screen), and stays
      // there: its frame loop comes to rest (idle: paused, nothing moved or drawn for 30 frames).
      await page.evaluate(() => window.scrollTo(0, 0));
      await page.waitForFunction(() => window.__midpoint.debug(document.querySelector("[data-midpoint]"))?.after_batch === true, null, { timeout: 30_000 });
      await settled(page, "[data-midpoint]", 120_000);
      const first = await page.evaluate(() => window.__midpoint.debug(document.querySelector("[data-midpoint]")));
      assert.equal(first.mode, "paused");
      assert.equal(first.after_batch, true);
    } finally {
      await page.close();
    }
  });

  test("the residency and sweep figures carry their sliders; the sweep is drawn without a click", async () => {
    const { page, errors } = await openPage(shared.browser, "/www/index.html", { viewport: { width: 1366, height: 768 } });
    try {
      await pageReady(page);
      for (const view of ["residency", "sweep"]) {
        const figs = page.locator(`.explain figure:has(> [data-midpoint][data-query*="view=${view}"])`);
        assert.ok((await figs.count()) >= 1, view);
        for (let i = 0; i < (await figs.count()); i++) {
          const fig = figs.nth(i);
          const t0 = Date.now();
          await fig.scrollIntoViewIfNeeded();
          const range = fig.locator('input[type="range"][data-param]');
          await range.first().waitFor({ state: "visible", timeout: 10_000 });
          const params = await range.evaluateAll((rs) => rs.map((r) => r.dataset.param));
          assert.deepEqual(params, view === "residency" ? ["lru_scan_depth", "old_blocks_time"] : ["hot_pages", "scan_pause_ms"]);
          if (view === "sweep") {
            await fig.locator("[data-testid=sweep-plot]").waitFor({ state: "visible", timeout: 3_000 });
            await page.waitForFunction((f) => Number(f.querySelector("[data-testid=sweep-plot]").dataset.points) > 0, await fig.elementHandle(), { timeout: Math.max(100, 3_000 - (Date.now() - t0)) });
            assert.equal(Number(await fig.locator("[data-testid=sweep-plot]").getAttribute("data-points")), 40, "every point, from the committed sweep");
          }
        }
      }
      assert.deepEqual(errors, []);
    } finally {
      await page.close();
    }
  });

  test("every figure with a colour code shows its key, embedded ones within their height", async () => {
    const { page, errors } = await openPage(shared.browser, "/www/index.html", { viewport: { width: 1366, height: 768 } });
    try {
      await pageReady(page);
      await visitAll(page);
      const missing = await page.evaluate(() =>
        [...document.querySelectorAll("[data-midpoint]")].filter((r) => !r.querySelector("[data-testid=figure-key]")?.checkVisibility()).map((r) => r.dataset.query ?? "lab"),
      );
      assert.deepEqual(missing, []);
      assert.deepEqual(errors, []);
    } finally {
      await page.close();
    }
    for (const view of ["strip", "grid", "residency", "sweep"]) {
      for (const vp of [
        { width: 800, height: 900 },
        { width: 390, height: 844 },
      ]) {
        const { page: p, errors: e } = await openPage(shared.browser, `/www/index.html?embed=1&preset=seed000-hot4485-b2b&view=${view}`, { viewport: vp });
        try {
          await pageReady(p);
          await atMoment(p);
          const m = await p.evaluate(() => {
            const root = document.querySelector("[data-testid=midpoint-widget]").getBoundingClientRect();
            const key = document.querySelector("[data-testid=figure-key]");
            const k = key?.getBoundingClientRect();
            return { visible: !!key?.checkVisibility(), keyBottom: k?.bottom, keyH: k?.height, rootBottom: root.bottom };
          });
          assert.ok(m.visible && m.keyH > 10 && m.keyBottom <= m.rootBottom + 1, `${view} at ${vp.width}: ${JSON.stringify(m)}`);
          assert.deepEqual(e, []);
        } finally {
          await p.close();
        }
      }
    }
  });

  test("on a phone the residency and sweep embeds keep a plot of their own: at least 100 px, nothing drawn over it", async () => {
    for (const view of ["residency", "sweep"]) {
      const { page, errors } = await openPage(shared.browser, `/www/lab.html?view=${view}&embed=1`, { viewport: { width: 390, height: 844 } });
      try {
        await pageReady(page);
        // At rest with everything it will show: the residency's runs all in (its caption grows
        // as they arrive), the sweep's points drawn, and the frame loop idle (the canvas sized to
        // its box), not after a fixed wait.
        await page.waitForFunction(
          (view) => {
            const d = window.__midpoint?.debug();
            if (!d?.idle) return false;
            if (view === "sweep") return Number(document.querySelector(".mp-sweep")?.dataset.points) > 0;
            const cap = document.querySelector(".mp-runcap");
            return !!cap?.dataset.runs && cap.dataset.runsDone === cap.dataset.runs;
          },
          view,
          { timeout: 90_000, polling: 100 },
        );
        const m = await page.evaluate(() => {
          const box = document.querySelector(".mp-plotbox").getBoundingClientRect();
          const canvas = document.querySelector(".mp-plotbox canvas").getBoundingClientRect();
          const next = document.querySelector(".mp-plotbox").nextElementSibling.getBoundingClientRect();
          return { box: box.height, canvas: canvas.height, canvasBottom: canvas.bottom, nextTop: next.top };
        });
        // Measured: the residency plot 100 px, the sweep 157 px (21 px, overdrawn by its key,
        // before its caption was cut down on a phone).
        assert.ok(m.box >= 100, `${view}: ${JSON.stringify(m)}`);
        assert.ok(m.canvasBottom <= m.nextTop + 1, `${view}: the key drawn over the plot: ${JSON.stringify(m)}`);
        assert.deepEqual(errors, []);
      } finally {
        await page.close();
      }
    }
  });

  for (const path of ["/www/index.html", "/www/lab.html?autoplay=0", "/www/index.html?embed=1&preset=seed000-hot4485-b2b&view=strip&at=batch"]) {
    test(`at 390×844 no visible text under 12 px, on the page or a canvas: ${path}`, async () => {
      const { page, errors } = await openPage(shared.browser, path, { viewport: { width: 390, height: 844 } });
      try {
        await pageReady(page);
        if (path.includes("index.html") && !path.includes("embed")) await visitAll(page);
        else await atMoment(page);
        // Every canvas on screen drawn (a drawn canvas carries data-min-font-px, util.js).
        await page.waitForFunction(() => [...document.querySelectorAll("canvas")].filter((c) => c.checkVisibility() && c.getBoundingClientRect().height > 0).every((c) => c.dataset.minFontPx !== undefined), null, { timeout: 30_000 });
        const small = await page.evaluate(() => {
          const out = [];
          const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
          for (let t = walker.nextNode(); t; t = walker.nextNode()) {
            if (!t.textContent.trim()) continue;
            const e = t.parentElement;
            if (!e || !e.checkVisibility({ visibilityProperty: true, opacityProperty: true })) continue;
            const range = document.createRange();
            range.selectNodeContents(t);
            if (![...range.getClientRects()].some((r) => r.width > 0 && r.height > 0)) continue;
            const px = parseFloat(getComputedStyle(e).fontSize);
            if (px < 12) out.push(`${e.tagName}.${e.className} ${px}px: ${t.textContent.trim().slice(0, 40)}`);
          }
          return out;
        });
        assert.deepEqual(small.slice(0, 10), [], `${small.length} text nodes under 12 px`);
        const canvases = await page.evaluate(() =>
          [...document.querySelectorAll("canvas")].filter((c) => c.checkVisibility() && c.getBoundingClientRect().height > 0).map((c) => ({ c: c.className || c.closest("[data-beyond]")?.dataset.beyond, f: c.dataset.minFontPx })),
        );
        assert.ok(canvases.length > 0);
        const bad = canvases.filter((c) => !(c.f === "none" || Number(c.f) >= 12));
        assert.deepEqual(bad, [], JSON.stringify(canvases));
        assert.deepEqual(errors, []);
      } finally {
        await page.close();
      }
    });
  }
});

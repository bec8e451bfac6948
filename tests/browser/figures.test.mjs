// One figure, one screen, in headless Chromium: every article figure and embed view
// within one viewport at 1366×768 and 390×844 with no sideways scrolling, the lab's dashboard,
// the boundary and drain-end steps, the choreographed Watch, view=present, the one-figure embed
// snippets and a plain HTML post that embeds three figures.
import { test, describe } from "node:test";
import assert from "node:assert/strict";
import { baseUrl, debugOf, openPage, painted, pageReady, screenshot, useBrowser, visitAll } from "./helpers.mjs";

const shared = useBrowser();
const SIZES = [
  { width: 1366, height: 768 },
  { width: 390, height: 844 },
];
const VIEWS = ["strip", "grid", "residency", "sweep"];

/** Wait until the presentation's beat is drawn at its moment (the tour clears data-seeking on the
 *  widget's root then), and that frame painted. */
async function beatDrawn(page) {
  await page.waitForFunction(() => {
    const r = document.querySelector("[data-testid=midpoint-widget]");
    return r.dataset.atMoment === "1" && r.dataset.seeking === undefined && document.querySelector(".mp-tour-h")?.textContent;
  }, null, { timeout: 30_000 });
  await painted(page);
}

/** Wait until the one figure of page or frame `p` is at its opening moment and drawn (its
 *  height is then final). */
async function atMoment(p) {
  await p.waitForFunction(() => document.querySelector("[data-testid=midpoint-widget]")?.dataset.atMoment === "1", null, { timeout: 30_000 });
  await painted(p);
}

const overflow = (page) => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

describe("one figure, one screen", () => {
  for (const vp of SIZES) {
    test(`article at ${vp.width}×${vp.height}: each figure within the viewport, no sideways scrolling`, async () => {
      const { page, errors } = await openPage(shared.browser, "/www/index.html", { viewport: vp });
      try {
        await pageReady(page);
        await visitAll(page);
        const figs = await page.evaluate(() =>
          [...document.querySelectorAll(".explain figure")].map((f) => ({
            name: f.querySelector("[data-midpoint]")?.dataset.view ?? f.dataset.beyond,
            h: f.getBoundingClientRect().height,
          })),
        );
        assert.ok(figs.length >= 10, `${figs.length} figures`);
        for (const f of figs) assert.ok(f.h <= vp.height, `${f.name}: ${Math.round(f.h)} px > ${vp.height}`);
        assert.equal(await overflow(page), 0, "horizontal overflow");
        // Every figure of the article has its Embed button, one each.
        const embeds = await page.evaluate(() => [...document.querySelectorAll(".explain [data-midpoint]")].map((r) => r.querySelectorAll("[data-testid=embed-button]").length));
        assert.ok(embeds.every((n) => n === 1), JSON.stringify(embeds));
        // Canvases fit their containers.
        const wide = await page.evaluate(() => [...document.querySelectorAll("canvas")].filter((c) => c.offsetParent && c.getBoundingClientRect().width > c.parentElement.getBoundingClientRect().width + 1).map((c) => c.className));
        assert.deepEqual(wide, []);
        assert.deepEqual(errors, []);
      } finally {
        await page.close();
      }
    });

    test(`lab at ${vp.width}×${vp.height}: the residency plot and the lru_scan_depth slider in one screen`, async () => {
      const { page, errors } = await openPage(shared.browser, "/www/lab.html?autoplay=0", { viewport: vp });
      try {
        await pageReady(page);
        const slider = page.locator('[data-param="lru_scan_depth"]');
        await slider.waitFor();
        // The plot's caption and key are complete once the setting's runs are in (then nothing
        // above the slider changes height).
        await page.waitForFunction(() => document.querySelector(".mp-runcap")?.dataset.runsDone === "5", null, { timeout: 120_000, polling: 200 });
        const rects = await page.evaluate(() => {
          const r = (s) => document.querySelector(s).getBoundingClientRect();
          return { plot: r("[data-testid=residency-plot]"), slider: r('[data-param="lru_scan_depth"]') };
        });
        if (vp.width >= 1000) {
          for (const k of ["plot", "slider"]) assert.ok(rects[k].bottom <= vp.height && rects[k].top >= 0, `${k}: ${JSON.stringify(rects[k])}`);
        } else {
          // On a phone: scroll to the slider; the plot stays in view above it (sticky).
          await page.evaluate(() => document.querySelector('[data-param="lru_scan_depth"]').scrollIntoView({ block: "end" }));
          await painted(page);
          const now = await page.evaluate(() => {
            const r = (s) => document.querySelector(s).getBoundingClientRect();
            return { plot: r("[data-testid=residency-plot]"), slider: r('[data-param="lru_scan_depth"]') };
          });
          assert.ok(now.plot.top >= 0 && now.plot.bottom <= vp.height, `plot ${JSON.stringify(now.plot)}`);
          assert.ok(now.slider.top >= now.plot.bottom - 1 && now.slider.bottom <= vp.height + 1, `slider ${JSON.stringify(now.slider)}`);
          // Scrolled further, the plot is still there.
          await page.evaluate(() => window.scrollBy(0, 600));
          await painted(page);
          const later = await page.evaluate(() => document.querySelector("[data-testid=residency-plot]").getBoundingClientRect().top);
          assert.ok(later >= 0 && later < 60, `plot top ${later}`);
        }
        assert.equal(await overflow(page), 0, "horizontal overflow");
        await screenshot(page, `lab-first-screen-${vp.width}`);
        assert.deepEqual(errors, []);
      } finally {
        await page.close();
      }
    });

    test(`embed views at ${vp.width}×${vp.height}: within the viewport, no sideways scrolling`, async () => {
      for (const view of VIEWS) {
        const { page, errors } = await openPage(shared.browser, `/www/index.html?embed=1&preset=seed000-hot4485-b2b&view=${view}&autoplay=0`, { viewport: vp });
        try {
          await pageReady(page);
          // At its opening moment and drawn: its height is final.
          await page.waitForFunction(() => document.querySelector("[data-testid=midpoint-widget]").dataset.atMoment === "1", null, { timeout: 30_000 });
          await painted(page);
          const h = await page.evaluate(() => document.querySelector("[data-testid=midpoint-widget]").getBoundingClientRect().height);
          assert.ok(h <= vp.height, `${view}: ${h}`);
          assert.equal(await overflow(page), 0, `${view}: horizontal overflow`);
          assert.equal(await page.evaluate(() => document.querySelectorAll("[data-testid=embed-button]").length), 1, view);
          assert.deepEqual(errors, [], view);
        } finally {
          await page.close();
        }
      }
    });
  }

  test("at=batch opens just after the batch; from there boundary steps reach an empty free list in 5 to 40 presses, the drain-end step in one", async () => {
    const { page, errors } = await openPage(shared.browser, "/www/lab.html?preset=seed000-hot4485-b2b&at=batch", { viewport: { width: 1366, height: 768 } });
    try {
      await pageReady(page);
      const w = page.locator("[data-testid=midpoint-widget]");
      // Paused at the batch (the URL then records the moment), and published: the root's
      // data-at-moment is set in the same update as the narration.
      await page.waitForFunction(() => document.querySelector(".mp-lab").dataset.atMoment === "1" && window.__midpoint.debug().after_batch === true, null, { timeout: 30_000 });
      const free0 = Number(await w.getAttribute("data-free-len"));
      const ev0 = Number(await w.getAttribute("data-event"));
      // Just after the batch: the free list full, and the narration, the close-up's caption and
      // the code panel all at that moment.
      const at = await page.evaluate(() => {
        const root = document.querySelector(".mp-lab");
        return {
          // The lru_scan_depth slider's value as the reader sees it.
          depth: Number(root.querySelector('[data-ctl-row="lru_scan_depth"] output').textContent.replace(/[^\d]/g, "")),
          narr: root.querySelector("[data-testid=narration]").textContent,
          cap: root.querySelector(".mp-stripcap").textContent,
          rules: [...root.querySelectorAll("[data-testid=code-panel] [data-rule][data-active=true]")].map((b) => b.dataset.rule),
        };
      });
      assert.equal(free0, at.depth, "the free list full");
      assert.match(at.narr, /LRU batch freed/);
      const moved = Number(at.narr.match(/the boundary moved ([\d,]+) pages? toward the head/)?.[1].replaceAll(",", ""));
      const demoted = Number(at.cap.match(/turned ([\d,]+) pages? old/)?.[1].replaceAll(",", ""));
      assert.ok(moved > 0 && moved === demoted, JSON.stringify(at));
      assert.ok(at.rules.includes("lru_batch"), at.rules.join(" "));
      let presses = 0;
      let free = free0;
      const seen = [];
      let ev = ev0;
      while (presses < 60) {
        await page.locator("[data-testid=step-boundary]").click();
        presses++;
        // The step done: the moment moved on and the figure paused there (data-free-len is
        // published with data-event).
        ev = await page.waitForFunction(
          (e) => {
            const r = document.querySelector("[data-testid=midpoint-widget]");
            return Number(r.dataset.event) > e && r.dataset.mode === "paused" && Number(r.dataset.event);
          },
          ev,
          { timeout: 10_000 },
        ).then((h) => h.jsonValue());
        free = Number(await w.getAttribute("data-free-len"));
        seen.push(free);
        if (free === 0) break;
      }
      assert.ok(presses >= 5 && presses <= 40, `${presses} presses: ${seen.join(" ")}`);
      assert.match(await page.locator("[data-testid=narration]").textContent(), /the free list is empty again/);
      // Back just after the batch, one drain-end step runs the whole drain.
      await page.goto(`${baseUrl}/www/lab.html?preset=seed000-hot4485-b2b&at=batch`);
      await pageReady(page);
      await page.waitForFunction(() => document.querySelector(".mp-lab").dataset.atMoment === "1" && window.__midpoint.debug().after_batch === true, null, { timeout: 30_000 });
      await page.locator("[data-testid=step-drain-end]").click();
      await page.waitForFunction(() => document.querySelector("[data-testid=midpoint-widget]").dataset.freeLen === "0" && window.__midpoint.debug().refills >= 1, null, { timeout: 10_000 });
      assert.deepEqual(errors, []);
    } finally {
      await page.close();
    }
  });

  test("scrubbing the residency plot jumps by snapshot: later, then earlier, lands near each time", async () => {
    const { page, errors } = await openPage(shared.browser, "/www/lab.html?preset=seed000-hot4485-b2b&autoplay=0", { viewport: { width: 1366, height: 768 } });
    try {
      await pageReady(page);
      // The scout leaves snapshots over the whole run in spare frame time (scouted_s, how far
      // they reach, then at the run's end).
      await page.waitForFunction(() => {
        const d = window.__midpoint.debug();
        return d.scouted_s >= d.end_s;
      }, null, { timeout: 120_000, polling: 250 });
      const plot = page.locator("[data-testid=residency-plot]");
      const box = await plot.boundingBox();
      const end = (await debugOf(page)).end_s;
      const w = page.locator("[data-testid=midpoint-widget]");
      for (const frac of [0.75, 0.35]) {
        const x = box.width * frac;
        const t0 = Number(await w.getAttribute("data-t"));
        // Every frame's data-t from the click until the view pauses there.
        // The view is paused before the click too: the collection ends only once the seek has
        // begun (a "seeking" frame, or a frame away from t0) and the view is paused again, so a
        // click that arrives some frames late (a loaded machine) is still waited for.
        const seen = page.evaluate(
          (t0) =>
            new Promise((resolve) => {
              const root = document.querySelector(".mp-lab");
              const out = [];
              let began = false;
              const tick = () => {
                const f = { t: Number(root.dataset.t), mode: root.dataset.mode };
                out.push(f);
                if (f.mode === "seeking" || Math.abs(f.t - t0) > 1e-3) began = true;
                if ((began && f.mode === "paused") || out.length > 2000) resolve(out);
                else requestAnimationFrame(tick);
              };
              requestAnimationFrame(tick);
            }),
          t0,
        );
        await plot.click({ position: { x, y: box.height / 2 } });
        const frames = await seen;
        // The time under the pointer, as the plot publishes it for the click (data-seek-to).
        const want = Number(await plot.getAttribute("data-seek-to"));
        assert.ok(Math.abs(want - frac * end) < end / 8, `the click at ${frac} of the plot asked for ${want} s of ${end}`);
        const t = Number(await w.getAttribute("data-t"));
        assert.ok(Math.abs(t - want) < 0.5, `at ${t} s, wanted ${want} (from ${t0})`);
        assert.equal(await w.getAttribute("data-seek"), "snapshot");
        // No frame on the way showed a fast-forward from where the view was: every time drawn
        // is the old moment or within a snapshot's spacing below the target.
        const far = frames.filter((f) => Math.abs(f.t - t0) > 1e-3 && f.t < want - end / 8);
        assert.deepEqual(far, [], `frames far from ${want}: ${far.length} of ${frames.length}`);
      }
      assert.deepEqual(errors, []);
    } finally {
      await page.close();
    }
  });

  test("predict, then watch your guess: the reveal names the guess and the figure plays the drain", async () => {
    const { page, errors } = await openPage(shared.browser, "/www/index.html", { viewport: { width: 1366, height: 900 } });
    try {
      await pageReady(page);
      const box = page.locator("[data-predict][data-measure=drain-young]");
      await box.scrollIntoViewIfNeeded();
      const root = page.locator("section:has([data-measure=drain-young]) [data-midpoint]");
      await root.waitFor();
      await page.waitForFunction(() => {
        const r = document.querySelector("section:has([data-measure=drain-young]) [data-midpoint]");
        return r.dataset.atMoment === "1" && window.__midpoint?.debug(r)?.after_batch === true;
      }, null, { timeout: 30_000 });
      const ev0 = Number(await root.getAttribute("data-event"));
      await box.locator('button[data-guess="60"]').click();
      const you = box.locator(".predict-you");
      assert.match(await you.textContent(), /You said about 60/);
      // The figure plays the refill and drain, and the reveal then puts the count beside the guess.
      await page.waitForFunction(() => document.querySelector("[data-measure=drain-young]").dataset.played === "1", null, { timeout: 40_000 });
      const text = await you.textContent();
      const st = await debugOf(page, "section:has([data-measure=drain-young]) [data-midpoint]");
      assert.ok(Number(await root.getAttribute("data-event")) > ev0, "the figure moved");
      assert.equal(st.free, 0);
      assert.ok(st.drain_young > 0);
      assert.match(text, /You said about 60; this drain turned/);
      assert.ok(text.includes(st.drain_young.toLocaleString("en-US")), `${text} / ${st.drain_young}`);
      assert.deepEqual(errors, []);
    } finally {
      await page.close();
    }
  });

  test("the sweep: a line brought forward on hover or focus, and the coinciding lines said in words", async () => {
    const { page, errors } = await openPage(shared.browser, "/www/lab.html?preset=seed000-hot4485-b2b&autoplay=0", { viewport: { width: 1366, height: 768 } });
    try {
      await pageReady(page);
      // The setting's runs all in first: a caption that grows as they arrive moves the buttons
      // under a still pointer, which then enters another line's button (a loaded machine's race).
      await page.waitForFunction(
        () => {
          const c = document.querySelector(".mp-lab .mp-runcap");
          return !!c?.dataset.runs && c.dataset.runsDone === c.dataset.runs;
        },
        null,
        { timeout: 120_000, polling: 100 },
      );
      // The lab opens its sweep drawn from the committed one (www/data/sweep.json), where
      // 250-2,000 ms coincide up to some depth and 0 ms differs.
      await page.waitForFunction(() => Number(document.querySelector(".mp-lab .mp-sweep").dataset.points) > 0 && document.querySelector(".mp-lab [data-testid=sweep-coincide]").textContent !== "", null, { timeout: 30_000 });
      const same = await page.locator(".mp-lab [data-testid=sweep-coincide]").textContent();
      assert.match(same, /old_blocks_time 250, 500, 1,000 and 2,000 ms give the same kept .*up to depth [\d,]+.*only 0 differs/);
      const png = () => page.evaluate(() => document.querySelector(".mp-lab .mp-sweep").toDataURL());
      const plain = await png();
      const btn = page.locator('.mp-sweepline[data-line="500"]');
      await btn.hover();
      assert.equal(await page.locator(".mp-lab .mp-sweep").getAttribute("data-highlight"), "500");
      const lit = await png();
      assert.notEqual(lit, plain, "the highlight changed the drawing");
      await btn.focus();
      assert.equal(await btn.getAttribute("aria-pressed"), "true");
      await page.locator('.mp-sweepline[data-line="1000"]').focus();
      assert.equal(await page.locator(".mp-lab .mp-sweep").getAttribute("data-highlight"), "1000");
      assert.notEqual(await png(), lit);
      assert.deepEqual(errors, []);
    } finally {
      await page.close();
    }
  });

  for (const vp of SIZES) {
    test(`Watch at ${vp.width}: the drain within 5 s, on screen for 3 s, mid-drain frames on adjust_old_len_shrink`, async () => {
      const { page, errors } = await openPage(shared.browser, "/www/lab.html?preset=seed000-hot4485-b2b&at=batch", { viewport: vp });
      try {
        await pageReady(page);
        await page.waitForFunction(() => document.querySelector(".mp-lab").dataset.atMoment === "1" && window.__midpoint.debug().after_batch === true, null, { timeout: 30_000 });
        const fig = page.locator(".mp-lab");
        await fig.locator("[data-testid=boundary-strip]").scrollIntoViewIfNeeded();
        const t0 = Date.now();
        await fig.locator("[data-testid=watch-refill]").click();
        // Sample the widget each animation frame until it pauses.
        const frames = await page.evaluate(
          () =>
            new Promise((resolve) => {
              const root = document.querySelector(".mp-lab");
              const out = [];
              const start = performance.now();
              const tick = () => {
                const active = [...root.querySelectorAll("[data-testid=code-panel] [data-rule][data-active=true]")].map((b) => b.dataset.rule);
                out.push({ ms: performance.now() - start, mode: root.dataset.mode, free: Number(root.dataset.freeLen), active });
                if ((root.dataset.mode === "paused" && out.length > 30) || performance.now() - start > 40_000) resolve(out);
                else requestAnimationFrame(tick);
              };
              requestAnimationFrame(tick);
            }),
        );
        const drain = frames.filter((f) => f.mode === "watching" && f.free > 0 && f.free < 1024);
        assert.ok(drain.length > 10, `${drain.length} drain frames`);
        assert.ok(drain[0].ms < 5000 + 1000, `drain began at ${drain[0].ms} ms (pressed ${Date.now() - t0} ms ago)`);
        const last = drain[drain.length - 1].ms;
        assert.ok(last - drain[0].ms >= 3000, `drain on screen ${last - drain[0].ms} ms`);
        // Mid-drain (the free list half drained, after the refill that filled it), the shrink step
        // is what the code panel shows for most of the time on screen. The refill before it (the
        // free list growing, at so many frames a step) is not the drain; each sampled frame counts
        // for as long as it stayed up (until the next), so that a loaded machine, whose frames
        // come late and unevenly, measures the same share.
        const full = frames.reduce((best, f, i) => (f.mode === "watching" && f.free > frames[best].free ? i : best), 0);
        let midMs = 0;
        let shrinkMs = 0;
        let midFrames = 0;
        for (let i = full + 1; i + 1 < frames.length; i++) {
          const f = frames[i];
          if (f.mode !== "watching" || f.free < 200 || f.free > 800) continue;
          const shown = frames[i + 1].ms - f.ms;
          midFrames++;
          midMs += shown;
          if (f.active.length === 1 && f.active[0] === "adjust_old_len_shrink") shrinkMs += shown;
        }
        assert.ok(midFrames > 5 && shrinkMs / midMs >= 0.7, `the shrink step shown ${Math.round(shrinkMs)} of ${Math.round(midMs)} mid-drain ms (${midFrames} frames)`);
        // Every count at one moment agrees: the close-up's caption, the narration, the counter.
        const agree = await page.evaluate(() => {
          const root = document.querySelector(".mp-lab");
          return { cap: root.querySelector(".mp-stripcap").textContent, narr: root.querySelector("[data-testid=narration]").textContent };
        });
        const young = (s) => Number((s.match(/([\d,]+) pages? turned young|turned ([\d,]+) (?:pages? )?young/) ?? []).slice(1).find(Boolean)?.replaceAll(",", ""));
        assert.equal(young(agree.cap), young(agree.narr), JSON.stringify(agree));
        await screenshot(page, `watch-end-${vp.width}`);
        assert.deepEqual(errors, []);
      } finally {
        await page.close();
      }
    });
  }

  test("view=present at 1920×1080: a close-up at least 1,200 px wide, text at least 24 px, beats on the keys (PageDown, →, ←)", async () => {
    const { page, errors } = await openPage(shared.browser, "/www/index.html?view=present", { viewport: { width: 1920, height: 1080 } });
    try {
      await pageReady(page);
      await beatDrawn(page);
      const m = await page.evaluate(() => {
        const strip = document.querySelector("[data-testid=boundary-strip]").getBoundingClientRect();
        const px = (s) => parseFloat(getComputedStyle(document.querySelector(s)).fontSize);
        return { w: strip.width, narr: px("[data-testid=narration]"), tour: px(".mp-tour-text"), btn: px("[data-testid=watch-refill]"), figs: document.querySelectorAll("[data-midpoint]").length };
      });
      assert.ok(m.w >= 1200, `close-up ${m.w} px wide`);
      for (const k of ["narr", "tour", "btn"]) assert.ok(m[k] >= 24, `${k}: ${m[k]} px`);
      assert.equal(m.figs, 1);
      const h = () => page.locator(".mp-tour-h").textContent();
      const first = await h();
      await page.keyboard.press("PageDown");
      await page.waitForFunction((t) => document.querySelector(".mp-tour-h").textContent !== t, first);
      const second = await h();
      await page.keyboard.press("ArrowRight");
      await page.waitForFunction((t) => document.querySelector(".mp-tour-h").textContent !== t, second);
      await page.keyboard.press("ArrowLeft");
      await page.keyboard.press("ArrowLeft");
      await page.waitForFunction((t) => document.querySelector(".mp-tour-h").textContent === t, first);
      await beatDrawn(page);
      await screenshot(page, "present-1920");
      assert.equal(await overflow(page), 0);
      assert.deepEqual(errors, []);
    } finally {
      await page.close();
    }
  });

  test("view=present on a 1366×768 projector: the close-up and the story's beat share the first screen", async () => {
    const { page, errors } = await openPage(shared.browser, "/www/index.html?view=present", { viewport: { width: 1366, height: 768 } });
    try {
      await pageReady(page);
      await beatDrawn(page);
      const r = await page.evaluate(() => {
        const box = (s) => {
          const b = document.querySelector(s).getBoundingClientRect();
          return { top: b.top, bottom: b.bottom, left: b.left, right: b.right };
        };
        return { strip: box("[data-testid=boundary-strip]"), next: box("[data-act=tour-next]"), watch: box("[data-testid=watch-refill]"), text: parseFloat(getComputedStyle(document.querySelector(".mp-tour-text")).fontSize) };
      });
      for (const k of ["strip", "next", "watch"]) assert.ok(r[k].top >= 0 && r[k].bottom <= 768, `${k}: ${r[k].top}-${r[k].bottom} px`);
      assert.ok(r.strip.right <= r.next.left, "the beat beside the close-up");
      assert.ok(r.strip.right - r.strip.left >= 700, `close-up ${r.strip.right - r.strip.left} px wide`);
      assert.ok(r.text >= 18, `beat text ${r.text} px`);
      assert.equal(await overflow(page), 0);
      assert.deepEqual(errors, []);
    } finally {
      await page.close();
    }
  });

  test("every figure's Embed dialog gives a one-figure iframe that its figure fills, at 800 and 390 px wide", async () => {
    const { page, errors } = await openPage(shared.browser, "/www/index.html", { viewport: { width: 1366, height: 900 } });
    try {
      await pageReady(page);
      await visitAll(page);
      const n = await page.locator(".explain [data-midpoint]").count();
      const snippets = [];
      for (let i = 0; i < n; i++) {
        const w = page.locator(".explain [data-midpoint]").nth(i);
        await w.locator("[data-testid=embed-button]").scrollIntoViewIfNeeded();
        await w.locator("[data-testid=embed-button]").click();
        const snip = await w.locator("[data-testid=embed-snippet]").inputValue();
        snippets.push({ view: await w.getAttribute("data-view"), snip });
        await page.keyboard.press("Escape");
      }
      assert.equal(snippets.length, n);
      for (const { view, snip } of snippets) {
        const src = snip.match(/<iframe src="([^"]+)"/)?.[1]?.replaceAll("&amp;", "&");
        const height = Number(snip.match(/height="(\d+)"/)?.[1]);
        assert.ok(src && height <= 560 && snip.includes(`height:${height}px`), snip);
        const url = new URL(src, page.url());
        assert.equal(url.searchParams.get("view"), view, snip);
        for (const width of [800, 390]) {
          // The snippet pasted into a page of that width: the figure fills its iframe, within 8 px,
          // and nothing in it scrolls.
          const host = await shared.browser.newPage({ viewport: { width, height: 900 } });
          try {
            await host.setContent(`<!doctype html><body style="margin:0">${snip.replace('loading="lazy"', "")}</body>`);
            const frame = host.frames().find((f) => f !== host.mainFrame());
            await frame.waitForFunction(() => document.documentElement.dataset.midpointReady === "1", null, { timeout: 20_000 });
            await atMoment(frame);
            const m = await frame.evaluate(() => ({ h: Math.ceil(document.querySelector("[data-testid=midpoint-widget]").getBoundingClientRect().height), scroll: document.documentElement.scrollHeight, inner: innerHeight }));
            assert.ok(Math.abs(m.h - height) <= 8, `${view} at ${width}: the figure is ${m.h} px in a ${height} px iframe`);
            assert.ok(m.scroll <= m.inner + 1, `${view} at ${width}: scrolls ${m.scroll} > ${m.inner}`);
          } finally {
            await host.close();
          }
        }
      }
      assert.deepEqual(errors, []);
    } finally {
      await page.close();
    }
  });

  test("a plain HTML post embedding three figures loads with no error", async () => {
    for (const vp of [{ width: 1366, height: 900 }, { width: 390, height: 844 }]) {
      const { page, errors } = await openPage(shared.browser, "/tests/browser/example-post.html", { viewport: vp });
      try {
        for (const id of ["post-strip", "post-residency", "post-grid"]) {
          await page.locator(`#${id}`).scrollIntoViewIfNeeded();
        }
        await page.waitForFunction(() => document.querySelector("midpoint-explainer")?.shadowRoot?.querySelector("[data-testid=pool-grid]"), null, { timeout: 20_000 });
        for (const f of page.frames().filter((fr) => fr !== page.mainFrame())) {
          await f.waitForFunction(() => document.documentElement.dataset.midpointReady === "1", null, { timeout: 20_000 });
          await atMoment(f);
          const h = await f.evaluate(() => Math.ceil(document.body.getBoundingClientRect().bottom));
          const frame = await f.frameElement();
          const own = await frame.evaluate((el) => el.getBoundingClientRect().height);
          // The figure fills the height its snippet gives the iframe, with no script in the post.
          assert.ok(h <= own && own - h <= 8, `${f.url()}: a ${h} px figure in a ${own} px iframe`);
        }
        assert.equal(page.frames().length, 3);
        assert.equal(await overflow(page), 0);
        // The element's figure at its opening moment too, and drawn.
        await page.waitForFunction(() => document.querySelector("midpoint-explainer").shadowRoot.querySelector("[data-testid=midpoint-widget]")?.dataset.atMoment === "1", null, { timeout: 30_000 });
        await painted(page);
        await screenshot(page, `example-post-${vp.width}`);
        assert.deepEqual(errors, []);
      } finally {
        await page.close();
      }
    }
  });
});

// End-to-end tests of the explainer page in headless Chromium (run by scripts/test.sh).
// They wait for conditions rather than sleeping, and read the page's read-only debug hook
// (window.__midpoint.debug(): counters and the cell bytes' tallies) where pixels say too little.
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { describe, test } from "node:test";
import { baseUrl, useBrowser, pageReady, openPage, screenshot } from "./helpers.mjs";

const require = createRequire(import.meta.url);
const shared = useBrowser();

const PAGE = "/www/lab.html";

const ready = pageReady;

const debug = (page) => page.evaluate(() => window.__midpoint.debug());

/** Waits until `pred(debug())` holds (evaluated in the page). */
function until(page, pred, arg, timeout = 15_000) {
  return page.waitForFunction(
    ({ src, arg }) => new Function("d", "arg", `return (${src})(d, arg);`)(window.__midpoint.debug(), arg),
    { src: pred.toString(), arg },
    { timeout, polling: 50 },
  );
}

const dataUrl = (page, sel) => page.evaluate((s) => document.querySelector(s).toDataURL(), sel);

/** Pixels of the pool canvas that differ from its top-left (background) pixel. */
const inked = (page) =>
  page.evaluate(() => {
    const c = document.querySelector(".mp-pool");
    const d = c.getContext("2d").getImageData(0, 0, c.width, c.height).data;
    let n = 0;
    for (let i = 0; i < d.length; i += 4) {
      if (d[i] !== d[0] || d[i + 1] !== d[1] || d[i + 2] !== d[2]) n++;
    }
    return n;
  });

function noErrors(errors) {
  assert.deepEqual(errors, [], `errors on the page:\n${errors.join("\n")}`);
}

describe("the explainer page", () => {
  test("loads without console errors and draws the pool", async () => {
    const { page, errors } = await openPage(shared.browser, `${PAGE}?autoplay=0`);
    try {
      await ready(page);
      await until(page, (d) => d.hasRun);
      const d = await debug(page);
      assert.equal(d.cells, 16382, "one cell per frame of the 256 MiB pool");
      assert.equal(d.mode, "paused");
      assert.ok((await inked(page)) > 50_000, "the pool canvas is drawn");
      const caption = await page.textContent(".mp-runcap");
      assert.match(caption, /The model kept(, so far)?: \d+ %/);
      assert.match(caption, /the server measured 41 % \(mean of 3 runs\) in this setting/);
      assert.match(await page.inputValue('[data-ctl="preset"]'), /seed000-hot4485-b2b/);
      assert.equal(await page.locator(".mp-notes").isHidden(), true, "no URL messages");
      noErrors(errors);
      await screenshot(page, "page-default");
    } finally {
      await page.close();
    }
  });

  test("a step changes the pool; the next LRU batch and its drain turn cells young", async () => {
    const { page, errors } = await openPage(shared.browser, `${PAGE}?autoplay=0`);
    try {
      await ready(page);
      // Run at full speed to just before the next refill.
      await page.click('[data-act="batch"]');
      await until(page, (d) => d.mode === "paused" && d.at_batch);
      const before = await debug(page);
      assert.equal(before.refills, 0);
      assert.match(await page.textContent(".mp-narration"), /just before the page cleaner's next LRU batch/);
      const a = await dataUrl(page, ".mp-pool");
      // Step (→ on the focused figure): the batch runs.
      await page.focus(".mp-pool");
      await page.keyboard.press("ArrowRight");
      await until(page, (d) => d.refills === 1);
      await page.waitForFunction((a) => document.querySelector(".mp-pool").toDataURL() !== a, a);
      const batch = await debug(page);
      assert.equal(batch.free, 1024, "the batch topped the free list up to innodb_lru_scan_depth");
      assert.ok(batch.marked_old > 500, `bulk demotion marks ~606 pages old (${batch.marked_old})`);
      const n = await page.textContent(".mp-narration");
      assert.match(n, /LRU batch freed 1,024 pages/);
      assert.match(n, /toward the head: bulk demotion/);
      // Step back returns to the moment before the batch.
      await page.keyboard.press("ArrowLeft");
      await until(page, (d, ev) => d.events === ev && d.refills === 0, before.events);
      await page.keyboard.press("ArrowRight");
      await until(page, (d) => d.refills === 1);
      // Play through the drain: the boundary turns the newest scan pages young.
      await page.keyboard.press("Space");
      await until(page, (d) => d.free === 0 && d.ringedYoung > 400);
      await page.keyboard.press("Space");
      await until(page, (d) => d.mode === "paused");
      const drained = await debug(page);
      assert.ok(drained.slid_young_scan > 400, `scan pages turned young: ${drained.slid_young_scan}`);
      // The URL records the paused moment, and opening it comes back to the same state.
      await page.waitForFunction((ev) => new URLSearchParams(location.search).get("ev") === String(ev), drained.events);
      const again = await shared.browser.newPage();
      try {
        await again.goto(page.url());
        await ready(again);
        await until(again, (d, ev) => d.mode === "paused" && d.events === ev, drained.events);
        const d2 = await debug(again);
        assert.equal(d2.t_s, drained.t_s);
        assert.equal(d2.slid_young, drained.slid_young);
        assert.equal(d2.ringedYoung, drained.ringedYoung, "the marks are part of the state");
      } finally {
        await again.close();
      }
      noErrors(errors);
    } finally {
      await page.close();
    }
  });

  test("watching a refill and drain animates it and pauses when the free list is empty", async () => {
    const { page, errors } = await openPage(shared.browser, `${PAGE}?preset=small-demo&autoplay=0`);
    try {
      await ready(page);
      await page.click('[data-act="watch"]');
      await until(page, (d) => d.mode === "watching");
      await until(page, (d) => /: draining\./.test(d.narration) || d.mode === "paused", null, 20_000);
      await until(page, (d) => d.mode === "paused", null, 20_000);
      const d = await debug(page);
      assert.equal(d.refills, 1);
      assert.match(d.narration, /the free list is empty again/);
      assert.ok(d.marked_young > 0, "ringed cells after the drain");
      noErrors(errors);
      await screenshot(page, "page-after-watch");
    } finally {
      await page.close();
    }
  });

  test("the scan-depth slider (keyboard) changes the residency plot and the URL", async () => {
    const { page, errors } = await openPage(shared.browser, `${PAGE}?autoplay=0`);
    try {
      await ready(page);
      await until(page, (d) => d.hasRun);
      await page.waitForFunction(() => document.querySelector(".mp-runcap").textContent.includes("kept:"));
      const plot = await dataUrl(page, ".mp-residency");
      const slider = page.locator('input[data-key="lru_scan_depth"]');
      await slider.focus();
      await page.keyboard.press("ArrowLeft");
      await page.waitForFunction(() => new URLSearchParams(location.search).get("lru_scan_depth") === "768");
      assert.equal(await page.textContent(`output[for="${await slider.getAttribute("id")}"]`), "768 pages");
      // The full run is recomputed in the worker; then the plot differs.
      await until(page, (d) => d.hasRun);
      await page.waitForFunction(() => document.querySelector(".mp-runcap").textContent.includes("kept:"));
      await page.waitForFunction(
        (p) => document.querySelector(".mp-residency").toDataURL() !== p,
        plot,
      );
      assert.match(await page.textContent(".mp-cli code"), /^midpoint run --lru-scan-depth 768 --runs 5$/);
      assert.equal(await page.inputValue('[data-ctl="preset"]'), "", "custom settings");
      noErrors(errors);
    } finally {
      await page.close();
    }
  });

  const bad = [
    ["lru_scan_depth=-5", /lru_scan_depth = -5 is out of range .*using 100/, "lru_scan_depth=100"],
    ["old_blocks_time=abc", /old_blocks_time = 'abc' is not a number.*using 1000/, "old_blocks_time=1000"],
    // The largest pool the simulator takes, run as an eighth of it (8 GiB of one instance), said so.
    ["pool_mb=1000000000000", /pool_mb = 1000000000000 is out of range \(from 8 to 65,536 MiB\); using 65536.*pool_mb = 65536: this page simulates at most 8192 MiB of one instance/s, "pool_mb=65536"],
    ["frobnicate=7", /unknown parameter 'frobnicate'/, null],
  ];
  for (const [q, message, inUrl] of bad) {
    test(`bad URL input ?${q} gives a clear message and a usable page`, async () => {
      const { page, errors } = await openPage(shared.browser, `${PAGE}?autoplay=0&${q}`);
      try {
        await ready(page);
        await page.locator(".mp-notes").waitFor({ state: "visible" });
        assert.match(await page.textContent(".mp-notes"), message);
        if (inUrl) await page.waitForFunction((s) => location.search.includes(s), inUrl);
        else assert.ok(!page.url().includes("frobnicate"), "unknown keys are dropped from the URL");
        const ev = (await debug(page)).events;
        await page.click('[data-act="step"]');
        await until(page, (d, ev) => d.events === ev + 1, ev);
        assert.ok((await inked(page)) > 20_000, "the pool is drawn");
        await page.click('[data-act="dismiss"]');
        assert.equal(await page.locator(".mp-notes").isHidden(), true);
        noErrors(errors);
      } finally {
        await page.close();
      }
    });
  }

  test("an event count past 2^53 and 5,000 unknown keys give a short, clear list of notes", async () => {
    const junk = Array.from({ length: 5000 }, (_, i) => `junk${i}=1`).join("&");
    const { page, errors } = await openPage(shared.browser, `${PAGE}?autoplay=0&preset=small-demo&ev=9007199254740992&${junk}`);
    try {
      await ready(page);
      await page.locator(".mp-notes").waitFor({ state: "visible" });
      const notes = await page.locator(".mp-notes li").allTextContents();
      assert.equal(notes.length, 10, notes.join("\n"));
      assert.match(notes[0], /^ev = 9007199254740992 is more events than this page can count .*using 9007199254740991/);
      assert.match(notes[1], /^unknown parameter 'junk0'/);
      assert.equal(notes.at(-1), "and 4,992 more unknown parameters in the URL, ignored");
      // The page opens where that many events lead: the end of the run.
      await until(page, (d) => d.ended && d.mode === "paused", undefined, 60_000);
      assert.ok(!page.url().includes("junk"), "unknown keys are dropped from the URL");
      noErrors(errors);
    } finally {
      await page.close();
    }
  });

  test("the sweep runs in workers, draws points as they arrive, and can be cancelled", async () => {
    const tiny = "preset=small-demo&scan_s=20&warmup_s=5&kept_window_s=10&sweep_depths=100,1024&sweep_times=0,1000";
    const { page, errors } = await openPage(shared.browser, `${PAGE}?autoplay=0&${tiny}`);
    try {
      await ready(page);
      const empty = await dataUrl(page, ".mp-sweep");
      await page.click('[data-act="sweep"]');
      await page.waitForFunction(() => /4 of 4 points in/.test(document.querySelector(".mp-sweepmsg").textContent), null, {
        timeout: 20_000,
      });
      assert.notEqual(await dataUrl(page, ".mp-sweep"), empty, "the sweep plot shows the points");
      assert.ok((await debug(page)).sweepMs > 0);
      noErrors(errors);
    } finally {
      await page.close();
    }
    // A full-size sweep: progress appears, Cancel stops it, the page stays responsive.
    const full = await openPage(shared.browser, `${PAGE}?autoplay=0`);
    try {
      await ready(full.page);
      await full.page.click('[data-act="sweep"]');
      await full.page.locator(".mp-progress").waitFor({ state: "visible" });
      await full.page.waitForFunction(() => /of 40 points|Starting/.test(document.querySelector(".mp-sweepmsg").textContent));
      const ev = (await debug(full.page)).events;
      await full.page.click('[data-act="step"]');
      await until(full.page, (d, ev) => d.events === ev + 1, ev);
      await full.page.click('[data-act="cancel"]');
      await full.page.waitForFunction(() => /Cancelled at \d+ of 40/.test(document.querySelector(".mp-sweepmsg").textContent));
      assert.equal(await full.page.locator(".mp-progress").isHidden(), true);
      assert.match(await full.page.textContent('[data-act="sweep"]'), /Resume/);
      noErrors(full.errors);
    } finally {
      await full.page.close();
    }
  });

  test("a panic inside the module shows a visible message", async () => {
    const { page } = await openPage(shared.browser, `${PAGE}?autoplay=0`);
    try {
      await ready(page);
      await page.evaluate(() =>
        window.dispatchEvent(new CustomEvent("midpoint-panic", { detail: "panicked at src/web/explorer.rs: test" })),
      );
      await page.locator(".mp-alert").waitFor({ state: "visible" });
      assert.match(await page.textContent(".mp-alert"), /Something went wrong inside the simulator: panicked at/);
    } finally {
      await page.close();
    }
  });

  test("phone width, dark theme, embed mode and accessibility", async () => {
    const phone = await shared.browser.newPage({ viewport: { width: 375, height: 740 }, colorScheme: "dark", deviceScaleFactor: 2 });
    const errors = [];
    phone.on("console", (m) => m.type() === "error" && errors.push(m.text()));
    phone.on("pageerror", (e) => errors.push(e.message));
    try {
      await phone.goto(`${baseUrl}${PAGE}?autoplay=0`);
      await ready(phone);
      await until(phone, (d) => d.hasRun);
      const overflow = await phone.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      assert.ok(overflow <= 1, `no horizontal scrolling at 375 px (overflow ${overflow} px)`);
      const bg = await phone.evaluate(() => getComputedStyle(document.body).backgroundColor);
      assert.equal(bg, "rgb(22, 23, 25)", "dark theme");
      // axe-core: no serious or critical accessibility violations.
      await phone.addScriptTag({ content: await readFile(require.resolve("axe-core/axe.min.js"), "utf8") });
      const res = await phone.evaluate(() => window.axe.run(document, { resultTypes: ["violations"] }));
      const bad = res.violations.filter((v) => v.impact === "serious" || v.impact === "critical");
      assert.deepEqual(
        bad.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).slice(0, 3).join(", ")}`),
        [],
      );
      assert.deepEqual(errors, []);
      await screenshot(phone, "page-phone-dark");
      // Embed mode: only the widget.
      await phone.goto(`${baseUrl}${PAGE}?autoplay=0&embed=1`);
      await ready(phone);
      assert.equal(await phone.locator("h1").isVisible(), false);
      assert.equal(await phone.locator(".mp-pool").isVisible(), true);
    } finally {
      await phone.close();
    }
  });
});

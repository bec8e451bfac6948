// The guided tour and accessibility, in headless Chromium (run by scripts/test.sh): the tour's
// steps and links (?tour=N) with keyboard navigation and focus management, keyboard-only use
// of the main controls, reduced motion, dark mode, and axe-core on the tour.
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
function until(page, pred, arg, timeout = 15_000) {
  return page.waitForFunction(
    ({ src, arg }) => new Function("d", "arg", `return (${src})(d, arg);`)(window.__midpoint.debug(), arg),
    { src: pred.toString(), arg },
    { timeout, polling: 50 },
  );
}
const focused = (page) => page.evaluate(() => document.activeElement?.dataset?.act ?? document.activeElement?.className ?? "");
const tourParam = (page) => page.evaluate(() => new URLSearchParams(location.search).get("tour"));

async function axe(page) {
  await page.addScriptTag({ content: await readFile(require.resolve("axe-core/axe.min.js"), "utf8") });
  const res = await page.evaluate(() => window.axe.run(document, { resultTypes: ["violations"] }));
  return res.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).slice(0, 3).join(", ")}`);
}

/** Presses Tab until `pred(activeElement)` holds (at most `max` times); returns the count. */
async function tabTo(page, pred, max = 40) {
  for (let i = 1; i <= max; i++) {
    await page.keyboard.press("Tab");
    if (await page.evaluate(`(${pred})(document.activeElement)`)) return i;
  }
  throw new Error(`Tab never reached ${pred}`);
}

describe("the guided tour", () => {
  test("?tour=1 opens step 1; Next/Back/Leave work from the keyboard and move focus", async () => {
    const { page, errors } = await openPage(shared.browser, `${PAGE}?tour=1`);
    try {
      await ready(page);
      await page.locator(".mp-tour").waitFor({ state: "visible" });
      assert.equal(await page.textContent(".mp-tour-h"), "Midpoint insertion");
      assert.match(await page.textContent(".mp-tour-count"), /step 1 of 6/);
      await until(page, (d) => d.mode === "paused" && d.t_s === 61);
      assert.equal(await page.inputValue('[data-ctl="preset"]'), "seed000-hot4485-b2b");
      // Keyboard: Tab to Next, Enter.
      await tabTo(page, (e) => e.dataset.act === "tour-next");
      await page.keyboard.press("Enter");
      await page.waitForFunction(() => document.querySelector(".mp-tour-h").textContent.startsWith("innodb_old_blocks_time"));
      assert.equal(await focused(page), "mp-tour-h", "focus moves to the step's heading");
      await until(page, (d) => d.mode === "paused" && d.t_s === 70);
      await page.waitForFunction(() => new URLSearchParams(location.search).get("tour") === "2");
      const d = await debug(page);
      assert.ok(d.not_made_young > 100 * d.made_young, "the time test blocks the scan's touches");
      // Step 3: paused just before an LRU batch.
      await tabTo(page, (e) => e.dataset.act === "tour-next");
      await page.keyboard.press("Space");
      await until(page, (d) => d.mode === "paused" && d.at_batch);
      assert.equal(await tourParam(page), "3");
      assert.equal((await debug(page)).free, 0);
      assert.deepEqual(await axe(page), [], "axe: the tour");
      await screenshot(page, "tour-step3");
      // Back.
      await tabTo(page, (e) => e.dataset.act === "tour-back");
      await page.keyboard.press("Enter");
      await page.waitForFunction(() => new URLSearchParams(location.search).get("tour") === "2");
      // Leave: the panel goes, focus returns to the button that opens it, the URL forgets it.
      await tabTo(page, (e) => e.dataset.act === "tour-end");
      await page.keyboard.press("Enter");
      await page.locator(".mp-tour").waitFor({ state: "hidden" });
      assert.equal(await focused(page), "tour");
      await page.waitForFunction(() => !new URLSearchParams(location.search).has("tour"));
      await page.keyboard.press("Enter");
      await page.locator(".mp-tour").waitFor({ state: "visible" });
      assert.equal(await page.textContent(".mp-tour-h"), "Midpoint insertion");
      assert.deepEqual(errors, [], errors.join("\n"));
    } finally {
      await page.close();
    }
  });

  test("a bad step number gets a clear message", async () => {
    const { page, errors } = await openPage(shared.browser, `${PAGE}?tour=99`);
    try {
      await ready(page);
      await page.locator(".mp-notes").waitFor({ state: "visible" });
      assert.match(await page.textContent(".mp-notes"), /tour = 99 is not a step of the tour \(1 to 6\); using 6/);
      assert.match(await page.textContent(".mp-tour-count"), /step 6 of 6/);
      assert.equal(await page.locator('[data-act="tour-next"]').isDisabled(), true);
      assert.deepEqual(errors, []);
    } finally {
      await page.close();
    }
  });
});

describe("accessibility", () => {
  test("keyboard only: Tab to the controls, Enter/Space activate, shortcuts on the figure", async () => {
    const { page, errors } = await openPage(shared.browser, `${PAGE}?preset=small-demo&autoplay=0`);
    try {
      await ready(page);
      // The lab's settings come first (a dashboard); its skip link is the first Tab stop of
      // the widget and Enter on it brings the controls next.
      const skipTabs = await tabTo(page, (e) => e.classList.contains("mp-skip"));
      assert.ok(skipTabs <= 3, `the skip link is reached in ${skipTabs} Tab presses`);
      await page.keyboard.press("Enter");
      const tabs = await tabTo(page, (e) => e.dataset.act === "play");
      assert.ok(tabs <= 5, `Play is reached in ${tabs} Tab presses after the skip link`);
      await page.keyboard.press("Enter");
      await until(page, (d) => d.mode === "playing");
      await page.keyboard.press("Space"); // a button's own activation: pause
      await until(page, (d) => d.mode === "paused");
      await tabTo(page, (e) => e.dataset.act === "step");
      const ev = (await debug(page)).events;
      await page.keyboard.press("Enter");
      await until(page, (d, ev) => d.events === ev + 1, ev);
      // The figure takes focus and its shortcuts.
      await tabTo(page, (e) => e.classList.contains("mp-pool"));
      await page.keyboard.press("ArrowRight");
      await until(page, (d, ev) => d.events === ev + 2, ev);
      await page.keyboard.press("ArrowLeft");
      await until(page, (d, ev) => d.events === ev + 1, ev);
      const speed = (await debug(page)).speed_index;
      await page.keyboard.press("-");
      await until(page, (d, s) => d.speed_index === s - 1, speed);
      await page.keyboard.press("n");
      await until(page, (d) => d.mode === "paused" && d.at_batch);
      await page.keyboard.press("Home");
      await until(page, (d) => d.events === 0);
      assert.deepEqual(errors, []);
    } finally {
      await page.close();
    }
  });

  test("reduced motion: no autoplay", async () => {
    const page = await shared.browser.newPage({ reducedMotion: "reduce" });
    try {
      await page.goto(`${baseUrl}${PAGE}?preset=small-demo`);
      await ready(page);
      await until(page, (d) => d.hasRun);
      const d = await debug(page);
      assert.equal(d.mode, "paused");
      assert.equal(d.events, 0);
    } finally {
      await page.close();
    }
  });

  test("dark mode: the page and an embedded element are dark", async () => {
    const page = await shared.browser.newPage({ colorScheme: "dark" });
    try {
      await page.goto(`${baseUrl}${PAGE}?preset=small-demo&autoplay=0`);
      await ready(page);
      assert.equal(await page.evaluate(() => getComputedStyle(document.body).backgroundColor), "rgb(22, 23, 25)");
      await page.goto(`${baseUrl}/www/embed-test.html`);
      await page.waitForFunction(() => document.querySelector("#first")?.dataset.ready === "1");
      const card = await page.locator("#first .mp-card").first().evaluate((e) => getComputedStyle(e).backgroundColor);
      assert.equal(card, "rgb(30, 31, 34)");
    } finally {
      await page.close();
    }
  });

  test("the plots have a text alternative: a summary and data tables", async () => {
    const { page, errors } = await openPage(shared.browser, `${PAGE}?preset=small-demo&autoplay=0`);
    try {
      await ready(page);
      await until(page, (d) => d.hasRun);
      assert.match(await page.locator(".mp-residency").getAttribute("aria-label"), /hot-set residency/);
      assert.match(await page.textContent(".mp-runcap"), /The model kept(, so far)?: \d+ %/);
      await page.locator('[data-table="run"] summary').press("Enter");
      await page.waitForFunction(() => document.querySelectorAll('[data-table="run"] tbody tr').length > 10);
      assert.match(await page.textContent('[data-table="run"] caption'), /Hot-set residency over the run/);
      await page.locator('[data-table="sweep"] summary').press("Enter");
      await page.waitForFunction(() => document.querySelectorAll('[data-table="sweep"] tbody tr').length === 8);
      assert.deepEqual(errors, []);
    } finally {
      await page.close();
    }
  });
});

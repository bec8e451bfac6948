// Embedding and export, in headless Chromium (run by scripts/test.sh): the
// <midpoint-explainer> element and the iframe side by side on www/embed-test.html, embed mode's
// link back to the full page, the Embed dialog's snippets, and the CSV / PNG downloads.
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { describe, test } from "node:test";
import { baseUrl, useBrowser, openPage, screenshot } from "./helpers.mjs";

const require = createRequire(import.meta.url);
const shared = useBrowser();

function noErrors(errors) {
  assert.deepEqual(errors, [], `errors on the page:\n${errors.join("\n")}`);
}

/** debug() of the custom element `sel`, once its reader has loaded (an element on a blog loads
 *  it on the first ask, docs/testing.md). */
async function elDebug(page, sel) {
  await page.waitForFunction((s) => document.querySelector(s)?.debug?.() !== undefined, sel, { timeout: 15_000, polling: 50 });
  return page.evaluate((s) => document.querySelector(s).debug(), sel);
}

function untilEl(page, sel, pred, arg, timeout = 15_000) {
  return page.waitForFunction(
    ({ sel, src, arg }) => {
      const d = document.querySelector(sel)?.debug?.();
      return d && new Function("d", "arg", `return (${src})(d, arg);`)(d, arg);
    },
    { sel, src: pred.toString(), arg },
    { timeout, polling: 50 },
  );
}

async function axe(page) {
  await page.addScriptTag({ content: await readFile(require.resolve("axe-core/axe.min.js"), "utf8") });
  const res = await page.evaluate(() => window.axe.run(document, { resultTypes: ["violations"] }));
  return res.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).slice(0, 3).join(", ")}`);
}

/** Every parameter name, from the page's own module (the full list the core writes). */
const paramNames = (page) =>
  page.evaluate(async () => {
    const mp = await import("../pkg/midpoint.js");
    return [...new URLSearchParams(mp.params_query(mp.parse_query("").params)).keys()];
  });

describe("embedding", () => {
  test("two custom elements and an iframe run independently, with no console errors", async () => {
    const { page, errors } = await openPage(shared.browser, "/www/embed-test.html", { viewport: { width: 900, height: 900 } });
    try {
      await page.waitForFunction(() => [...document.querySelectorAll("midpoint-explainer")].every((e) => e.dataset.ready === "1"));
      const frame = page.frameLocator("#third");
      await frame.locator(".mp-pool").waitFor();
      const a = await elDebug(page, "#first");
      const b = await elDebug(page, "#second");
      assert.equal(a.cells, 1023, "first: the small demo's 16 MiB pool");
      assert.equal(b.cells, 16382, "second: a 256 MiB pool");
      assert.equal(a.mode, "paused");
      // Step the first figure three times: the second and the iframe do not move.
      const first = page.locator("#first");
      for (let i = 0; i < 3; i++) await first.locator('[data-act="step"]').click();
      await untilEl(page, "#first", (d, ev) => d.events === ev + 3, a.events);
      const iframe = page.frames().find((f) => f.url().includes("embed=1"));
      await iframe.evaluate(() => window.__midpoint.surface());
      const iframeEvents = await iframe.evaluate(() => window.__midpoint.debug().events);
      assert.equal((await elDebug(page, "#second")).events, b.events, "the second figure did not move");
      assert.equal(iframeEvents, 0, "the iframe did not move");
      // Each element read its own attributes.
      assert.match(await page.locator("#second .mp-cli code").textContent(), /^midpoint run --preset seed000-hot4485-b2b-depth128 --runs 5$/);
      assert.equal(await page.locator("#first [data-ctl='preset']").inputValue(), "small-demo");
      // Embeds link back to the full explainer, with their state.
      const href = await page.locator("#second .mp-full").getAttribute("href");
      // The preset, and only the parameters that differ from it (none here).
      assert.match(href, /\/www\/index\.html\?preset=seed000-hot4485-b2b-depth128$/);
      // Off screen, a playing figure pauses; back on screen it plays on.
      await first.locator('[data-act="play"]').click();
      await untilEl(page, "#first", (d) => d.mode === "playing");
      await page.locator("#third").scrollIntoViewIfNeeded();
      await untilEl(page, "#first", (d) => d.mode === "paused");
      const parked = (await elDebug(page, "#first")).events;
      await page.waitForFunction(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r(true)))));
      assert.equal((await elDebug(page, "#first")).events, parked, "no work off screen");
      await first.scrollIntoViewIfNeeded();
      await untilEl(page, "#first", (d, ev) => d.mode === "playing" && d.events > ev, parked);
      await first.locator('[data-act="play"]').click();
      assert.deepEqual(await axe(page), [], "axe: the embed page");
      noErrors(errors);
      await screenshot(page, "embed-test");
    } finally {
      await page.close();
    }
  });

  test("attributes with bad values get the page's clamping messages", async () => {
    const { page, errors } = await openPage(shared.browser, "/www/embed-test.html", { viewport: { width: 900, height: 900 } });
    try {
      await page.evaluate(() => {
        const e = document.createElement("midpoint-explainer");
        e.id = "bad";
        e.setAttribute("preset", "small-demo");
        e.setAttribute("innodb-lru-scan-depth", "-5");
        e.setAttribute("frobnicate", "1");
        e.setAttribute("autoplay", "0");
        document.body.prepend(e);
      });
      await page.waitForFunction(() => document.querySelector("#bad").dataset.ready === "1");
      const notes = await page.locator("#bad .mp-notes").textContent();
      assert.match(notes, /lru_scan_depth = -5 is out of range .*using 100/);
      assert.match(notes, /unknown parameter 'frobnicate'/);
      noErrors(errors);
    } finally {
      await page.close();
    }
  });

  test("embed mode in a 700×600 frame: only the widget, and a link to the full page", async () => {
    const { page, errors } = await openPage(shared.browser, "/www/lab.html?embed=1&preset=small-demo&lru_scan_depth=256&autoplay=0", {
      viewport: { width: 700, height: 600 },
    });
    try {
      await page.waitForFunction(() => document.documentElement.dataset.midpointReady === "1");
      assert.equal(await page.locator("h1").isVisible(), false);
      assert.equal(await page.locator(".explain").isVisible(), false);
      assert.equal(await page.locator(".mp-pool").isVisible(), true);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      assert.ok(overflow <= 1, `no horizontal scrolling (overflow ${overflow} px)`);
      const full = page.locator(".mp-full");
      assert.equal(await full.isVisible(), true);
      const href = new URL(await full.getAttribute("href"));
      assert.equal(href.pathname, "/www/index.html");
      assert.equal(href.searchParams.get("preset"), null, "custom settings: no preset");
      assert.equal(href.searchParams.get("pool_mb"), "16", "the small demo's pool");
      assert.equal(href.searchParams.get("lru_scan_depth"), "256");
      assert.equal(href.searchParams.get("embed"), null);
      noErrors(errors);
      await screenshot(page, "embed-700x600");
    } finally {
      await page.close();
    }
  });

  test("the Embed dialog writes the preset and only the parameters that differ, and copies them", async () => {
    const ctx = await shared.browser.newContext({ viewport: { width: 1280, height: 900 }, permissions: ["clipboard-read", "clipboard-write"] });
    const page = await ctx.newPage();
    const errors = [];
    page.on("console", (m) => m.type() === "error" && errors.push(m.text()));
    page.on("pageerror", (e) => errors.push(e.message));
    try {
      const { baseUrl } = await import("./helpers.mjs");
      await page.goto(`${baseUrl}/www/lab.html?preset=small-demo&autoplay=0`);
      await page.waitForFunction(() => document.documentElement.dataset.midpointReady === "1");
      await page.locator('.mp-figure [data-act="embed"]').click();
      await page.locator(".mp-dialog").waitFor({ state: "visible" });
      let iframe = await page.locator(".mp-dialog textarea").nth(0).inputValue();
      let element = await page.locator(".mp-dialog textarea").nth(1).inputValue();
      // From the lab, one figure (the close-up first), not the whole lab.
      assert.match(iframe, /^<iframe src="http:\/\/127\.0\.0\.1:\d+\/www\/index\.html\?embed=1&amp;preset=small-demo&amp;view=strip" /);
      assert.match(element, /^<script type="module" src="http:\/\/127\.0\.0\.1:\d+\/www\/embed\.js"><\/script>\n<midpoint-explainer\n  preset="small-demo"\n  view="strip">\n/);
      // A changed setting is the only parameter written after the preset.
      await page.keyboard.press("Escape");
      // Closed, the dialog gives focus back to its button: only then to the slider, or that
      // return could take the focus from it before its key.
      await page.locator(".mp-dialog").waitFor({ state: "hidden" });
      // old_blocks_time to 0 on its slider (its first stop), from the keyboard.
      await page.locator('input[data-param="old_blocks_time"]').first().focus();
      await page.keyboard.press("Home");
      await page.waitForFunction(() => /(^|&)old_blocks_time=0(&|$)/.test(document.querySelector("[data-testid=midpoint-widget]").dataset.address ?? ""), null, { timeout: 10_000 });
      await page.locator('.mp-figure [data-act="embed"]').click();
      await page.locator(".mp-dialog").waitFor({ state: "visible" });
      iframe = await page.locator(".mp-dialog textarea").nth(0).inputValue();
      element = await page.locator(".mp-dialog textarea").nth(1).inputValue();
      const src = new URL(iframe.match(/src="([^"]+)"/)[1].replaceAll("&amp;", "&"));
      assert.equal(src.searchParams.get("embed"), "1");
      assert.equal(src.searchParams.get("old_blocks_time"), "0");
      const names = await paramNames(page);
      assert.ok([...src.searchParams.keys()].length < names.length / 2, "only what differs from the defaults");
      assert.ok(element.includes(`\n  old-blocks-time="0"`), element);
      await page.locator('.mp-dialog [data-dlg="copy-element"]').click();
      await page.waitForFunction(() => document.querySelector('.mp-dialog [data-dlg="copy-element"] + .mp-copied').textContent !== "");
      assert.equal(await page.evaluate(() => navigator.clipboard.readText()), element);
      await page.keyboard.press("Escape");
      await page.locator(".mp-dialog").waitFor({ state: "hidden" });
      assert.equal(await page.evaluate(() => document.activeElement?.dataset.act), "embed", "focus returns to the button");
      assert.deepEqual(errors, []);
    } finally {
      await ctx.close();
    }
  });
});

describe("export", () => {
  test("CSV of the run and of the sweep list every parameter; PNG downloads are PNGs", async () => {
    const tiny = "preset=small-demo&scan_s=20&warmup_s=5&kept_window_s=10&sweep_depths=100,1024&sweep_times=0,1000";
    const { page, errors } = await openPage(shared.browser, `/www/lab.html?autoplay=0&${tiny}`);
    try {
      await page.waitForFunction(() => document.documentElement.dataset.midpointReady === "1");
      const names = await paramNames(page);
      const csvRun = page.locator('[data-act="csv-run"]');
      await page.waitForFunction(() => !document.querySelector('[data-act="csv-run"]').disabled);
      const fetchDownload = async (click) => {
        const [dl] = await Promise.all([page.waitForEvent("download"), click()]);
        return { name: dl.suggestedFilename(), body: await readFile(await dl.path()) };
      };
      const run = await fetchDownload(() => csvRun.click());
      assert.equal(run.name, "midpoint-custom-run.csv");
      const text = run.body.toString("utf8");
      assert.match(text, /^# midpoint run; parameters:\n/);
      for (const n of names) assert.match(text, new RegExp(`^# ${n}=`, "m"), `run CSV header has ${n}`);
      assert.match(text, /^# scan_s=20$/m);
      assert.match(text, /^t_s,hot_resident,/m);
      assert.ok(text.trim().split("\n").length > 25, "one row per sample");
      // The sweep.
      await page.click('[data-act="sweep"]');
      await page.waitForFunction(() => /4 of 4 points in/.test(document.querySelector(".mp-sweepmsg").textContent), null, { timeout: 20_000 });
      const sweep = await fetchDownload(() => page.click('[data-act="csv-sweep"]'));
      const st = sweep.body.toString("utf8");
      for (const n of names) assert.match(st, new RegExp(`^# ${n}=`, "m"), `sweep CSV header has ${n}`);
      assert.match(st, /^lru_scan_depth,old_blocks_time,kept,young_leak_pages_per_s,lookups_per_s\n/m);
      assert.equal(st.trim().split("\n").filter((l) => /^\d/.test(l)).length, 4);
      assert.ok(!/NaN/.test(st), "every point computed");
      // PNGs.
      for (const act of ["png-run", "png-sweep"]) {
        const png = await fetchDownload(() => page.click(`[data-act="${act}"]`));
        assert.match(png.name, /\.png$/);
        assert.deepEqual([...png.body.subarray(0, 8)], [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a], `${act} is a PNG`);
      }
      // The plots' text alternative: tables of the samples and of the sweep points.
      await page.locator('[data-table="run"] summary').click();
      assert.ok((await page.locator('[data-table="run"] tbody tr').count()) > 10);
      await page.locator('[data-table="sweep"] summary').click();
      await page.waitForFunction(() => /^100\d+ %\d+ %1,024\d+ %\d+ %$/.test(document.querySelector('[data-table="sweep"] tbody').textContent));
      noErrors(errors);
    } finally {
      await page.close();
    }
  });
});

describe("what an embedded figure fetches", () => {
  /** Paths the page asked for (its workers' too) from its first request until `until` holds. */
  async function fetched(path, viewport, until) {
    const ctx = await shared.browser.newContext({ viewport });
    const asked = [];
    ctx.on("request", (r) => asked.push(new URL(r.url()).pathname));
    const page = await ctx.newPage();
    const errors = [];
    page.on("pageerror", (e) => errors.push(e.message));
    try {
      await page.goto(`${baseUrl}${path}`);
      await page.waitForFunction(() => document.documentElement.dataset.midpointReady === "1", null, { timeout: 60_000 });
      await until(page);
      return { asked, page, ctx, errors };
    } catch (e) {
      await ctx.close();
      throw e;
    }
  }
  // Scripts, data and styles only other figures or pages show.
  const LAB_ONLY = [
    "/www/page.css",
    "/www/figure/runs.js",
    "/www/worker.js",
    "/www/figure/residency.js",
    "/www/figure/sweep.js",
    "/www/figure/settings.js",
    "/www/figure/tour.js",
    "/www/figure/policies.js",
    "/www/write.js",
    "/www/handout.js",
    "/www/figure/embed-dialog.js",
    "/www/data/sweep.json",
    "/pkg/midpoint_bg.wasm",
  ];

  test("the close-up alone: its own scripts and the small module, no run, no worker; the Embed dialog's script on its first press", async () => {
    // At rest at its opening moment (every load it will make is made).
    const { asked, page, ctx, errors } = await fetched("/www/lab.html?view=strip&at=batch&embed=1", { width: 390, height: 844 }, (p) =>
      p.waitForFunction(() => window.__midpoint?.debug()?.idle, null, { timeout: 60_000, polling: 100 }),
    );
    try {
      assert.deepEqual(
        LAB_ONLY.filter((u) => asked.includes(u)),
        [],
        `fetched what the close-up does not show:\n${asked.join("\n")}`,
      );
      assert.ok(asked.includes("/pkg/core/midpoint_bg.wasm"), "the small module");
      assert.equal((await page.evaluate(() => window.__midpoint.debug())).hasRun, false, "no full run");
      await page.locator("[data-testid=embed-button]").click();
      await page.locator("[data-testid=embed-dialog][open]").waitFor({ timeout: 10_000 });
      assert.ok(asked.includes("/www/figure/embed-dialog.js"), "the dialog's script, on the press");
      assert.match(await page.locator("[data-testid=embed-snippet]").inputValue(), /<iframe[^>]+view=strip/);
      noErrors(errors);
    } finally {
      await ctx.close();
    }
  });

  test("the lab fetches the page's styles, its runs and the plots' scripts, and runs", async () => {
    const { asked, ctx, errors } = await fetched("/www/lab.html?autoplay=0", { width: 1366, height: 768 }, (p) =>
      p.waitForFunction(() => window.__midpoint.debug().hasRun, null, { timeout: 90_000, polling: 100 }),
    );
    try {
      for (const u of ["/www/page.css", "/www/style.css", "/www/figure/runs.js", "/www/worker.js", "/www/figure/residency.js", "/www/figure/tour.js", "/pkg/midpoint_bg.wasm"]) {
        assert.ok(asked.includes(u), `${u} not fetched`);
      }
      assert.ok(!asked.includes("/pkg/core/midpoint_bg.wasm"), "the lab loads the full module");
      // The page's styles apply: page.css sets the settings beside the plots on a wide screen.
      const tracks = await ctx.pages()[0].evaluate(() => getComputedStyle(document.querySelector(".mp-dash")).gridTemplateColumns.split(" ").length);
      assert.equal(tracks, 2, "the lab's dashboard in two columns");
      noErrors(errors);
    } finally {
      await ctx.close();
    }
  });
});

// The article's "Beyond" figures: stock and patched side by side in lockstep, the scale curve
// from the committed data, and the phase heat map whose cells run their setting in the lab.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdir, readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { baseUrl, openPage, pageReady, useBrowser } from "./helpers.mjs";

const shared = useBrowser();
const require = createRequire(import.meta.url);
const artifacts = path.join(path.dirname(fileURLToPath(import.meta.url)), "artifacts");

const pairState = (page) =>
  page.evaluate(() => {
    const f = document.querySelector("[data-beyond=pair]");
    return { stock: Number(f.dataset.eventsStock), patched: Number(f.dataset.eventsPatched), mode: f.dataset.mode };
  });

const settled = (page) =>
  page.waitForFunction(
    () => {
      const f = document.querySelector("[data-beyond=pair]");
      return f.dataset.mode === "paused" && Number(f.dataset.eventsStock) > 0 && f.dataset.eventsStock === f.dataset.eventsPatched;
    },
    null,
    { timeout: 90_000 },
  );

/** Wait until both runs of the pair are more than 10 events past `from` (the watched drain
 *  plays), the figure still watching or playing. */
const drainPlays = (page, from) =>
  page.waitForFunction(
    (from) => {
      const f = document.querySelector("[data-beyond=pair]");
      return Number(f.dataset.eventsStock) > from + 10 && Number(f.dataset.eventsPatched) > from + 10 && f.dataset.mode !== "paused";
    },
    from,
    { timeout: 60_000, polling: 50 },
  );

const canvases = (page, sel) => page.evaluate((s) => [...document.querySelectorAll(`${s} canvas`)].map((c) => c.toDataURL()), sel);

test("side by side: both close-ups change between frames and stay on the same event count", { timeout: 180_000 }, async () => {
  const { page, errors } = await openPage(shared.browser, "/www/index.html");
  await pageReady(page);
  const fig = page.locator("[data-beyond=pair]");
  await fig.scrollIntoViewIfNeeded();
  // It opens paused just before the scan phase's first LRU batch, both runs at one event.
  await settled(page);
  assert.equal(await fig.locator("select").inputValue(), "free-frames-count-as-old", "the default moves kept the most");
  const start = await pairState(page);
  const before = await canvases(page, "[data-beyond=pair]");
  await fig.locator("button[data-act=watch]").click();
  // The batch is held ~1.1 s, its evictions shown ~1.6 s, then the drain plays: both runs
  // some events into it (the figure's data-events-stock and data-events-patched).
  await drainPlays(page, start.stock);
  await fig.locator("button[data-act=play]").click(); // pauses the watch
  await settled(page);
  const after = await canvases(page, "[data-beyond=pair]");
  const end = await pairState(page);
  assert.equal(end.stock, end.patched, "same event count");
  assert.ok(end.stock > start.stock + 10, `both ran: ${start.stock} → ${end.stock}`);
  assert.notEqual(after[0], before[0], "the stock close-up changed");
  assert.notEqual(after[1], before[1], "the patched close-up changed");
  const caption = await fig.locator("[data-caption]").textContent();
  assert.match(caption, /in both runs/);
  assert.match(caption, /free-frames-count-as-old/);
  // One step moves both by one event, from the keyboard too.
  await fig.locator("button[data-act=step]").focus();
  await page.keyboard.press("ArrowRight");
  await page.waitForFunction((n) => Number(document.querySelector("[data-beyond=pair]").dataset.eventsStock) === n, end.stock + 1, { timeout: 10_000 });
  await settled(page);
  const stepped = await pairState(page);
  assert.deepEqual([stepped.stock, stepped.patched], [end.stock + 1, end.stock + 1]);
  // Another patch: both runs start again, in step.
  await fig.locator("select").selectOption("slide-spares-fresh");
  await settled(page);
  assert.match(await fig.locator("[data-label='1']").textContent(), /slide-spares-fresh/);
  assert.deepEqual(errors, []);
  await page.close();
});

test("scale curve: the canvas is drawn with one point per committed row", async () => {
  const { page, errors } = await openPage(shared.browser, "/www/index.html");
  await pageReady(page);
  const fig = page.locator("[data-beyond=scale]");
  await fig.scrollIntoViewIfNeeded();
  await page.waitForFunction(() => document.querySelector("[data-beyond=scale] canvas").dataset.points !== undefined, null, { timeout: 20_000 });
  const rows = (await (await fetch(`${baseUrl}/www/data/scale.json`)).json()).rows;
  const drawn = await page.evaluate(() => {
    const c = document.querySelector("[data-beyond=scale] canvas");
    const d = c.getContext("2d").getImageData(0, 0, c.width, c.height).data;
    let ink = 0;
    for (let i = 0; i < d.length; i += 4) if (d[i + 3] > 0 && (d[i] < 200 || d[i + 1] < 200 || d[i + 2] < 200)) ink++;
    return { points: Number(c.dataset.points), ink, w: c.width };
  });
  assert.equal(drawn.points, rows.length);
  assert.ok(drawn.ink > 2000, `non-blank: ${drawn.ink} inked pixels`);
  assert.match(await fig.locator("figcaption").textContent(), /midpoint scale --seeds 2 --json. at commit [0-9a-f]{7}/);
  assert.deepEqual(errors, []);
  await page.close();
});

test("phase heat map: hovering describes a cell, clicking one runs its setting in the lab", async () => {
  const { page, errors } = await openPage(shared.browser, "/www/index.html");
  await pageReady(page);
  const fig = page.locator("[data-beyond=phase]");
  await fig.scrollIntoViewIfNeeded();
  const canvas = fig.locator("canvas");
  await page.waitForFunction(() => document.querySelector("[data-beyond=phase] [data-provenance]").textContent !== "", null, { timeout: 20_000 });
  const map = await (await fetch(`${baseUrl}/www/data/phase.json`)).json();
  const box = await canvas.boundingBox();
  // The heat map's plot area (crates/lab/src/study/charts.rs, plot_area): 70 px from the left, 20 from the
  // right, 44 from the top, 50 from the bottom; the first y value is the bottom row.
  const [nx, ny] = [map.x_values.length, map.y_values.length];
  const [i, j] = [0, map.y_values.indexOf(4)];
  const x = 70 + ((box.width - 90) * (i + 0.5)) / nx;
  const y = 44 + ((box.height - 94) * (ny - 1 - j + 0.5)) / ny;
  await canvas.hover({ position: { x, y } });
  const tip = fig.locator("[data-tip]");
  await tip.waitFor({ state: "visible" });
  assert.match(await tip.textContent(), /^2,000 idle lookups\/s, refills every 4 s/);
  await canvas.click({ position: { x, y } });
  await page.waitForFunction(() => location.search.includes("idle_lookups_per_s=2000"), null, { timeout: 10_000 });
  const url = new URL(page.url());
  assert.equal(url.searchParams.get("cleaner"), "after-activity:4");
  // The lab runs it: the parameters its root publishes (data-address).
  const lab = new URLSearchParams(await page.locator(".mp-lab").getAttribute("data-address"));
  assert.equal(lab.get("idle_lookups_per_s"), "2000");
  assert.equal(lab.get("hot_pages"), "897");
  // From the keyboard: the next cell to the right, Enter.
  await canvas.focus();
  await page.keyboard.press("ArrowRight");
  await page.keyboard.press("Enter");
  await page.waitForFunction(() => location.search.includes("idle_lookups_per_s=3000"), null, { timeout: 10_000 });
  // axe-core on the section: no serious or critical violations.
  await page.addScriptTag({ content: await readFile(require.resolve("axe-core/axe.min.js"), "utf8") });
  const violations = await page.evaluate(async () =>
    (await window.axe.run({ include: [["section.beyond"]] }, { resultTypes: ["violations"] })).violations
      .filter((v) => v.impact === "serious" || v.impact === "critical")
      .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).join(", ")}`),
  );
  assert.deepEqual(violations, []);
  assert.deepEqual(errors, []);
  await page.close();
});

test("screenshots of the Beyond section on a desktop and a phone", { timeout: 180_000 }, async () => {
  await mkdir(artifacts, { recursive: true });
  for (const [name, viewport] of [
    ["beyond-1366", { width: 1366, height: 768 }],
    ["beyond-390", { width: 390, height: 844 }],
    ["beyond-390-dark", { width: 390, height: 844 }],
  ]) {
    const { page, errors } = await openPage(shared.browser, "/www/index.html", { viewport });
    if (name.endsWith("dark")) await page.emulateMedia({ colorScheme: "dark" });
    await pageReady(page);
    for (const kind of ["pair", "scale", "phase"]) await page.locator(`[data-beyond=${kind}]`).scrollIntoViewIfNeeded();
    await page.locator("[data-beyond=pair]").scrollIntoViewIfNeeded();
    await settled(page);
    const from = (await pairState(page)).stock;
    await page.locator("[data-beyond=pair] button[data-act=watch]").click();
    await drainPlays(page, from);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    assert.ok(overflow <= 0, `${name}: the page is ${overflow} px wider than the screen`);
    // The section at the screen's full width (the figures reach past the text column), and
    // each figure alone, for a closer look.
    const box = await page.locator("section.beyond").boundingBox();
    const top = await page.evaluate(() => window.scrollY);
    await page.screenshot({ path: path.join(artifacts, `${name}.png`), fullPage: true, clip: { x: 0, y: box.y + top, width: viewport.width, height: box.height } });
    for (const kind of ["pair", "scale", "phase"]) {
      await page.locator(`[data-beyond=${kind}]`).screenshot({ path: path.join(artifacts, `${name}-${kind}.png`) });
    }
    assert.deepEqual(errors, []);
    await page.close();
  }
});

// An embedded figure hands the keys it does not use back to its host page: a reveal.js deck
// (from npm, package.json) with the close-up's iframe snippet on its first slide still changes
// slides by → and PageDown after a click inside the figure, while Space stays the figure's
// play/pause. The deck is a static page on another origin than the figure (the same server
// under another name, as in journeys.test.mjs); the test waits on the deck's slide and the
// figure's published state, never on a fixed time.
import assert from "node:assert/strict";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { test } from "node:test";
import { fileURLToPath } from "node:url";
import { baseUrl, pageReady, useBrowser } from "./helpers.mjs";

const shared = useBrowser();
const artifacts = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "artifacts");
const deckBase = baseUrl.includes("127.0.0.1") ? baseUrl.replace("127.0.0.1", "localhost") : baseUrl.replace("localhost", "127.0.0.1");
const W = "[data-testid=midpoint-widget]";

test("a reveal.js deck changes slides by → and PageDown after a click inside an embedded figure", async () => {
  const context = await shared.browser.newContext({ viewport: { width: 1280, height: 800 } });
  const errors = [];
  const watch = (p) => {
    p.on("console", (m) => m.type() === "error" && errors.push(`console: ${m.text()}`));
    p.on("pageerror", (e) => errors.push(`page: ${e.message}`));
  };
  try {
    // The close-up's iframe snippet, as its Embed dialog gives it.
    const fig = await context.newPage();
    watch(fig);
    await fig.goto(`${baseUrl}/www/index.html?embed=1&view=strip&at=batch`);
    await pageReady(fig);
    // The close-up's Embed button, its dialog's iframe snippet.
    await fig.locator("[data-testid=embed-button]").click();
    const snippet = await fig.locator("[data-testid=embed-snippet]").inputValue();
    await fig.close();
    assert.match(snippet, /^<iframe /);
    const deck = `<!doctype html><html><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>A talk</title>
      <link rel="stylesheet" href="/node_modules/reveal.js/dist/reveal.css"></head>
      <body><div class="reveal"><div class="slides">
        <section><h3>The leak, live</h3>${snippet}</section>
        <section><h3>Two</h3></section>
        <section><h3>Three</h3></section>
        <section><h3>Four</h3></section>
      </div></div>
      <script src="/node_modules/reveal.js/dist/reveal.js"></script>
      <script>Reveal.initialize({ hash: false, transition: "none", width: 1100, height: 760 }).then(() => (document.documentElement.dataset.deckReady = "1"));</script>
      </body></html>`;
    await mkdir(artifacts, { recursive: true });
    await writeFile(path.join(artifacts, "reveal-deck.html"), deck);
    const page = await context.newPage();
    watch(page);
    await page.goto(`${deckBase}/tests/browser/artifacts/reveal-deck.html`);
    await page.waitForFunction(() => document.documentElement.dataset.deckReady === "1", null, { timeout: 15_000 });
    const slide = () => page.evaluate(() => Reveal.getIndices().h);
    assert.equal(await slide(), 0);
    const frame = page.frameLocator("iframe");
    await frame.locator("html[data-midpoint-ready='1']").waitFor({ timeout: 30_000 });
    await frame.locator(`${W}[data-mode=paused]`).waitFor({ timeout: 60_000 });
    const figure = () => frame.locator(W).evaluate((r) => ({ event: Number(r.dataset.event), mode: r.dataset.mode }));
    // A click on the close-up itself (it takes focus), then the clicker's →.
    await frame.locator("[data-testid=boundary-strip]").click();
    const before = await figure();
    await page.keyboard.press("ArrowRight");
    await page.waitForFunction(() => Reveal.getIndices().h === 1, null, { timeout: 10_000 });
    assert.deepEqual(await figure(), before, "→ moved the deck, not the figure");
    // Back to the figure's slide; Space on the figure is its own: play, then pause.
    await page.keyboard.press("ArrowLeft");
    await page.waitForFunction(() => Reveal.getIndices().h === 0, null, { timeout: 10_000 });
    await frame.locator("[data-act=play]").click();
    await frame.locator(`${W}[data-mode=playing]`).waitFor();
    await page.keyboard.press("Space");
    await frame.locator(`${W}[data-mode=paused]`).waitFor();
    assert.equal(await slide(), 0, "Space stayed the figure's");
    // After a click on one of the figure's buttons, PageDown is the deck's.
    await page.keyboard.press("PageDown");
    await page.waitForFunction(() => Reveal.getIndices().h === 1, null, { timeout: 10_000 });
    assert.deepEqual(errors, []);
  } finally {
    await context.close();
  }
});

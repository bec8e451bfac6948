// A blog post as a blogger makes one: Markdown rendered by a static-site renderer from npm
// (marked), with the snippets pasted exactly as the Embed dialogs give them (an iframe and the
// <midpoint-explainer> element), served from another origin than the figures (a second loopback
// port). The figures' host is tests/browser/static-server.mjs, a static host that sends CORS
// headers, as docs/embedding.md's recipe asks. Every figure renders and reaches its moment (the
// residency runs and the sweep points, computed in workers) with no console error.
import assert from "node:assert/strict";
import { createServer } from "node:http";
import { once } from "node:events";
import { after, before, describe, test } from "node:test";
import { marked } from "marked";
import { staticHost, useBrowser } from "./helpers.mjs";

const shared = useBrowser();
let host = null;
let figures = "";

before(async () => {
  ({ origin: figures, proc: host } = await staticHost());
});
after(() => host?.kill());

function watchErrors(page) {
  const errors = [];
  page.on("console", (m) => m.type() === "error" && errors.push(`console: ${m.text()}`));
  page.on("pageerror", (e) => errors.push(`page: ${e.message}`));
  page.on("requestfailed", (r) => errors.push(`request failed: ${r.url()} (${r.failure()?.errorText})`));
  return errors;
}

/** The two snippets of the Embed dialog of the figure page `query` on the figures' host. */
async function snippets(context, query) {
  const page = await context.newPage();
  try {
    await page.goto(`${figures}/www/index.html?${query}`);
    const button = page.locator("[data-testid=embed-button]:visible").first();
    await button.click();
    const dlg = page.locator("[data-testid=embed-dialog][open]");
    await dlg.waitFor({ state: "visible" });
    // This host sends CORS headers: the dialog offers the element with no warning.
    await page.waitForFunction(() => document.querySelector("[data-testid=embed-dialog][open]")?.dataset.elementCors === "1");
    assert.equal(await dlg.locator("[data-testid=embed-element-note]").isVisible(), false);
    return { iframe: await dlg.locator("[data-testid=embed-snippet]").inputValue(), element: await dlg.locator("[data-testid=embed-element]").inputValue() };
  } finally {
    await page.close();
  }
}

/** Serves `html` at / on a free loopback port (another origin than the figures'). */
async function postServer(html) {
  const server = createServer((req, res) => {
    if (req.url === "/" || req.url.startsWith("/?")) res.writeHead(200, { "Content-Type": "text/html; charset=utf-8" }).end(html);
    else res.writeHead(404).end();
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  return { server, url: `http://127.0.0.1:${server.address().port}/` };
}

describe("a Markdown post on another origin", () => {
  test("the iframe and the element snippets of the residency and sweep figures run there, workers included", async () => {
    const context = await shared.browser.newContext({ viewport: { width: 900, height: 900 } });
    const residency = await snippets(context, "embed=1&view=residency&preset=small-demo");
    const sweep = await snippets(context, "embed=1&view=sweep&preset=small-demo&lru_scan_depth=64");
    assert.match(residency.iframe, /^<iframe /);
    assert.match(sweep.element, /<midpoint-explainer\s/);
    const md = [
      "# Why my buffer pool forgets its hot pages",
      "",
      "The residency of the hot set over a run, in an iframe:",
      "",
      residency.iframe,
      "",
      "The same figure as an element:",
      "",
      residency.element,
      "",
      "And the sweep, as an element too:",
      "",
      sweep.element,
      "",
      "*The end.*",
      "",
    ].join("\n");
    const body = marked.parse(md);
    if (process.env.POST_DEBUG) console.error(md);
    const html = `<!doctype html><html><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>A post</title></head><body>${body}</body></html>`;
    const { server, url } = await postServer(html);
    const page = await context.newPage();
    const errors = watchErrors(page);
    try {
      assert.notEqual(new URL(url).origin, new URL(figures).origin, "the post is on another origin");
      await page.goto(url);
      const els = page.locator("midpoint-explainer");
      assert.equal(await els.count(), 2, "both pasted elements survive the renderer");
      // The residency element: every run of its ensemble computed in the workers.
      const resEl = els.nth(0);
      await resEl.scrollIntoViewIfNeeded();
      await page.waitForFunction(
        (el) => {
          const c = el.shadowRoot?.querySelector("[data-testid=run-caption]");
          return c && c.dataset.runs && c.dataset.runsDone === c.dataset.runs;
        },
        await resEl.elementHandle(),
        { timeout: 90_000, polling: 100 },
      );
      // The sweep element: its points computed in the workers.
      const sweepEl = els.nth(1);
      await sweepEl.scrollIntoViewIfNeeded();
      await page.waitForFunction(
        (el) => {
          // Nothing of this setting is committed: its first points come from the workers.
          const c = el.shadowRoot?.querySelector("canvas[data-points]");
          return c && Number(c.dataset.points) >= 2;
        },
        await sweepEl.elementHandle(),
        { timeout: 60_000, polling: 200 },
      );
      // The iframe: its residency runs done too.
      const frame = page.frameLocator("iframe").first();
      await page.locator("iframe").first().scrollIntoViewIfNeeded();
      const cap = frame.locator("[data-testid=run-caption]");
      await cap.evaluate((c) => new Promise((resolve) => {
        const done = () => c.dataset.runs && c.dataset.runsDone === c.dataset.runs;
        if (done()) return resolve();
        new MutationObserver(() => done() && resolve()).observe(c, { attributes: true });
      }));
      assert.deepEqual(errors, [], `errors on the post:\n${errors.join("\n")}`);
    } finally {
      await context.close();
      server.close();
    }
  });
});

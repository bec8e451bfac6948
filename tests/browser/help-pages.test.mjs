// The help pages are pages of the site: docs/classroom.html, embedding.html and your-server.html,
// generated from their Markdown (scripts/docs-html.mjs, checked current here), served as HTML
// with <meta charset="utf-8"> so that "→" shows as itself (a raw .md is served without a
// charset and shows "â†’"); the article, the lab's Your server panel and the presentation link
// to them; the lab has one "Your server" heading; a failed fetch of the module says it failed.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { test } from "node:test";
import { useBrowser, openPage, baseUrl } from "./helpers.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const shared = useBrowser();

test("the generated help pages are current with their Markdown", () => {
  const r = spawnSync(process.execPath, [path.join(here, "..", "..", "scripts", "docs-html.mjs"), "--check"], { encoding: "utf8" });
  assert.equal(r.status, 0, r.stderr);
});

test("the teacher's guide is served as an HTML page with the right characters", async () => {
  const { page, errors } = await openPage(shared.browser, "/docs/classroom.html");
  try {
    const res = await page.request.get(`${baseUrl}/docs/classroom.html`);
    assert.match(res.headers()["content-type"], /text\/html/);
    assert.match(await res.text(), /<meta charset="utf-8">/);
    const body = await page.locator("main").textContent();
    assert.match(body, /\*\*→\*\*|→ or PageDown/);
    assert.ok(!body.includes("â†’") && !body.includes("Ã—"), "mojibake in the page");
    assert.match(body, /1280×720/);
    assert.equal(await page.locator("h1").count(), 1);
    assert.deepEqual(errors, []);
  } finally {
    await page.close();
  }
});

test("the article, the lab's panel and the presentation link to the help pages", async () => {
  const check = async (page, sel) => {
    const href = await page.locator(sel).first().getAttribute("href");
    const res = await page.request.get(new URL(href, page.url()).href);
    assert.equal(res.status(), 200, `${sel}: ${href}`);
    return href;
  };
  let { page } = await openPage(shared.browser, "/www/index.html");
  try {
    assert.match(await check(page, "[data-testid=article-your-server]"), /lab\.html#your-server$/);
    assert.match(await check(page, "a[href$='docs/your-server.html']"), /your-server\.html$/);
    assert.match(await check(page, "footer a[href$='docs/classroom.html']"), /classroom\.html$/);
  } finally {
    await page.close();
  }
  ({ page } = await openPage(shared.browser, "/www/lab.html"));
  try {
    assert.match(await check(page, "[data-testid=status-help]"), /docs\/your-server\.html$/);
    assert.match(await check(page, "[data-testid=status-panel] a[href$='docs/classroom.html']"), /classroom\.html$/);
    // One "Your server" heading in the lab: the paste panel's.
    await page.waitForFunction(() => document.documentElement.dataset.midpointReady === "1", null, { timeout: 30_000 });
    const heads = await page.locator("h2, h3").evaluateAll((hs) => hs.map((h) => h.textContent.trim()).filter((t) => /your server/i.test(t)));
    assert.deepEqual(heads, ["Your server"]);
  } finally {
    await page.close();
  }
  ({ page } = await openPage(shared.browser, "/www/lab.html?view=present"));
  try {
    const guide = page.locator("[data-testid=present-guide]");
    assert.ok(await guide.isVisible(), "the presentation shows the guide's link");
    await check(page, "[data-testid=present-guide]");
  } finally {
    await page.close();
  }
});

test("a module that cannot be fetched is said to have failed, not to need WebAssembly", async () => {
  const page = await shared.browser.newPage({ viewport: { width: 1280, height: 900 } });
  try {
    await page.route("**/*.wasm", (r) => r.abort("failed"));
    await page.goto(`${baseUrl}/www/lab.html`, { waitUntil: "load" });
    const alert = page.locator(".mp-alert[role=alert]").first();
    await alert.waitFor({ timeout: 30_000 });
    const text = await alert.textContent();
    assert.match(text, /failed/);
    assert.doesNotMatch(text, /needs a browser with WebAssembly/);
  } finally {
    await page.close();
  }
});

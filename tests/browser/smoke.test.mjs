// Smoke test: the page loads, the WASM module initialises and the page reports "ready".
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { launch, openPage, screenshot } from "./helpers.mjs";

let browser;
before(async () => {
  browser = await launch();
});
after(async () => {
  await browser?.close();
});

test("index page loads the WASM module without errors", async () => {
  const { page, errors } = await openPage(browser, "/www/index.html");
  try {
    const ready = await page
      .waitForFunction(() => document.querySelector("#status")?.textContent.includes("ready"), null, {
        timeout: 10_000,
      })
      .then(
        () => true,
        () => false,
      );
    // Report page errors first: they usually explain a missing "ready".
    assert.deepEqual(errors, [], `errors on the page:\n${errors.join("\n")}`);
    const status = await page.evaluate(() => document.querySelector("#status")?.textContent ?? null);
    assert.ok(ready, `#status should contain "ready" within 10 s; it reads: ${JSON.stringify(status)}`);
  } finally {
    await screenshot(page, "smoke-index");
    await page.close();
  }
});

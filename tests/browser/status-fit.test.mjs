// The "Your server" panel fits the scenario to the paste's own counters before it forecasts, at
// the pool's real size: the fit's table (yours beside the model's), the estimate and
// a progress bar before the rows, Cancel; and what the page will not forecast (a hot set larger
// than the pool) gets the reason and the command line in the headline, and no forecast. The
// 16 GiB, 8-instance status is forecast: status-big.test.mjs.
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, test } from "node:test";
import { useBrowser, openPage } from "./helpers.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const fixtures = path.join(here, "..", "..", "crates", "status", "tests", "fixtures", "status");
const shared = useBrowser();
const PAGE = "/www/lab.html";
const state = (page) => page.evaluate(() => document.querySelector("[data-testid=status-panel]").dataset.risk);

async function pasteAndRead(page, text) {
  await page.waitForFunction(() => document.querySelector("[data-testid=status-panel]")?.dataset.ready === "1", null, {
    timeout: 15_000,
  });
  await page.fill("[data-testid=status-paste]", text);
  await page.click("[data-testid=status-read]");
  await page.waitForFunction(() => document.querySelector("[data-testid=status-panel]").dataset.read === "done", null, {
    timeout: 120_000,
  });
}

describe("Your server: the fit and the real size", () => {
  test("the fit's table beside the server's figures, the estimate first, then the rows at the pool's size", async () => {
    const { page, errors } = await openPage(shared.browser, PAGE, { viewport: { width: 1366, height: 900 } });
    const status = await readFile(path.join(fixtures, "mariadb-10.11-status-G.txt"), "utf8");
    await pasteAndRead(page, status);
    await page.click("[data-testid=status-risk-run]");
    // The estimate and Cancel come before any run is over.
    await page.waitForFunction(() => /about \d+ s of work/.test(document.querySelector("[data-testid=status-risk-headline]").textContent));
    assert.equal(await page.isVisible("[data-testid=status-risk-cancel]"), true);
    await page.waitForFunction(() => document.querySelector("[data-testid=status-panel]").dataset.risk === "done", null, {
      timeout: 600_000,
    });
    assert.equal(await page.isVisible("[data-testid=status-risk-cancel]"), false);
    const fit = await page.$$eval("[data-testid=status-fit] tbody tr", (trs) =>
      trs.map((tr) => [...tr.children].map((c) => c.textContent)),
    );
    assert.deepEqual(
      fit.map((r) => r[0]),
      ["hit rate", "reads/s", "youngs/s", "non-youngs/s"],
    );
    // The status's 986 / 1000 and 3110.44 reads/s, and the model's within reach of them.
    assert.equal(fit[0][1], "98.60 %");
    const model = Number.parseFloat(fit[0][2]);
    assert.ok(Math.abs(model - 98.6) <= 0.5, fit[0].join(" | "));
    assert.equal(fit[0][4], "yes");
    assert.equal(fit[1][1], "3110.44");
    assert.equal(fit[1][4], "yes");
    const notes = await page.textContent("[data-testid=status-fit-notes]");
    assert.match(notes, /a hot set of \d+ pages, fitted/);
    // The rows ran the pool as read: 1,014 pages, named in the headline with the advice.
    const headline = await page.textContent("[data-testid=status-risk-headline]");
    // No measured hot set: the forecast is first a range over the hot sets the counters allow,
    // with the measurement that narrows it; then the advice.
    assert.match(headline, /^Your pool as read, 1,014 pages, fitted to your counters: No measurement fixes your hot set, so the forecast is a range: kept from [\d.]+ % to [\d.]+ % .*sys\.innodb_buffer_stats_by_table.* As read, the model keeps/);
    assert.match(await page.textContent("[data-testid=status-kept-range]"), /over the hot sets your counters allow/);
    const labels = await page.$$eval("[data-testid=status-risk-table] tbody tr", (trs) => trs.map((t) => t.dataset.row));
    assert.equal(labels[0], "as read");
    assert.match(await page.textContent("[data-testid=status-risk-message]"), /WebAssembly memory \d+ MiB/);

    // Cancel stops the runs: no table, the message says so.
    await page.click("[data-testid=status-risk-run]");
    await page.waitForSelector("[data-testid=status-risk-progress]");
    await page.click("[data-testid=status-risk-cancel]");
    assert.match(await page.textContent("[data-testid=status-risk-message]"), /^Cancelled: the runs were stopped/);
    assert.equal(await page.$("[data-testid=status-risk-table]"), null);
    assert.equal(await page.$("[data-testid=status-fit]"), null);
    assert.equal(await state(page), undefined);
    assert.equal(await page.isDisabled("[data-testid=status-risk-run]"), false);
    assert.deepEqual(errors, []);
    await page.close();
  });

  test("a hot set larger than the pool: the page says it will not, names the command line, shows no forecast", async () => {
    const { page, errors } = await openPage(shared.browser, PAGE, { viewport: { width: 1366, height: 900 } });
    const status = await readFile(path.join(fixtures, "mariadb-10.11-status-G.txt"), "utf8");
    await page.waitForFunction(() => document.querySelector("[data-testid=status-panel]")?.dataset.ready === "1", null, {
      timeout: 15_000,
    });
    await page.fill("[data-testid=status-hot]", "5000");
    await pasteAndRead(page, status);
    await page.click("[data-testid=status-risk-run]");
    await page.waitForFunction(() => document.querySelector("[data-testid=status-panel]").dataset.risk === "refused", null, {
      timeout: 120_000,
    });
    const headline = await page.textContent("[data-testid=status-risk-headline]");
    assert.match(headline, /^This page cannot forecast your pool \(1,014 pages\): a hot set of 5,000 pages cannot be resident/);
    assert.match(await page.textContent("[data-testid=status-risk-cli]"), /^midpoint from-status \S+ --hot-pages 5000 --risk --runs 1$/);
    assert.equal(await page.$("[data-testid=status-risk-table]"), null);
    assert.equal(await page.$("[data-testid=status-fit]"), null);
    assert.equal(await page.$("[data-testid=status-advice]"), null);
    assert.deepEqual(errors, []);
    await page.close();
  });
});

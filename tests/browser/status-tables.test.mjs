// The "Your server" panel with a per-table residency: a real MariaDB 10.11 capture (two statuses,
// two SHOW GLOBAL STATUS, the variables and the grouped INNODB_BUFFER_PAGE_LRU query) pasted,
// Read shows a checkbox a table; ticking the hot table pins the hot set (its 965 leaf pages),
// and Leak risk's fit table says so. The read result is not held in a fixed-height scroll box.
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, test } from "node:test";
import { useBrowser, openPage } from "./helpers.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const fixtures = path.join(here, "..", "..", "crates", "status", "tests", "fixtures", "status");
const shared = useBrowser();

const done = (page) =>
  page.waitForFunction(() => document.querySelector("[data-testid=status-panel]").dataset.read === "done", null, {
    timeout: 120_000,
  });

describe("Your server: the hot set from a per-table residency", () => {
  test("ticking the hot table pins the hot set in the fit's table", async () => {
    const parts = ["status-1", "global-1", "status-2", "global-2", "vars", "lru-B"];
    const text = (
      await Promise.all(parts.map((p) => readFile(path.join(fixtures, `mariadb-10.11-tables-${p}.txt`), "utf8")))
    ).join("\n");
    const { page, errors } = await openPage(shared.browser, "/www/lab.html");
    try {
      await page.waitForFunction(() => document.querySelector("[data-testid=status-panel]")?.dataset.ready === "1", null, {
        timeout: 30_000,
      });
      await page.fill("[data-testid=status-paste]", text);
      await page.click("[data-testid=status-read]");
      await done(page);
      // No fixed-height box around what was read: every row is on the page.
      const maxH = await page.evaluate(() => getComputedStyle(document.querySelector("[data-testid=status-result] .mp-status-scroll")).maxHeight);
      assert.equal(maxH, "none");
      // A checkbox a table of the residency, none ticked; the hot set not yet the table's.
      await page.locator("[data-testid=status-tables]:not([hidden])").waitFor();
      const tables = await page.locator("[data-testid=status-hot-table]").evaluateAll((bs) => bs.map((b) => [b.dataset.table, b.checked]));
      assert.deepEqual(tables.map((t) => t[0]).sort(), ["live.big", "live.hot"]);
      assert.ok(tables.every((t) => !t[1]));
      assert.doesNotMatch(await page.locator("[data-testid=status-scenario]").textContent(), /a hot set of 965 pages/);
      // Tick the hot table: read again, with the hot set pinned to its leaf pages.
      await page.evaluate(() => (document.querySelector("[data-testid=status-panel]").dataset.read = ""));
      await page.check("[data-testid=status-hot-table][data-table='live.hot']");
      await done(page);
      assert.match(await page.locator("[data-testid=status-scenario]").textContent(), /a hot set of 965 pages/);
      assert.ok(await page.locator("[data-testid=status-hot-table][data-table='live.hot']").isChecked());
      // Leak risk: the fit's table shows the hot set pinned from the tables (not fitted).
      await page.click("[data-testid=status-risk-run]");
      const fit = page.locator("[data-testid=status-fit][data-hot-pinned='1']");
      await fit.waitFor({ timeout: 240_000 });
      assert.equal(await fit.getAttribute("data-hot-pages"), "965");
      const notes = await page.locator("[data-testid=status-fit-notes]").textContent();
      assert.match(notes, /a hot set of 965 pages, pinned from the per-table residency/);
      assert.match(notes, /The hot set is pinned: the tables you marked hot \(live\.hot: 965 leaf pages/);
      // Yours is the global status's exact hit rate (46.21 %), not the status's 461 / 1000.
      assert.match(await fit.locator("tr[data-figure='hit rate']").textContent(), /46\.21 %/);
      await page.click("[data-testid=status-risk-cancel]");
      assert.deepEqual(errors, []);
    } finally {
      await page.close();
    }
  });
});

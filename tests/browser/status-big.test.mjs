// Any size on the page: a 16 GiB, 8-instance SHOW ENGINE INNODB STATUS pasted into the lab's
// Your server panel is read, fitted and forecast in the panel's worker (one instance's share of
// the pool simulated, as the fit does), and "Run it in the lab" opens the lab at 16 GiB in 8
// instances with no cap message. Waits on the panel's own signals (data-read, data-risk) and
// the lab's figure root (data-pool-mb, data-instances, data-simulated-frames), never a sleep.
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, test } from "node:test";
import { useBrowser, openPage, pageReady } from "./helpers.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
const fixtures = path.join(here, "..", "..", "crates", "status", "tests", "fixtures", "status");
const shared = useBrowser();
const PAGE = "/www/lab.html";
const panelData = (page, key) =>
  page.evaluate((k) => document.querySelector("[data-testid=status-panel]").dataset[k], key);

describe("Your server at 16 GiB in 8 instances", () => {
  test("read, forecast in the page within 300 s, then the lab at 16 GiB in 8 instances without a cap", async () => {
    const { page, errors } = await openPage(shared.browser, PAGE, { viewport: { width: 1366, height: 900 } });
    const status = await readFile(path.join(fixtures, "mysql-8.0-16g-8-instances.txt"), "utf8");
    await page.waitForFunction(() => document.querySelector("[data-testid=status-panel]")?.dataset.ready === "1", null, {
      timeout: 15_000,
    });
    await page.fill("[data-testid=status-paste]", status);
    await page.click("[data-testid=status-read]");
    await page.waitForFunction(() => document.querySelector("[data-testid=status-panel]").dataset.read === "done", null, {
      timeout: 120_000,
    });
    const value = (name) => page.textContent(`[data-testid=status-table] tr[data-name=${name}] td`);
    assert.match(await value("pool_pages"), /^1,?048,?448$/);
    assert.match(await value("instances"), /^8$/);

    await page.click("[data-testid=status-risk-run]");
    // The forecast: running, then done (never refused), on the panel's published signal.
    await page.waitForFunction(
      () => ["done", "refused"].includes(document.querySelector("[data-testid=status-panel]").dataset.risk),
      null,
      { timeout: 300_000 },
    );
    const headline = await page.textContent("[data-testid=status-risk-headline]");
    assert.equal(await panelData(page, "risk"), "done", headline);
    assert.doesNotMatch(headline, /cannot forecast/);
    assert.match(
      headline,
      /^Your pool as read, 1,048,448 pages in 8 instances, simulated as one instance's share of 131,056 pages, fitted to your counters: /,
    );
    // Every row of the table, each a kept figure; the fit's table beside the server's.
    const rows = await page.$$eval("[data-testid=status-risk-table] tbody tr", (trs) =>
      trs.map((tr) => [tr.dataset.row, ...[...tr.children].map((c) => c.textContent)]),
    );
    assert.equal(rows[0][0], "as read");
    assert.ok(rows.length >= 3, JSON.stringify(rows));
    for (const r of rows.filter((r) => r[0] !== "yours")) assert.match(r[2], /^\d+\.\d/, r.join(" | "));
    const fit = await page.$$eval("[data-testid=status-fit] tbody tr", (trs) => trs.map((tr) => tr.dataset.figure));
    assert.deepEqual(fit, ["hit rate", "reads/s", "youngs/s", "non-youngs/s"]);
    console.log(`# ${await page.textContent("[data-testid=status-risk-message]")}`);

    // Run it in the lab: 16 GiB in 8 instances, no message about a cap, one instance's share run.
    await Promise.all([page.waitForNavigation(), page.click("[data-testid=status-run]")]);
    await pageReady(page);
    const q = new URLSearchParams(await page.evaluate(() => location.search));
    // The pool as read: its 1,048,448 pages exactly, in the 16,382 MiB that hold them (16 GiB
    // less the chunks' descriptors), in 8 instances.
    assert.equal(q.get("pool_pages"), "1048448");
    assert.equal(q.get("pool_mb"), "16382");
    assert.equal(q.get("buffer_pool_instances"), "8");
    await page.waitForFunction(() => document.querySelector("[data-testid=midpoint-widget][data-simulated-frames]"), null, {
      timeout: 60_000,
    });
    const root = await page.$eval("[data-testid=midpoint-widget]", (r) => ({ ...r.dataset }));
    assert.equal(root.poolMb, "16382");
    assert.equal(root.instances, "8");
    assert.equal(root.simulatedFrames, "131056");
    assert.ok(root.notes === undefined || root.notes === "0", `notes: ${root.notes}`);
    const notes = await page.$$eval("[data-testid=midpoint-widget] li", (lis) => lis.map((l) => l.textContent));
    assert.equal(notes.filter((n) => /at most|cap|using 1024|one buffer pool instance/.test(n)).length, 0, notes.join("\n"));
    // 131,056 frames: the grid is a summary, two frames a cell, and says so.
    const grid = await page.$eval("[data-testid=pool-grid]", (c) => ({ k: c.dataset.perCell, label: c.getAttribute("aria-label") }));
    assert.equal(grid.k, "2");
    assert.match(grid.label, /summarised: each cell stands for 2 consecutive frames/);
    const label = (key) => page.getAttribute(`input[data-key="${key}"]`, "aria-valuetext");
    assert.match(await label("pool_mb"), /^16,382 MiB \(1,048,448 frames; 131,056 simulated\)/);
    assert.match(await label("buffer_pool_instances"), /^8\b/);
    assert.deepEqual(errors, []);
    await page.close();
  });
});

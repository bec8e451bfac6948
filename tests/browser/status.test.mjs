// The lab's "Your server" panel in headless Chromium: paste a real MariaDB 10.11 status and its
// variables, see the table of what was read (with lines and assumed values), run it and see the
// lab set up with the read pool size and depth; bad pastes give a message; axe-core finds no
// serious violation. Screenshots for docs/your-server.md with MIDPOINT_SHOTS=1.
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, test } from "node:test";
import { useBrowser, pageReady, openPage } from "./helpers.mjs";

const require = createRequire(import.meta.url);
const here = path.dirname(fileURLToPath(import.meta.url));
const fixtures = path.join(here, "..", "fixtures", "status");
const docs = path.join(here, "..", "..", "docs");
const shared = useBrowser();
const PAGE = "/www/lab.html";

async function axe(page) {
  await page.addScriptTag({ content: await readFile(require.resolve("axe-core/axe.min.js"), "utf8") });
  const res = await page.evaluate(() =>
    window.axe.run(document.querySelector("[data-testid=status-panel]"), { resultTypes: ["violations"] }),
  );
  return res.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(" ")).slice(0, 3).join(", ")}`);
}

async function panelReady(page) {
  await page.waitForFunction(() => document.querySelector("[data-testid=status-panel]")?.dataset.ready === "1", null, {
    timeout: 15_000,
  });
}

describe("Your server panel", () => {
  test("paste, read, run: the lab gets the read pool and depth", async () => {
    for (const viewport of [{ width: 1366, height: 768 }, { width: 390, height: 844 }]) {
      const { page, errors } = await openPage(shared.browser, PAGE, { viewport });
      await panelReady(page);
      const status = await readFile(path.join(fixtures, "mariadb-10.11-status-G.txt"), "utf8");
      const vars = await readFile(path.join(fixtures, "mariadb-10.11-vars-table.txt"), "utf8");
      // The page says nothing leaves the browser.
      const priv = await page.textContent("[data-testid=status-private]");
      assert.match(priv, /Nothing you paste leaves\s+this browser/);
      await page.fill("[data-testid=status-paste]", `${status}\n${vars}`);
      await page.fill("[data-testid=status-hot]", "300");
      await page.click("[data-testid=status-read]");
      await page.waitForSelector("[data-testid=status-table]");
      const row = (name) =>
        page.$$eval(`[data-testid=status-table] tr[data-name="${name}"] td`, (tds) => tds.map((t) => t.textContent));
      const sizeLine = status.split("\n").findIndex((l) => l.startsWith("Buffer pool size")) + 1;
      assert.deepEqual((await row("pool_pages")).slice(0, 3), ["1,014", String(sizeLine), "Buffer pool size   1014"]);
      assert.equal((await row("innodb_lru_scan_depth"))[0], "1,536");
      assert.equal((await row("innodb_buffer_pool_size"))[0], "16,777,216");
      // Assumed values are marked as such.
      const assumed = await page.$$eval("[data-testid=status-table] tr[data-assumed]", (trs) =>
        trs.map((t) => t.dataset.name),
      );
      assert.ok(assumed.includes("scan_table_mb"), assumed.join());
      assert.ok(!assumed.includes("hot_pages"), "the hot set was given");
      assert.ok(!assumed.includes("innodb_lru_scan_depth"), "the depth was pasted");
      assert.match(await page.textContent("[data-testid=status-scenario]"), /16 MiB pool/);
      assert.deepEqual(await axe(page), []);
      if (process.env.MIDPOINT_SHOTS && viewport.width === 1366) {
        const panel = await page.$("[data-testid=status-panel]");
        await panel.scrollIntoViewIfNeeded();
        await panel.screenshot({ path: path.join(docs, "your-server.png") });
      }
      if (process.env.MIDPOINT_SHOTS && viewport.width === 390) {
        const panel = await page.$("[data-testid=status-panel]");
        await panel.screenshot({ path: path.join(docs, "your-server-phone.png") });
      }
      // Run it: the lab at the scenario's address, with the read pool size and depth.
      await Promise.all([page.waitForNavigation(), page.click("[data-testid=status-run]")]);
      await pageReady(page);
      const q = new URLSearchParams(await page.evaluate(() => location.search));
      assert.equal(q.get("pool_mb"), "16");
      assert.equal(q.get("lru_scan_depth"), "1536");
      assert.equal(q.get("engine"), "mariadb-10.11");
      assert.equal(q.get("hot_pages"), "300");
      assert.ok(!(await page.evaluate(() => location.href)).includes("Buffer"), "the paste is not in the address");
      const label = (key) => page.getAttribute(`input[data-key="${key}"]`, "aria-valuetext");
      assert.match(await label("pool_mb"), /\b16\b/);
      assert.match(await label("lru_scan_depth"), /1,?536/);
      assert.deepEqual(errors, []);
      await page.close();
    }
  });

  test("bad pastes: a message, no table, no run", async () => {
    const { page, errors } = await openPage(shared.browser, PAGE);
    await panelReady(page);
    const msg = () => page.textContent("[data-testid=status-message]");
    for (const [text, want] of [
      ["", /no buffer pool section found/],
      ["the quick brown fox", /no buffer pool section found/],
      ["Buffer pool size 10\nFree buffers -2\n", /line 2.*negative/],
      ["Buffer pool size 999999999999999999999999\n", /line 1.*64-bit/],
    ]) {
      await page.fill("[data-testid=status-paste]", text);
      await page.click("[data-testid=status-read]");
      assert.match(await msg(), want);
      assert.equal(await page.$("[data-testid=status-table]"), null);
      assert.equal(await page.isDisabled("[data-testid=status-run]"), true);
    }
    // A 5 MB paste ends with an answer.
    await page.evaluate(() => {
      document.querySelector("[data-testid=status-paste]").value = "---TRANSACTION 1, not started\n".repeat(180_000) + "Buffer pool size 8191\n";
    });
    await page.click("[data-testid=status-read]");
    assert.match(await msg(), /^Read 1 value/);
    await page.fill("[data-testid=status-hot]", "-3");
    await page.click("[data-testid=status-read]");
    assert.match(await msg(), /hot set is a whole number/);
    assert.deepEqual(errors, []);
    await page.close();
  });
});

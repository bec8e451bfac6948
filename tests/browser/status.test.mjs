// The lab's "Your server" panel in headless Chromium: paste a real MariaDB 10.11 status and its
// variables, see the table of what was read (with lines and assumed values), run it and see the
// lab set up with the read pool size and depth; press "Leak risk" and see the table of runs
// (kept with its range over the seeds, the model's youngs/s beside the pasted), the advice, a
// main thread that stays free while the worker runs, and a run stopped by a changed paste; bad
// pastes give a message; axe-core finds no serious violation. Screenshots for
// docs/your-server.md with MIDPOINT_SHOTS=1.
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, test } from "node:test";
import { useBrowser, pageReady, openPage } from "./helpers.mjs";

const require = createRequire(import.meta.url);
const here = path.dirname(fileURLToPath(import.meta.url));
const fixtures = path.join(here, "..", "..", "crates", "status", "tests", "fixtures", "status");
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

/** Press Read and wait for the page's own signal that it answered (the reading runs in the
 *  panel's worker: the press returns at once). */
async function readIt(page) {
  await page.click("[data-testid=status-read]");
  await page.waitForFunction(() => document.querySelector("[data-testid=status-panel]").dataset.read === "done", null, {
    // A 5 MB paste: a fraction of a second idle, many seconds on a loaded machine.
    timeout: 300_000,
  });
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
      // Every value and its line are on screen without sideways scrolling (on a phone the rows
      // stack: in four columns they were right of the names, out of the box).
      const off = await page.$$eval("[data-testid=status-table] tbody tr", (trs) =>
        trs
          .flatMap((tr) => [...tr.querySelectorAll("td")].slice(0, 2))
          .filter((td) => td.getBoundingClientRect().right > td.closest(".mp-status-scroll").getBoundingClientRect().right + 1)
          .map((td) => `${td.parentElement.dataset.name}: ${td.textContent}`),
      );
      assert.deepEqual(off, [], `${viewport.width}px: cells right of the box`);
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

  test("leak risk: the runs in a worker, the table, the advice, youngs/s beside the pasted", async () => {
    // One run (its rows do not depend on the screen), read on a laptop's screen, then the same
    // panel on a phone's: the table, the advice and their accessibility at both widths.
    const viewport = { width: 1366, height: 768 };
    const { page, errors } = await openPage(shared.browser, PAGE, { viewport });
    await panelReady(page);
    const status = await readFile(path.join(fixtures, "mariadb-10.11-status-G.txt"), "utf8");
    const vars = await readFile(path.join(fixtures, "mariadb-10.11-vars-table.txt"), "utf8");
    await page.fill("[data-testid=status-paste]", `${status}\n${vars}`);
    await page.fill("[data-testid=status-hot]", "300");
    assert.equal(await page.isDisabled("[data-testid=status-risk-run]"), true, "nothing read yet");
    await page.click("[data-testid=status-read]");
    await page.waitForSelector("[data-testid=status-table] tr[data-name=pool_pages]");
    // While the runs go on in the worker, the main thread answers: the longest gap between
    // animation frames stays short (the figure is printed; the assertion is that a frame comes
    // at all between progress messages, not a time).
    await page.evaluate(() => {
      window.__gaps = [];
      let last = performance.now();
      const tick = (t) => {
        window.__gaps.push(t - last);
        last = t;
        if (document.querySelector("[data-testid=status-panel]").dataset.risk !== "done") requestAnimationFrame(tick);
      };
      requestAnimationFrame(tick);
    });
    await page.click("[data-testid=status-risk-run]");
    await page.waitForSelector("[data-testid=status-risk-progress]");
    await page.waitForFunction(() => document.querySelector("[data-testid=status-panel]").dataset.risk === "done", null, {
      // 25 runs of a 16 MiB pool: seconds on an idle machine, minutes on a loaded one.
      timeout: 600_000,
    });
    const gaps = await page.evaluate(() => window.__gaps);
    console.log(`# ${gaps.length} frames during the runs, longest gap ${Math.max(...gaps).toFixed(0)} ms`);
    assert.ok(gaps.length > 5, `the main thread drew ${gaps.length} frames while the worker ran`);
    const rows = await page.$$eval("[data-testid=status-risk-table] tbody tr", (trs) =>
      trs.map((tr) => ({ row: tr.dataset.row, cells: [...tr.children].map((c) => c.textContent) })),
    );
    const labels = rows.map((r) => r.row);
    assert.equal(labels[0], "as read");
    assert.ok(labels.includes("innodb_lru_scan_depth 384"), labels.join());
    assert.ok(labels.includes("innodb_old_blocks_time 0"), labels.join());
    assert.ok(labels.includes("a 1 s pause between scan passes"), labels.join());
    assert.equal(labels.at(-1), "yours");
    const head = await page.$$eval("[data-testid=status-risk-table] thead th", (ths) => ths.map((t) => t.textContent));
    const col = (name) => head.indexOf(name);
    assert.ok(col("kept %") > 0 && col("leak/refill") > 0 && col("youngs/s") > 0, head.join());
    // Kept: the median and its range over the runs (this small pool gets several).
    const note = await page.textContent("[data-testid=status-risk-notes]");
    const runs = Number(/^(\d+) runs of each row/.exec(note)?.[1]);
    assert.ok(runs >= 3, note);
    for (const r of rows.slice(0, -1)) {
      const m = /^(\d+\.\d) \((\d+\.\d)-(\d+\.\d)\)$/.exec(r.cells[col("kept %")]);
      assert.ok(m, `${r.row}: ${r.cells[col("kept %")]}`);
      const [med, lo, hi] = m.slice(1).map(Number);
      assert.ok(lo <= med && med <= hi, r.cells.join(" | "));
      assert.match(r.cells[col("leak/refill")], /^(\d+\.\d\d|-)$/);
    }
    // The pasted youngs/s (0.00 youngs/s, 0.00 non-youngs/s) beside the model's.
    const yours = rows.at(-1).cells;
    assert.equal(yours[col("youngs/s")], "0.00");
    assert.equal(yours[col("non-youngs/s")], "0.00");
    assert.match(rows[0].cells[col("youngs/s")], /^\d+\.\d$/);
    const advice = await page.textContent("[data-testid=status-advice]");
    assert.match(advice, /^As read, the model keeps \d+\.\d % \(\d+\.\d-\d+\.\d % over \d+ runs\) of your hot set/);
    assert.match(advice, /(keeps the most|none of the changes tried)/);
    assert.match(await page.textContent("[data-testid=status-risk-message]"), /^Leak risk: 5 rows, \d+ runs each/);
    for (const [vp, name] of [
      [viewport, "your-server-risk.png"],
      [{ width: 390, height: 844 }, "your-server-risk-phone.png"],
    ]) {
      await page.setViewportSize(vp);
      const table = await page.$("[data-testid=status-risk-table]");
      await table.scrollIntoViewIfNeeded();
      const box = await table.boundingBox();
      assert.ok(box.width > 0 && box.height > 0, `${vp.width}px: the table is shown`);
      assert.deepEqual(await axe(page), [], `${vp.width}px`);
      if (process.env.MIDPOINT_SHOTS) {
        const panel = await page.$("[data-testid=status-panel]");
        await panel.scrollIntoViewIfNeeded();
        await panel.screenshot({ path: path.join(docs, name) });
      }
    }
    // A new run, stopped by a change to the paste: no table, a message, the button off.
    await page.click("[data-testid=status-risk-run]");
    await page.waitForSelector("[data-testid=status-risk-progress]");
    await page.type("[data-testid=status-paste]", " ");
    assert.match(await page.textContent("[data-testid=status-risk-message]"), /paste changed: the leak risk runs were stopped/);
    assert.equal(await page.$("[data-testid=status-risk-table]"), null);
    assert.equal(await page.isDisabled("[data-testid=status-risk-run]"), true);
    assert.equal(await page.evaluate(() => document.querySelector("[data-testid=status-panel]").dataset.risk), undefined);
    assert.deepEqual(errors, []);
    await page.close();
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
      await readIt(page);
      assert.match(await msg(), want);
      assert.equal(await page.$("[data-testid=status-table]"), null);
      assert.equal(await page.isDisabled("[data-testid=status-run]"), true);
      assert.equal(await page.isDisabled("[data-testid=status-risk-run]"), true);
    }
    // A 5 MB paste (a status with 180,000 transactions, its buffer pool line last), pasted as a
    // user does: the box shows its first lines only (laying out 5 MB of text would take the tab
    // seconds), says so, and Read reads all of it, in the worker.
    await page.evaluate(() => {
      const dt = new DataTransfer();
      dt.setData("text/plain", "---TRANSACTION 1, not started\n".repeat(180_000) + "Buffer pool size 8191\n");
      const box = document.querySelector("[data-testid=status-paste]");
      box.focus();
      box.dispatchEvent(new ClipboardEvent("paste", { clipboardData: dt, bubbles: true, cancelable: true }));
    });
    const shownLines = await page.$eval("[data-testid=status-paste]", (t) => t.value.split("\n").length - 1);
    assert.ok(shownLines > 0 && shownLines <= 400, `the box shows ${shownLines} lines`);
    assert.match(await page.textContent("[data-testid=status-paste-note]"), /^Pasted 5\.1 MB, 180,001 lines: too long to show whole/);
    await readIt(page);
    assert.match(await msg(), /^Read 1 value/);
    assert.equal((await page.$$eval("[data-testid=status-table] tr[data-name=pool_pages] td", (tds) => tds.map((t) => t.textContent)))[1], "180001");
    await page.fill("[data-testid=status-hot]", "-3");
    await readIt(page);
    assert.match(await msg(), /hot set is a whole number/);
    // Typing in the box keeps only what it shows: the buffer pool line is gone with the rest.
    await page.fill("[data-testid=status-hot]", "");
    await page.type("[data-testid=status-paste]", " ");
    assert.equal(await page.isHidden("[data-testid=status-paste-note]"), true);
    await readIt(page);
    assert.match(await msg(), /no buffer pool section found/);
    assert.deepEqual(errors, []);
    await page.close();
  });
});

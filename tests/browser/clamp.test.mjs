// A value inside a parameter's declared range but beyond what the model reaches is clamped to
// the model's cap with a note, and every figure still starts: idle_scan_pages_per_s above the
// modelled storage's fastest rate (declared 0-1,000,000; small-demo's storage reaches 48,453
// pages/s) once broke every figure ("Cannot read properties of undefined
// (reading 'strip_resize')"). Read from what the page publishes: the figure's data-address (the
// parameters it runs), data-notes (the notes shown) and the notes' text; every wait is on a
// published signal (data-midpoint-ready, the frame loop's idle state), never a fixed time.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { openPage, pageReady, useBrowser } from "./helpers.mjs";

const KEY = "idle_scan_pages_per_s";
const idle = (page) => page.waitForFunction(() => window.__midpoint.debug().idle, null, { timeout: 90_000, polling: 100 });

/** The figure's published state: the value it runs for KEY, its notes' count and text, and
 *  whether it failed to start. */
function published(page) {
  return page.evaluate((key) => {
    const root = document.querySelector('[data-testid="midpoint-widget"]');
    const address = new URLSearchParams(root?.dataset.address ?? "");
    return {
      value: address.has(key) ? Number(address.get(key)) : null,
      notes: Number(root?.dataset.notes ?? 0),
      noteText: [...(root?.querySelectorAll(".mp-notes li") ?? [])].map((li) => li.textContent),
      alert: root?.querySelector(".mp-alert:not([hidden])")?.textContent ?? "",
      dead: root?.classList.contains("mp-dead") ?? true,
    };
  }, KEY);
}

/** The cap a note names: "… using N" at its end. */
function usedIn(note) {
  const m = /faster than the modelled storage allows .*; using (\d+)$/.exec(note);
  return m ? Number(m[1]) : null;
}

describe("a value past the model's cap", () => {
  const shared = useBrowser();

  test("from the URL: clamped to the storage's fastest rate, with a note, and the figures run", async (t) => {
    const { page, errors } = await openPage(
      shared.browser,
      `/www/lab.html?preset=small-demo&warmup_s=5&scan_s=20&autoplay=0&${KEY}=1000000`,
    );
    try {
      await pageReady(page);
      await idle(page);
      const s = await published(page);
      assert.equal(s.alert, "", "the figure did not start");
      assert.equal(s.dead, false);
      assert.ok(s.notes >= 1, `no note published: ${JSON.stringify(s)}`);
      const note = s.noteText.find((t) => t.startsWith(`${KEY} = 1000000: faster than`));
      assert.ok(note, `no clamp note: ${JSON.stringify(s.noteText)}`);
      const cap = usedIn(note);
      // The cap is the model's (48,453 pages/s at small-demo's latencies), below the value asked
      // for, and it is the value the figure runs.
      assert.ok(cap > 10_000 && cap < 1_000_000, `cap ${cap}`);
      assert.equal(s.value, cap, `the figure runs ${s.value}, the note says ${cap}`);
      t.diagnostic(`${KEY}=1000000 runs as ${s.value}: ${note}`);
      // The run's rates come from the clamped parameters (the run starts and ends).
      await page.waitForFunction(
        () => /scan pages\/s/.test(document.querySelector('[data-testid="run-rates"]')?.textContent ?? ""),
        null,
        { timeout: 90_000 },
      );
      assert.deepEqual(errors, []);
    } finally {
      await page.close();
    }
  });

  test("from the slider: its last stop past a slower storage's cap is clamped, with a note", async (t) => {
    // A page transfer of 100 µs caps the storage near 10,000 pages/s: the slider's last stop
    // (100,000) is beyond it.
    const { page, errors } = await openPage(
      shared.browser,
      "/www/lab.html?preset=small-demo&warmup_s=5&scan_s=20&autoplay=0&page_transfer_us=100",
    );
    try {
      await pageReady(page);
      await idle(page);
      const before = await published(page);
      assert.equal(before.notes, 0, `notes before the move: ${JSON.stringify(before.noteText)}`);
      const input = page.locator(`input[data-key="${KEY}"]`).first();
      await input.focus();
      await page.keyboard.press("End");
      await page.waitForFunction(
        () => Number(document.querySelector('[data-testid="midpoint-widget"]')?.dataset.notes ?? 0) > 0,
        null,
        { timeout: 15_000 },
      );
      await idle(page);
      const s = await published(page);
      assert.equal(s.alert, "", "the figure did not restart");
      const note = s.noteText.find((t) => t.startsWith(`${KEY} = 100000: faster than`));
      assert.ok(note, `no clamp note: ${JSON.stringify(s.noteText)}`);
      const cap = usedIn(note);
      assert.ok(cap > 1_000 && cap < 100_000, `cap ${cap}`);
      assert.equal(s.value, cap, `the figure runs ${s.value}, the note says ${cap}`);
      t.diagnostic(`the slider's last stop runs as ${s.value}: ${note}`);
      assert.deepEqual(errors, []);
    } finally {
      await page.close();
    }
  });
});

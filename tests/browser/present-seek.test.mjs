// The presentation's beats are seeks, not prepared moments: five → pressed back to back right
// after beat 1 is drawn reach beat 6, and what is drawn then is beat 6's moment (the same
// events as a fresh explorer of its preset sought there); ?tour=6 opens drawn at it too. Tests
// wait for data-seeking to clear and time nothing (scripts/bench-present.sh prints the
// latencies).
import assert from "node:assert/strict";
import { test } from "node:test";
import { openPage, pageReady, useBrowser } from "./helpers.mjs";

const shared = useBrowser();
const W = "[data-testid=midpoint-widget]";

/** Waits until beat `n` is drawn at its moment (data-tour n, data-seeking absent). */
function beatDrawn(page, n) {
  return page.waitForFunction(
    ([s, n]) => {
      const r = document.querySelector(s);
      return r.dataset.tour === String(n) && !r.dataset.seeking;
    },
    [W, n],
    { timeout: 60_000, polling: 50 },
  );
}

/** Beat `n`'s moment, from a fresh explorer of its preset that nobody sees, and what the
 *  presentation draws now: its event count, time and heading. */
function moments(page, n) {
  return page.evaluate(
    async ([s, n]) => {
      const mp = await import("../pkg/midpoint.js");
      const step = mp.tour_steps()[n - 1];
      const p = new mp.Page(`preset=${step.preset}`);
      const hx = new mp.Explorer(p.params());
      p.free();
      if (step.action === "time") hx.seek_time(step.t_s);
      else hx.next_batch();
      for (let i = 0; i < 10_000 && hx.status().mode !== "paused"; i++) hx.frame(performance.now());
      const want = { events: hx.events(), t: hx.t_s(), title: step.title };
      hx.free();
      const r = document.querySelector(s);
      const d = window.__midpoint.debug();
      return {
        want,
        got: { events: d.events, t: d.t_s, title: r.querySelector(".mp-tour-h").textContent },
        shown: Number(r.dataset.event),
        mode: r.dataset.mode,
      };
    },
    [W, n],
  );
}

test("five → pressed at once after beat 1 reach beat 6, drawn at its moment", async () => {
  const { page, errors } = await openPage(shared.browser, "/www/lab.html?view=present", { viewport: { width: 1366, height: 768 } });
  try {
    await pageReady(page);
    await beatDrawn(page, 1);
    for (let i = 0; i < 5; i++) await page.keyboard.press("ArrowRight");
    await beatDrawn(page, 6);
    const m = await moments(page, 6);
    assert.equal(m.got.title, m.want.title);
    assert.equal(m.mode, "paused");
    assert.equal(m.got.events, m.want.events, "beat 6 is drawn at its moment");
    assert.equal(m.shown, m.want.events, "the figure publishes the moment it drew");
    assert.ok(Math.abs(m.got.t - m.want.t) < 1e-9, `${m.got.t} vs ${m.want.t}`);
    assert.deepEqual(errors, []);
  } finally {
    await page.close();
  }
});

test("?view=present&tour=6 opens drawn at beat 6's moment", async () => {
  const { page, errors } = await openPage(shared.browser, "/www/lab.html?view=present&tour=6", { viewport: { width: 1366, height: 768 } });
  try {
    await pageReady(page);
    await beatDrawn(page, 6);
    const m = await moments(page, 6);
    assert.equal(m.got.title, m.want.title);
    assert.equal(m.got.events, m.want.events);
    assert.equal(m.shown, m.want.events);
    assert.deepEqual(errors, []);
  } finally {
    await page.close();
  }
});

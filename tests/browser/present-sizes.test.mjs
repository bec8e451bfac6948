// The presentation (lab.html?view=present) read from the back of a room at every size a teacher
// projects: 1024x768, 1280x720, 1366x768, 1920x1080 and windows with browser chrome (1366x657,
// 1280x609), in a window and in full screen (F). In every beat, and at the end of beat 4's
// drain, no line of text is under another element or cut by its box (elementFromPoint over each
// line's boxes), nothing leaves the viewport, and the close-up is drawn; below the smallest
// size (800x600) the page says it needs more room. Tests wait on data-tour/data-seeking and the
// widget's data-mode, never on time.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { openPage, pageReady, useBrowser } from "./helpers.mjs";

const shared = useBrowser();
const W = "[data-testid=midpoint-widget]";

function beatDrawn(page, n) {
  return page.waitForFunction(([s, n]) => {
    const r = document.querySelector(s);
    return r.dataset.tour === String(n) && !r.dataset.seeking;
  }, [W, n], { timeout: 60_000, polling: 50 });
}

/** Every visible line of text in the presentation that is covered, cut or off the screen. */
function faults(page) {
  return page.evaluate((s) => {
    const root = document.querySelector(s);
    const vw = document.documentElement.clientWidth;
    const vh = window.innerHeight;
    const out = [];
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let n = walker.nextNode(); n; n = walker.nextNode()) {
      if (!n.textContent.trim()) continue;
      const e = n.parentElement;
      if (e.closest("select, option, [hidden], .mp-sr, .mp-visually-hidden")) continue;
      const cs = getComputedStyle(e);
      if (cs.visibility === "hidden" || cs.opacity === "0") continue;
      const range = document.createRange();
      range.selectNodeContents(n);
      for (const r of range.getClientRects()) {
        if (r.width < 2 || r.height < 2) continue;
        // A screen reader's text, clipped to 1 px on purpose.
        if (e.getBoundingClientRect().width <= 1) continue;
        const what = `"${n.textContent.trim().slice(0, 40)}"`;
        if (r.left < -1 || r.top < -1 || r.right > vw + 1 || r.bottom > vh + 1) {
          out.push(`${what} off the screen at ${Math.round(r.left)},${Math.round(r.top)}-${Math.round(r.right)},${Math.round(r.bottom)}`);
          continue;
        }
        const y = r.top + r.height / 2;
        for (const x of [r.left + 2, r.left + r.width / 2, r.right - 2]) {
          const hit = document.elementFromPoint(x, y);
          if (!hit || !(e === hit || e.contains(hit) || hit.contains(e))) {
            out.push(`${what} under ${hit ? hit.tagName.toLowerCase() + (hit.className ? "." + String(hit.className).split(" ").join(".") : "") : "nothing"} at ${Math.round(x)},${Math.round(y)}`);
            break;
          }
        }
      }
    }
    const c = root.querySelector("[data-testid=boundary-strip]");
    const cr = c?.getBoundingClientRect();
    return {
      lines: out,
      scroll: [document.documentElement.scrollHeight - vh, document.documentElement.scrollWidth - vw],
      inner: document.fullscreenElement ? document.fullscreenElement.scrollHeight - document.fullscreenElement.clientHeight : 0,
      canvas: cr ? Math.round(cr.height) : 0,
      tight: root.dataset.tight ?? null,
    };
  }, W);
}

function check(m, at) {
  assert.deepEqual(m.lines, [], `${at}: text covered or cut`);
  assert.ok(m.scroll[0] <= 1 && m.scroll[1] <= 1, `${at}: the page scrolls by ${m.scroll}`);
  assert.ok(m.inner <= 1, `${at}: full screen scrolls inside by ${m.inner} px`);
  assert.ok(m.canvas >= 150, `${at}: the close-up is ${m.canvas} px tall`);
}

/** Beats 1-6 by → from load; beat 4 also once its drain has run to its end. */
async function walk(page, at) {
  for (let beat = 1; beat <= 6; beat++) {
    if (beat > 1) await page.keyboard.press("ArrowRight");
    await beatDrawn(page, beat);
    if (beat === 4) {
      // Beat 4 plays its refill and drain: read its text once the drain's end is reached.
      await page.waitForFunction((s) => {
        const r = document.querySelector(s);
        return r.dataset.mode === "paused" && !r.dataset.predict;
      }, W, { timeout: 60_000, polling: 50 });
    }
    check(await faults(page), `${at}, beat ${beat}`);
  }
}

describe("the presentation is readable at every size", () => {
  for (const [width, height] of [
    [1024, 768],
    [1280, 720],
    [1366, 768],
    [1920, 1080],
    [1366, 657],
    [1280, 609],
  ]) {
    test(`${width}x${height}: no text covered or off the screen, in every beat`, async () => {
      const { page, errors } = await openPage(shared.browser, "/www/lab.html?view=present", { viewport: { width, height } });
      try {
        await pageReady(page);
        await walk(page, `${width}x${height}`);
        assert.deepEqual(errors, []);
      } finally {
        await page.close();
      }
    });
  }

  test("full screen (F) at 1366x768: no inner scroll, the Speed menu whole, no text covered", async () => {
    const { page, errors } = await openPage(shared.browser, "/www/lab.html?view=present", { viewport: { width: 1366, height: 768 } });
    try {
      await pageReady(page);
      await beatDrawn(page, 1);
      await page.keyboard.press("f");
      await page.waitForFunction(() => !!document.fullscreenElement, null, { timeout: 10_000 });
      await walk(page, "full screen");
      const speed = await page.evaluate(() => {
        const e = document.querySelector(".mp-speed");
        const r = e.getBoundingClientRect();
        return r.bottom <= window.innerHeight + 1 && r.height > 0;
      });
      assert.ok(speed, "the Speed menu is on the screen");
      assert.deepEqual(errors, []);
    } finally {
      await page.close();
    }
  });

  test("800x600: the page says it needs more room instead of an empty close-up", async () => {
    const { page } = await openPage(shared.browser, "/www/lab.html?view=present", { viewport: { width: 800, height: 600 } });
    try {
      await pageReady(page);
      await beatDrawn(page, 1);
      const m = await page.evaluate(() => {
        const e = document.querySelector("[data-testid=present-room]");
        const c = document.querySelector("[data-testid=boundary-strip]").getBoundingClientRect();
        return { shown: !!e && e.getBoundingClientRect().height > 0 && !e.closest("[hidden]"), text: e?.textContent ?? "", canvas: c.height };
      });
      assert.ok(m.shown || m.canvas >= 150, `neither a message nor a close-up (canvas ${m.canvas} px)`);
      if (m.shown) assert.match(m.text, /more room|larger window|bigger/i);
    } finally {
      await page.close();
    }
  });
});

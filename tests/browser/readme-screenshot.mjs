// Saves the README's screenshots of the explainer. Not a test:
//   scripts/serve.sh &   (or any server of the repository root)
//   node tests/browser/readme-screenshot.mjs [--dark]
// MIDPOINT_URL sets the server (default http://127.0.0.1:8000). It writes, under docs/:
//   closeup-drain.png   the boundary close-up and the code panel in the middle of a drain;
//   code-adjust-len.png the code panel on a drain step that moves LRU_old (adjust_len);
//   article-phone.png   the article's first screen on a 390×844 phone;
//   embed-strip.png     the strip embedded (embed=1&view=strip) at 390 px, its snippet's 560 px tall.
import path from "node:path";
import { fileURLToPath } from "node:url";
import { atRest, baseUrl, launch } from "./helpers.mjs";
import { shot } from "./shots.mjs";

const dark = process.argv.includes("--dark");
const docs = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../docs");
const colorScheme = dark ? "dark" : "light";
const suffix = dark ? "-dark" : "";
const ready = (page) => page.waitForFunction(() => document.documentElement.dataset.midpointReady === "1");
const atBatch = (page) => page.waitForFunction(() => window.__midpoint.debug()?.after_batch === true, null, { timeout: 60_000, polling: 100 });
/** Presses the Play button (here, to pause) of the figure `sel` selects. */
const pause = (page, sel = "[data-testid=midpoint-widget]") => page.evaluate((s) => document.querySelector(s).querySelector('[data-act="play"]').click(), sel);

const browser = await launch();
try {
  // 1. The close-up mid-drain, paused: watch, then pause half-way through the drain.
  {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 }, colorScheme });
    page.on("pageerror", (e) => console.error("page error:", e.message));
    await page.goto(`${baseUrl}/www/lab.html?view=strip&at=batch`);
    await ready(page);
    await atBatch(page);
    await page.click('[data-testid="watch-refill"]');
    await page.waitForFunction(
      () => {
        const s = window.__midpoint.debug();
        return s.mode === "watching" && / draining\./.test(s.narration) && s.free < 560;
      },
      null,
      { timeout: 60_000, polling: "raf" },
    );
    await pause(page);
    await atRest(page); // the cells settle
    await page.mouse.move(0, 0);
    const out = path.join(docs, `closeup-drain${suffix}.png`);
    await page.locator(".mp-figure").screenshot({ path: out });
    console.log(`wrote ${out}`);
    // 2. Step until an event moves LRU_old toward the tail: the code panel shows adjust_len.
    await page.evaluate(() => {
      const step = document.querySelector('[data-testid="midpoint-widget"] [data-act="step"]');
      for (let i = 0; i < 3000; i++) {
        const before = window.__midpoint.debug().slid_young;
        step.click();
        if (window.__midpoint.debug().slid_young > before) break;
      }
    });
    await atRest(page);
    const out2 = path.join(docs, `code-adjust-len${suffix}.png`);
    await page.locator(".mp-closeup").screenshot({ path: out2 });
    console.log(`wrote ${out2}`);
    await page.close();
  }
  // 3. The article on a phone.
  {
    const page = await browser.newPage({ viewport: { width: 390, height: 844 }, colorScheme, deviceScaleFactor: 2 });
    await page.goto(`${baseUrl}/www/index.html`);
    await ready(page);
    // The first figure plays its refill: caught as the drain turns scan pages young.
    await page.waitForFunction(
      () => {
        const s = document.querySelector("[data-midpoint]").debug?.();
        return s?.mode === "watching" && s.drain_young > 250;
      },
      null,
      { timeout: 60_000, polling: "raf" },
    );
    await pause(page, "[data-midpoint]");
    await atRest(page, "[data-midpoint]");
    const out = path.join(docs, `article-phone${suffix}.png`);
    await page.screenshot({ path: out });
    console.log(`wrote ${out}`);
    await page.close();
  }
  // 4. The strip embedded at 390 px, watching.
  {
    const page = await browser.newPage({ viewport: { width: 390, height: 560 }, colorScheme, deviceScaleFactor: 2 });
    await page.goto(`${baseUrl}/www/index.html?embed=1&view=strip&at=batch`);
    await ready(page);
    await atBatch(page);
    await page.click('[data-testid="watch-refill"]');
    await page.waitForFunction(() => {
      const s = window.__midpoint.debug();
      return / draining\./.test(s.narration) && s.free < 700;
    }, null, { timeout: 60_000, polling: "raf" });
    await pause(page);
    await atRest(page);
    const out = shot(`embed-strip${suffix}.png`);
    await page.screenshot({ path: out, fullPage: true });
    console.log(`wrote ${out}`);
    await page.close();
  }
} finally {
  await browser.close();
}

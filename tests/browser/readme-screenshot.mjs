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
import { baseUrl, launch } from "./helpers.mjs";
import { shot } from "./shots.mjs";

const dark = process.argv.includes("--dark");
const docs = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../../docs");
const colorScheme = dark ? "dark" : "light";
const suffix = dark ? "-dark" : "";
const ready = (page) => page.waitForFunction(() => document.documentElement.dataset.midpointReady === "1");
const atBatch = (page) => page.waitForFunction(() => window.__midpoint.apps[0].status?.after_batch === true, null, { timeout: 60_000 });

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
        const a = window.__midpoint.apps[0];
        const s = a.ex.status();
        return s.mode === "watching" && / draining\./.test(s.narration) && s.free < 560;
      },
      null,
      { timeout: 60_000, polling: "raf" },
    );
    await page.evaluate(() => window.__midpoint.apps[0].act("play")); // pauses
    await page.waitForTimeout(900); // the cells settle
    await page.mouse.move(0, 0);
    const out = path.join(docs, `closeup-drain${suffix}.png`);
    await page.locator(".mp-figure").screenshot({ path: out });
    console.log(`wrote ${out}`);
    // 2. Step until an event moves LRU_old toward the tail: the code panel shows adjust_len.
    await page.evaluate(() => {
      const a = window.__midpoint.apps[0];
      for (let i = 0; i < 3000; i++) {
        const before = a.ex.status().slid_young;
        a.act("step");
        if (a.ex.status().slid_young > before) break;
      }
    });
    await page.waitForTimeout(900);
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
        const a = window.__midpoint.apps.find((x) => x.root === document.querySelector("[data-midpoint]"));
        return a?.status?.mode === "watching" && a.status.drain_young > 250;
      },
      null,
      { timeout: 60_000, polling: "raf" },
    );
    await page.evaluate(() => window.__midpoint.apps.find((x) => x.root === document.querySelector("[data-midpoint]")).act("play"));
    await page.waitForTimeout(1200);
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
      const s = window.__midpoint.apps[0].ex.status();
      return / draining\./.test(s.narration) && s.free < 700;
    }, null, { timeout: 60_000, polling: "raf" });
    await page.evaluate(() => window.__midpoint.apps[0].act("play"));
    await page.waitForTimeout(900);
    const out = shot(`embed-strip${suffix}.png`);
    await page.screenshot({ path: out, fullPage: true });
    console.log(`wrote ${out}`);
    await page.close();
  }
} finally {
  await browser.close();
}

// Saves docs/screenshot-refill.png for the README: the figure in the middle of a drain, right
// after an LRU batch, with the pages the boundary turned young highlighted. Not a test:
//   scripts/serve.sh &   (or any server of the repository root)
//   node tests/browser/readme-screenshot.mjs [--dark] [--out FILE]
// MIDPOINT_URL sets the server (default http://127.0.0.1:8000).
import path from "node:path";
import { fileURLToPath } from "node:url";
import { baseUrl, launch } from "./helpers.mjs";

const args = process.argv.slice(2);
const dark = args.includes("--dark");
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const outArg = args.indexOf("--out");
const out = outArg >= 0 ? args[outArg + 1] : path.join(root, "docs", dark ? "screenshot-refill-dark.png" : "screenshot-refill.png");

const browser = await launch();
try {
  const page = await browser.newPage({ viewport: { width: 1232, height: 1000 }, colorScheme: dark ? "dark" : "light" });
  page.on("pageerror", (e) => console.error("page error:", e.message));
  await page.goto(`${baseUrl}/www/lab.html?autoplay=0`);
  await page.waitForFunction(() => document.documentElement.dataset.midpointReady === "1");
  // The first refill of the scan phase, then its drain in slow motion.
  await page.click('[data-act="watch"]');
  await page.waitForFunction(
    () => {
      const d = window.__midpoint.debug();
      return d.mode === "watching" && d.narration.startsWith("Draining") && d.marked_young >= 420;
    },
    null,
    { timeout: 30_000, polling: "raf" },
  );
  await page.evaluate(() => window.__midpoint.apps[0].act("play")); // pauses, keeping the frame
  await page.waitForFunction(() => window.__midpoint.debug().mode === "paused");
  await page.mouse.move(0, 0);
  const fig = page.locator(".mp-figure");
  await fig.screenshot({ path: out });
  const d = await page.evaluate(() => window.__midpoint.debug());
  console.log(`wrote ${out} at t = ${d.t_s.toFixed(4)} s: free ${d.free}, ${d.marked_young} pages turned young since the batch`);
} finally {
  await browser.close();
}

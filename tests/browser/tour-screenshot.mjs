// Saves tests/browser/artifacts/screenshot-tour.png: the figure at step 4 of the guided tour (a refill, and the
// boundary sliding over the scan's pages). Not a test:
//   scripts/serve.sh &   (or any server of the repository root)
//   node tests/browser/tour-screenshot.mjs [--step N] [--dark] [--out FILE]
// MIDPOINT_URL sets the server (default http://127.0.0.1:8000).
import path from "node:path";
import { fileURLToPath } from "node:url";
import { baseUrl, launch } from "./helpers.mjs";

const args = process.argv.slice(2);
const opt = (name, dflt) => (args.includes(name) ? args[args.indexOf(name) + 1] : dflt);
const dark = args.includes("--dark");
const step = Number(opt("--step", "4"));
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const out = opt("--out", path.join(root, "tests", "browser", "artifacts", "screenshot-tour.png"));

const browser = await launch();
try {
  const page = await browser.newPage({ viewport: { width: 1232, height: 1000 }, colorScheme: dark ? "dark" : "light" });
  page.on("pageerror", (e) => console.error("page error:", e.message));
  await page.goto(`${baseUrl}/www/lab.html?tour=${step}`);
  await page.waitForFunction(() => document.documentElement.dataset.midpointReady === "1");
  await page.waitForFunction(() => window.__midpoint.debug().mode === "paused", null, { timeout: 60_000, polling: 100 });
  await page.mouse.move(0, 0);
  await page.locator(".mp-figure").screenshot({ path: out });
  const d = await page.evaluate(() => window.__midpoint.debug());
  console.log(`wrote ${out}: tour step ${step} at t = ${d.t_s.toFixed(4)} s`);
} finally {
  await browser.close();
}

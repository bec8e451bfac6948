// How busy the paused lab page keeps its main thread. Not a test (a CPU share depends on the
// machine): a measurement behind docs/performance.md ("The paused page").
//   scripts/serve.sh &   (or any server of the repository root)
//   node tests/browser/idle-cpu.mjs [SECONDS]
// Opens www/lab.html?autoplay=0 at 1366×768 and reads Chromium's main-thread task time
// (Performance.getMetrics' TaskDuration and ScriptDuration, over 2-second windows) from the
// page's first frame on, SECONDS in all (default 40). Prints one JSON line:
//   {"first_busy_pct", "paused_busy_pct", "paused_script_pct", "scouted_s"}
// first_*: the windows up to 12 s (the load's runs, the scout's snapshots); paused_*: those from
// 16 s on; each the mean of its windows, in % of one core. scouted_s: when the scout's snapshots
// reached the run's end (null if not within SECONDS).
import { baseUrl, launch } from "./helpers.mjs";

const seconds = Number(process.argv[2] ?? 40);
if (!Number.isFinite(seconds) || seconds < 20) throw new Error(`idle-cpu: SECONDS must be 20 or more, not ${process.argv[2]}`);
const browser = await launch();
try {
  const page = await browser.newPage({ viewport: { width: 1366, height: 768 } });
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("Performance.enable");
  await page.goto(`${baseUrl}/www/lab.html?autoplay=0`);
  await page.waitForFunction(() => document.documentElement.dataset.midpointReady === "1", null, { timeout: 30_000 });
  const metrics = async () => Object.fromEntries((await cdp.send("Performance.getMetrics")).metrics.map((m) => [m.name, m.value]));
  const t0 = Date.now();
  const first = [];
  const paused = [];
  let scouted = null;
  let prev = await metrics();
  let prevAt = Date.now();
  while (Date.now() - t0 < seconds * 1000) {
    // The measurement's window: Chromium's task time is read every 2 s of wall time.
    await new Promise((r) => setTimeout(r, 2000));
    const m = await metrics();
    const now = Date.now();
    const wall = (now - prevAt) / 1000;
    const w = { busy: (100 * (m.TaskDuration - prev.TaskDuration)) / wall, script: (100 * (m.ScriptDuration - prev.ScriptDuration)) / wall };
    const at = (now - t0) / 1000;
    if (at <= 12) first.push(w);
    else if (at >= 16) paused.push(w);
    if (scouted === null && (await page.evaluate(() => window.__midpoint.debug().scouted))) scouted = at;
    prev = m;
    prevAt = now;
  }
  const mean = (xs, k) => Number((xs.reduce((s, x) => s + x[k], 0) / Math.max(1, xs.length)).toFixed(1));
  console.log(
    JSON.stringify({
      first_busy_pct: mean(first, "busy"),
      paused_busy_pct: mean(paused, "busy"),
      paused_script_pct: mean(paused, "script"),
      scouted_s: scouted === null ? null : Number(scouted.toFixed(1)),
    }),
  );
} finally {
  await browser.close();
}

// Shared helpers for the browser end-to-end tests (run with `node --test` by scripts/test.sh).
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { chromium } from "playwright-core";
import { after, before } from "node:test";

/** Root URL of the served repository (scripts/test.sh sets MIDPOINT_URL), without trailing /. */
export const baseUrl = (process.env.MIDPOINT_URL ?? "http://127.0.0.1:8000").replace(/\/+$/, "");

/** Debian's Chromium; playwright-core downloads no browser of its own. The tests run in its
 *  headless shell (Debian's chromium-headless-shell: the same Blink and V8 without the desktop
 *  browser around them, what Playwright itself runs headless) when it is installed: the browser
 *  suite takes about 30 % less CPU there (docs/testing.md) and draws the same pixels (the
 *  committed posters differ from it by 0 %). CHROMIUM_PATH names another; the page benchmarks
 *  (scripts/common.sh, need_page_bench) measure the full browser. */
export const chromiumPath =
  process.env.CHROMIUM_PATH ||
  (existsSync("/usr/bin/chromium-headless-shell") ? "/usr/bin/chromium-headless-shell" : "/usr/bin/chromium");

/** Flags that work headless as root (see /work/shared/notes/toolchain.md). Playwright itself adds
 *  --headless and a fresh --user-data-dir. Do not add --virtual-time-budget: it freezes
 *  performance.now(). */
export const chromiumArgs = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

const artifactsDir = path.join(path.dirname(fileURLToPath(import.meta.url)), "artifacts");

/**
 * One browser for a whole test file: registers node:test's before/after hooks that launch and
 * close it, and returns a holder whose `browser` is set once the hook has run.
 */
export function useBrowser() {
  const shared = { browser: undefined };
  before(async () => {
    shared.browser = await launch();
  });
  after(async () => {
    await shared.browser?.close();
  });
  return shared;
}

/** Wait (up to 15 s) until the page says its WASM is loaded and the first frame drawn. */
export async function pageReady(page) {
  await page.waitForFunction(() => document.documentElement.dataset.midpointReady === "1", null, {
    timeout: 15_000,
  });
  // The test surface (debug()): an embedded figure loads it only when asked (docs/testing.md).
  await page.evaluate(() => window.__midpoint?.surface?.());
}

/** The figure's test surface (docs/testing.md, "The test surface"): the `debug()` of the widget
 *  whose root `sel` selects (the first in the document by default), read once; `debugOf` below
 *  names a widget by its index in mount order or by an element inside it. */
export function debugOfRoot(page, sel = '[data-testid="midpoint-widget"]') {
  return debugOf(page, sel);
}

/** Wait until the widget `sel` selects (the first by default) exists and its frame loop has come
 *  to rest (`debug().idle`: nothing moves until input or a worker's message). */
export function atRest(page, sel = '[data-testid="midpoint-widget"]', { timeout = 90_000 } = {}) {
  return settled(page, sel, timeout);
}

/** Launch headless Chromium. Close it with `await browser.close()`. */
export function launch() {
  return chromium.launch({ executablePath: chromiumPath, headless: true, args: chromiumArgs });
}

/**
 * Open `urlPath` (relative to baseUrl, e.g. "/www/lab.html") in a new page, collecting console
 * errors, uncaught page errors and failed requests into `errors` (an array of strings) from the
 * very first request on. `init`, a function, runs in the page before any of its scripts (a
 * recorder that must not miss what the page does while it loads). Returns { page, errors }.
 */
export async function openPage(browser, urlPath, { viewport = { width: 1280, height: 900 }, init } = {}) {
  const page = await browser.newPage({ viewport });
  if (init) await page.addInitScript(init);
  const errors = [];
  page.on("console", (msg) => {
    if (msg.type() === "error") errors.push(`console error: ${msg.text()}`);
  });
  page.on("pageerror", (err) => errors.push(`page error: ${err.message}`));
  page.on("requestfailed", (req) =>
    errors.push(`request failed: ${req.url()} (${req.failure()?.errorText})`),
  );
  await page.goto(`${baseUrl}${urlPath}`, { waitUntil: "load" });
  return { page, errors };
}

/** Save a full-page PNG as tests/browser/artifacts/<name>.png (git-ignored); returns the path. */
export async function screenshot(page, name) {
  await mkdir(artifactsDir, { recursive: true });
  const file = path.join(artifactsDir, `${name}.png`);
  await page.screenshot({ path: file, fullPage: true });
  return file;
}

// ---- The public face: what a figure publishes, and waits on it --------------------------------
// Tests read `window.__midpoint.debug(which)` (a widget's debug(): its status and counts, `idle`
// once its frame loop has come to rest) and the widget root's data-* attributes, and wait on them
// rather than for a fixed time. `which` is a widget's index or a CSS selector of its root (or of
// an element inside it).

/** The debug() of widget `which` in page or frame `p` (undefined if it has not started). */
export function debugOf(p, which = 0) {
  return p.evaluate((w) => window.__midpoint?.debug(typeof w === "string" ? document.querySelector(w) : w), which);
}

/** Wait (up to `timeout` ms) until widget `which` in page or frame `p` is idle: paused, drawn,
 *  its snapshots made or its workers at work, and its frame loop slowed to the idle poll. */
export function settled(p, which = 0, timeout = 60_000) {
  return p.waitForFunction((w) => window.__midpoint?.debug(typeof w === "string" ? document.querySelector(w) : w)?.idle === true, which, { timeout, polling: 50 });
}

/** Wait until every `[data-midpoint]` root of the page has its widget started. */
export function allMounted(p, timeout = 30_000) {
  return p.waitForFunction(() => [...document.querySelectorAll("[data-midpoint]")].every((r) => window.__midpoint?.debug(r) !== undefined), null, { timeout, polling: 100 });
}

/** Two animation frames: whatever the last input or scroll changed has been laid out and painted. */
export function painted(p) {
  return p.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
}

/** Brings every figure of the page into view in turn, each waited for until it has started and
 *  drawn (a widget's root publishes data-mode from its first frame, a Beyond figure data-ready),
 *  so that every lazily started figure has its final height; then waits for the layout. */
export async function visitAll(page) {
  const figs = page.locator("[data-midpoint], [data-beyond]");
  const n = await figs.count();
  for (let i = 0; i < n; i++) {
    await figs.nth(i).scrollIntoViewIfNeeded();
    await page.waitForFunction(
      (i) => {
        const f = document.querySelectorAll("[data-midpoint], [data-beyond]")[i];
        return f.dataset.beyond !== undefined ? f.dataset.ready === "1" : f.dataset.mode !== undefined && window.__midpoint?.debug(f) !== undefined;
      },
      i,
      { timeout: 30_000 },
    );
  }
  await painted(page);
}

/** Starts tests/browser/static-server.mjs (a static host of the repository that compresses and
 *  sends CORS headers: the figures' host of a blog post) with `args`; resolves to its origin and
 *  the process (kill it in an after hook). */
export async function staticHost(args = []) {
  const proc = spawn(process.execPath, [path.join(path.dirname(fileURLToPath(import.meta.url)), "static-server.mjs"), ...args], { stdio: ["ignore", "pipe", "inherit"] });
  let out = "";
  for await (const chunk of proc.stdout) {
    out += chunk;
    const m = out.match(/listening (\d+)/);
    if (m) return { origin: `http://127.0.0.1:${m[1]}`, proc };
  }
  throw new Error(`the static host ended before it listened: ${out}`);
}

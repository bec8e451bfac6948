// What a blog post's reader on a phone waits for: the close-up embed
// (lab.html?view=strip&at=batch&embed=1) at 390x844 (device pixel ratio 3, touch), the CPU slowed
// 4x and a slow 4G network (150 ms latency, 1.6 Mbit/s down, 750 kbit/s up), a fresh browser
// context (empty cache) each time, median of --runs (default 3). Prints one JSON line:
//
//   embed_poster_ms       navigation start to the figure's poster painted: the Element Timing
//                         entry of an element with elementtiming="figure-poster" (renderTime, or
//                         loadTime for an image whose render time is withheld), else the first
//                         animation frame in which a [data-testid=figure-poster] is visible with
//                         its image loaded; null when the figure has no poster
//   embed_first_frame_ms  navigation start to the first animation frame in which the close-up's
//                         canvas ([data-testid=boundary-strip], or the canvas inside it) has drawn: it carries
//                         data-min-font-px (set by each drawing), or, for a build without it,
//                         the page says it is ready (html[data-midpoint-ready])
//   embed_live_at_moment_ms  the poster painted to the first animation frame in which the live
//                         figure is at the poster's moment: the widget's root carries
//                         data-at-moment="1" (widget.js) and the poster is gone (null without a
//                         poster, or for a build without data-at-moment)
//   embed_transfer_kb     bytes over the wire (response headers and encoded bodies, every request
//                         of the page and its workers) until the live figure is at the poster's
//                         moment (or, for a build without data-at-moment, its first frame) and no
//                         request is in flight, KiB
//   encoding              the Content-Encoding the WASM module came with (as the server sent it)
//
// MIDPOINT_URL is the served repository (scripts/bench-embed.sh serves it compressed, as a static
// host does). Each run has --timeout-s (default 60) to reach its first frame.
import { launch } from "./helpers.mjs";

const args = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : dflt;
};
const runs = Number(opt("--runs", "3"));
const timeoutS = Number(opt("--timeout-s", "60"));
// --requests: each request of the first run (path, status, KiB over the wire) on stderr.
const listRequests = args.includes("--requests");
const figurePath = opt("--path", "/www/lab.html?view=strip&at=batch&embed=1");
const base = (process.env.MIDPOINT_URL ?? "http://127.0.0.1:8000").replace(/\/+$/, "");

// Installed before any of the page's scripts: watches for the poster and the first frame.
function watch() {
  const marks = { poster: null, frame: null, posterTiming: null, moment: null };
  window.__embedBench = marks;
  try {
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) {
        if (e.identifier === "figure-poster" && marks.posterTiming === null) marks.posterTiming = e.renderTime || e.loadTime;
      }
    }).observe({ type: "element", buffered: true });
  } catch {
    // No Element Timing: the frame poll below stands in.
  }
  const visible = (el) => {
    const r = el.getBoundingClientRect();
    return r.width > 0 && r.height > 0 && getComputedStyle(el).visibility !== "hidden";
  };
  const poll = () => {
    const now = performance.now();
    if (marks.poster === null) {
      const p = document.querySelector("[data-testid=figure-poster]");
      const img = p && (p.tagName === "IMG" ? p : p.querySelector("img"));
      if (p && visible(p) && (!img || (img.complete && img.naturalWidth > 0))) marks.poster = now;
    }
    if (marks.frame === null) {
      const strip = document.querySelector("[data-testid=boundary-strip]");
      const c = strip && (strip.tagName === "CANVAS" ? strip : strip.querySelector("canvas"));
      if (c && c.width > 0 && visible(c) && (c.dataset.minFontPx !== undefined || document.documentElement.dataset.midpointReady === "1")) {
        marks.frame = now;
      }
    }
    if (marks.moment === null && marks.frame !== null) {
      const root = document.querySelector("[data-midpoint]");
      if (root?.dataset.atMoment === "1" && !document.querySelector("[data-testid=figure-poster]")) marks.moment = now;
    }
    if (marks.frame === null || marks.poster === null || marks.moment === null) requestAnimationFrame(poll);
  };
  requestAnimationFrame(poll);
}

async function once(browser) {
  const context = await browser.newContext({
    viewport: { width: 390, height: 844 },
    deviceScaleFactor: 3,
    isMobile: true,
    hasTouch: true,
  });
  let bytes = 0;
  let wasmEncoding = null;
  const requests = [];
  // Requests in flight (counted down once a finished one's bytes are added), and what waits for
  // none to be.
  let inFlight = 0;
  let onQuiet = null;
  const settle = () => {
    inFlight--;
    if (inFlight === 0) onQuiet?.();
  };
  context.on("request", () => inFlight++);
  context.on("requestfailed", settle);
  context.on("requestfinished", async (req) => {
    try {
      const s = await req.sizes();
      bytes += s.responseBodySize + s.responseHeadersSize;
      requests.push({ url: new URL(req.url()).pathname, status: (await req.response())?.status() ?? 0, bytes: s.responseBodySize + s.responseHeadersSize });
      if (req.url().endsWith(".wasm")) wasmEncoding = (await req.response())?.headers()["content-encoding"] ?? "identity";
    } catch {
      // A request of a closed page: not counted.
    } finally {
      settle();
    }
  });
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send("Network.enable");
  await cdp.send("Network.emulateNetworkConditions", {
    offline: false,
    latency: 150,
    downloadThroughput: (1.6e6 / 8) | 0,
    uploadThroughput: (750e3 / 8) | 0,
  });
  await cdp.send("Emulation.setCPUThrottlingRate", { rate: 4 });
  await page.addInitScript(watch);
  await page.goto(base + figurePath, { waitUntil: "commit" });
  await page.waitForFunction(() => window.__embedBench?.frame !== null, null, { timeout: timeoutS * 1000, polling: 100 });
  // The live figure at the poster's moment (a build without data-at-moment never gets there).
  await page
    .waitForFunction(() => window.__embedBench.moment !== null, null, { timeout: timeoutS * 1000, polling: 100 })
    .catch(() => {});
  // Then the network quiet: no request of the page or its workers in flight.
  // (Bounded by --timeout-s, as the frame is: a request that never ends does not hang the run.)
  if (inFlight > 0) {
    let bound;
    await Promise.race([new Promise((resolve) => (onQuiet = resolve)), new Promise((resolve) => (bound = setTimeout(resolve, timeoutS * 1000)))]);
    clearTimeout(bound);
  }
  const kb = bytes / 1024;
  const marks = await page.evaluate(() => window.__embedBench);
  await context.close();
  const poster = marks.posterTiming ?? marks.poster;
  const live = poster !== null && marks.moment !== null ? marks.moment - poster : null;
  return { poster, frame: marks.frame, live, kb, wasmEncoding, requests };
}

const median = (xs) => {
  const v = xs.filter((x) => x !== null).sort((a, b) => a - b);
  if (v.length === 0) return null;
  return v.length % 2 ? v[(v.length - 1) / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
};

const browser = await launch();
const results = [];
try {
  for (let i = 0; i < runs; i++) results.push(await once(browser));
} finally {
  await browser.close();
}
const round = (x) => (x === null ? null : Math.round(x));
if (listRequests && results[0]) {
  for (const r of [...results[0].requests].sort((a, b) => b.bytes - a.bytes)) {
    console.error(`${(r.bytes / 1024).toFixed(1).padStart(8)} KiB  ${r.status}  ${r.url}`);
  }
}
console.log(
  JSON.stringify({
    embed_poster_ms: round(median(results.map((r) => r.poster))),
    embed_first_frame_ms: round(median(results.map((r) => r.frame))),
    embed_live_at_moment_ms: round(median(results.map((r) => r.live))),
    embed_transfer_kb: round(median(results.map((r) => r.kb))),
    encoding: results[0]?.wasmEncoding ?? null,
    runs: results.map((r) => ({ poster_ms: round(r.poster), first_frame_ms: round(r.frame), live_at_moment_ms: round(r.live), transfer_kb: round(r.kb) })),
  }),
);

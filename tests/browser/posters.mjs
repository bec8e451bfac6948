// The figures' posters (www/posters/): each embedded figure's opening moment as the page itself
// draws it, for lab.html to show in the figure's box before any module has loaded. Shared by
// scripts/posters.mjs (which writes them) and tests/browser/poster.test.mjs (which checks them
// against the live figure).

/** The article's Beyond figures (beyond.js): no widget; their embed is index.html's, their root
 *  the figure itself. */
export const BEYOND = ["pair", "scale", "phase"];

/** Every poster: the view, the moment (`at=`, "" for none) and the viewport width it is for
 *  (lab.html picks 390 below 600 px, else 800). The lab's write path and policies and the Beyond
 *  figures open at one moment each: the write path and the policies before their first run, the
 *  pair paused just before the scan phase's first LRU batch, the scale curve and the heat map
 *  drawn from their committed data. */
export const POSTERS = [];
for (const width of [390, 800]) {
  for (const view of ["strip", "grid"]) for (const at of ["", "scan", "batch", "watch"]) POSTERS.push({ view, at, width });
  for (const view of ["residency", "sweep", "write", "policies", ...BEYOND]) POSTERS.push({ view, at: "", width });
}

/** The article's figures that open with settings of their own (the warm-up's small pool, the
 *  restart's growth slide): their poster by name, for their address as the article gives it
 *  (lab.html's head script matches its parameters in any order). `shoot`: the address the
 *  poster is drawn from, where the figure would not rest (the warm-up plays from its opening
 *  moment: the poster is that moment, paused). */
export const NAMED = [
  { name: "grid-warmup", view: "grid", query: "preset=small-demo&pool_mb=9&view=grid&autoplay=1", shoot: "preset=small-demo&pool_mb=9&view=grid&autoplay=0" },
  { name: "strip-restart-scan", view: "strip", query: "preset=seed000-restart-hot4485-b2b&view=strip&at=scan" },
];
for (const width of [390, 800]) for (const n of NAMED) POSTERS.push({ ...n, at: "", width });

/** The poster's file under www/posters/, as lab.html names it. */
export const posterFile = ({ view, at, width, name }) => (name ? `${name}-${width}.webp` : `${view}${at ? `-${at}` : ""}-${width}.webp`);

/** The embed's address for a poster, relative to the repository root (`live`: the address the
 *  poster is drawn from). */
export const posterPath = ({ view, at, query, shoot }, live = false) =>
  query
    ? `/www/lab.html?${live && shoot ? shoot : query}&embed=1`
    : BEYOND.includes(view)
      ? `/www/index.html?embed=1&view=${view}`
      : `/www/lab.html?view=${view}${at ? `&at=${at}` : ""}&embed=1`;

/** The figure's root in its embed: the widget's, or the Beyond figure. */
export const posterRoot = ({ view }) => (BEYOND.includes(view) ? `[data-beyond="${view}"]` : "[data-midpoint]");

/** Pixel ratio of the posters: one, so that a poster (about 30 KiB) comes well before the module;
 *  the live figure replaces it at the screen's own ratio. */
export const POSTER_DPR = 1;

/** A browser context whose pages are what `shootLive` draws a poster of `width` in: `width` x
 *  900 CSS px at POSTER_DPR. The page keeps nothing between loads (no storage), so one context
 *  serves every poster of a width, its HTTP cache sparing each load the module's fetch. */
export const posterContext = (browser, width) => browser.newContext({ viewport: { width, height: 900 }, deviceScaleFactor: POSTER_DPR });

/**
 * The live figure at rest at its opening moment (seeked to `at=`; the residency plot with its
 * run) as a PNG screenshot of its box (the widget's root), in a new page of `ctx` (a
 * `posterContext` of the poster's width; a fresh one when not given), with the poster kept out
 * of the way: what a poster must look like. `base` is the served repository's URL.
 */
export async function shootLive(browser, base, p, ctx = null) {
  const own = ctx === null;
  if (own) ctx = await posterContext(browser, p.width);
  const page = await ctx.newPage();
  try {
    // Not the committed poster: the figure as it draws itself.
    await page.route("**/www/posters/**", (r) => r.abort());
    await page.goto(base + posterPath(p, true));
    await page.waitForSelector("html[data-midpoint-ready]", { timeout: 60_000 });
    const root = posterRoot(p);
    if (BEYOND.includes(p.view)) {
      // A Beyond figure at its opening moment (beyond.js: the pair paused and at rest), then
      // settled: its frames (the pair's) or a resize would have taken the moment back.
      await page.waitForFunction((root) => document.querySelector(root)?.dataset.atMoment === "1", root, { timeout: 60_000 });
      await page.evaluate(() => document.fonts.ready.then(() => new Promise((r) => setTimeout(r, 500))));
      await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
      return await page.locator(root).first().screenshot({ animations: "disabled" });
    }
    await page.waitForFunction(() => document.querySelector("[data-midpoint] canvas[data-min-font-px]") !== null, null, { timeout: 60_000 });
    // The figure at rest at its opening moment: done seeking to `at=` (the live figure's first
    // frames show the way there), and the residency plot with every run of its ensemble in and
    // drawn as the band (its runs arrive over time: a shot with some of them would be a race).
    await page.waitForFunction(
      ({ view, watch }) => {
        const d = window.__midpoint?.debug();
        if (!d || d.mode === "seeking" || d.busy) return false;
        // At rest: the frame loop has gone quiet (nothing moved or was drawn for its idle
        // frames), so no page is still on its way to its place. Two frames after the seek were
        // not enough on a slow machine: a close-up shot mid-move differed from its poster by
        // 1.2 % in a CI run. A watched drain never rests.
        if (!watch && !d.idle) return false;
        if (view !== "residency") return true;
        const cap = document.querySelector(".mp-runcap");
        const plot = document.querySelector(".mp-residency");
        const runs = cap?.dataset.runs;
        return d.hasRun === true && !!runs && cap.dataset.runsDone === runs && (runs === "1" || plot?.dataset.bandRuns === runs);
      },
      { view: p.view, watch: p.at === "watch" },
      { timeout: 120_000 },
    );
    await page.evaluate(() => document.fonts.ready.then(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))));
    return await page.locator("[data-midpoint]").first().screenshot({ animations: "disabled" });
  } finally {
    await (own ? ctx.close() : page.close());
  }
}

/** Colours of a poster: the close-up's and the pool's flat fills, few inks and their text's
 *  antialiasing fit in 16 (a 390 px close-up: 14 KiB as lossless WebP, 18 KiB in 32 colours,
 *  36 KiB as lossy WebP at 0.7), the text a little rougher for the second or two before the live
 *  figure; so do the pair's two close-ups; a plot's lines, one colour each, keep them in 64 (in
 *  16 the sweep's lines merged), as do the heat map's shades. 0: lossy WebP at 0.7, for the
 *  write path's and the policies' panels, mostly text before a run (at 800 px the write path:
 *  32 KiB lossy, 59 KiB in 64 colours, 55 KiB in 24; in 16, 33 KiB, its key's purple swatch
 *  went grey). */
export const posterColours = ({ view }) =>
  ["write", "policies"].includes(view) ? 0 : ["strip", "grid", "pair"].includes(view) ? 16 : 64;

/**
 * `png` (a Buffer) re-encoded in the browser (`on`: a Browser, which opens a page for it, or a
 * Page to do it in, left open): { webp } (base64; lossy at quality `q`, or with
 * `colours: n` lossless with its pixels mapped to the image's n most frequent colours), or with
 * `grey: [w, h]` the image scaled to w x h grey levels (0-255), for comparing two images (`[w]`:
 * h from the image's own aspect ratio, rounded).
 */
export async function imageIn(on, bytes, type, { q = 0.7, grey = null, colours = 0 } = {}) {
  const own = typeof on.newContext === "function";
  const page = own ? await on.newPage() : on;
  try {
    return await page.evaluate(
      async ({ b64, type, q, grey, colours }) => {
        const bin = atob(b64);
        const u8 = new Uint8Array(bin.length);
        for (let i = 0; i < bin.length; i++) u8[i] = bin.charCodeAt(i);
        const bmp = await createImageBitmap(new Blob([u8], { type }));
        const c = document.createElement("canvas");
        if (grey) {
          c.width = grey[0];
          c.height = grey[1] ?? Math.round((grey[0] * bmp.height) / bmp.width);
          const g = c.getContext("2d");
          g.imageSmoothingQuality = "high";
          g.drawImage(bmp, 0, 0, c.width, c.height);
          const d = g.getImageData(0, 0, c.width, c.height).data;
          const out = [];
          for (let i = 0; i < d.length; i += 4) out.push(Math.round(0.299 * d[i] + 0.587 * d[i + 1] + 0.114 * d[i + 2]));
          return { grey: out, width: bmp.width, height: bmp.height };
        }
        c.width = bmp.width;
        c.height = bmp.height;
        const g = c.getContext("2d");
        g.drawImage(bmp, 0, 0);
        if (colours) {
          // Each pixel to the nearest (by luma-weighted distance) of the n most frequent colours.
          const img = g.getImageData(0, 0, c.width, c.height);
          const d = img.data;
          const key = (i) => (d[i] << 16) | (d[i + 1] << 8) | d[i + 2];
          const count = new Map();
          for (let i = 0; i < d.length; i += 4) count.set(key(i), (count.get(key(i)) ?? 0) + 1);
          const palette = [...count.entries()]
            .sort((a, b) => b[1] - a[1] || a[0] - b[0])
            .slice(0, colours)
            .map(([k]) => [k >> 16, (k >> 8) & 255, k & 255]);
          const nearest = new Map();
          for (let i = 0; i < d.length; i += 4) {
            const k = key(i);
            let p = nearest.get(k);
            if (!p) {
              let best = Infinity;
              for (const c of palette) {
                const e = 0.3 * (c[0] - d[i]) ** 2 + 0.59 * (c[1] - d[i + 1]) ** 2 + 0.11 * (c[2] - d[i + 2]) ** 2;
                if (e < best) [best, p] = [e, c];
              }
              nearest.set(k, p);
            }
            [d[i], d[i + 1], d[i + 2], d[i + 3]] = [p[0], p[1], p[2], 255];
          }
          g.putImageData(img, 0, 0);
        }
        // Chromium encodes WebP losslessly at quality 1.
        const url = c.toDataURL("image/webp", colours ? 1 : q);
        return { webp: url.slice(url.indexOf(",") + 1), width: bmp.width, height: bmp.height };
      },
      { b64: Buffer.from(bytes).toString("base64"), type, q, grey, colours },
    );
  } finally {
    if (own) await page.close();
  }
}

// The figures' posters (www/posters/): each embedded figure's opening moment as the page itself
// draws it, for lab.html to show in the figure's box before any module has loaded. Shared by
// scripts/posters.mjs (which writes them) and tests/browser/poster.test.mjs (which checks them
// against the live figure).

/** Every poster: the view, the moment (`at=`, "" for none) and the viewport width it is for
 *  (lab.html picks 390 below 600 px, else 800). */
export const POSTERS = [];
for (const width of [390, 800]) {
  for (const view of ["strip", "grid"]) for (const at of ["", "scan", "batch", "watch"]) POSTERS.push({ view, at, width });
  for (const view of ["residency", "sweep"]) POSTERS.push({ view, at: "", width });
}

/** The poster's file under www/posters/, as lab.html names it. */
export const posterFile = ({ view, at, width }) => `${view}${at ? `-${at}` : ""}-${width}.webp`;

/** The embed's address for a poster, relative to the repository root. */
export const posterPath = ({ view, at }) => `/www/lab.html?view=${view}${at ? `&at=${at}` : ""}&embed=1`;

/** Pixel ratio of the posters: one, so that a poster (about 30 KiB) comes well before the module;
 *  the live figure replaces it at the screen's own ratio. */
export const POSTER_DPR = 1;

/**
 * The live figure at rest at its opening moment (seeked to `at=`; the residency plot with its
 * run) as a PNG screenshot of its box (the widget's root), in a fresh
 * context at `width` x 900 CSS px and POSTER_DPR, with the poster kept out of the way: what a
 * poster must look like. `base` is the served repository's URL.
 */
export async function shootLive(browser, base, p) {
  const ctx = await browser.newContext({ viewport: { width: p.width, height: 900 }, deviceScaleFactor: POSTER_DPR });
  try {
    const page = await ctx.newPage();
    // Not the committed poster: the figure as it draws itself.
    await page.route("**/www/posters/**", (r) => r.abort());
    await page.goto(base + posterPath(p));
    await page.waitForSelector("html[data-midpoint-ready]", { timeout: 60_000 });
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
    await ctx.close();
  }
}

/**
 * `png` (a Buffer) re-encoded in the browser: { webp } (a Buffer, quality `q`), or with
 * `grey: [w, h]` the image scaled to w x h grey levels (0-255), for comparing two images.
 */
export async function imageIn(browser, bytes, type, { q = 0.7, grey = null } = {}) {
  const page = await browser.newPage();
  try {
    return await page.evaluate(
      async ({ b64, type, q, grey }) => {
        const bin = atob(b64);
        const u8 = new Uint8Array(bin.length);
        for (let i = 0; i < bin.length; i++) u8[i] = bin.charCodeAt(i);
        const bmp = await createImageBitmap(new Blob([u8], { type }));
        const c = document.createElement("canvas");
        if (grey) {
          [c.width, c.height] = grey;
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
        c.getContext("2d").drawImage(bmp, 0, 0);
        const url = c.toDataURL("image/webp", q);
        return { webp: url.slice(url.indexOf(",") + 1), width: bmp.width, height: bmp.height };
      },
      { b64: Buffer.from(bytes).toString("base64"), type, q, grey },
    );
  } finally {
    await page.close();
  }
}

// The figures' posters (lab.html, www/posters/, scripts/posters.sh): an embedded figure's box
// has its final size and shows its poster before any module has arrived, and the live figure
// replaces the poster without a change of size; every committed poster still looks like the
// live figure at rest at its opening moment (a stale poster fails: run scripts/posters.sh).
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { baseUrl, useBrowser } from "./helpers.mjs";
import { BEYOND, imageIn, POSTERS, posterContext, posterFile, posterPath, posterRoot, shootLive } from "./posters.mjs";

const shared = useBrowser();

const boxes = () =>
  document.defaultView.eval(`(() => {
    const r = (el) => { if (!el) return null; const b = el.getBoundingClientRect(); return [b.x, b.y, b.width, b.height].map((v) => Math.round(v * 10) / 10); };
    const poster = document.querySelector("[data-testid=figure-poster]");
    return {
      root: r(document.querySelector("[data-midpoint]")),
      poster: r(poster),
      posterLoaded: !!poster && poster.complete && poster.naturalWidth > 0,
      live: document.querySelector("[data-midpoint] canvas[data-min-font-px]") !== null,
    };
  })()`);

for (const c of [
  { name: "the close-up on a phone", path: "/www/lab.html?view=strip&at=batch&embed=1", viewport: { width: 390, height: 844 }, dpr: 3, module: "/pkg/core/midpoint_bg.wasm", height: 560 },
  {
    name: "the close-up as the Embed dialog's iframe opens it (index.html, the preset named)",
    path: "/www/index.html?embed=1&preset=seed000-hot4485-b2b&view=strip&at=batch",
    viewport: { width: 390, height: 844 },
    dpr: 2,
    module: "/pkg/core/midpoint_bg.wasm",
    height: 560,
  },
  { name: "the residency plot on a wide screen", path: "/www/lab.html?view=residency&embed=1", viewport: { width: 1000, height: 900 }, dpr: 1, module: "/pkg/midpoint_bg.wasm", height: 500 },
]) {
  test(`${c.name}: the poster fills the figure's final box until the live figure replaces it at the same size`, async () => {
    const ctx = await shared.browser.newContext({ viewport: c.viewport, deviceScaleFactor: c.dpr });
    try {
      const page = await ctx.newPage();
      // Hold the WASM back until the poster has been seen.
      let release;
      const held = new Promise((r) => (release = r));
      const asked = [];
      await page.route("**/*.wasm", async (route) => {
        asked.push(new URL(route.request().url()).pathname);
        await held;
        await route.continue();
      });
      await page.goto(baseUrl + c.path);
      await page.waitForFunction(() => {
        const p = document.querySelector("[data-testid=figure-poster]");
        return p && p.complete && p.naturalWidth > 0;
      });
      await page.waitForFunction(() => document.querySelector("[data-midpoint] canvas") !== null || performance.now() > 0);
      const before = await page.evaluate(boxes);
      assert.equal(before.live, false, "the live figure drew with its module held back");
      assert.deepEqual(before.poster, before.root, "the poster covers the figure's box");
      assert.equal(before.root[2], c.viewport.width, "the box spans the page's width");
      assert.equal(before.root[3], c.height, "the box has the figure's height before any module");
      release();
      await page.waitForFunction(() => document.querySelector("[data-midpoint] canvas[data-min-font-px]") !== null, null, { timeout: 60_000 });
      await page.waitForFunction(() => document.querySelector("[data-testid=figure-poster]") === null);
      const after = await page.evaluate(boxes);
      assert.deepEqual(after.root, before.root, "the figure's box changed size when the live figure replaced the poster");
      assert.deepEqual(asked.filter((u) => !u.includes("/worker")).slice(0, 1), [c.module], "the page's first module");
    } finally {
      await ctx.close();
    }
  });
}

// The lab's write path and policies and the article's Beyond figures: their poster is in their
// box before any module, and goes only when the figure's root says it has drawn its opening
// moment (data-at-moment: widget.js for the write path and the policies, beyond.js for the
// Beyond figures).
const LATER = [
  { view: "write", height: 760 },
  { view: "policies", height: 620 },
  { view: "pair", height: 640 },
  { view: "scale", height: 560 },
  { view: "phase", height: 640 },
];
for (const c of LATER) {
  for (const width of [390, 800]) {
    test(`the ${c.view} figure at ${width} px: its poster is in its box before the module, until the figure is at its opening moment`, async () => {
      const ctx = await shared.browser.newContext({ viewport: { width, height: 900 }, deviceScaleFactor: 2 });
      try {
        const page = await ctx.newPage();
        // Records, when the poster leaves, whether the figure was at its opening moment.
        await page.addInitScript((sel) => {
          window.__posterGone = null;
          new MutationObserver((records) => {
            for (const r of records)
              for (const n of r.removedNodes)
                if (n.dataset?.testid === "figure-poster" && window.__posterGone === null) window.__posterGone = { atMoment: document.querySelector(sel)?.dataset.atMoment ?? null };
          }).observe(document, { childList: true, subtree: true });
        }, posterRoot(c));
        let release;
        const held = new Promise((r) => (release = r));
        const asked = [];
        await page.route("**/*.wasm", async (route) => {
          asked.push(new URL(route.request().url()).pathname);
          await held;
          await route.continue();
        });
        await page.goto(baseUrl + posterPath({ view: c.view, at: "" }));
        await page.waitForFunction(() => {
          const p = document.querySelector("[data-testid=figure-poster]");
          return p && p.complete && p.naturalWidth > 0;
        });
        const box = (sel) => {
          const r = (el) => {
            if (!el) return null;
            const b = el.getBoundingClientRect();
            return [b.x, b.y, b.width, b.height].map((v) => Math.round(v * 10) / 10);
          };
          const root = document.querySelector(sel);
          const poster = document.querySelector("[data-testid=figure-poster]");
          const s = poster && getComputedStyle(poster);
          return {
            root: r(root),
            poster: r(poster),
            posterIn: !!poster && poster.parentElement === root,
            shown: !!s && s.display !== "none" && s.visibility !== "hidden" && Number(s.opacity) > 0,
            file: poster?.getAttribute("src") ?? null,
            atMoment: root?.dataset.atMoment ?? null,
          };
        };
        const before = await page.evaluate(box, posterRoot(c));
        assert.equal(before.atMoment, null, "at its moment with its module held back");
        assert.ok(before.posterIn && before.shown, `the poster is shown in the figure's root: ${JSON.stringify(before)}`);
        assert.equal(before.file, `posters/${posterFile({ view: c.view, at: "", width })}`);
        assert.deepEqual(before.poster, before.root, "the poster covers the figure's box");
        assert.deepEqual(before.root.slice(2), [width, c.height], "the box has the page's width and the figure's height before any module");
        release();
        await page.waitForFunction(() => window.__posterGone !== null, null, { timeout: 60_000 });
        assert.deepEqual(await page.evaluate(() => window.__posterGone), { atMoment: "1" }, "the poster went before the figure was at its moment");
        const after = await page.evaluate(box, posterRoot(c));
        assert.deepEqual(after.root, before.root, "the figure's box changed size when the live figure replaced the poster");
        assert.deepEqual(asked.slice(0, 1), ["/pkg/midpoint_bg.wasm"], "the page's first module");
      } finally {
        await ctx.close();
      }
    });
  }
}

// The Embed dialog's snippets of these figures, as it gives them at their opening (the write
// path's name its settings, the pair's its patch: at their defaults they change nothing).
async function dialogSnippets(ctx) {
  const page = await ctx.newPage();
  const out = {};
  try {
    for (const c of LATER) {
      await page.goto(baseUrl + posterPath({ view: c.view, at: "" }));
      await page.waitForSelector("html[data-midpoint-ready]", { timeout: 60_000 });
      await page.locator(`${posterRoot(c)} [data-testid=embed-button]`).first().click();
      const iframe = page.locator("dialog[open] [data-testid=embed-snippet]");
      await iframe.waitFor();
      out[c.view] = {
        src: (await iframe.inputValue()).match(/src="([^"]+)"/)[1].replaceAll("&amp;", "&"),
        element: await page.locator("dialog[open] [data-testid=embed-element]").inputValue(),
      };
    }
  } finally {
    await page.close();
  }
  return out;
}

test("the Embed dialog's element snippets of the write path, the policies and the Beyond figures show their poster until the figure is at its moment", async () => {
  const ctx = await shared.browser.newContext({ viewport: { width: 390, height: 844 } });
  try {
    const snippets = await dialogSnippets(ctx);
    for (const c of LATER) {
      const page = await ctx.newPage();
      try {
        // A post with the element snippet, on the figures' host.
        const post = `${baseUrl}/www/poster-post-${c.view}.html`;
        await page.route(post, (r) => r.fulfill({ contentType: "text/html", body: `<!doctype html><meta charset="utf-8"><link rel="icon" href="data:,"><body style="margin:0">${snippets[c.view].element}</body>` }));
        let release;
        const held = new Promise((r) => (release = r));
        await page.route("**/*.wasm", async (route) => {
          await held;
          await route.continue();
        });
        await page.goto(post);
        const shown = () => {
          const root = document.querySelector("midpoint-explainer")?.shadowRoot?.querySelector("div");
          const p = root?.querySelector(":scope > [data-testid=figure-poster]");
          if (!p || !p.complete || !p.naturalWidth) return null;
          const r = (el) => [...Object.values(el.getBoundingClientRect().toJSON())].slice(0, 4).map(Math.round);
          return { root: r(root), poster: r(p), file: p.getAttribute("src").replace(/^.*\/www\//, "") };
        };
        const before = await (await page.waitForFunction(shown, null, { timeout: 10_000 })).jsonValue();
        assert.deepEqual(before.poster, before.root, `${c.view}: the poster covers the element's box`);
        assert.equal(before.root[3], c.height, `${c.view}: the element's box has the figure's height before any module`);
        assert.equal(before.file, `posters/${posterFile({ view: c.view, at: "", width: 390 })}`);
        // Records, when the poster leaves, whether the figure was at its opening moment.
        await page.evaluate((sel) => {
          const shadow = document.querySelector("midpoint-explainer").shadowRoot;
          const root = shadow.querySelector("div");
          window.__posterGone = null;
          new MutationObserver((records) => {
            for (const r of records)
              for (const n of r.removedNodes)
                if (n.dataset?.testid === "figure-poster" && window.__posterGone === null) window.__posterGone = { atMoment: (root.matches(sel) ? root : root.querySelector(sel))?.dataset.atMoment ?? null };
          }).observe(root, { childList: true });
        }, BEYOND.includes(c.view) ? posterRoot(c) : "[data-testid=midpoint-widget]");
        release();
        await page.waitForFunction(() => window.__posterGone !== null, null, { timeout: 60_000 });
        assert.deepEqual(await page.evaluate(() => window.__posterGone), { atMoment: "1" }, `${c.view}: the poster went before the figure was at its moment`);
      } finally {
        await page.close();
      }
    }
  } finally {
    await ctx.close();
  }
});

test("the Embed dialog's iframe snippets of the write path, the policies and the Beyond figures show their poster", async () => {
  const ctx = await shared.browser.newContext({ viewport: { width: 800, height: 900 } });
  try {
    const page = await ctx.newPage();
    const snippets = await dialogSnippets(ctx);
    const srcs = Object.fromEntries(Object.entries(snippets).map(([k, v]) => [k, v.src]));
    // As the snippets name them, with every module held back: only the poster can be in the box.
    await page.route("**/*.wasm", () => {});
    const missing = [];
    for (const c of LATER) {
      await page.goto(srcs[c.view]);
      const shown = await page
        .waitForFunction((sel) => {
          const p = document.querySelector(`${sel} > [data-testid=figure-poster]`);
          return p && p.complete && p.naturalWidth > 0;
        }, posterRoot(c), { timeout: 10_000 })
        .then(() => true, () => false);
      if (!shown) missing.push(srcs[c.view]);
    }
    assert.deepEqual(missing, [], "snippets whose embed shows no poster");
    assert.ok(BEYOND.every((v) => srcs[v].includes("/www/index.html?embed=1")), JSON.stringify(srcs));
  } finally {
    await ctx.close();
  }
});

test("index.html and lab.html set up an embedded figure with the same scripts", async () => {
  const scripts = async (f) => {
    const html = await readFile(new URL(`../../www/${f}`, import.meta.url), "utf8");
    return [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((m) => m[1].trim()).filter((t) => t.includes("mp-embed-page"));
  };
  const lab = await scripts("lab.html");
  assert.equal(lab.length, 2, "lab.html: the head's script and the box's");
  assert.deepEqual(await scripts("index.html"), lab);
});

test("a plain lab page and a figure with its settings changed show no poster", async () => {
  const page = await shared.browser.newPage();
  try {
    for (const path of ["/www/lab.html", "/www/lab.html?view=strip&embed=1&lru_scan_depth=128"]) {
      await page.goto(baseUrl + path);
      assert.equal(await page.locator("[data-testid=figure-poster]").count(), 0, path);
    }
  } finally {
    await page.close();
  }
});

test("every figure of the article, embedded as the article opens it, shows a poster before its module", async () => {
  const ctx = await shared.browser.newContext({ viewport: { width: 800, height: 900 } });
  try {
    const page = await ctx.newPage();
    await page.goto(`${baseUrl}/www/index.html`);
    // The article's figures, read from the article: each one's address as its data-query.
    const queries = await page.evaluate(() => [...document.querySelectorAll(".explain [data-midpoint][data-query]")].map((e) => e.dataset.query));
    assert.ok(queries.length >= 8, `${queries.length} figures in the article`);
    // Hold every module back: only the poster can be in the box.
    await page.route("**/*.wasm", () => {});
    const missing = [];
    for (const q of queries) {
      await page.goto(`${baseUrl}/www/lab.html?${q}&embed=1`);
      const shown = await page
        .waitForFunction(() => {
          const p = document.querySelector("[data-testid=figure-poster]");
          return p && p.complete && p.naturalWidth > 0;
        }, null, { timeout: 10_000 })
        .then(() => true, () => false);
      if (!shown) missing.push(q);
    }
    assert.deepEqual(missing, [], "article figures whose embed shows no poster");
  } finally {
    await ctx.close();
  }
});

// Grey levels of an image at a quarter of the poster's CSS size: the figure's layout, colours and
// text lines, not its antialiasing.
async function grey(on, bytes, type, { width }) {
  return (await imageIn(on, bytes, type, { grey: [Math.round(width / 4)] })).grey;
}

/** The share of pixels (%) whose grey levels differ by more than 48 of 255. */
const changed = (a, b) => (100 * a.filter((v, i) => Math.abs(v - b[i]) > 48).length) / a.length;

// Measured: a fresh poster of a figure that rests at its moment differs from the live figure in
// no pixel at this scale (0.00 %, the residency plot's too, both shot with every run of its
// ensemble in); a poster of the neighbouring moment (the batch's for the scan's, the opening's
// for the scan's) in 0.9-1.6 %. A figure that plays at its moment (`at=watch` watches the drain)
// moves under the poster: 0-5 % measured; for it only another figure's or a much older poster
// fails.
const bound = (p) => (p.at === "watch" ? 10 : 0.3);

test("every committed poster looks like the live figure at its opening moment", async () => {
  const browser = shared.browser;
  const diffs = {};
  const stale = [];
  // One context per width for the live figures, one page for the grey levels.
  const contexts = new Map();
  const converter = await browser.newPage();
  try {
    for (const p of POSTERS) {
      if (!contexts.has(p.width)) contexts.set(p.width, await posterContext(browser, p.width));
      const committed = await readFile(new URL(`../../www/posters/${posterFile(p)}`, import.meta.url));
      const live = await shootLive(browser, baseUrl, p, contexts.get(p.width));
      const a = await grey(converter, committed, "image/webp", p);
      const b = await grey(converter, live, "image/png", p);
      assert.equal(a.length, b.length, `${posterFile(p)}: the poster's size is not the live figure's`);
      const d = Math.round(changed(a, b) * 100) / 100;
      diffs[posterFile(p)] = d;
      if (d > bound(p)) stale.push([posterFile(p), d]);
    }
  } finally {
    await converter.close();
    for (const c of contexts.values()) await c.close();
  }
  console.log("poster pixels changed (%):", JSON.stringify(diffs));
  assert.deepEqual(stale, [], "stale posters: run scripts/posters.sh");
});

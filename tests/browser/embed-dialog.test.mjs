// The Embed dialog as a reader meets it: its snippets carry the moment shown while the figure
// plays, and inside an embedded figure (an iframe on a post) it fits the iframe and its Copy
// still gives the reader the snippet where the clipboard is refused.
import assert from "node:assert/strict";
import { once } from "node:events";
import { createServer } from "node:http";
import { after, before, describe, test } from "node:test";
import { baseUrl, staticHost, useBrowser } from "./helpers.mjs";


const shared = useBrowser();

function watchErrors(page) {
  const errors = [];
  page.on("console", (m) => m.type() === "error" && errors.push(`console: ${m.text()}`));
  page.on("pageerror", (e) => errors.push(`page: ${e.message}`));
  return errors;
}

describe("the Embed dialog", () => {
  test("while the figure plays, 'at this moment' carries ev= (the moment shown)", async () => {
    const page = await shared.browser.newPage({ viewport: { width: 1000, height: 800 } });
    const errors = watchErrors(page);
    try {
      await page.goto(`${baseUrl}/www/index.html?preset=small-demo&view=strip&embed=1`);
      await page.waitForFunction(() => window.__midpoint?.debug?.()?.mode === "paused", null, { timeout: 20_000 });
      await page.locator('[data-act="play"]').first().click();
      await page.waitForFunction(() => {
        const d = window.__midpoint.debug();
        return d.mode === "playing" && d.events > 0;
      });
      await page.locator("[data-testid=embed-button]").first().click();
      const dlg = page.locator("[data-testid=embed-dialog][open]");
      await dlg.waitFor({ state: "visible" });
      const iframe = await dlg.locator("[data-testid=embed-snippet]").inputValue();
      const element = await dlg.locator("[data-testid=embed-element]").inputValue();
      assert.match(iframe, /[?&;]ev=\d+/, `the iframe snippet has the moment: ${iframe}`);
      assert.match(element, /\bev="\d+"/, `the element snippet has the moment: ${element}`);
      assert.deepEqual(errors, []);
    } finally {
      await page.close();
    }
  });

  test("inside an embedded figure (a 390x560 iframe): Close is in view, Copy selects the snippet", async () => {
    const page = await shared.browser.newPage({ viewport: { width: 420, height: 700 } });
    const errors = watchErrors(page);
    try {
      const src = `${baseUrl}/www/index.html?embed=1&preset=seed000-hot4485-b2b&view=strip&at=batch`;
      await page.setContent(`<!doctype html><meta charset="utf-8"><body style="margin:0"><iframe src="${src}" title="figure" style="display:block;border:0;width:390px;height:560px"></iframe>`);
      const frame = page.frameLocator("iframe");
      await frame.locator("[data-testid=embed-button]").first().click();
      const dlg = frame.locator("[data-testid=embed-dialog][open]");
      await dlg.waitFor({ state: "visible" });
      const box = await page.locator("iframe").boundingBox();
      const close = await dlg.locator("[data-testid=embed-close]").boundingBox();
      assert.ok(close && close.y >= box.y && close.y + close.height <= box.y + box.height, `Close within the iframe: ${JSON.stringify(close)} in ${JSON.stringify(box)}`);
      const d = await dlg.boundingBox();
      assert.ok(d.y >= box.y && d.y + d.height <= box.y + box.height + 1, `the dialog within the iframe: ${JSON.stringify(d)}`);
      await dlg.locator('[data-dlg="copy-iframe"]').click();
      const out = dlg.locator('[data-dlg="copy-iframe"] + .mp-copied');
      await frame.locator('.mp-copied[data-copy]').first().waitFor();
      const how = await out.getAttribute("data-copy");
      const text = await out.textContent();
      assert.ok(["clipboard", "command", "selected"].includes(how), `copied or selected: ${how} (${text})`);
      if (how !== "clipboard") {
        const sel = await dlg.locator("[data-testid=embed-snippet]").evaluate((t) => [t.selectionStart, t.selectionEnd, t.value.length, document.activeElement === t]);
        assert.deepEqual(sel, [0, sel[2], sel[2], true], "the whole snippet selected for the reader's copy");
      }
      assert.deepEqual(errors, []);
    } finally {
      await page.close();
    }
  });
});

// ---- the lab's write path and policies, and the article's Beyond figures ---------------------
//
// Each has its own Embed button; its iframe snippet, pasted into a page of another origin (a
// second loopback port), renders that figure alone, fitted to the snippet's height, its
// settings carried in the snippet's URL; its element snippet too (the figures' host sends CORS
// headers: tests/browser/static-server.mjs, as docs/embedding.md's recipe asks).
describe("the write path, the policies and the Beyond figures embed", () => {
  let host = null;
  let figures = "";
  before(async () => {
    ({ origin: figures, proc: host } = await staticHost(["--port", process.env.MIDPOINT_FIGURES_PORT ?? "0"]));
  });
  after(() => host?.kill());

  /** Serves `html` at / on another loopback port (MIDPOINT_POST_PORT, else a free one). */
  async function postServer(html) {
    const server = createServer((req, res) => {
      if (req.url === "/" || req.url.startsWith("/?")) res.writeHead(200, { "Content-Type": "text/html; charset=utf-8" }).end(html);
      else res.writeHead(404).end();
    });
    server.listen(Number(process.env.MIDPOINT_POST_PORT ?? 0), "127.0.0.1");
    await once(server, "listening");
    return { server, url: `http://127.0.0.1:${server.address().port}/` };
  }

  // A short run of the small demo for the policies (ten simulations in one worker, seconds).
  const tiny = "preset=small-demo&scan_s=20&warmup_s=5&kept_window_s=10";
  const CASES = [
    {
      view: "write",
      page: "/www/lab.html?autoplay=0",
      figure: "[data-testid=write-figure]",
      // A setting of the figure's own, which the snippet must carry.
      set: async (page) => {
        await page.locator("[data-testid=write-figure] select[data-wctl=preset]").selectOption("seed003-rw-tuned");
      },
      src: /view=write&write_preset=seed003-rw-tuned&write_depth=\d+&write_pages=\d+/,
      drawn: (r) => {
        const f = r.querySelector("[data-testid=write-figure]");
        const c = f?.querySelector("canvas.mp-wdepth");
        return f?.dataset.writePreset === "seed003-rw-tuned" && c && c.dataset.minFontPx !== "none" && f.querySelector(".mp-legend li") !== null;
      },
    },
    {
      view: "policies",
      page: `/www/lab.html?autoplay=0&${tiny}&lru_scan_depth=256`,
      figure: "[data-testid=policy-figure]",
      src: /view=policies/,
      also: /lru_scan_depth=256/,
      drawn: (r) => r.querySelector("[data-testid=policy-figure] [data-act=policies]") !== null,
      // Its figure is computed on request: press Compare in the embed and wait for the bars.
      run: async (scope) => {
        await scope.locator("[data-testid=policy-figure] [data-act=policies]").click();
        await scope.locator("[data-testid=policy-canvas][data-drawn='10']").waitFor({ timeout: 90_000 });
      },
    },
    {
      view: "pair",
      page: "/www/index.html",
      figure: "[data-beyond=pair]",
      set: async (page) => {
        const sel = page.locator("[data-beyond=pair] select[data-act=whatif]");
        await page.waitForFunction(() => document.querySelectorAll("[data-beyond=pair] select[data-act=whatif] option").length > 1);
        const other = await sel.evaluate((s) => [...s.options].find((o) => !o.selected && o.value !== "stock")?.value ?? s.value);
        await sel.selectOption(other);
        return other;
      },
      src: /view=pair&whatif=[\w-]+/,
      drawn: (r, want) => {
        const f = r.querySelector("[data-beyond=pair]");
        const c = f?.querySelector("canvas[data-side='0']");
        return f?.dataset.eventsStock !== undefined && f.dataset.whatif === want && c?.dataset.minFontPx !== "none" && f.querySelector("[data-testid=figure-key] li") !== null;
      },
    },
    {
      view: "scale",
      page: "/www/index.html",
      figure: "[data-beyond=scale]",
      src: /view=scale/,
      drawn: (r) => r.querySelector("[data-beyond=scale] canvas[data-points]") !== null,
    },
    {
      view: "phase",
      page: "/www/index.html",
      figure: "[data-beyond=phase]",
      src: /view=phase/,
      drawn: (r) => {
        const c = r.querySelector("[data-beyond=phase] canvas");
        return c && c.dataset.minFontPx !== undefined && c.dataset.minFontPx !== "none";
      },
    },
  ];

  for (const c of CASES) {
    test(`${c.view}: its Embed button's iframe and element snippets render it on another origin`, async () => {
      const context = await shared.browser.newContext({ viewport: { width: 900, height: 900 } });
      let server = null;
      try {
        // The figure on its page, its Embed button, the dialog's snippets.
        const page = await context.newPage();
        const errors = watchErrors(page);
        await page.goto(`${figures}${c.page}`);
        await page.waitForFunction(() => document.documentElement.dataset.midpointReady === "1", null, { timeout: 30_000 });
        const fig = page.locator(c.figure).first();
        await fig.scrollIntoViewIfNeeded();
        const want = (await c.set?.(page)) ?? null;
        const button = fig.locator("[data-testid=embed-button]");
        assert.equal(await button.count(), 1, `the ${c.view} figure has one Embed button`);
        await button.click();
        const dlg = page.locator("[data-testid=embed-dialog][open]");
        await dlg.waitFor({ state: "visible" });
        const iframe = await dlg.locator("[data-testid=embed-snippet]").inputValue();
        const element = await dlg.locator("[data-testid=embed-element]").inputValue();
        const src = iframe.match(/ src="([^"]+)"/)?.[1].replaceAll("&amp;", "&") ?? "";
        assert.match(src, c.src, iframe);
        if (c.also) assert.match(src, c.also, iframe);
        if (want) assert.ok(src.includes(`whatif=${want}`), `the snippet carries the patch shown (${want}): ${src}`);
        assert.match(src, /[?&]embed=1/, src);
        const height = Number(iframe.match(/ height="(\d+)"/)?.[1]);
        assert.ok(height >= 400 && height <= 800, `a height from the heights table: ${height}`);
        assert.match(element, new RegExp(`<midpoint-explainer\\s[^>]*view="${c.view}"`), element);
        assert.deepEqual(errors, [], `errors on the figure's page:\n${errors.join("\n")}`);
        await page.close();

        // A post on another origin with both snippets.
        const html = `<!doctype html><html><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>A post</title></head><body style="margin:0 auto;max-width:820px;padding:8px"><p>The figure, in an iframe:</p>${iframe}<p>And as an element:</p>${element}</body></html>`;
        const post = await postServer(html);
        server = post.server;
        assert.notEqual(new URL(post.url).origin, new URL(figures).origin, "the post is on another origin");
        const p = await context.newPage();
        const perrors = watchErrors(p);
        await p.goto(post.url);
        const frameEl = p.locator("iframe").first();
        await frameEl.scrollIntoViewIfNeeded();
        const frame = await (await frameEl.elementHandle()).contentFrame();
        await frame.waitForFunction(`(${c.drawn})(document, ${JSON.stringify(want)})`, null, { timeout: 60_000, polling: 100 });
        // That figure alone, filling the iframe's height with nothing outside it.
        const fit = await frame.evaluate((sel) => {
          // The box: the widget's root (its panel scrolls inside it) or the Beyond figure.
          const f = document.querySelector(sel).closest("[data-testid=midpoint-widget]") ?? document.querySelector(sel);
          const r = f.getBoundingClientRect();
          return { others: document.querySelectorAll("[data-beyond], [data-testid=write-figure], [data-testid=policy-figure]").length, top: r.top, bottom: r.bottom, inner: innerHeight, scrollW: document.documentElement.scrollWidth, w: innerWidth, scrollH: document.documentElement.scrollHeight };
        }, c.figure);
        assert.equal(fit.others, 1, `only the ${c.view} figure in the iframe`);
        assert.ok(fit.top >= 0 && fit.bottom <= fit.inner + 1, `the figure within its iframe: ${JSON.stringify(fit)}`);
        assert.ok(fit.scrollH <= fit.inner + 1 && fit.scrollW <= fit.w, `the embed page does not scroll: ${JSON.stringify(fit)}`);
        if (c.run) await c.run(p.frameLocator("iframe").first());
        // The element, in the post's own page.
        const el = p.locator("midpoint-explainer").first();
        await el.scrollIntoViewIfNeeded();
        await p.waitForFunction(`(() => { const r = document.querySelector("midpoint-explainer")?.shadowRoot; return !!r && (${c.drawn})(r, ${JSON.stringify(want)}); })()`, null, { timeout: 60_000, polling: 200 });
        assert.deepEqual(perrors, [], `errors on the post:\n${perrors.join("\n")}`);
      } finally {
        await context.close();
        server?.close();
      }
    });
  }
});

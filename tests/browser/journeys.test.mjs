// Three users' paths, each from the first screen to its goal, in headless Chromium:
//   the blogger: the article's refill figure → Embed → the iframe snippet pasted into a static
//     post on another site → it renders, fills its iframe within 8 px, asks nothing of any host
//     but its own, and keeps working offline;
//   the student: the first screen in the scan phase → Watch a refill → the boundary moves, and
//     the caption's numbers are the counters';
//   the reader: the slider under the residency figure → its curve and band change; the sweep
//     drawn without a click.
// With MIDPOINT_SHOTS=1 each journey's end is saved (journey-*.png, tests/browser/shots.mjs).
import assert from "node:assert/strict";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, test } from "node:test";
import { baseUrl, debugOf, painted, pageReady, useBrowser } from "./helpers.mjs";
import { shot } from "./shots.mjs";

const shared = useBrowser();
const artifacts = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "artifacts");
// The post lives on another origin than the figure: the same server under another name (a
// public test host would meet Chromium's checks on pages reaching a loopback address).
const postBase = baseUrl.includes("127.0.0.1") ? baseUrl.replace("127.0.0.1", "localhost") : baseUrl.replace("localhost", "127.0.0.1");
const shots = process.env.MIDPOINT_SHOTS === "1";
const num = (s) => Number(String(s).replaceAll(",", ""));

function watchErrors(page) {
  const errors = [];
  page.on("console", (m) => m.type() === "error" && errors.push(`console: ${m.text()}`));
  page.on("pageerror", (e) => errors.push(`page: ${e.message}`));
  return errors;
}

describe("journeys", () => {
  for (const vp of [
    { width: 1366, height: 768 },
    { width: 390, height: 844 },
  ]) {
    test(`the blogger at ${vp.width}: the refill figure's iframe snippet in a static post renders, fits, stays on its host, works offline`, async () => {
      const context = await shared.browser.newContext({ viewport: vp });
      const page = await context.newPage();
      const errors = watchErrors(page);
      try {
        await page.goto(`${baseUrl}/www/index.html`);
        await pageReady(page);
        // The article's refill figure, and its Embed button.
        const fig = page.locator('.explain [data-midpoint][data-query*="at=batch"]').first();
        await fig.scrollIntoViewIfNeeded();
        await fig.locator("[data-testid=embed-button]").click();
        const dlg = page.locator("[data-testid=embed-dialog][open]");
        await dlg.waitFor({ state: "visible" });
        const snippet = await dlg.locator("[data-testid=embed-snippet]").inputValue();
        await page.keyboard.press("Escape");
        const height = Number(snippet.match(/height="(\d+)"/)[1]);
        const src = new URL(snippet.match(/src="([^"]+)"/)[1].replaceAll("&amp;", "&"));
        assert.equal(src.searchParams.get("view"), "strip");
        assert.equal(src.searchParams.get("embed"), "1");
        // A static post on another site, the snippet pasted as is (no script of the post).
        const post = `<!doctype html><html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><link rel="icon" href="data:,"><title>A post</title>
          <style>body { font: 17px/1.6 Georgia, serif; max-width: 720px; margin: 0 auto; padding: 16px; }</style></head>
          <body><h1>Why my buffer pool forgets its hot pages</h1><p>Here is the moment the scan gets in:</p>${snippet}<p>The end.</p></body></html>`;
        const host = src.host;
        await mkdir(artifacts, { recursive: true });
        await writeFile(path.join(artifacts, `blog-post-${vp.width}.html`), post);
        const postUrl = `${postBase}/tests/browser/artifacts/blog-post-${vp.width}.html`;
        const postHost = new URL(postUrl).host;
        assert.notEqual(postHost, host, "the post and the figure on two origins");
        const requests = [];
        const blog = await context.newPage();
        const blogErrors = watchErrors(blog);
        blog.on("request", (r) => requests.push(r.url()));
        await blog.goto(postUrl);
        await blog.locator("iframe").scrollIntoViewIfNeeded();
        const frame = blog.frames().find((f) => f !== blog.mainFrame());
        await frame.waitForFunction(() => document.documentElement.dataset.midpointReady === "1", null, { timeout: 20_000 });
        // At its opening moment (just after the batch), published and drawn.
        await frame.waitForFunction(() => document.querySelector("[data-testid=midpoint-widget]").dataset.atMoment === "1" && window.__midpoint.debug()?.after_batch === true, null, { timeout: 30_000 });
        await painted(frame);
        // It renders: the close-up is drawn, with its key.
        const m = await frame.evaluate(() => {
          const root = document.querySelector("[data-testid=midpoint-widget]");
          const strip = document.querySelector("[data-testid=boundary-strip]");
          return {
            h: root.getBoundingClientRect().height,
            scroll: document.documentElement.scrollHeight,
            inner: innerHeight,
            strip: strip.getBoundingClientRect().height,
            drawn: strip.dataset.minFontPx,
            key: !!document.querySelector("[data-testid=figure-key]")?.checkVisibility(),
          };
        });
        const iframeH = await blog.locator("iframe").evaluate((f) => f.getBoundingClientRect().height);
        assert.equal(iframeH, height, "the post keeps the snippet's height");
        assert.ok(Math.abs(m.h - iframeH) <= 8, `the figure is ${m.h} px in a ${iframeH} px iframe`);
        assert.ok(m.scroll <= m.inner + 1, `the iframe scrolls: ${m.scroll} > ${m.inner}`);
        assert.ok(m.strip > 100 && m.drawn === "12" && m.key, JSON.stringify(m));
        // Nothing asked of any host but the post's and the figure's own.
        const off = requests.filter((u) => u !== postUrl && new URL(u).host !== host && !u.startsWith("data:") && !u.startsWith("blob:"));
        assert.deepEqual(off, [], "requests off the figure's host");
        // Offline, it keeps working: Watch runs the refill and its drain, with no request.
        await context.setOffline(true);
        const before = requests.length;
        const ev = Number(await frame.locator("[data-testid=midpoint-widget]").getAttribute("data-event"));
        await frame.locator("[data-testid=watch-refill]").click();
        await frame.waitForFunction((ev) => Number(document.querySelector("[data-testid=midpoint-widget]").dataset.event) > ev + 100, ev, { timeout: 20_000 });
        await frame.locator("[data-act=step-boundary]").click();
        assert.deepEqual(requests.slice(before), [], "requests while offline");
        if (shots) {
          await frame.waitForFunction(() => document.querySelector("[data-testid=midpoint-widget]").dataset.mode === "paused", null, { timeout: 30_000 });
          await blog.screenshot({ path: shot(`journey-blogger-${vp.width}.png`) });
        }
        assert.deepEqual([...errors, ...blogErrors], []);
      } finally {
        await context.close();
      }
    });

    test(`the student at ${vp.width}: the first screen in the scan phase, Watch a refill, the boundary moves, the caption's numbers are the counters'`, async () => {
      const page = await shared.browser.newPage({ viewport: vp, reducedMotion: "no-preference" });
      const errors = watchErrors(page);
      try {
        await page.goto(`${baseUrl}/www/index.html`);
        const root = page.locator("[data-midpoint]").first();
        const top = await root.evaluate((e) => e.getBoundingClientRect().top);
        assert.ok(top + 150 <= vp.height, `the first figure at ${top} px`);
        await page.waitForFunction(() => document.querySelector("[data-midpoint]").dataset.phase === "scan", null, { timeout: 5_000 });
        // The opening refill plays by itself; the student then watches the next one.
        await page.waitForFunction(() => document.querySelector("[data-midpoint]").dataset.mode === "paused" && window.__midpoint?.debug(document.querySelector("[data-midpoint]"))?.refills >= 1, null, { timeout: 60_000 });
        const watch = root.locator("[data-testid=watch-refill]");
        assert.ok(await watch.isVisible(), "Watch is on the first screen's figure");
        const refills0 = (await debugOf(page, "[data-midpoint]")).refills;
        await watch.click();
        // Where LRU_old is, every frame until the drain ends.
        const seen = await page.evaluate(
          () =>
            new Promise((resolve) => {
              const r = document.querySelector("[data-midpoint]");
              const pos = new Set();
              const t0 = performance.now();
              let began = false;
              const tick = () => {
                if (r.dataset.lruOld) pos.add(r.dataset.lruOld);
                if (r.dataset.mode !== "paused") began = true;
                if ((began && r.dataset.mode === "paused") || performance.now() - t0 > 60_000) resolve([...pos]);
                else requestAnimationFrame(tick);
              };
              requestAnimationFrame(tick);
            }),
        );
        assert.ok(seen.length > 20, `the boundary took ${seen.length} positions`);
        const st = await debugOf(page, "[data-midpoint]");
        assert.equal(st.refills, refills0 + 1, "one more refill");
        assert.equal(st.free, 0, "its drain ran to the end");
        // The caption's numbers are the counters'.
        const nums = await root.evaluate((r) => {
          const cap = r.querySelector("[data-testid=strip-caption]").textContent;
          const k = (key) => r.querySelector(`[data-k="${key}"]`).textContent;
          return { cap, demoted: cap.match(/it turned ([\d,]+) pages? old/)?.[1], hot: cap.match(/([\d,]+) of them hot pages?/)?.[1], young: cap.match(/has turned ([\d,]+) pages? young/)?.[1], counters: [k("demoted"), k("demoted-hot"), k("young-since")] };
        });
        assert.deepEqual([num(nums.demoted), num(nums.hot), num(nums.young)], nums.counters.map(num), nums.cap);
        assert.ok(num(nums.young) > 300, nums.cap);
        if (shots) {
          await root.scrollIntoViewIfNeeded();
          await page.screenshot({ path: shot(`journey-student-${vp.width}.png`) });
        }
        assert.deepEqual(errors, []);
      } finally {
        await page.close();
      }
    });
  }

  test("the reader at 1366: the slider under the residency figure changes its curve and band; the sweep is drawn without a click", async () => {
    const page = await shared.browser.newPage({ viewport: { width: 1366, height: 768 } });
    const errors = watchErrors(page);
    try {
      await page.goto(`${baseUrl}/www/index.html`);
      await pageReady(page);
      const fig = page.locator('.explain figure:has(> [data-midpoint][data-query*="view=residency"])');
      await fig.scrollIntoViewIfNeeded();
      const root = fig.locator("[data-midpoint]");
      const plot = fig.locator("[data-testid=residency-plot]");
      // The five runs and their band, then the picture.
      // The five runs and their band drawn, and the caption over all five.
      const allIn = (r) => r.querySelector("[data-testid=residency-plot]")?.dataset.bandRuns === "5" && r.querySelector("[data-testid=run-caption]")?.dataset.runsDone === "5";
      await page.waitForFunction(allIn, await root.elementHandle(), { timeout: 120_000, polling: 200 });
      const before = { png: await plot.evaluate((c) => c.toDataURL()), cap: await fig.locator("[data-testid=run-caption]").textContent() };
      // The slider under it, from the keyboard.
      const slider = fig.locator('input[data-param="lru_scan_depth"]');
      await slider.focus();
      // The new setting's five runs in (midpoint-ensemble), then the plot drawn from them with
      // their band (each drawing sends midpoint-residency).
      const done = root.evaluate(
        (r) =>
          new Promise((res) =>
            r.addEventListener(
              "midpoint-ensemble",
              () => {
                const drawn = (e) => {
                  if (e.detail.band !== 5) return;
                  r.removeEventListener("midpoint-residency", drawn);
                  res();
                };
                r.addEventListener("midpoint-residency", drawn);
              },
              { once: true },
            ),
          ),
      );
      await page.keyboard.press("ArrowLeft");
      await page.keyboard.press("ArrowLeft");
      await done;
      await page.waitForFunction(allIn, await root.elementHandle(), { timeout: 60_000 });
      const after = { png: await plot.evaluate((c) => c.toDataURL()), cap: await fig.locator("[data-testid=run-caption]").textContent() };
      assert.notEqual(after.png, before.png, "the curve and its band changed");
      assert.match(after.cap, /The model kept: \d+ % \(\d+-\d+ % over 5 runs\)/);
      assert.match(after.cap, /nobody measured/, "a setting nobody measured says so");
      // The band's pixels moved, not only the cursor: the plot's light-orange pixels differ.
      const band = await plot.evaluate((c, prev) => {
        const img = new Image();
        return new Promise((res) => {
          img.onload = () => {
            const o = new OffscreenCanvas(c.width, c.height).getContext("2d");
            o.drawImage(img, 0, 0);
            const a = o.getImageData(0, 0, c.width, c.height).data;
            const b = c.getContext("2d").getImageData(0, 0, c.width, c.height).data;
            let changed = 0;
            for (let i = 0; i < a.length; i += 4) {
              const orangeA = a[i] > 200 && a[i + 1] > 120 && a[i + 2] < 170 && a[i] - a[i + 2] > 40;
              const orangeB = b[i] > 200 && b[i + 1] > 120 && b[i + 2] < 170 && b[i] - b[i + 2] > 40;
              if (orangeA !== orangeB) changed++;
            }
            res(changed);
          };
          img.src = prev;
        });
      }, before.png);
      assert.ok(band > 500, `${band} band pixels changed`);
      // The sweep, drawn at once when it comes into view.
      const sweep = page.locator('.explain figure:has(> [data-midpoint][data-query*="view=sweep"])');
      await sweep.scrollIntoViewIfNeeded();
      const t0 = Date.now();
      await page.waitForFunction((f) => Number(f.querySelector("[data-testid=sweep-plot]")?.dataset.points) > 0, await sweep.elementHandle(), { timeout: 3_000 });
      assert.ok(Date.now() - t0 < 3_000);
      if (shots) {
        await fig.scrollIntoViewIfNeeded();
        await page.screenshot({ path: shot("journey-reader-1366.png") });
      }
      assert.deepEqual(errors, []);
    } finally {
      await page.close();
    }
  });
});

// The classroom's handout (lab.html?view=handout) as a photocopier gets it: printed to PDF it is
// two full A4 pages (the figures on the first, the questions on the second, neither half
// empty); under print media every text is 8 pt or more, and so are the close-up's labels inside
// the images as printed (HANDOUT_LABEL_PX scaled to the image's printed width); the images
// include the moment just after the batch; and their palette tells hot from scan pages without
// colour (projector mode: hot pages dotted, orange and blue apart in luminance by more than 1.4).
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { test } from "node:test";
import { HANDOUT_LABEL_PX } from "../../www/handout.js";
import { openPage, useBrowser } from "./helpers.mjs";

const shared = useBrowser();
const PT8 = 8 * (96 / 72);
// A4 less the 12 mm margins (page.css @page), CSS px.
const PAGE_W = Math.floor(((210 - 24) / 25.4) * 96);
const PAGE_H = Math.floor(((297 - 24) / 25.4) * 96);

function luminance(hex) {
  const c = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255).map((v) => (v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4));
  return 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2];
}

test("the handout prints to two full A4 pages, text and image labels at 8 pt or more", async () => {
  const { page, errors } = await openPage(shared.browser, "/www/lab.html?view=handout", { viewport: { width: PAGE_W, height: PAGE_H } });
  try {
    await page.waitForSelector("[data-testid=handout]");
    await page.waitForFunction(() => document.images.length > 0 && [...document.images].every((i) => i.complete && i.naturalWidth > 0), null, { timeout: 15_000 });
    const pdf = await page.pdf({ format: "A4", preferCSSPageSize: true });
    const pages = (pdf.toString("latin1").match(/\/Type\s*\/Page[^s]/g) ?? []).length;
    assert.equal(pages, 2, `${pages} A4 pages`);

    await page.emulateMedia({ media: "print" });
    const m = await page.evaluate((labelPx) => {
      const small = [];
      for (const e of document.querySelectorAll(".handout *")) {
        if (![...e.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim())) continue;
        const f = parseFloat(getComputedStyle(e).fontSize);
        small.push([f, e.textContent.trim().slice(0, 30)]);
      }
      const imgs = [...document.images].map((i) => ({ src: i.getAttribute("src"), label: (labelPx * i.getBoundingClientRect().width) / i.naturalWidth }));
      const top = document.querySelector(".handout").getBoundingClientRect().top;
      const qs = document.querySelector(".handout-qs").getBoundingClientRect();
      const end = document.querySelector(".handout").getBoundingClientRect().bottom;
      return { fonts: small, imgs, page1: qs.top - top, page2: end - qs.top };
    }, HANDOUT_LABEL_PX);
    for (const [f, t] of m.fonts) assert.ok(f >= PT8 - 0.01, `"${t}" prints at ${(f * 72) / 96} pt`);
    assert.ok(m.imgs.length >= 4, `${m.imgs.length} images`);
    for (const i of m.imgs) assert.ok(i.label >= PT8, `${i.src}: its labels print at ${((i.label * 72) / 96).toFixed(1)} pt`);
    assert.ok(m.imgs.some((i) => /batch/.test(i.src)), "the moment just after the batch is shown");
    assert.ok(m.page1 <= PAGE_H && m.page1 >= 0.7 * PAGE_H, `page 1 holds ${Math.round(m.page1)} of ${PAGE_H} px`);
    assert.ok(m.page2 <= PAGE_H && m.page2 >= 0.7 * PAGE_H, `page 2 holds ${Math.round(m.page2)} of ${PAGE_H} px`);

    // The images' palette: projector mode's (page.css), hot pages dotted.
    const css = await readFile(new URL("../../www/page.css", import.meta.url), "utf8");
    const block = /\[data-projector="1"\]\s*\{([^}]*)\}/.exec(css)[1];
    const v = (name) => new RegExp(`${name}:\\s*(#[0-9a-f]{6})`, "i").exec(block)[1];
    assert.match(block, /--hot-dots:\s*1/);
    for (const [a, b] of [["--k1", "--k3"], ["--t1", "--t3"], ["--k1", "--t3"]]) {
      const [la, lb] = [luminance(v(a)), luminance(v(b))];
      const ratio = (Math.max(la, lb) + 0.05) / (Math.min(la, lb) + 0.05);
      assert.ok(ratio > 1.4, `${a} and ${b} differ by ${ratio.toFixed(2)}:1 in luminance`);
    }
    // The images are painted in it: the hot orange and the dots' black both present.
    const counts = await page.evaluate(async (k1) => {
      const img = document.images[0];
      const c = document.createElement("canvas");
      c.width = img.naturalWidth;
      c.height = img.naturalHeight;
      const ctx = c.getContext("2d");
      ctx.drawImage(img, 0, 0);
      const d = ctx.getImageData(0, 0, c.width, c.height).data;
      const want = [1, 3, 5].map((i) => parseInt(k1.slice(i, i + 2), 16));
      let hot = 0;
      let dots = 0;
      for (let i = 0; i < d.length; i += 4) {
        if (Math.abs(d[i] - want[0]) + Math.abs(d[i + 1] - want[1]) + Math.abs(d[i + 2] - want[2]) < 12) hot++;
        // A dot: a dark pixel with the hot orange two pixels to its left and right.
        const w = c.width * 4;
        if (d[i] < 40 && d[i + 1] < 40 && d[i + 2] < 40 && i % w >= 16 && i % w < w - 16) {
          const l = i - 12;
          const r = i + 12;
          if (d[l] > 150 && d[l + 2] < 60 && d[r] > 150 && d[r + 2] < 60) dots++;
        }
      }
      return { hot, dots };
    }, v("--k1"));
    assert.ok(counts.hot > 1000, `${counts.hot} pixels of the hot set's orange`);
    assert.ok(counts.dots > 50, `${counts.dots} dot pixels in hot cells`);
    assert.deepEqual(errors, []);
  } finally {
    await page.close();
  }
});

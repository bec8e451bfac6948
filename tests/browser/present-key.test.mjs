// The presentation's colour key (lab.html?view=present, [data-testid=present-key]) on every beat,
// in light, dark and projector mode (P, projector=1): each swatch is painted in the colour the
// close-up's painter uses (paint-strip.js, stripColours: the CSS custom properties) and its words
// name that colour (in dark mode the rings the boundary turned young are drawn yellow, and the
// key says yellow).
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { baseUrl, openPage, pageReady, useBrowser } from "./helpers.mjs";

const shared = useBrowser();
const W = "[data-testid=midpoint-widget]";

function beatDrawn(page, n) {
  return page.waitForFunction(([s, n]) => {
    const r = document.querySelector(s);
    return r.dataset.tour === String(n) && !r.dataset.seeking;
  }, [W, n], { timeout: 60_000, polling: 50 });
}

/** The key's swatches against the painter's colours: [{role, drawn, painter, words}]. */
function readKey(page) {
  return page.evaluate((s) => {
    const root = document.querySelector(s);
    const key = root.querySelector("[data-testid=present-key]");
    if (!key || key.getBoundingClientRect().height === 0) return null;
    const probe = document.createElement("div");
    document.body.append(probe);
    const rgb = (c) => {
      probe.style.color = c;
      return getComputedStyle(probe).color;
    };
    const v = (name) => rgb(getComputedStyle(root).getPropertyValue(name).trim());
    const want = { hot: ["--k1", "background"], scan: ["--k3", "background"], "ring-young": ["--ring-young", "ring"], "ring-old": ["--ring-old", "ring"], flash: ["--flash", "bar"] };
    const out = [];
    for (const [role, [prop, how]] of Object.entries(want)) {
      const sw = key.querySelector(`[data-role="${role}"]`);
      if (!sw) {
        out.push({ role, missing: true });
        continue;
      }
      const cs = getComputedStyle(sw);
      const drawn = how === "background" ? cs.backgroundColor : how === "ring" ? /rgba?\([^)]*\)/.exec(cs.boxShadow)?.[0] : /rgba?\([^)]*\)/.exec(cs.backgroundImage)?.[0];
      out.push({ role, drawn, painter: v(prop), words: sw.parentElement.textContent });
    }
    probe.remove();
    return out;
  }, W);
}

function checkKey(k, at, names) {
  assert.ok(k, `${at}: no colour key shown`);
  for (const e of k) {
    assert.ok(!e.missing, `${at}: no swatch for ${e.role}`);
    assert.equal(e.drawn, e.painter, `${at}: the ${e.role} swatch is not the painter's colour`);
    if (names[e.role]) assert.match(e.words, new RegExp(`^${names[e.role]}\\b`), `${at}: the ${e.role} entry says "${e.words}"`);
  }
}

describe("the presentation's colour key", () => {
  for (const scheme of ["light", "dark"]) {
    test(`${scheme}: on every beat, swatches in the painter's colours, words naming them`, async () => {
      const page = await shared.browser.newPage({ viewport: { width: 1366, height: 768 }, colorScheme: scheme });
      try {
        await page.goto(`${baseUrl}/www/lab.html?view=present`);
        await pageReady(page);
        const names = { hot: "orange", scan: "blue", "ring-young": scheme === "dark" ? "yellow" : "black", "ring-old": "pink", flash: "yellow" };
        for (let beat = 1; beat <= 6; beat++) {
          if (beat > 1) await page.keyboard.press("ArrowRight");
          await beatDrawn(page, beat);
          checkKey(await readKey(page), `${scheme}, beat ${beat}`, names);
        }
      } finally {
        await page.close();
      }
    });
  }

  test("projector mode: P switches it on and into the address, the key follows; projector=1 opens in it", async () => {
    const { page, errors } = await openPage(shared.browser, "/www/lab.html?view=present", { viewport: { width: 1366, height: 768 } });
    try {
      await pageReady(page);
      await beatDrawn(page, 1);
      const before = await readKey(page);
      await page.keyboard.press("p");
      await page.waitForFunction((s) => document.querySelector(s).dataset.projector === "1", W);
      assert.match(page.url(), /[?&]projector=1\b/);
      const k = await readKey(page);
      checkKey(k, "projector", { hot: "orange", scan: "blue", "ring-young": "black", "ring-old": "pink", flash: "yellow" });
      assert.notEqual(k.find((e) => e.role === "scan").drawn, before.find((e) => e.role === "scan").drawn, "projector mode changes the palette");
      await page.keyboard.press("p");
      await page.waitForFunction((s) => !document.querySelector(s).dataset.projector, W);
      assert.doesNotMatch(page.url(), /projector=1/);
      await page.goto(page.url().replace("view=present", "view=present&projector=1"));
      await pageReady(page);
      await page.waitForFunction((s) => document.querySelector(s).dataset.projector === "1", W);
      assert.equal(await page.$eval("[data-act=projector]", (b) => b.getAttribute("aria-pressed")), "true");
      assert.deepEqual(errors, []);
    } finally {
      await page.close();
    }
  });
});

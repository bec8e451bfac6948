// The Embed dialog as a reader meets it: its snippets carry the moment shown while the figure
// plays, and inside an embedded figure (an iframe on a post) it fits the iframe and its Copy
// still gives the reader the snippet where the clipboard is refused.
import assert from "node:assert/strict";
import { describe, test } from "node:test";
import { baseUrl, useBrowser } from "./helpers.mjs";

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
      await page.waitForFunction(() => window.__midpoint?.debug?.().mode === "paused", null, { timeout: 20_000 });
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

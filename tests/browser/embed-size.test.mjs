// What a blog post's reader downloads for one embedded figure of the small module: the close-up
// and the pool grid embeds (lab.html?view=strip|grid&embed=1), served gzip-compressed as a static
// host serves them (tests/browser/static-server.mjs), must stay within 300 KB over the wire
// (response headers and encoded bodies of every request, the poster included), counted until
// the figure has reached its moment and the network is quiet. scripts/bench-embed.sh measures the
// same bytes on a throttled phone with timings; this test holds the size, which does not depend
// on the machine.
import assert from "node:assert/strict";
import { after, before, test } from "node:test";
import { staticHost, useBrowser } from "./helpers.mjs";

const LIMIT_KB = 300;
const shared = useBrowser();
let host;
let origin;

before(async () => {
  ({ origin, proc: host } = await staticHost());
});
after(() => host?.kill());

for (const path of ["/www/lab.html?view=strip&at=batch&embed=1", "/www/lab.html?view=grid&embed=1"]) {
  test(`${path} transfers at most ${LIMIT_KB} KB`, { timeout: 120_000 }, async () => {
    const context = await shared.browser.newContext({ viewport: { width: 390, height: 844 }, deviceScaleFactor: 3, isMobile: true });
    const requests = [];
    const pending = [];
    context.on("requestfinished", (req) => {
      pending.push(
        (async () => {
          const s = await req.sizes();
          const res = await req.response();
          requests.push({ path: new URL(req.url()).pathname, bytes: s.responseBodySize + s.responseHeadersSize, encoding: res?.headers()["content-encoding"] });
        })(),
      );
    });
    try {
      const page = await context.newPage();
      const errors = [];
      page.on("pageerror", (e) => errors.push(String(e)));
      await page.goto(origin + path);
      // The live figure at its moment (the poster gone), then no request for half a second.
      await page.waitForFunction(() => document.querySelector("[data-midpoint]")?.dataset.atMoment === "1", null, { timeout: 90_000, polling: 100 });
      await page.waitForLoadState("networkidle");
      await Promise.all(pending);
      assert.deepEqual(errors, []);
      const wasm = requests.find((r) => r.path.endsWith(".wasm"));
      assert.ok(wasm, "the module was fetched");
      assert.match(wasm.path, /\/pkg\/core\//, "the small module, not the full one");
      assert.equal(wasm.encoding, "gzip", "served compressed, as a static host does");
      const kb = requests.reduce((s, r) => s + r.bytes, 0) / 1024;
      const list = [...requests].sort((a, b) => b.bytes - a.bytes).map((r) => `${(r.bytes / 1024).toFixed(1)} KiB ${r.path}`);
      assert.ok(kb <= LIMIT_KB, `${kb.toFixed(1)} KB over the wire (limit ${LIMIT_KB}):\n  ${list.join("\n  ")}`);
    } finally {
      await context.close();
    }
  });
}

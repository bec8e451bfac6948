// Writes www/posters/*.webp: each embedded figure's opening moment, drawn by the page itself in
// headless Chromium (tests/browser/posters.mjs says which and how). MIDPOINT_URL is the served
// repository; scripts/posters.sh serves it and runs this. MIDPOINT_POSTERS (views, commas:
// "write,pair") writes only those figures' posters.
import { writeFile, mkdir } from "node:fs/promises";
import { launch } from "../tests/browser/helpers.mjs";
import { imageIn, posterColours, POSTERS, posterFile, shootLive } from "../tests/browser/posters.mjs";

const base = (process.env.MIDPOINT_URL ?? "http://127.0.0.1:8000").replace(/\/+$/, "");
const dir = new URL("../www/posters/", import.meta.url);
await mkdir(dir, { recursive: true });
const browser = await launch();
try {
  const only = (process.env.MIDPOINT_POSTERS ?? "").split(",").map((v) => v.trim()).filter(Boolean);
  for (const p of POSTERS) {
    if (only.length && !only.includes(p.name ?? p.view)) continue;
    const png = await shootLive(browser, base, p);
    const { webp, width, height } = await imageIn(browser, png, "image/png", { colours: posterColours(p) });
    const bytes = Buffer.from(webp, "base64");
    await writeFile(new URL(posterFile(p), dir), bytes);
    console.log(`posters: ${posterFile(p)} ${width}x${height} ${(bytes.length / 1024).toFixed(1)} KiB`);
  }
} finally {
  await browser.close();
}

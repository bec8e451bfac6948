// A static server of the repository that compresses as a static host does (GitHub Pages, Netlify,
// an nginx with gzip_static): each text or WASM response gzip-encoded (level 9) when the client
// accepts gzip, or brotli (quality 11) when it accepts br and --brotli is given; images and
// unknown types as they are; each with an ETag, so that a second request of a file (a worker
// importing the bindings the page already has) is answered 304 without a body, as those hosts
// answer a revalidation (Cache-Control: no-cache makes the browser ask). Bound to loopback. Used by scripts/bench-embed.sh to count the bytes
// a reader's browser receives.
//
//   node tests/browser/static-server.mjs [--port N] [--brotli]    (prints "listening PORT")
import { createHash } from "node:crypto";
import { createServer } from "node:http";
import { readdir, readFile, stat } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { brotliCompressSync, constants, gzipSync } from "node:zlib";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
const args = process.argv.slice(2);
const port = Number(args[args.indexOf("--port") + 1] || 0) || 0;
const brotli = args.includes("--brotli");

const TYPES = {
  ".html": "text/html; charset=utf-8",
  ".js": "text/javascript; charset=utf-8",
  ".mjs": "text/javascript; charset=utf-8",
  ".css": "text/css; charset=utf-8",
  ".json": "application/json",
  ".svg": "image/svg+xml",
  ".wasm": "application/wasm",
  ".png": "image/png",
  ".webp": "image/webp",
  ".txt": "text/plain; charset=utf-8",
  ".md": "text/plain; charset=utf-8",
};
const COMPRESSIBLE = new Set([".html", ".js", ".mjs", ".css", ".json", ".svg", ".wasm", ".txt", ".md"]);
// Compressed bodies by path and encoding: a static host compresses each file once.
const cache = new Map();

async function body(file, encoding) {
  const key = `${encoding}:${file}`;
  if (cache.has(key)) return cache.get(key);
  const raw = await readFile(file);
  const out =
    encoding === "br"
      ? brotliCompressSync(raw, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } })
      : encoding === "gzip"
        ? gzipSync(raw, { level: 9 })
        : raw;
  cache.set(key, out);
  return out;
}

const server = createServer(async (req, res) => {
  try {
    const url = new URL(req.url, "http://localhost");
    let file = path.normalize(path.join(root, decodeURIComponent(url.pathname)));
    if (!file.startsWith(root + path.sep)) {
      res.writeHead(403).end();
      return;
    }
    const s = await stat(file).catch(() => null);
    if (s?.isDirectory()) file = path.join(file, "index.html");
    const ext = path.extname(file);
    const accepts = String(req.headers["accept-encoding"] ?? "");
    const encoding = !COMPRESSIBLE.has(ext)
      ? null
      : brotli && /\bbr\b/.test(accepts)
        ? "br"
        : /\bgzip\b/.test(accepts)
          ? "gzip"
          : null;
    const data = await body(file, encoding);
    const etag = `"${createHash("sha1").update(data).digest("hex").slice(0, 16)}"`;
    // Any origin may fetch (a blog elsewhere loading the <midpoint-explainer> module and WASM).
    const headers = { "Content-Type": TYPES[ext] ?? "application/octet-stream", "Cache-Control": "no-cache", ETag: etag, "Access-Control-Allow-Origin": "*" };
    if (encoding) {
      headers["Content-Encoding"] = encoding;
      headers.Vary = "Accept-Encoding";
    }
    if (req.headers["if-none-match"] === etag) {
      res.writeHead(304, headers).end();
      return;
    }
    headers["Content-Length"] = data.length;
    res.writeHead(200, headers);
    res.end(req.method === "HEAD" ? undefined : data);
  } catch {
    if (!res.headersSent) res.writeHead(404);
    res.end();
  }
});
// A static host compresses ahead of time: so does this, for the page's own files, before it
// listens (compressing the module on its first request would count as network time).
for (const dir of ["www", "pkg"]) {
  for (const name of await readdir(path.join(root, dir), { recursive: true })) {
    const file = path.join(root, dir, name);
    if (!COMPRESSIBLE.has(path.extname(file)) || !(await stat(file)).isFile()) continue;
    await body(file, "gzip");
    if (brotli) await body(file, "br");
  }
}
server.listen(port, "127.0.0.1", () => console.log(`listening ${server.address().port}`));

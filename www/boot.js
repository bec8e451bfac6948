// Loads the WASM module once per page, for the full page (main.js) and for the
// <midpoint-explainer> element (embed.js) alike. The single-file build (scripts/build-single.sh)
// sets globalThis.MIDPOINT_INLINE = { wasm: base64, worker: source } before this runs: the
// module then compiles from those bytes, and workers start from a Blob URL of that source.
import init from "../pkg/midpoint.js";

let booted = null;

async function compile(inline) {
  if (inline) {
    const bin = atob(inline.wasm);
    const bytes = new Uint8Array(bin.length);
    for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
    return WebAssembly.compile(bytes);
  }
  // The module beside the bindings this page imports: pkg/ (the full module), or pkg/core/ when
  // the page's import map points the bindings there (lab.html, the close-up and grid embeds).
  const url = new URL("midpoint_bg.wasm", import.meta.resolve("../pkg/midpoint.js"));
  try {
    return await WebAssembly.compileStreaming(fetch(url));
  } catch {
    // A server that does not send application/wasm: compile from the bytes. A fetch that
    // fails here is said as such (the network or the server), not as a browser's shortcoming.
    let res;
    try {
      res = await fetch(url);
    } catch (e) {
      throw fetchFailed(url, e?.message ?? String(e));
    }
    if (!res.ok) throw fetchFailed(url, `the server answered ${res.status}`);
    return WebAssembly.compile(await res.arrayBuffer());
  }
}

function fetchFailed(url, why) {
  const e = new Error(`loading ${url.pathname ?? url} failed (${why})`);
  e.fetchFailed = true;
  return e;
}

/** The sentence a page shows when it could not start: a failed fetch says it failed. */
export function startFailure(e) {
  if (e?.fetchFailed) return `The simulator could not start: ${e.message}. Check the connection (or the server) and reload the page.`;
  return `The simulator could not start: ${e?.message ?? e}. It needs a browser with WebAssembly and ES modules.`;
}

/** Resolves to { wasm, module, workerModule, bindings, workerUrl, workerType, base, single, core } once
 *  the module is ready (core: the small module, pkg/core/, is the page's). */
export function boot() {
  booted ??= (async () => {
    if (typeof WebAssembly !== "object") throw new Error("this browser has no WebAssembly");
    const inline = globalThis.MIDPOINT_INLINE ?? null;
    const module = await compile(inline);
    const wasm = await init({ module_or_path: module });
    // The page's bindings (pkg/ or pkg/core/), for the run workers (worker.js) to load with the
    // module; workers need the full module (the small one has no runners) and fetch it
    // themselves when the page's is the small one.
    const bindings = inline ? undefined : import.meta.resolve("../pkg/midpoint.js");
    const core = !!bindings && new URL(bindings).pathname.endsWith("/pkg/core/midpoint.js");
    // A page cannot start a Worker from another origin's URL (a blog embedding the element from
    // this host): there the worker starts from a same-origin blob that imports worker.js.
    // (The single file's modules are data: URLs, against which no relative URL resolves.)
    const own = inline ? null : new URL("./worker.js", import.meta.url).href;
    const workerUrl = inline
      ? URL.createObjectURL(new Blob([inline.worker], { type: "text/javascript" }))
      : new URL(own).origin === location.origin
        ? own
        : URL.createObjectURL(new Blob([`import ${JSON.stringify(own)};`], { type: "text/javascript" }));
    // Where the full page lives, for embeds' links back to it (none in the single file).
    const base = inline ? null : new URL("./", import.meta.url).href;
    // The inline worker is a classic script: Chromium does not start module workers from the
    // blob: URL of a file:// page.
    const workerType = inline ? "classic" : "module";
    return { wasm, module, workerModule: core ? undefined : module, bindings, workerUrl, workerType, base, single: !!inline, core };
  })();
  return booted;
}

// Entry point of the full page: load the WASM module once, then start one widget per
// [data-midpoint] element.
import { boot } from "./boot.js";
import { MidpointApp } from "./app.js";

const roots = [...document.querySelectorAll("[data-midpoint]")];

function fail(msg) {
  for (const r of roots) {
    r.innerHTML = "";
    const p = document.createElement("p");
    p.className = "mp-alert";
    p.setAttribute("role", "alert");
    p.textContent = msg;
    r.append(p);
  }
}

try {
  const env = await boot();
  const apps = roots.map((root) => new MidpointApp(root, env));
  // A read-only hook for tests and the curious.
  window.__midpoint = { apps, debug: (i = 0) => apps[i]?.debug() };
  document.documentElement.dataset.midpointReady = "1";
} catch (e) {
  console.error(e);
  fail(`The simulator could not start: ${e?.message ?? e}. It needs a browser with WebAssembly and ES modules.`);
}

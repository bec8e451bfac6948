// Entry point: load the WASM module once, then start one widget per [data-midpoint] element.
import init from "../pkg/midpoint.js";
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

async function compile() {
  const url = new URL("../pkg/midpoint_bg.wasm", import.meta.url);
  try {
    return await WebAssembly.compileStreaming(fetch(url));
  } catch {
    // A server that does not send application/wasm: compile from the bytes.
    const res = await fetch(url);
    if (!res.ok) throw new Error(`${url} answered ${res.status}`);
    return WebAssembly.compile(await res.arrayBuffer());
  }
}

try {
  if (typeof WebAssembly !== "object") throw new Error("this browser has no WebAssembly");
  const module = await compile();
  const wasm = await init({ module_or_path: module });
  const apps = roots.map((root) => new MidpointApp(root, { wasm, module }));
  // A read-only hook for tests and the curious.
  window.__midpoint = { apps, debug: (i = 0) => apps[i]?.debug() };
  document.documentElement.dataset.midpointReady = "1";
} catch (e) {
  console.error(e);
  fail(`The simulator could not start: ${e?.message ?? e}. It needs a browser with WebAssembly and ES modules, served over http(s).`);
}

// TEMPORARY minimal page script: load the WASM module and report that it is ready.
import init, { version } from "../pkg/midpoint.js";

await init();
document.getElementById("status").textContent = `ready (midpoint v${version()})`;

// Native and WASM runs are bit-identical: for several presets, both committed modules (pkg/ and
// the close-up and grid embeds' small pkg/core/, each loaded with initSync, no browser) and the
// native CLI produce the same time-series CSV byte for byte and the same summary figures,
// compared as exact doubles.
//
//   node tests/wasm-identity.mjs            (after cargo build; scripts/test.sh runs it)
//   MIDPOINT_BIN=target/release/midpoint node tests/wasm-identity.mjs
//   (without MIDPOINT_BIN: $CARGO_TARGET_DIR/debug/midpoint, or target/debug/midpoint)
import { existsSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const targetDir = process.env.CARGO_TARGET_DIR
    ? resolve(process.cwd(), process.env.CARGO_TARGET_DIR)
    : `${root}target`;
const bin = process.env.MIDPOINT_BIN ?? resolve(targetDir, "debug", "midpoint");
if (!existsSync(bin)) {
    console.error(
        `wasm-identity: no native binary at ${bin}: run cargo build first (or set MIDPOINT_BIN)`,
    );
    process.exit(2);
}

// Shortened so that an unoptimized native build runs each in well under a second.
const shorten = { warmup_s: 10, scan_s: 20, kept_window_s: 15, sample_ms: 250 };
const flags = ["--warmup-s", "10", "--scan-s", "20", "--kept-window-s", "15", "--sample-ms", "250"];
const cases = [
    "seed000-hot4485-b2b", // warm start, back-to-back scans
    "seed000-hot224-pause500-t0", // pauses, old_blocks_time 0
    "seed000-hot4485-b2b-depth128",
    "seed000-cold", // cold start: a filler table first
    "small-demo",
];
// The summary fields RunData (the page's result) shares with the CLI's JSON.
const fields = [
    "kept",
    "slid_young_per_s",
    "promoted_per_s",
    "lookups_per_s",
    "lookups_per_s_warmup",
    "scan_pages_per_s",
    "refills_during_scan",
    "mean_refill_pages",
];

let failures = 0;
const nativeRuns = new Map();
// The presets' parameters as the full module lists them (the small one exports no list: its
// pages take the default preset or the address's).
const full = await import("../pkg/midpoint.js");
full.initSync({ module: readFileSync(new URL("../pkg/midpoint_bg.wasm", import.meta.url)) });
const all = full.presets();
for (const dir of ["pkg", "pkg/core"]) {
    const { initSync, Runner } = dir === "pkg" ? full : await import(`../${dir}/midpoint.js`);
    if (dir !== "pkg") initSync({ module: readFileSync(new URL(`../${dir}/midpoint_bg.wasm`, import.meta.url)) });
    for (const name of cases) {
        const preset = all.find((p) => p.name === name);
        if (!preset) {
            console.error(`FAIL ${dir} ${name}: not among the WASM presets`);
            failures++;
            continue;
        }
        const runner = new Runner({ ...preset.params, ...shorten });
        while (runner.advance(1_000_000) < 1) {}
        const wasmCsv = runner.samples_csv();
        const wasm = runner.result(1_000_000);
        if (!nativeRuns.has(name)) {
            nativeRuns.set(name, [
                execFileSync(bin, ["run", "--preset", name, ...flags, "--csv"], { encoding: "utf8" }),
                JSON.parse(execFileSync(bin, ["run", "--preset", name, ...flags, "--json"], { encoding: "utf8" })),
            ]);
        }
        const [nativeCsv, native] = nativeRuns.get(name);
        const diffs = [];
        if (wasmCsv !== nativeCsv) {
            const a = wasmCsv.split("\n");
            const b = nativeCsv.split("\n");
            const i = a.findIndex((line, k) => line !== b[k]);
            diffs.push(`CSV differs at line ${i + 1}:\n  wasm   ${a[i]}\n  native ${b[i]}`);
        }
        for (const f of fields) {
            if (!Object.is(wasm[f], native[f])) diffs.push(`${f}: wasm ${wasm[f]}, native ${native[f]}`);
        }
        if (!Object.is(Number(wasm.page_accesses), native.counters.page_gets)) {
            diffs.push(`page accesses: wasm ${wasm.page_accesses}, native ${native.counters.page_gets}`);
        }
        if (wasm.kept_window_s.some((v, k) => !Object.is(v, native.kept_window_s[k]))) {
            diffs.push(`kept_window_s: wasm ${wasm.kept_window_s}, native ${native.kept_window_s}`);
        }
        const rows = wasmCsv.split("\n").filter((l) => /^[0-9]/.test(l)).length;
        if (rows < 20) diffs.push(`only ${rows} CSV rows: the comparison would prove little`);
        if (diffs.length) {
            failures++;
            console.error(`FAIL ${dir} ${name}\n  ${diffs.join("\n  ")}`);
        } else {
            console.log(`ok   ${dir} ${name}: ${rows} CSV rows identical (${nativeCsv.length} bytes), summary identical, kept ${native.kept}`);
        }
    }
}
if (failures) {
    console.error(`${failures} of ${2 * cases.length} module runs differ from native`);
    process.exit(1);
}
console.log(`native and WASM (pkg/ and pkg/core/) identical on ${cases.length} presets`);

// The JS API (the committed pkg/, loaded with initSync, no browser) against the native CLI:
//   - presets() lists every read-only preset `midpoint presets --json` lists (none missing);
//   - a Runner given only an engine takes that engine's depth, as `--engine` and the URL do;
//   - seeds have one range, 0 to 2^53 - 1: the URL clamps a larger one to it (with a message),
//     the Runner and the CLI refuse it.
//
//   node tests/wasm-api.mjs       (after cargo build; scripts/test.sh runs it)
//   (the binary: $MIDPOINT_BIN, else $CARGO_TARGET_DIR/debug/midpoint, else target/debug/midpoint)
import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import { resolve } from "node:path";
import { execFileSync, spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { initSync, parse_query, presets, Runner } from "../pkg/midpoint.js";

const root = fileURLToPath(new URL("..", import.meta.url));
initSync({ module: readFileSync(new URL("../pkg/midpoint_bg.wasm", import.meta.url)) });
const targetDir = process.env.CARGO_TARGET_DIR
  ? resolve(process.cwd(), process.env.CARGO_TARGET_DIR)
  : `${root}target`;
const bin = process.env.MIDPOINT_BIN ?? resolve(targetDir, "debug", "midpoint");
if (!existsSync(bin)) {
  console.error(`wasm-api: no native binary at ${bin}: run cargo build first (or set MIDPOINT_BIN)`);
  process.exit(2);
}
const cli = (...args) => execFileSync(bin, args, { encoding: "utf8" });
const short = ["--warmup-s", "1", "--scan-s", "1", "--kept-window-s", "1"];
const shortJs = { warmup_s: 1, scan_s: 1, kept_window_s: 1 };
/** `# name=value` from a CSV header. */
const header = (csv, name) => csv.split("\n").find((l) => l.startsWith(`# ${name}=`))?.slice(name.length + 3);

// 1. The same read-only presets.
const native = JSON.parse(cli("presets", "--json"));
const readOnly = native.filter((p) => p.kind === "read-only").map((p) => p.name).sort();
const wasm = presets().map((p) => p.name).sort();
assert.ok(readOnly.length > 30, `only ${readOnly.length} read-only presets`);
assert.deepEqual(wasm, readOnly, "WASM presets() and `midpoint presets --json` (read-only)");
console.log(`ok   presets: the ${wasm.length} read-only presets on both sides`);

// 2. An engine alone brings its depth, as the CLI's --engine does.
const cliCsv = cli("run", "--engine", "mariadb-10.11", "--csv", ...short);
const cliDepth = header(cliCsv, "lru_scan_depth");
assert.equal(cliDepth, "1536");
const r = new Runner({ engine: "mariadb-10.11", ...shortJs });
assert.equal(header(r.samples_csv(), "lru_scan_depth"), cliDepth, "Runner({engine}) depth");
r.free();
// A depth the object gives wins, as a flag does on the command line.
const given = new Runner({ engine: "mariadb-10.11", lru_scan_depth: 256, ...shortJs });
assert.equal(header(given.samples_csv(), "lru_scan_depth"), "256");
given.free();
assert.equal(parse_query("engine=mariadb-10.11").params.lru_scan_depth, 1536, "the URL's engine");
console.log(`ok   engine: new Runner({engine: "mariadb-10.11"}) runs at depth ${cliDepth}, as --engine does`);

// 3. One range of seeds.
const top = 2 ** 53 - 1;
for (const v of ["9007199254740992", "9007199254740993", "18446744073709551615"]) {
  const q = parse_query(`seed=${v}`);
  assert.equal(q.params.seed, top, `seed=${v} in the URL`);
  assert.ok(q.messages.some((m) => m.startsWith(`seed = ${v} is out of range`)), q.messages.join("; "));
  const o = spawnSync(bin, ["run", "--seed", v, ...short], { encoding: "utf8" });
  assert.equal(o.status, 1, `--seed ${v}`);
  assert.match(o.stderr, /out of range; allowed: from 0 to 9,007,199,254,740,991/);
}
assert.throws(() => new Runner({ seed: 2 ** 53, ...shortJs }), undefined, "Runner({seed: 2^53})");
const atTop = new Runner({ seed: top, ...shortJs });
assert.equal(header(atTop.samples_csv(), "seed"), String(top));
atTop.free();
assert.equal(header(cli("run", "--seed", String(top), "--csv", ...short), "seed"), String(top));
console.log("ok   seeds: 0 to 2^53 - 1 on the CLI, the URL (clamped) and the JS API (refused past it)");

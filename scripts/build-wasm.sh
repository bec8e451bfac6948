#!/usr/bin/env bash
# Build the WebAssembly module and its JS bindings.
#
#   scripts/build-wasm.sh [OUT_DIR]     (OUT_DIR defaults to pkg/, which is committed to git;
#                                        the small module goes to OUT_DIR/core/)
#   scripts/build-wasm.sh --tools-only  (only install the tools below; used by scripts/test.sh)
#
# Installs what it needs on a fresh machine (idempotent, fast when already installed):
#   - the Rust target wasm32-unknown-unknown;
#   - wasm-bindgen-cli at exactly the wasm-bindgen version recorded in Cargo.lock (the CLI and
#     the library must match; the install also provides wasm-bindgen-test-runner);
#   - wasm-opt from npm's binaryen package at the version package-lock.json pins (npm ci;
#     Debian's binaryen 108 writes a module Chromium rejects, see docs/performance.md).
# The output is deterministic: the same sources and toolchain give byte-identical files.
# OUT_DIR/source-hash records the SHA-256 of the sources it was built from (src/, crates/*/src/,
# the Cargo.toml files, Cargo.lock): scripts/serve.sh serves the committed pkg/ without building when it matches.
set -euo pipefail

# A relative CARGO_TARGET_DIR means the caller's directory, as for cargo itself.
if [[ -n ${CARGO_TARGET_DIR:-} ]]; then
    CARGO_TARGET_DIR="$(realpath -m "$CARGO_TARGET_DIR")"
    export CARGO_TARGET_DIR
fi
cd "$(dirname "${BASH_SOURCE[0]}")/.."
source scripts/common.sh
need_rust
tools_only=false
if [[ "${1:-}" == "--tools-only" ]]; then
    tools_only=true
    shift
fi
out_dir="${1:-pkg}"

cargo_home="${CARGO_HOME:-$HOME/.cargo}"

# --- Rust target -------------------------------------------------------------------------------
if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
    echo "build-wasm: installing Rust target wasm32-unknown-unknown"
    rustup target add wasm32-unknown-unknown
fi

# --- wasm-bindgen-cli matching Cargo.lock ------------------------------------------------------
# The version line follows the `name = "wasm-bindgen"` line in Cargo.lock.
want="$(awk '$0 == "name = \"wasm-bindgen\"" { getline; gsub(/^version = "|"$/, ""); print; exit }' Cargo.lock)"
if [[ -z "$want" ]]; then
    echo "build-wasm: cannot find the wasm-bindgen version in Cargo.lock" >&2
    exit 1
fi
have="$(wasm-bindgen --version 2>/dev/null | awk '{ print $2 }' || true)"
have_runner="$(wasm-bindgen-test-runner --version 2>/dev/null | awk '{ print $2 }' || true)"
if [[ "$have" != "$want" || "$have_runner" != "$want" ]]; then
    echo "build-wasm: installing wasm-bindgen-cli $want (found: ${have:-none}); takes a few minutes"
    # No --locked: the CLI's own lockfile pins a crate version the registry no longer has.
    # --force: reinstall even if cargo's records say it is installed but the binary is gone.
    cargo install --quiet --force wasm-bindgen-cli --version "$want"
fi

# --- wasm-opt (npm binaryen, pinned by package-lock.json) --------------------------------------
wasm_opt=node_modules/.bin/wasm-opt
want_binaryen="$(sed -n 's/.*"binaryen": *"\([0-9.]*\)".*/\1/p' package.json | head -n 1)"
have_binaryen="$(node -p 'require("./node_modules/binaryen/package.json").version' 2>/dev/null || true)"
if [[ ! -x "$wasm_opt" || "$have_binaryen" != "$want_binaryen" ]]; then
    need_node >&2
    echo "build-wasm: installing binaryen $want_binaryen from npm (npm ci)"
    npm ci --silent >&2
fi

if $tools_only; then
    exit 0
fi

# --- Build -------------------------------------------------------------------------------------
# Remap absolute paths (cargo registry, checkout directory) that end up in panic messages, so the
# committed pkg/ does not depend on where the repository or CARGO_HOME live.
export CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUSTFLAGS="--remap-path-prefix=$cargo_home=/cargo --remap-path-prefix=$PWD=/midpoint"
# Two modules from the one crate (ARCHITECTURE.md, "The page's modules"): the full one in
# OUT_DIR/ (every export: the charts, the write path, the policies, the status reader, the
# workers' runners) and the small one in OUT_DIR/core/ (built without the `full` feature: the
# page's state, the simulator, the close-up and the pool grid), which the strip and grid embeds
# load first.
# -O3 for speed (the page's runs), not -Oz for size (-Oz saves 0.14 % of the small module
# gzipped at the same run speed, see docs/performance.md). wasm-opt is deterministic: the same input and version give the same
# bytes. MIDPOINT_WASM_NAMES=1 (scripts/profile-wasm.sh) keeps the names section, for profiles
# by function; never for pkg/.
names=()
[[ "${MIDPOINT_WASM_NAMES:-}" == 1 ]] && names=(-g)
build_module() { # build_module TARGET_DIR DIR PROFILE [cargo feature flags...]
    local target="$1" dir="$2" profile="$3"
    shift 3
    CARGO_TARGET_DIR="$target" cargo build --quiet --profile "$profile" --target wasm32-unknown-unknown -p midpoint --lib "$@"
    mkdir -p "$dir"
    wasm-bindgen --target web --no-typescript --out-dir "$dir" \
        "$target/wasm32-unknown-unknown/$profile/midpoint.wasm"
    "$wasm_opt" -O3 "${names[@]}" --enable-bulk-memory --enable-nontrapping-float-to-int --enable-sign-ext --enable-mutable-globals \
        "$dir/midpoint_bg.wasm" -o "$dir/midpoint_bg.wasm.opt"
    mv "$dir/midpoint_bg.wasm.opt" "$dir/midpoint_bg.wasm"
    # The bindings without the doc comments wasm-bindgen copies from the Rust sources (they are
    # read there): a third of the small module's bindings gzipped, 12.0 to 7.9 KB.
    node -e '
        const fs = require("fs");
        const f = process.argv[1];
        const out = [];
        let inDoc = false;
        for (const line of fs.readFileSync(f, "utf8").split("\n")) {
            if (!inDoc && /^\s*\/\*\*/.test(line)) inDoc = true;
            if (!inDoc) out.push(line);
            else if (/\*\/\s*$/.test(line)) inDoc = false;
        }
        fs.writeFileSync(f, out.join("\n"));
    ' "$dir/midpoint.js"
}
# The small module's page logic is built for size (Cargo.toml, profile wasm-small), the simulator
# for speed.
# The two modules build at once, the small one in a target directory of its own (cargo locks a
# target directory for one build at a time; the two profiles share no compiled crate anyway):
# each module's fat-LTO link and wasm-opt pass runs on one core, so side by side they use both
# (cold, on the project's 2-core machine: 91 s instead of 100 s one after the other).
target_dir="${CARGO_TARGET_DIR:-$PWD/target}"
build_module "$target_dir/wasm-small-module" "$out_dir/core" wasm-small --no-default-features &
small_pid=$!
build_module "$target_dir" "$out_dir" release &
full_pid=$!
small_rc=0
wait "$small_pid" || small_rc=$?
wait "$full_pid"
((small_rc == 0)) || exit "$small_rc"
source_hash >"$out_dir/source-hash"
echo "build-wasm: wrote $out_dir/ ($(du -sh "$out_dir" | cut -f1))"

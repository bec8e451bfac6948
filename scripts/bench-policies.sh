#!/usr/bin/env bash
# Replays one oracleGeneral file through each policy here (`midpoint replay --format
# oracle-general`, wall time of the whole replay, reading included) and in libCacheSim (PyPI
# `libcachesim`, wall time of opening the trace plus `process_trace`), in one run, and prints
# requests per second and the ratio per policy; the InnoDB policy is set beside libCacheSim's
# LRU. The miss counts of both are printed too (they must agree, see tests/oracle).
#
#   scripts/bench-policies.sh [REQUESTS (default 20000000)] [TRACE FILE (default: generated)]
#
# The generated trace: REQUESTS requests, Zipf(0.9) over 1,000,000 objects scattered over 64-bit
# ids, one-second timestamps at 100,000 requests a second; cache 100,000 objects.
set -euo pipefail
# The build's directory: $CARGO_TARGET_DIR (relative to the caller's directory) or target/.
target_dir="$(realpath -m "${CARGO_TARGET_DIR:-$(dirname "${BASH_SOURCE[0]}")/../target}")"
# cargo below runs from the repository's root: give it the same, absolute, directory.
[[ -n ${CARGO_TARGET_DIR:-} ]] && export CARGO_TARGET_DIR="$target_dir"
cd "$(dirname "${BASH_SOURCE[0]}")/.."

n="${1:-20000000}"
venv=$target_dir/oracle-venv
if [[ ! -x $venv/bin/python ]] || ! "$venv/bin/python" -c 'import libcachesim' 2>/dev/null; then
    python3 -m venv "$venv"
    "$venv/bin/pip" install -q libcachesim
fi
cargo build --release -q
trace="${2:-$target_dir/bench/zipf-$n.oracleGeneral}"
if [[ ! -f $trace ]]; then
    mkdir -p "$(dirname "$trace")"
    echo "generating $trace"
    "$venv/bin/python" - "$n" "$trace" <<'PY'
import sys
import numpy as np
n, path = int(sys.argv[1]), sys.argv[2]
rng = np.random.default_rng(14)
objs = 1_000_000
cdf = np.cumsum(1.0 / np.arange(1, objs + 1) ** 0.9)
ranks = np.searchsorted(cdf, rng.random(n) * cdf[-1])
ids = (ranks.astype(np.uint64) * np.uint64(0x9E3779B97F4A7C15)) + np.uint64(12345)
order = np.argsort(ranks, kind="stable")
nxt = np.full(n, -1, dtype=np.int64)
same = ranks[order[:-1]] == ranks[order[1:]]
nxt[order[:-1][same]] = order[1:][same]
rec = np.zeros(n, dtype=[("t", "<u4"), ("id", "<u8"), ("size", "<u4"), ("next", "<i8")])
rec["t"] = np.arange(n) // 100_000
rec["id"] = ids
rec["size"] = 1
rec["next"] = nxt
assert rec.itemsize == 24
rec.tofile(path)
PY
fi
"$venv/bin/python" - "$target_dir/release/midpoint" "$trace" <<'PY'
import json, os, subprocess, sys, time
import libcachesim as lcs
binary, trace = sys.argv[1], sys.argv[2]
n = os.path.getsize(trace) // 24
cache = 100_000
theirs = {
    "lru": lambda: lcs.LRU(cache), "fifo": lambda: lcs.FIFO(cache),
    "clock": lambda: lcs.Clock(cache), "2q": lambda: lcs.TwoQ(cache),
    "arc": lambda: lcs.ARC(cache), "sieve": lambda: lcs.Sieve(cache),
    "s3fifo": lambda: lcs.S3FIFO(cache), "lirs": lambda: lcs.LIRS(cache), "belady": lambda: lcs.Belady(cache),
}
def run_theirs(name):
    t0 = time.perf_counter()
    reader = lcs.TraceReader(trace, lcs.TraceType.ORACLE_GENERAL_TRACE)
    ratio, _ = theirs[name]().process_trace(reader)
    return n / (time.perf_counter() - t0), round(ratio * n)
def run_ours(name):
    out = subprocess.run([binary, "replay", "--format", "oracle-general", trace, "--policy", name,
                          "--cache-pages", str(cache), "--json"],
                         check=True, capture_output=True, text=True).stdout
    j = json.loads(out)
    return j["requests_per_s"], j["misses"]
print(f"{n} requests, cache {cache} objects")
print(f"{'policy':8} {'midpoint req/s':>15} {'libCacheSim req/s':>18} {'ratio':>7}  misses (midpoint / libCacheSim)")
lru_theirs = None
for name in ["lru", "fifo", "clock", "2q", "arc", "sieve", "s3fifo", "lirs", "belady"]:
    a, ma = run_ours(name)
    b, mb = run_theirs(name)
    if name == "lru":
        lru_theirs = b
    print(f"{name:8} {a:15,.0f} {b:18,.0f} {a / b:6.2f}x  {ma} / {mb}")
a, ma = run_ours("innodb")
print(f"{'innodb':8} {a:15,.0f} {lru_theirs:18,.0f} {a / lru_theirs:6.2f}x  {ma} (beside libCacheSim's LRU)")
PY

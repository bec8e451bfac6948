#!/usr/bin/env bash
# The page's speed beside the native core's, as one JSON line:
#
#   {"native_run_ms", "wasm_run_ms", "wasm_native_ratio", "wasm_cold_run_ms", "slider_first_ms",
#    "slider_full_ms", "ensemble5_ms", "workers", "sweep40_s", "seek_cold_ms", "forecast_16g_ms"}
#
#   native_run_ms      `midpoint bench --json`'s run_ms_median: one full-size seed000-hot4485-b2b
#                      run, median of 3 ($CARGO_TARGET_DIR/release/midpoint or target/release/midpoint, built first if stale)
#   wasm_run_ms        the same run in the page's worker, median of 3, each in a fresh worker
#                      that has run another RNG seed first (warm, as native's median run is)
#   wasm_native_ratio  native_run_ms / wasm_run_ms (1.0 = as fast as native)
#   wasm_cold_run_ms   those first runs, median: a new worker's memory growth and tier-up
#   slider_first_ms    median over 5 moves of the innodb_lru_scan_depth slider, from its input
#                      event to the first midpoint-residency event (partial or not)
#   slider_full_ms     ... to the final one (partial: false)
#   ensemble5_ms       median over 3 moves of the innodb_old_blocks_time slider, from its input
#                      event to the 5-run band complete (midpoint-ensemble), idle page
#   workers            the page's own worker count (one per core: navigator.hardwareConcurrency)
#   sweep40_s          the page's 40-point sweep at one run per point, or null if it would not
#                      finish in the budget
#   seek_cold_ms       the slowest of 10 seeks to moments spread over the full 210 s run (10 %
#                      to 100 %), each in a fresh figure with nothing prepared (no snapshots),
#                      from the request to the frame drawn there (target <= 300)
#   forecast_16g_ms    the Your server panel's leak-risk forecast of the 16 GiB, 8-instance
#                      status (crates/status/tests/fixtures/status/mysql-8.0-16g-8-instances.txt),
#                      from the press of Leak risk to the panel's data-risk "done", in a page of
#                      its own; null when refused or not over within the budget
#
# then the lines `seek_cold_ms N`, `seek_cold_each_ms N...` (each seek, in order) and
# `forecast_16g_ms N`.
#
# Serves the repository on a free loopback port and drives headless Chromium (playwright-core,
# tests/browser/bench.mjs --json); finishes within BUDGET_S seconds (default 240) of its start.
# It measures the committed pkg/ (rebuild it with scripts/build-wasm.sh after changing src/).
set -euo pipefail

# The build's directory: $CARGO_TARGET_DIR (relative to the caller's directory) or target/.
target_dir="$(realpath -m "${CARGO_TARGET_DIR:-$(dirname "${BASH_SOURCE[0]}")/../target}")"
# cargo below runs from the repository's root: give it the same, absolute, directory.
[[ -n ${CARGO_TARGET_DIR:-} ]] && export CARGO_TARGET_DIR="$target_dir"
cd "$(dirname "${BASH_SOURCE[0]}")/.."
source scripts/common.sh

budget_s="${BUDGET_S:-240}"
[[ "$budget_s" =~ ^[0-9]+$ ]] || die "bench-web: BUDGET_S='$budget_s' is not a whole number of seconds"
start=$SECONDS
need_rust
need_python3
need_page_bench bench-web

cargo build --release --quiet >&2
native_ms="$("$target_dir/release/midpoint" bench --json --runs 3 | python3 -c '
import json, sys
r = json.load(sys.stdin)
if "run_ms_median" not in r:
    sys.exit("bench-web: midpoint bench --json has no run_ms_median (this build predates it)")
print(r["run_ms_median"])
')"

port="$(python3 -c '
import socket
s = socket.socket()
s.bind(("127.0.0.1", 0))
print(s.getsockname()[1])
s.close()
')"
python3 -m http.server "$port" --bind 127.0.0.1 >/dev/null 2>&1 &
server=$!
trap 'kill "$server" 2>/dev/null || true' EXIT
for _ in $(seq 50); do
    python3 -c "import socket; socket.create_connection(('127.0.0.1', $port), 0.2).close()" 2>/dev/null && break
    sleep 0.1
done

left=$((budget_s - (SECONDS - start)))
((left > 30)) || die "bench-web: only ${left} s of the ${budget_s} s budget left after the native bench"
MIDPOINT_URL="http://127.0.0.1:$port" timeout "$left" \
    node tests/browser/bench.mjs --json --native-ms "$native_ms" --budget-s "$left"

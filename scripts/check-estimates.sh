#!/usr/bin/env bash
# Holds the cost model (crates/core/src/cost.rs, `midpoint run ... --estimate --json`) to what
# runs take: a spread of configurations (small, big pool, fine sampling, many threads), each
# estimated, then run and timed; every actual/estimated ratio must lie within 1/3 to 3.
# Prints one line per configuration and exits non-zero if any ratio falls outside.
#
#   scripts/check-estimates.sh [MIDPOINT_BINARY]   (default: $CARGO_TARGET_DIR/release/midpoint, built here)
set -euo pipefail
target_dir="$(realpath -m "${CARGO_TARGET_DIR:-$(dirname "${BASH_SOURCE[0]}")/../target}")"
cd "$(dirname "${BASH_SOURCE[0]}")/.."
bin="${1:-$target_dir/release/midpoint}"
if [[ $# -eq 0 ]]; then
    cargo build --release -q
fi
configs=(
    "small|--warmup-s 10 --scan-s 20"
    "big pool|--preset seed000-hot4485-b2b --pool-mb 16384 --scan-table-mb 65536 --hot-table-pages 1048576 --warmup-s 2 --scan-s 2"
    "big hot set|--preset seed000-hot4485-b2b --pool-mb 8192 --scan-table-mb 32768 --hot-pages 262144 --hot-table-pages 262144 --warmup-s 2 --scan-s 2"
    "fine sampling|--preset seed000-hot4485-b2b --pool-mb 4096 --scan-table-mb 16384 --hot-pages 131072 --hot-table-pages 262144 --warmup-s 2 --scan-s 2 --sample-ms 10"
    "many threads|--cpus 64 --lookup-threads 64 --warmup-s 5 --scan-s 5"
)
fail=0
for c in "${configs[@]}"; do
    name="${c%%|*}"
    read -r -a args <<<"${c#*|}"
    est="$("$bin" run "${args[@]}" --estimate --json | python3 -c 'import json,sys; print(json.load(sys.stdin)["estimated_s"])')"
    start=$(date +%s.%N)
    "$bin" run "${args[@]}" --json --no-limit >/dev/null
    end=$(date +%s.%N)
    line="$(python3 -c "
a = $end - $start; e = $est; r = a / e
ok = 1/3 <= r <= 3
print(f'{\"ok  \" if ok else \"FAIL\"} {\"$name\":14} actual {a:8.2f} s  estimated {e:8.2f} s  ratio {r:5.2f}')
")"
    echo "$line"
    [[ $line == ok* ]] || fail=1
done
if [[ $fail -ne 0 ]]; then
    echo "check-estimates: an actual/estimated ratio is outside 1/3..3: re-profile and update crates/core/src/cost.rs" >&2
    exit 1
fi
echo "check-estimates: every ratio within 1/3..3"

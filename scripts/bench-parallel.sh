#!/usr/bin/env bash
# `midpoint reproduce` (experiment 000, 3 runs per cell) on one thread and on N, side by side,
# as one JSON line:
#
#   {"threads1_s", "threadsN_s", "speedup", "threads", "outputs_equal"}
#
#   threads1_s     wall seconds of `reproduce --threads 1`
#   threadsN_s     wall seconds of `reproduce --threads N` (N: THREADS, default the core count)
#   speedup        threads1_s / threadsN_s
#   outputs_equal  whether the two printed the same bytes (they must: the runs are the same)
#
# QUICK=1 adds --quick (skips the 10-minute runs). The two runs alternate with the order
# 1, N so that a load change between them shows; run it on an idle machine for the target
# (>= 1.7 with 2 threads).
set -euo pipefail

# A relative CARGO_TARGET_DIR means the caller's directory, as for cargo itself.
if [[ -n ${CARGO_TARGET_DIR:-} ]]; then
    CARGO_TARGET_DIR="$(realpath -m "$CARGO_TARGET_DIR")"
    export CARGO_TARGET_DIR
fi
cd "$(dirname "${BASH_SOURCE[0]}")/.."
source scripts/common.sh

need_rust
need_python3
threads="${THREADS:-$(nproc)}"
[[ "$threads" =~ ^[0-9]+$ && "$threads" -ge 1 ]] || die "bench-parallel: THREADS='$threads' is not a whole number >= 1"
args=(reproduce --experiment 000 --runs 3)
[[ "${QUICK:-0}" == 1 ]] && args+=(--quick)

cargo build --release --quiet >&2
bin="${CARGO_TARGET_DIR:-target}/release/midpoint"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT

timed() { # timed OUT ARGS...: runs the binary, prints its wall seconds
    local out="$1"
    shift
    python3 - "$out" "$bin" "$@" <<'EOF'
import subprocess, sys, time
out, cmd = sys.argv[1], sys.argv[2:]
t0 = time.perf_counter()
with open(out, "wb") as f:
    subprocess.run(cmd, stdout=f, stderr=subprocess.DEVNULL, check=True)
print(f"{time.perf_counter() - t0:.3f}")
EOF
}

t1="$(timed "$tmp/one" "${args[@]}" --threads 1)"
tn="$(timed "$tmp/many" "${args[@]}" --threads "$threads")"
equal=false
cmp -s "$tmp/one" "$tmp/many" && equal=true
python3 -c '
import json, sys
t1, tn, n, eq = float(sys.argv[1]), float(sys.argv[2]), int(sys.argv[3]), sys.argv[4] == "true"
print(json.dumps({"threads1_s": t1, "threadsN_s": tn, "speedup": round(t1 / tn, 3), "threads": n, "outputs_equal": eq}))
' "$t1" "$tn" "$threads" "$equal"

#!/usr/bin/env bash
# Holds the cost model (crates/core/src/cost.rs, `midpoint run ... --estimate --json`) to what
# runs take: a spread of configurations (small, big pool, big hot set, fine sampling, many
# threads, an ensemble of runs), each estimated, then run and its CPU time measured; every
# actual/estimated ratio must lie within 1/3 to 3.
# Prints one line per configuration and exits non-zero if any ratio falls outside.
#
#   scripts/check-estimates.sh [MIDPOINT_BINARY]   (default: $CARGO_TARGET_DIR/release/midpoint, built here)
set -euo pipefail
target_dir="$(realpath -m "${CARGO_TARGET_DIR:-$(dirname "${BASH_SOURCE[0]}")/../target}")"
# cargo below runs from the repository's root: give it the same, absolute, directory.
[[ -n ${CARGO_TARGET_DIR:-} ]] && export CARGO_TARGET_DIR="$target_dir"
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
    "4 runs|--warmup-s 10 --scan-s 20 --runs 4 --threads 2"
)
# "actual" is the run's CPU time (user + system, all its threads), which is what the cost model
# estimates: on an idle core it is the wall time; on a loaded machine the wall time is longer by
# the machine's load, which the parameters cannot predict (the wall time and the load are shown).
python3 - "$bin" "${configs[@]}" <<'PY'
import json, os, resource, subprocess, sys, time
bin, configs = sys.argv[1], sys.argv[2:]
fail = False
for c in configs:
    name, args = c.split("|", 1)
    args = args.split()
    est = json.loads(subprocess.check_output([bin, "run", *args, "--estimate", "--json"]))["estimated_s"]
    r0, t0 = resource.getrusage(resource.RUSAGE_CHILDREN), time.monotonic()
    subprocess.run([bin, "run", *args, "--json", "--no-limit"], stdout=subprocess.DEVNULL, check=True)
    r1, t1 = resource.getrusage(resource.RUSAGE_CHILDREN), time.monotonic()
    cpu = (r1.ru_utime - r0.ru_utime) + (r1.ru_stime - r0.ru_stime)
    r = cpu / est
    ok = 1 / 3 <= r <= 3
    fail |= not ok
    print(f"{'ok  ' if ok else 'FAIL'} {name:14} actual {cpu:7.2f} s CPU  estimated {est:7.2f} s  ratio {r:5.2f}"
          f"  (wall {t1 - t0:6.2f} s, load {os.getloadavg()[0]:.1f})", flush=True)
if fail:
    print("check-estimates: an actual/estimated ratio is outside 1/3..3: re-profile and update crates/core/src/cost.rs", file=sys.stderr)
    sys.exit(1)
print("check-estimates: every ratio within 1/3..3")
PY

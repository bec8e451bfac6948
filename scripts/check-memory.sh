#!/usr/bin/env bash
# Holds the memory estimate (crates/core/src/cost.rs, and the replays' in crates/lab) to the
# peak RSS of real runs, as scripts/check-estimates.sh does for time: a spread of commands
# (small, big pools, a big scanned table, fine sampling written as JSON and as CSV, an ensemble
# at once, a write-path run, replays of a midpoint trace and of an oracleGeneral trace through
# innodb and lru, and a midpoint trace piped into `replay -`), each estimated, then run and its
# peak RSS measured (wait4's ru_maxrss, this child alone); then a midpoint trace, from a file and
# piped, replayed under a limit of half its peak must be refused with advice for a replay (a
# shorter trace, a smaller cache), not a run's (--threads, a smaller pool). The estimate is the budget's upper bound: every actual/estimated ratio must lie
# within 0.25 to 1 (never above the estimate, and not more than 4 times below it); for the
# write path's secondary index and the piped trace within 0.5 to 1 (2 times), for the text traces within 0.4 to 1
# (their per-id tables grow by doubling, which the estimate takes at its worst: 2 million ids
# measured 0.44-0.48).
# Prints one line per command with both figures and exits non-zero if any ratio falls outside.
#
#   scripts/check-memory.sh [MIDPOINT_BINARY]   (default: $CARGO_TARGET_DIR/release/midpoint, built here)
#   MIDPOINT_CHECK_ONLY=REGEX scripts/check-memory.sh ...   only the commands whose name matches
#
# The estimate is the command's own, `--estimate` added to the flags it runs with (`run` and
# `replay` have it): the budget's figure for exactly that run (--json counts the JSON report).
set -euo pipefail
target_dir="$(realpath -m "${CARGO_TARGET_DIR:-$(dirname "${BASH_SOURCE[0]}")/../target}")"
[[ -n ${CARGO_TARGET_DIR:-} ]] && export CARGO_TARGET_DIR="$target_dir"
cd "$(dirname "${BASH_SOURCE[0]}")/.."
bin="${1:-$target_dir/release/midpoint}"
if [[ $# -eq 0 ]]; then
    cargo build --release -q --bin midpoint
fi
work="$(mktemp -d /tmp/midpoint-check-memory.XXXXXX)"
trap 'rm -rf "$work"' EXIT

# A midpoint trace of 2 million events on a pool of 1 million pages, and an oracleGeneral trace
# of 2 million requests of distinct ids (the worst case the replay estimate assumes).
python3 - "$work" <<'PY'
import struct, sys
w = sys.argv[1]
with open(f"{w}/pool.trace", "w") as f:
    f.write("pool pages=1048576\n")
    f.write("".join(f"{i // 1000} get 1 {i}\n" for i in range(2_000_000)))
with open(f"{w}/distinct.txt", "w") as f:
    f.write("".join(f"{10_000_000 + i}\n" for i in range(2_000_000)))
with open(f"{w}/distinct.oracle", "wb") as f:
    f.write(b"".join(struct.pack("<IQIq", i // 1000, i, 1, -1) for i in range(2_000_000)))
PY

configs=(
    "small|run|--warmup-s 10 --scan-s 20 --json"
    "pool 16 GiB, full|run|--preset seed000-hot4485-b2b --pool-mb 16384 --hot-pages 1048576 --hot-table-pages 1048576 --warmup-s 2 --scan-s 2 --kept-window-s 1 --json"
    "pool 64 GiB, full|run|--preset seed000-hot4485-b2b --pool-mb 65536 --hot-pages 4194304 --hot-table-pages 4194304 --warmup-s 2 --scan-s 2 --kept-window-s 1 --json"
    "big scanned table|run|--preset seed000-hot4485-b2b --pool-mb 16384 --hot-pages 1048576 --hot-table-pages 1048576 --scan-table-mb 262144 --warmup-s 2 --scan-s 2 --kept-window-s 1 --json"
    "cold start|run|--pool-mb 16384 --start cold --warmup-s 2 --scan-s 2 --kept-window-s 1 --json"
    "fine sampling JSON|run|--warmup-s 60 --scan-s 600 --sample-ms 10 --json"
    "fine sampling CSV|run|--warmup-s 60 --scan-s 600 --sample-ms 10 --csv"
    "4 runs at once|run|--preset seed000-hot4485-b2b --pool-mb 16384 --hot-pages 1048576 --hot-table-pages 1048576 --warmup-s 2 --scan-s 2 --kept-window-s 1 --runs 4 --threads 4 --json"
    "write path|run|--preset seed003-rw-default --set frames_per_instance=262144 --set table_pages=4000000 --set warmup_s=10 --set base_s=30 --json"
    "write path, big index|run|--preset seed003-rw-default --set sec_pages=8000000 --set warmup_s=2 --set base_s=5 --json|0.5"
    "midpoint trace|replay|WORK/pool.trace --json"
    "midpoint trace, piped|replay|- --json|0.5|WORK/pool.trace"
    "midpoint trace, piped, no JSON|replay|-|0.5|WORK/pool.trace"
    "text, lru|replay|--format txt WORK/distinct.txt --policy lru --cache-pages 1048576|0.4"
    "text, innodb|replay|--format txt WORK/distinct.txt --policy innodb --cache-pages 1048576|0.4"
    "oracle, innodb|replay|--format oracle-general WORK/distinct.oracle --policy innodb --cache-pages 1048576"
    "oracle, lru|replay|--format oracle-general WORK/distinct.oracle --policy lru --cache-pages 1048576"
    "oracle, belady|replay|--format oracle-general WORK/distinct.oracle --policy belady --cache-pages 1048576"
)
python3 - "$bin" "$work" "${configs[@]}" <<'PY'
import json, os, re, shutil, subprocess, sys, threading
bin, work, configs = sys.argv[1], sys.argv[2], sys.argv[3:]

def feed(p, stdin):
    """Writes the file `stdin` into the child's standard input through a pipe (a thread, so that
    a child that stops reading does not block this one), then closes it."""
    def copy():
        try:
            with open(stdin, "rb") as f:
                shutil.copyfileobj(f, p.stdin, 1 << 16)
        except BrokenPipeError:
            pass
        finally:
            try:
                p.stdin.close()
            except BrokenPipeError:
                pass
    t = threading.Thread(target=copy)
    t.start()
    return t

def peak(args, stdin=None):
    """Runs the command (`stdin`: a file piped into it); its own peak RSS (MiB)."""
    p = subprocess.Popen([bin, *args, "--no-limit"], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                         stdin=subprocess.PIPE if stdin else subprocess.DEVNULL)
    t = feed(p, stdin) if stdin else None
    # (stderr holds the scenario's warnings, shown only if the command fails)
    err = p.stderr.read().decode()
    _, status, ru = os.wait4(p.pid, 0)
    if t:
        t.join()
    if status != 0:
        sys.exit(f"check-memory: {' '.join(args)} failed: {err}")
    return ru.ru_maxrss / 1024

def estimate(cmd, args, stdin=None):
    """The command's own estimate: `--estimate` added to the very flags it runs with (printed
    as JSON with --json, whose report's memory it then counts; as text otherwise); a piped
    trace is piped to it too (it is read for the estimate)."""
    p = subprocess.Popen([bin, cmd, *args, "--estimate"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                         stdin=subprocess.PIPE if stdin else subprocess.DEVNULL)
    t = feed(p, stdin) if stdin else None
    out = p.stdout.read().decode()
    if p.wait() != 0:
        sys.exit(f"check-memory: {cmd} {' '.join(args)} --estimate failed")
    if t:
        t.join()
    if out.startswith("{"):
        return json.loads(out)["estimated_mib"]
    return float(re.search(r"([\d.]+) MiB", out).group(1))

fail = False
# MIDPOINT_CHECK_ONLY=REGEX: only the commands whose name matches (to check one by hand).
only = os.environ.get("MIDPOINT_CHECK_ONLY")
configs = [c for c in configs if not only or re.search(only, c.split("|")[0])]
if not configs and not re.search(only, "replay advice"):
    sys.exit(f"check-memory: no command's name matches {only!r}")
for c in configs:
    # An optional fourth field: the least ratio (0.5: the estimate within 2x of the peak); a
    # fifth: a file piped into the command's standard input.
    name, cmd, args, *rest = c.split("|")
    least = float(rest[0]) if rest and rest[0] else 0.25
    stdin = rest[1].replace("WORK", work) if len(rest) > 1 else None
    args = args.replace("WORK", work).split()
    est = estimate(cmd, args, stdin)
    act = peak([cmd, *args], stdin)
    r = act / est
    ok = least <= r <= 1.0
    fail |= not ok
    print(f"{'ok  ' if ok else 'FAIL'} {name:20} peak RSS {act:8.1f} MiB  estimated {est:8.1f} MiB  ratio {r:5.2f}", flush=True)

# The advice a refused replay gets fits a replay (a shorter trace, a smaller cache), not a run
# (fewer runs with --threads, a smaller pool): a midpoint trace read from a file and piped, each
# under an address-space limit (ulimit -v) of half its measured peak, is refused with exit 1 (not
# aborted by the allocator) and such advice.
import resource
if not only or re.search(only, "replay advice"):
    trace = f"{work}/pool.trace"
    half = int(peak(["replay", trace]) / 2 * (1 << 20))
    limit = lambda: resource.setrlimit(resource.RLIMIT_AS, (half, half))
    for name, args, stdin in [("file", [trace], None), ("piped", ["-"], trace)]:
        p = subprocess.Popen([bin, "replay", *args], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                             stdin=subprocess.PIPE if stdin else subprocess.DEVNULL, preexec_fn=limit)
        t = feed(p, stdin) if stdin else None
        err = p.stderr.read().decode()
        code = p.wait()
        if t:
            t.join()
        ok = (code == 1 and "trace" in err and "--threads" not in err and "smaller pool" not in err
              and "panicked" not in err)
        fail |= not ok
        print(f"{'ok  ' if ok else 'FAIL'} replay advice, {name:5} under {half >> 20} MiB: exit {code}: {err.strip()[:160]}", flush=True)

if fail:
    print("check-memory: a peak/estimated ratio is outside its bounds, or a refused replay's advice does not fit it: re-measure and update the memory constants of crates/core/src/cost.rs", file=sys.stderr)
    sys.exit(1)
print("check-memory: every peak within its bounds of its estimate")
PY

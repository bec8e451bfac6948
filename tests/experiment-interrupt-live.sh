#!/usr/bin/env bash
# The live test of `midpoint experiment`'s waits and signals, on a private MariaDB
# (scripts/mariadb-server.sh, 64 MiB pool):
#   1. a server blocked by FLUSH TABLES WITH READ LOCK held in another client: the run prints a
#      progress line within 10 s, and SIGINT (then, on a second run, SIGTERM) ends it within 2 s
#      with a message naming the signal, nothing changed on the server;
#   2. a run SIGKILLed after it set its variables leaves its marker: a dry run reports the
#      variables as left by an earlier run (and uses their originals), the next run restores
#      them before anything else.
# Every wait is on a readable signal (a line printed, a variable's value), each bounded by a
# deadline or by the process it waits on. About 1 minute.
#
#   tests/experiment-interrupt-live.sh [path/to/midpoint]    (default: $CARGO_TARGET_DIR/release/midpoint or target/release/midpoint, built if missing)
set -euo pipefail
if [[ -n ${CARGO_TARGET_DIR:-} ]]; then
    CARGO_TARGET_DIR="$(realpath -m "$CARGO_TARGET_DIR")"
    export CARGO_TARGET_DIR
fi
cd "$(dirname "$0")/.."
source scripts/mariadb-server.sh

bin="${1:-${CARGO_TARGET_DIR:-target}/release/midpoint}"
if [[ ! -x "$bin" ]]; then
    cargo build --release --bin midpoint
fi
fail() {
    echo "experiment-interrupt-live: FAIL: $*" >&2
    exit 1
}
work="$(mktemp -d /tmp/midpoint-experiment-interrupt.XXXXXX)"
pids=()
cleanup() {
    local p
    for p in "${pids[@]}"; do
        kill -9 "$p" 2>/dev/null || true
    done
    exec 3>&- 2>/dev/null || true
    mariadb_stop
    rm -rf "$work"
}
trap cleanup EXIT

mariadb_start 64
sql() {
    mariadb --no-defaults -uroot --socket="$MIDPOINT_MARIADB_SOCKET" -N -B -e "$1"
}
vars() {
    sql "SELECT CONCAT(@@innodb_old_blocks_time, ' ', @@innodb_old_blocks_pct, ' ', @@innodb_lru_scan_depth)"
}
now() { date +%s.%N; }
# wait_line FILE PATTERN SECONDS PID: until FILE holds a line matching PATTERN; fails past the
# deadline or when PID has ended without it.
wait_line() {
    local file=$1 pattern=$2 secs=$3 pid=$4 deadline
    deadline=$(python3 -c "print($(now) + $secs)")
    until grep -q -- "$pattern" "$file" 2>/dev/null; do
        if ! kill -0 "$pid" 2>/dev/null; then
            grep -q -- "$pattern" "$file" 2>/dev/null && return 0
            fail "the process ended without printing '$pattern': $(cat "$file")"
        fi
        python3 -c "import sys; sys.exit(0 if $(now) < $deadline else 1)" ||
            fail "no line '$pattern' within $secs s: $(cat "$file")"
        sleep 0.1
    done
}
# ends_within PID SECONDS: the seconds PID took to end (fails past the deadline).
ends_within() {
    local pid=$1 secs=$2 t0
    t0=$(now)
    while kill -0 "$pid" 2>/dev/null; do
        python3 -c "import sys; sys.exit(0 if $(now) - $t0 < $secs else 1)" ||
            fail "still running $secs s after the signal"
        sleep 0.05
    done
    python3 -c "print('%.2f' % ($(now) - $t0))"
}
before="$(vars)"
url="$MIDPOINT_MARIADB_URL"

# 1. FLUSH TABLES WITH READ LOCK held by another client for as long as fd 3 is open.
mkfifo "$work/lock.in"
mariadb --no-defaults -uroot --socket="$MIDPOINT_MARIADB_SOCKET" -N -B --unbuffered \
    <"$work/lock.in" >"$work/lock.out" 2>&1 &
locker=$!
pids+=("$locker")
exec 3>"$work/lock.in"
echo "FLUSH TABLES WITH READ LOCK; SELECT 'locked';" >&3
wait_line "$work/lock.out" '^locked$' 30 "$locker"

for sig in INT TERM; do
    t0=$(now)
    "$bin" experiment --url "$url" --warmup-s 5 --scan-s 5 --old-blocks-time 0 --runs 1 \
        >"$work/blocked-$sig.out" 2>"$work/blocked-$sig.err" &
    pid=$!
    pids+=("$pid")
    wait_line "$work/blocked-$sig.err" "still waiting for the server" 10 "$pid"
    took_line=$(python3 -c "print('%.1f' % ($(now) - $t0))")
    kill -"$sig" "$pid"
    took=$(ends_within "$pid" 2)
    rc=0
    wait "$pid" || rc=$?
    [[ $rc -ne 0 ]] || fail "SIG$sig: the blocked run exited 0"
    err="$(cat "$work/blocked-$sig.err")"
    case $sig in
        INT) grep -q "interrupted (Ctrl-C (SIGINT))" <<<"$err" || fail "SIGINT not named: $err" ;;
        TERM)
            grep -q "interrupted (SIGTERM)" <<<"$err" || fail "SIGTERM not named: $err"
            grep -q "Ctrl-C (SIGINT)" <<<"$err" && fail "SIGTERM reported as Ctrl-C: $err"
            ;;
    esac
    grep -qE "CodecError|Error \{|\{ *[A-Za-z]+:" <<<"$err" && fail "a raw driver error: $err"
    grep -q "global read lock\|backup lock\|metadata lock" "$work/blocked-$sig.err" ||
        fail "the progress line does not say what the server waits for: $err"
    [[ "$(vars)" == "$before" ]] || fail "SIG$sig: a variable changed: $(vars)"
    echo "experiment-interrupt-live: blocked server, progress after $took_line s, SIG$sig honoured in $took s"
    grep -m1 "still waiting" "$work/blocked-$sig.err"
    tail -n 1 "$work/blocked-$sig.err"
done
echo "UNLOCK TABLES;" >&3
exec 3>&-
wait "$locker" || true

# 2. A run killed (SIGKILL) once its variables are set leaves them and its marker.
"$bin" experiment --url "$url" --warmup-s 120 --scan-s 60 --old-blocks-time 0 --lru-scan-depth 1024 \
    --runs 1 >"$work/killed.out" 2>"$work/killed.err" &
pid=$!
pids+=("$pid")
# Watched for as long as the run lasts (the variables are set after the load, however long).
until [[ "$(vars)" == "0 37 1024" ]]; do
    kill -0 "$pid" 2>/dev/null || fail "the run ended before setting its variables: $(cat "$work/killed.err")"
    sleep 0.5
done
kill -KILL "$pid"
wait "$pid" 2>/dev/null || true
[[ "$(vars)" == "0 37 1024" ]] || fail "the killed run's variables are not left as it set them: $(vars)"

# A dry run reports them, plans with their originals, and changes nothing.
"$bin" experiment --url "$url" --dry-run >"$work/dry.txt" 2>"$work/dry.err" || fail "the dry run failed: $(cat "$work/dry.err")"
grep -q "innodb_old_blocks_time = 0 was set by an earlier run .* own value was 1000" "$work/dry.txt" ||
    fail "the dry run does not report old_blocks_time: $(cat "$work/dry.txt")"
grep -q "innodb_lru_scan_depth = 1024 was set by an earlier run .* own value was 1536" "$work/dry.txt" ||
    fail "the dry run does not report lru_scan_depth: $(cat "$work/dry.txt")"
"$bin" experiment --url "$url" --dry-run --json --old-blocks-time 5 >"$work/dry.json" || fail "the JSON dry run failed"
python3 - "$work/dry.json" <<'PY' || fail "the JSON dry run: $(cat "$work/dry.json")"
import json, sys
d = json.load(open(sys.argv[1]))
left = {x["name"]: x for x in d["server"]["left_changed"]}
assert left["innodb_old_blocks_time"] == {"name": "innodb_old_blocks_time", "original": 1000, "set_to": 0, "now": 0}, left
assert left["innodb_lru_scan_depth"]["original"] == 1536 and left["innodb_lru_scan_depth"]["now"] == 1024, left
# The plan restores the server's own value, not the one the killed run left.
v = {x["name"]: x for x in d["plan"]["variables"]}
assert v["innodb_old_blocks_time"]["from"] == 1000 and v["innodb_old_blocks_time"]["to"] == 5, v
PY
[[ "$(vars)" == "0 37 1024" ]] || fail "the dry run changed a variable: $(vars)"

# The next run restores them first (then it is stopped: the restore is what is checked).
"$bin" experiment --url "$url" --warmup-s 5 --scan-s 5 --runs 1 >"$work/next.out" 2>"$work/next.err" &
pid=$!
pids+=("$pid")
wait_line "$work/next.err" "restored innodb_lru_scan_depth = 1536, left changed by an earlier run" 30 "$pid"
grep -q "restored innodb_old_blocks_time = 1000, left changed by an earlier run" "$work/next.err" ||
    fail "old_blocks_time not restored: $(cat "$work/next.err")"
[[ "$(vars)" == "$before" ]] || fail "after the restore the variables are $(vars), not $before"
kill -INT "$pid"
ends_within "$pid" 2 >/dev/null
wait "$pid" || true
[[ "$(vars)" == "$before" ]] || fail "variables not as before at the end: $(vars)"
left="$(sql "SELECT COUNT(*) FROM information_schema.TABLES WHERE TABLE_SCHEMA = 'midpoint_experiment' AND TABLE_NAME = 'variables_to_restore'")"
if [[ "$left" != 0 ]]; then
    [[ "$(sql "SELECT COUNT(*) FROM midpoint_experiment.variables_to_restore")" == 0 ]] ||
        fail "the marker still holds rows after the restore"
fi
# And a dry run now finds nothing left.
"$bin" experiment --url "$url" --dry-run >"$work/dry2.txt"
grep -q "earlier run" "$work/dry2.txt" && fail "still reported after the restore: $(cat "$work/dry2.txt")"

echo "experiment-interrupt-live: ok"

#!/usr/bin/env bash
# The live test of `midpoint experiment`: a private MariaDB (scripts/mariadb-server.sh, 64 MiB
# pool) and a short run (20 s warm-up, 40 s of scans). Checks the flow end to end, not how close
# the model comes: a dry run changes nothing; a server holding another schema is refused without
# --yes; an account without SET GLOBAL gets a one-line reason; a run sets its variables, samples
# the pool and the free list, restores the variables and drops its schema, and its JSON has both
# curves; Ctrl-C in the middle of a run restores and drops too. About 2 minutes.
#
#   tests/experiment-live.sh [path/to/midpoint]    (default: $CARGO_TARGET_DIR/release/midpoint or target/release/midpoint, built if missing)
set -euo pipefail
# A relative CARGO_TARGET_DIR means the caller's directory, as for cargo itself.
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
    echo "experiment-live: FAIL: $*" >&2
    exit 1
}
work="$(mktemp -d /tmp/midpoint-experiment-live.XXXXXX)"
cleanup() {
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
has_schema() {
    [[ -n "$(sql "SELECT SCHEMA_NAME FROM information_schema.SCHEMATA WHERE SCHEMA_NAME = 'midpoint_experiment'")" ]]
}
before="$(vars)"
url="$MIDPOINT_MARIADB_URL"

# 1. The dry run prints the plan and creates and sets nothing.
"$bin" experiment --url "$url" --old-blocks-time 0 --dry-run >"$work/plan.txt"
grep -q "SET GLOBAL innodb_old_blocks_time = 0 (now 1000" "$work/plan.txt" || fail "the dry run's plan names no SET GLOBAL: $(cat "$work/plan.txt")"
grep -q "^tables   hot: " "$work/plan.txt" || fail "the dry run's plan has no table sizes"
has_schema && fail "the dry run created the schema"
[[ "$(vars)" == "$before" ]] || fail "the dry run changed a variable: $(vars)"

# 1b. --dry-run --json prints JSON, and a password holding '@' shows nowhere in it.
sql "CREATE USER 'carol'@'127.0.0.1' IDENTIFIED BY 'x@TopSecret'; GRANT PROCESS ON *.* TO 'carol'@'127.0.0.1'"
"$bin" experiment --url "mysql://carol:x@TopSecret@127.0.0.1:$MIDPOINT_MARIADB_PORT" --dry-run --json \
    >"$work/plan.json" 2>"$work/plan.err" || fail "the dry run as carol failed: $(cat "$work/plan.err")"
python3 -c 'import json,sys; v=json.load(open(sys.argv[1])); assert v["dry_run"] and v["server"]["address"].startswith("mysql://carol@127.0.0.1:"), v["server"]' \
    "$work/plan.json" || fail "--dry-run --json: $(cat "$work/plan.json")"
grep -q TopSecret "$work/plan.json" "$work/plan.err" && fail "the password was shown: $(cat "$work/plan.json" "$work/plan.err")"
sql "DROP USER 'carol'@'127.0.0.1'"

# 2. Another schema on the server: refused without --yes, with the reason.
sql "CREATE SCHEMA someone_elses"
if "$bin" experiment --url "$url" --warmup-s 1 --scan-s 1 2>"$work/refused.txt"; then
    fail "ran on a server holding another schema without --yes"
fi
grep -q "someone_elses" "$work/refused.txt" && grep -q -- "--yes" "$work/refused.txt" ||
    fail "the refusal does not name the schema and --yes: $(cat "$work/refused.txt")"
has_schema && fail "the refused run created the schema"
sql "DROP SCHEMA someone_elses"

# 3. An account that cannot SET GLOBAL gets a one-line reason and changes nothing.
sql "CREATE USER 'reader'@'127.0.0.1' IDENTIFIED BY 'r'; GRANT SELECT, PROCESS ON *.* TO 'reader'@'127.0.0.1'"
if "$bin" experiment --url "mysql://reader:r@127.0.0.1:$MIDPOINT_MARIADB_PORT" --warmup-s 1 --scan-s 1 2>"$work/weak.txt"; then
    fail "ran with an account that cannot SET GLOBAL"
fi
grep -q "cannot SET GLOBAL" "$work/weak.txt" || fail "no reason for the missing privilege: $(cat "$work/weak.txt")"
[[ "$(wc -l <"$work/weak.txt")" -eq 1 ]] || fail "the reason is not one line: $(cat "$work/weak.txt")"

# 4. A short run: variables set during it, restored after, schema dropped, JSON with both curves.
"$bin" experiment --url "$url" --warmup-s 20 --scan-s 40 --old-blocks-time 0 --lru-scan-depth 1024 \
    --runs 2 --json --svg "$work/kept.svg" >"$work/run.json" 2>"$work/run.err" &
pid=$!
# Watched for as long as the run lasts, however slowly the machine loads the tables: a deadline
# here would be a race with the load (the variables are set only after it).
seen_set=""
while kill -0 "$pid" 2>/dev/null; do
    if [[ "$(vars)" == "0 37 1024" ]]; then
        seen_set=1
        has_schema || fail "the variables are set but the schema is missing"
        break
    fi
    sleep 0.5
done
wait "$pid" || fail "the run failed: $(cat "$work/run.err")"
[[ -n "$seen_set" ]] || fail "the run's variables were never seen set (0 37 1024)"
[[ "$(vars)" == "$before" ]] || fail "variables not restored: $(vars), before: $before"
has_schema && fail "the schema was not dropped"
grep -q "<svg" "$work/kept.svg" || fail "no SVG written"
python3 - "$work/run.json" <<'PY' || fail "the JSON does not hold the run"
import json, sys
d = json.load(open(sys.argv[1]))
m, s = d["measured"], d["simulated"]
assert d["server"]["pool_pages"] > 1000 and "MariaDB" in d["server"]["version"], d["server"]
assert d["settings"]["old_blocks_time"] == 0 and d["settings"]["lru_scan_depth"] == 1024
for k in ["kept_tail", "kept_by_s", "lookups_per_s_warmup", "lookups_per_s_scan",
          "scan_pages_per_s", "passes", "refills"]:
    assert m.get(k) is not None, "measured." + k
for k in ["kept_tail", "kept_tail_min", "kept_tail_max", "kept_by_s"]:
    assert s.get(k) is not None, "simulated." + k
# Both curves cover the run: a sample every 5 s from 0 to 90 s.
assert len(m["kept_by_s"]) == 13 and set(m["kept_by_s"]) == set(s["kept_by_s"]), (m["kept_by_s"], s["kept_by_s"])  # every 5 s, 0 to 60
assert m["kept_by_s"]["0"] > 0.9, m["kept_by_s"]          # the hot table is cached after the load
assert all(0 <= v <= 1 for v in m["kept_by_s"].values())
assert m["hot_pages"] > 500 and m["scan_pages"] > 3 * d["server"]["pool_pages"] * 0.8
assert m["passes"] >= 1 and m["lookups_per_s_warmup"] > 0 and m["free_samples"] > 100
assert all(x["scan_young"] + x["scan_old"] > 0 for x in m["samples"] if x["t_s"] > 25), m["samples"]  # 5 s into the scan
assert s["kept_tail_min"] <= s["kept_tail"] <= s["kept_tail_max"], s
assert d["restored"] == {"innodb_lru_scan_depth": 1536, "innodb_old_blocks_time": 1000}, d["restored"]
assert d["schema_dropped"] is True
print("experiment-live: measured kept %.3f, model %.3f (%.3f..%.3f); lookups/s %.0f -> %.0f; %d passes, %d refills"
      % (m["kept_tail"], s["kept_tail"], s["kept_tail_min"], s["kept_tail_max"],
         m["lookups_per_s_warmup"], m["lookups_per_s_scan"], m["passes"], m["refills"]))
PY

# 5. Ctrl-C in the middle of the warm-up: the variable is restored and the schema dropped.
"$bin" experiment --url "$url" --warmup-s 60 --scan-s 60 --old-blocks-time 0 --runs 1 \
    >"$work/int.out" 2>"$work/int.err" &
pid=$!
# Until the variable is set (after the load, however long that takes), so that Ctrl-C lands in
# the warm-up, never in the load; the warm-up's 60 s leave the 2 s below far inside it.
until [[ "$(vars)" == "0 37 1536" ]]; do
    kill -0 "$pid" 2>/dev/null || fail "the run ended before setting its variable: $(cat "$work/int.err")"
    sleep 0.5
done
sleep 2
kill -INT "$pid"
if wait "$pid"; then
    fail "an interrupted run exited 0"
fi
grep -q "interrupted" "$work/int.err" || fail "the interrupted run does not say so: $(cat "$work/int.err")"
[[ "$(vars)" == "$before" ]] || fail "variables not restored after Ctrl-C: $(vars)"
has_schema && fail "the schema was not dropped after Ctrl-C"

echo "experiment-live: ok"

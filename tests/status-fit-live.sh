#!/usr/bin/env bash
# The fit against a real server: starts a private MariaDB (scripts/mariadb-server.sh,
# a 64 MiB pool), loads a hot table whose every leaf page is the hot set and a table three times
# the pool, and runs a lookup client on the hot table's rows. Two captures, each two snapshots of
# SHOW ENGINE INNODB STATUS 30 s apart with the variables:
#   scan     passes over the big table in key order, 12,000 pages a second, beside the lookups;
#   noscan   the lookups alone.
# Over the last minute before each capture's second snapshot, the hot set's residency is read
# from information_schema.INNODB_BUFFER_PAGE every 2.5 s. Then `midpoint from-status --run
# --json` on each capture, with the hot set fitted and with it pinned to the hot table's leaf
# pages (the known hot set), must give a fit whose model hit rate is within 0.5 points of the
# server's; with the known hot set, the as-read kept must be within 0.15 of the measured
# residency. (With the hot set fitted its kept is reported, not checked: where the model makes
# none of the server's youngs/s, nothing in the status tells the hot set, which then stays the
# young sublist's length; docs/your-server.md.)
#
#   tests/status-fit-live.sh        (MIDPOINT_BIN=path/to/midpoint to skip the build;
#                                    MIDPOINT_FIT_KEEP=DIR keeps the captures and results there)
#
# Then with the per-table residency (sys.innodb_buffer_stats_by_table and the grouped
# INNODB_BUFFER_PAGE_LRU query, each in the client's formats) and two SHOW GLOBAL STATUS
# snapshots: each format reads the hot table, and `--hot-table live.hot` pins the hot set to its
# leaf pages, whose forecast must be within 0.15 of the measured residency too.
#
# Race-free: the figures compared come from one server and one clock each (the two snapshots'
# counters, the residency samples of one window), never two readings compared as if equal.
# Bounded: about 4 minutes once MariaDB is installed (the captures' 3 minutes of wall clock,
# the load, the fits). Prints "status-fit-live: ok ..." and exits 0 when every check passes.
set -euo pipefail
if [[ -n ${CARGO_TARGET_DIR:-} ]]; then
    CARGO_TARGET_DIR="$(realpath -m "$CARGO_TARGET_DIR")"
    export CARGO_TARGET_DIR
fi
cd "$(dirname "$0")/.."

BIN="${MIDPOINT_BIN:-}"
if [[ -z "$BIN" ]]; then
    nice cargo build --release --quiet --bin midpoint
    BIN="${CARGO_TARGET_DIR:-target}/release/midpoint"
fi

# shellcheck source=../scripts/mariadb-server.sh
source scripts/mariadb-server.sh
mariadb_start 64
OUT="$(mktemp -d /tmp/midpoint-status-fit-live.XXXXXX)"
CLIENTS=()
cleanup() {
    local pid
    # The clients' programs end at their stop files (their shells, killed below, leave them).
    touch "$OUT/lookups.stop" "$OUT/scan.stop"
    for pid in "${CLIENTS[@]}"; do
        kill "$pid" 2>/dev/null || true
        wait "$pid" 2>/dev/null || true
    done
    # The server as it was found: a caller's server goes on to other tests (scripts/test.sh).
    mariadb --no-defaults --socket="$MIDPOINT_MARIADB_SOCKET" -uroot \
        -e "DROP DATABASE IF EXISTS live" >/dev/null 2>&1 || true
    mariadb_stop
    if [[ -n ${MIDPOINT_FIT_KEEP:-} ]]; then
        mkdir -p "$MIDPOINT_FIT_KEEP"
        cp -r "$OUT"/. "$MIDPOINT_FIT_KEEP"/
    fi
    rm -rf "$OUT"
}
trap cleanup EXIT

M=(mariadb --no-defaults --socket="$MIDPOINT_MARIADB_SOCKET" -uroot)

# The hot table: 65,536 rows of ~220 bytes (about 1,000 leaf pages, a quarter of the pool); the
# scanned table: 1,048,576 rows (about 15,000 pages, 3.7 times the pool).
{
    echo "CREATE DATABASE live;"
    echo "CREATE TABLE live.hot (id INT PRIMARY KEY AUTO_INCREMENT, pad CHAR(200)) ENGINE=InnoDB;"
    echo "CREATE TABLE live.big (id INT PRIMARY KEY AUTO_INCREMENT, pad CHAR(200)) ENGINE=InnoDB;"
    # From the SEQUENCE engine, not from the table itself: a self-insert goes through a temporary
    # table in the shared /tmp.
    echo "USE live;"
    echo "INSERT INTO live.big (pad) SELECT REPEAT('x', 200) FROM seq_1_to_1048576;"
    echo "INSERT INTO live.hot (pad) SELECT REPEAT('h', 200) FROM seq_1_to_65536;"
    echo "ANALYZE TABLE live.hot, live.big;"
} | "${M[@]}" >/dev/null
HOT_ROWS="$("${M[@]}" -N -B -e "SELECT MAX(id) FROM live.hot")"
leaf_pages() {
    "${M[@]}" -N -B -e "SELECT stat_value FROM mysql.innodb_index_stats WHERE database_name = 'live' AND table_name = '$1' AND index_name = 'PRIMARY' AND stat_name = 'n_leaf_pages'"
}
HOT_LEAVES="$(leaf_pages hot)"
BIG_ROWS="$("${M[@]}" -N -B -e "SELECT MAX(id) FROM live.big")"
BIG_LEAVES="$(leaf_pages big)"

# The two load clients, each a Python program whose statements a mariadb client runs: a tick's
# statements every 10 ms, never catching up after a late tick, until a stop file exists.
#   lookups N STOP            uniform point selects over the N rows of the hot table, 30 a tick
#                             (3,000 a second: the hot set is resident at any rate without the
#                             scan, and the cap saves the CPU of 12,000 to 18,000 lookups a second)
#   scan ROWS LEAVES STOP     passes over the big table in key order, one after another, a tick's
#                             range of rows at 12,000 pages a second (a third of what one core
#                             scans here: at full speed it took a core for its whole window and
#                             went in bursts as the other tests' CPU use rose and fell; held to a
#                             pace the machine keeps under load, it is steady and costs a third)
# Each client ends once its stop file exists, after its last statement's answer: nothing of it
# runs into what follows.
CLIENT_PY='
import os, random, sys, time
what, stop = sys.argv[1], sys.argv[-1]
if what == "lookups":
    n, r = int(sys.argv[2]), random.Random(39)
    def tick():
        return "".join("SELECT id FROM live.hot WHERE id = %d;\n" % (1 + r.randrange(n)) for _ in range(30))
else:
    rows, leaves = int(sys.argv[2]), int(sys.argv[3])
    per_tick, lo = max(1, round(12000 * rows / leaves / 100)), 1
    def tick():
        global lo
        hi = min(rows, lo + per_tick - 1)
        q = "SELECT SUM(LENGTH(pad)) FROM live.big WHERE id BETWEEN %d AND %d;\n" % (lo, hi)
        lo = 1 if hi == rows else hi + 1
        return q
due = time.monotonic()
while not os.path.exists(stop):
    sys.stdout.write(tick())
    sys.stdout.flush()
    due += 0.01
    late = due - time.monotonic()
    if late > 0:
        time.sleep(late)
    else:
        due = time.monotonic()
'
client() { # client WHAT ARGS... STOP
    python3 -c "$CLIENT_PY" "$@" 2>/dev/null | "${M[@]}" -N -B >/dev/null 2>&1
}

# Resident leaf pages of the hot table.
resident() {
    "${M[@]}" -N -B -e "SELECT COUNT(*) FROM information_schema.INNODB_BUFFER_PAGE WHERE TABLE_NAME = '\`live\`.\`hot\`' AND INDEX_NAME = 'PRIMARY' AND PAGE_TYPE = 'INDEX' AND NUMBER_RECORDS > 0"
}

# The counters "yours" is exact from, beside each status (SHOW GLOBAL STATUS, with Uptime).
GLOBAL="SHOW GLOBAL STATUS WHERE Variable_name IN ('Uptime', 'Innodb_pages_read') OR Variable_name LIKE 'Innodb_buffer_pool%'"
# The per-table residency, as a DBA gets it in one query: the sys view, and the grouped
# INNODB_BUFFER_PAGE_LRU query (docs/your-server.md; the same text as midpoint_status::tables).
LRU_QUERY="$(sed -n 's/^pub const LRU_QUERY: &str = "\(.*\)";$/\1/p' crates/status/src/tables.rs)"
tables() {
    local name="$1"
    "${M[@]}" -e "SELECT * FROM sys.innodb_buffer_stats_by_table WHERE object_schema = 'live'\G" >"$OUT/$name-sys-G.txt"
    "${M[@]}" -t -e "SELECT * FROM sys.innodb_buffer_stats_by_table WHERE object_schema = 'live'" >"$OUT/$name-sys-table.txt"
    "${M[@]}" -B -e "SELECT * FROM sys.innodb_buffer_stats_by_table WHERE object_schema = 'live'" >"$OUT/$name-sys-B.txt"
    "${M[@]}" -B -e "$LRU_QUERY" >"$OUT/$name-lru-B.txt"
    "${M[@]}" -t -e "$LRU_QUERY" >"$OUT/$name-lru-table.txt"
}

# The lookups done (point selects by key) and the page gets, for the report.
gstatus() {
    "${M[@]}" -N -B -e "SHOW GLOBAL STATUS WHERE Variable_name IN ('Handler_read_key', 'Innodb_buffer_pool_read_requests', 'Innodb_buffer_pool_reads')"
}

# One capture: the first snapshot after SETTLE s, residency every 5 s over the minute that
# ends with the second snapshot, 30 s after the first.
capture() {
    local name="$1" settle="$2" t0 i
    sleep "$settle"
    t0=$SECONDS
    : >"$OUT/$name-resident.txt"
    for i in $(seq 12); do
        resident >>"$OUT/$name-resident.txt"
        sleep 2.5
    done
    "${M[@]}" -e "SHOW ENGINE INNODB STATUS\G" >"$OUT/$name-status-1.txt"
    "${M[@]}" -B -e "$GLOBAL" >"$OUT/$name-global-1.txt"
    gstatus >"$OUT/$name-gstatus-1.txt"
    for i in $(seq 12); do
        sleep 2.5
        resident >>"$OUT/$name-resident.txt"
    done
    "${M[@]}" -e "SHOW ENGINE INNODB STATUS\G" >"$OUT/$name-status-2.txt"
    "${M[@]}" -B -e "$GLOBAL" >"$OUT/$name-global-2.txt"
    gstatus >"$OUT/$name-gstatus-2.txt"
    tables "$name"
    "${M[@]}" -e "SHOW GLOBAL VARIABLES WHERE Variable_name LIKE 'innodb%' OR Variable_name LIKE 'version%'\G" >"$OUT/$name-vars.txt"
    echo "$((SECONDS - t0))" >"$OUT/$name-seconds.txt"
}

client lookups "$HOT_ROWS" "$OUT/lookups.stop" &
CLIENTS+=($!)
client scan "$BIG_ROWS" "$BIG_LEAVES" "$OUT/scan.stop" &
SCAN=$!
CLIENTS+=("$SCAN")
capture scan 20
touch "$OUT/scan.stop"
wait "$SCAN" 2>/dev/null || true
capture noscan 20

for c in scan noscan; do
    "$BIN" from-status "$OUT/$c-status-1.txt" "$OUT/$c-status-2.txt" "$OUT/$c-vars.txt" --run --json >"$OUT/$c-fit.json"
    "$BIN" from-status "$OUT/$c-status-1.txt" "$OUT/$c-status-2.txt" "$OUT/$c-vars.txt" --run --json --hot-pages "$HOT_LEAVES" >"$OUT/$c-pinned.json"
    # The hot set from the per-table residency, "yours" exact from the global status pair.
    "$BIN" from-status "$OUT/$c-status-1.txt" "$OUT/$c-global-1.txt" "$OUT/$c-status-2.txt" "$OUT/$c-global-2.txt" "$OUT/$c-vars.txt" "$OUT/$c-lru-B.txt" --hot-table live.hot --run --json >"$OUT/$c-table.json"
    # Every client format of both per-table outputs reads the same hot table.
    for f in sys-G sys-table sys-B lru-B lru-table; do
        "$BIN" from-status "$OUT/$c-status-2.txt" "$OUT/$c-$f.txt" --json >"$OUT/$c-$f.json"
    done
done

python3 - "$OUT" "$HOT_LEAVES" <<'EOF'
import json, sys
out, leaves = sys.argv[1], int(sys.argv[2])
fail = []
report = []
def check(cond, what):
    if not cond:
        fail.append(what)
for c in ("scan", "noscan"):
    res = [int(x) for x in open(f"{out}/{c}-resident.txt").read().split()]
    g = [dict(l.split("\t") for l in open(f"{out}/{c}-gstatus-{i}.txt").read().split("\n") if l) for i in (1, 2)]
    secs = max(1, int(open(f"{out}/{c}-seconds.txt").read()) - 30)
    d = lambda k: (int(g[1][k]) - int(g[0][k])) / 30.0
    report.append(f"{c}: the server did about {d('Handler_read_key'):.0f} key lookups/s, {d('Innodb_buffer_pool_read_requests'):.0f} page gets/s, {d('Innodb_buffer_pool_reads'):.0f} reads from disk/s; hot set {leaves} leaf pages, resident {[min(r, leaves) for r in res]}")
    measured = sum(min(r, leaves) for r in res) / len(res) / leaves
    for kind in ("fit", "pinned"):
        j = json.load(open(f"{out}/{c}-{kind}.json"))
        f = j["fit"]
        server, model = f["hit_rate"]["server"], f["hit_rate"]["model"]
        kept = j["result"]["kept"]
        check(server is not None, f"{c}/{kind}: no server hit rate read")
        if server is not None:
            check(abs(model - server) <= 0.005, f"{c}/{kind}: model hit rate {model:.4f} vs the server's {server:.4f}")
        if kind == "pinned":
            check(kept is not None and abs(kept - measured) <= 0.15, f"{c}/{kind}: kept {kept} vs residency {measured:.3f} from INNODB_BUFFER_PAGE")
        check(j["result"]["pool_pages"] == j["read"]["pool_pages"], f"{c}/{kind}: the run simulated {j['result']['pool_pages']} pages, {j['read']['pool_pages']} read")
        report.append(f"{c}/{kind}: hit {server:.4f} vs {model:.4f}, reads/s {f['reads_per_s']['server']:.1f} vs {f['reads_per_s']['model']:.1f}, youngs/s {f['youngs_per_s']['server']:.2f} vs {f['youngs_per_s']['model']:.2f}, non-youngs/s {f['non_youngs_per_s']['server']:.1f} vs {f['non_youngs_per_s']['model']:.1f}; hot {f['hot_pages']} (leaves {leaves}), lookups {f['lookups_per_s']:.0f}, scan {f['scan_pages_per_s']:.0f}; kept {kept:.3f} vs residency {measured:.3f}; unmet {f['unmet']}")
    # The hot set pinned from the per-table residency (the grouped INNODB_BUFFER_PAGE_LRU
    # query's leaf_pages), "yours" exact from the two SHOW GLOBAL STATUS snapshots.
    j = json.load(open(f"{out}/{c}-table.json"))
    f = j["fit"]
    kept = j["result"]["kept"]
    check(j["scenario"]["hot_pages"] == leaves, f"{c}/table: hot set {j['scenario']['hot_pages']} from the per-table residency, not the table's {leaves} leaf pages")
    check("exact" in j and f["hit_rate"]["server"] == j["exact"]["hit_rate"], f"{c}/table: yours is not the global status's exact hit rate")
    check(abs(f["hit_rate"]["model"] - f["hit_rate"]["server"]) <= 0.005, f"{c}/table: model hit rate {f['hit_rate']['model']:.4f} vs the server's {f['hit_rate']['server']:.4f}")
    check(kept is not None and abs(kept - measured) <= 0.15, f"{c}/table: kept {kept} vs residency {measured:.3f}")
    check("live.hot" in (f.get("hot_set_from") or ""), f"{c}/table: the fit does not say the hot set was pinned from live.hot")
    report.append(f"{c}/table: exact hit {f['hit_rate']['server']:.4f} (the status's {j['read']['hit_rate_per_1000'] / 1000:.3f}) vs {f['hit_rate']['model']:.4f}; hot {j['scenario']['hot_pages']}; kept {kept:.3f} vs residency {measured:.3f}")
    for fmt in ("sys-G", "sys-table", "sys-B", "lru-B", "lru-table"):
        t = [x for x in json.load(open(f"{out}/{c}-{fmt}.json")).get("tables", []) if x["table"] == "live.hot"]
        check(len(t) == 1 and 0 < t[0]["pages"] <= 4056, f"{c}/{fmt}: live.hot not read: {t}")
        if fmt.startswith("lru") and t:
            check(t[0].get("leaf_pages") == leaves, f"{c}/{fmt}: leaf_pages {t[0].get('leaf_pages')} vs {leaves}")
for r in report:
    print("  " + r)
if fail:
    print("status-fit-live: FAILED", file=sys.stderr)
    for f in fail:
        print("  " + f, file=sys.stderr)
    sys.exit(1)
print("status-fit-live: ok")
EOF

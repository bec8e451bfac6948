#!/usr/bin/env bash
# The readers against a real server: starts a private MariaDB (scripts/mariadb-server.sh, a
# 16 MiB pool), runs a short scan and a lookup loop, captures SHOW ENGINE INNODB STATUS, the
# variables, INNODB_BUFFER_POOL_STATS and SHOW GLOBAL STATUS with the real `mariadb` client in
# each output format (\G, -t boxed table, -B tab-separated), and checks that
# `midpoint from-status --json` reads every value the server printed in the BUFFER POOL AND
# MEMORY section, the same in every format, cross-checked against INNODB_BUFFER_POOL_STATS and
# SHOW GLOBAL STATUS read from the same server. The captures are bracketed by two readings of the
# pool's counters, so that a server still reading cannot make two outputs disagree (below).
#
#   tests/status-live.sh            (MIDPOINT_BIN=path/to/midpoint to skip the build)
#
# Needs root the first time (apt-get install mariadb-server). About 30 s once installed.
# Prints "status-live: ok" and exits 0 when every check passes.
set -euo pipefail
# A relative CARGO_TARGET_DIR means the caller's directory, as for cargo itself.
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
mariadb_start 16
OUT="$(mktemp -d /tmp/midpoint-status-live.XXXXXX)"
cleanup() {
    mariadb_stop
    rm -rf "$OUT"
}
trap cleanup EXIT

M=(mariadb --no-defaults --socket="$MIDPOINT_MARIADB_SOCKET" -uroot)

# A table four times the pool (131,072 rows of ~220 bytes: ~2,000 pages), a scan, then lookups.
{
    echo "CREATE DATABASE live; CREATE TABLE live.t (id INT PRIMARY KEY AUTO_INCREMENT, pad CHAR(200)) ENGINE=InnoDB;"
    echo "INSERT INTO live.t (pad) VALUES (REPEAT('x', 200));"
    for _ in $(seq 17); do echo "INSERT INTO live.t (pad) SELECT pad FROM live.t;"; done
} | "${M[@]}"
"${M[@]}" -e "SELECT SUM(LENGTH(pad)) FROM live.t" >/dev/null
{
    for i in $(seq 1 400); do echo "SELECT pad FROM live.t WHERE id = $(((i * 7919) % 4096 + 1));"; done
    echo "SELECT COUNT(*) FROM live.t;"
} | "${M[@]}" >/dev/null

# Let the read-ahead in flight finish: the reads counter stands still for half a second. This
# only makes a quiet capture likely below; the checks do not depend on it.
prev=""
for _ in $(seq 40); do
    cur="$("${M[@]}" -N -B -e "SHOW GLOBAL STATUS LIKE 'Innodb_buffer_pool_reads'")"
    [[ "$cur" == "$prev" ]] && break
    prev="$cur"
    sleep 0.5
done

# The pool's counters in one row, read before and after the captures. The outputs are taken one
# after another from a server that may still be reading (a freshly started machine's read-ahead,
# purge, the statistics thread): two of them compared with each other would race. Every counter
# the checks compare only grows, so each capture's value lies between the row before and the
# row after; when the two rows are equal, nothing changed in between and the captures must
# agree exactly. Up to 10 attempts for a quiet capture; after that the brackets are checked.
COUNTERS="POOL_SIZE, FREE_BUFFERS, DATABASE_PAGES, OLD_DATABASE_PAGES, MODIFIED_DATABASE_PAGES, PAGES_MADE_YOUNG, PAGES_NOT_MADE_YOUNG, NUMBER_PAGES_READ, NUMBER_PAGES_CREATED, NUMBER_PAGES_WRITTEN"
counters() {
    "${M[@]}" -N -B -e "SELECT $COUNTERS FROM information_schema.INNODB_BUFFER_POOL_STATS"
}
capture() {
    # Status in the three formats, then the variables and the pool's stats (taken just after).
    "${M[@]}" -e "SHOW ENGINE INNODB STATUS\G" >"$OUT/status-G.txt"
    "${M[@]}" -t -e "SHOW ENGINE INNODB STATUS" >"$OUT/status-table.txt"
    "${M[@]}" -B -e "SHOW ENGINE INNODB STATUS" >"$OUT/status-B.txt"
    "${M[@]}" -e "SHOW GLOBAL VARIABLES WHERE Variable_name LIKE 'innodb%' OR Variable_name LIKE 'version%'\G" >"$OUT/vars-G.txt"
    "${M[@]}" -t -e "SHOW GLOBAL VARIABLES WHERE Variable_name LIKE 'innodb%' OR Variable_name LIKE 'version%'" >"$OUT/vars-table.txt"
    "${M[@]}" -B -e "SHOW GLOBAL VARIABLES WHERE Variable_name LIKE 'innodb%' OR Variable_name LIKE 'version%'" >"$OUT/vars-B.txt"
    "${M[@]}" -e "SELECT * FROM information_schema.INNODB_BUFFER_POOL_STATS\G" >"$OUT/pool-G.txt"
    "${M[@]}" -t -e "SELECT * FROM information_schema.INNODB_BUFFER_POOL_STATS" >"$OUT/pool-table.txt"
    "${M[@]}" -B -e "SELECT * FROM information_schema.INNODB_BUFFER_POOL_STATS" >"$OUT/pool-B.txt"
    "${M[@]}" -B -e "SHOW GLOBAL STATUS LIKE 'Innodb_buffer_pool%'" >"$OUT/gstatus-B.txt"
    "${M[@]}" -t -e "SHOW GLOBAL STATUS LIKE 'Innodb_buffer_pool%'" >"$OUT/gstatus-table.txt"
}
for attempt in $(seq 10); do
    counters >"$OUT/before.row"
    capture
    counters >"$OUT/after.row"
    cmp -s "$OUT/before.row" "$OUT/after.row" && break
    sleep 1
done
echo "$attempt" >"$OUT/attempts"
echo "$COUNTERS" >"$OUT/counters"

for f in "$OUT"/*.txt; do
    "$BIN" from-status "$f" --json >"${f%.txt}.json"
done
# One paste of everything, the way a DBA would.
cat "$OUT/status-G.txt" "$OUT/vars-table.txt" "$OUT/pool-G.txt" >"$OUT/mix.txt"
"$BIN" from-status "$OUT/mix.txt" --json >"$OUT/mix.json"
# And what it refuses: exit status 2.
printf 'Buffer pool size 10\nFree buffers -1\n' >"$OUT/bad.txt"
if "$BIN" from-status "$OUT/bad.txt" --json >/dev/null 2>"$OUT/bad.err"; then
    echo "status-live: a negative count was accepted" >&2
    exit 1
elif [[ $? != 2 ]]; then
    echo "status-live: a negative count did not exit 2" >&2
    exit 1
fi

python3 - "$OUT" <<'EOF'
import json, re, sys
out = sys.argv[1]
fail = []
def check(cond, what):
    if not cond:
        fail.append(what)
def load(n):
    return json.load(open(f"{out}/{n}.json"))

# Every number-bearing line of the \G status's BUFFER POOL AND MEMORY section is read: some value
# names it as its line, and its numbers are the values read.
text = open(f"{out}/status-G.txt").read().split("\n")
g = load("status-G")
lines_read = {v["line"]: k for k, v in g["lines"].items()}
start = text.index("BUFFER POOL AND MEMORY")
ignored = ("Pending reads", "Pending writes", "I/O sum", "Percent of dirty", "Max dirty")
seen = 0
for i in range(start + 2, len(text)):
    line = text[i]
    if re.fullmatch(r"-{3,}", line) and i + 1 < len(text) and text[i + 1].isupper():
        break
    if not re.search(r"\d", line) or line.startswith(ignored):
        continue
    seen += 1
    check(i + 1 in lines_read, f"status-G line {i + 1} '{line}' was not read")
    nums = [float(x) for x in re.findall(r"\d+(?:\.\d+)?", line.replace("/ 1000", ""))]
    got = sorted(float(g["read"][k]) for k, v in g["lines"].items() if v["line"] == i + 1)
    check(sorted(nums) == got, f"status-G line {i + 1} '{line}': read {got}, printed {sorted(nums)}")
check(seen >= 10, f"only {seen} value lines in the buffer pool section")

# The readings of the pool's counters before and after the captures (the bracket above): the
# readers' names for INNODB_BUFFER_POOL_STATS's columns.
cols = [c.strip() for c in open(f"{out}/counters").read().split(",")]
as_read = {"POOL_SIZE": "pool_pages", "FREE_BUFFERS": "free_buffers", "DATABASE_PAGES": "database_pages",
           "OLD_DATABASE_PAGES": "old_database_pages", "MODIFIED_DATABASE_PAGES": "modified_db_pages",
           "PAGES_MADE_YOUNG": "pages_made_young", "PAGES_NOT_MADE_YOUNG": "pages_not_made_young",
           "NUMBER_PAGES_READ": "pages_read", "NUMBER_PAGES_CREATED": "pages_created",
           "NUMBER_PAGES_WRITTEN": "pages_written"}
def row(n):
    return {as_read[c]: int(v) for c, v in zip(cols, open(f"{out}/{n}.row").read().split())}
before, after = row("before"), row("after")
quiet = before == after
attempts = int(open(f"{out}/attempts").read())
# The counters that only grow: a value read between the two rows lies between them.
growing = ["pages_made_young", "pages_not_made_young", "pages_read", "pages_created", "pages_written"]
def within(f, name, v, counter=None):
    counter = counter or name
    lo, hi = before[counter], after[counter]
    check(isinstance(v, (int, float)) and lo <= v <= hi,
          f"{f}: {name} {v} is not between {lo} and {hi}, the {counter} read before and after the captures")

# The three formats of the status read every name, the pool's size, and counters within the
# brackets (equal to them when the server was quiet).
names = ["pool_pages", "free_buffers", "database_pages", "old_database_pages", "modified_db_pages",
         "pages_made_young", "pages_not_made_young", "youngs_per_s", "non_youngs_per_s",
         "pages_read", "pages_created", "pages_written", "reads_per_s", "creates_per_s",
         "writes_per_s", "lru_len", "read_ahead_per_s", "evicted_without_access_per_s"]
for f in ("status-G", "status-table", "status-B"):
    r = load(f)["read"]
    for n in names:
        check(n in r, f"{f}: {n} not read")
    check(r.get("pool_pages") == before["pool_pages"], f"{f}: pool_pages {r.get('pool_pages')} != POOL_SIZE {before['pool_pages']}")
    for n in growing:
        within(f, n, r.get(n))
    check(r.get("free_buffers", 0) + r.get("database_pages", 0) <= r.get("pool_pages", 0), f"{f}: free + database > size")
    check(load(f)["warnings"] == [], f"{f}: warnings {load(f)['warnings']}")
    if quiet:
        check(all(r.get(n) == g["read"].get(n) for n in growing + ["pool_pages"]), f"{f}: differs from status-G on a quiet server")

# INNODB_BUFFER_POOL_STATS in three formats and SHOW GLOBAL STATUS in two: the same counters,
# within the brackets; on a quiet server every value of the pool's stats equal to the rows.
pools = {f: load(f)["read"] for f in ("pool-G", "pool-table", "pool-B")}
gs = {f: load(f)["read"] for f in ("gstatus-B", "gstatus-table")}
for f, p in pools.items():
    check(p.get("pool_pages") == before["pool_pages"], f"{f}: POOL_SIZE {p.get('pool_pages')} != {before['pool_pages']}")
    for n in growing:
        within(f, n, p.get(n))
    if quiet:
        check({k: p.get(k) for k in before} == before, f"{f}: {p} differs from the quiet server's {before}")
for f, s in gs.items():
    check(s.get("Innodb_buffer_pool_pages_total") == before["pool_pages"], f"{f}: pages_total {s.get('Innodb_buffer_pool_pages_total')}")
    within(f, "Innodb_buffer_pool_reads", s.get("Innodb_buffer_pool_reads"), "pages_read")
    within(f, "Innodb_buffer_pool_pages_made_young", s.get("Innodb_buffer_pool_pages_made_young"), "pages_made_young")
spread = {n: after[n] - before[n] for n in growing if after[n] != before[n]}

# The variables in every format; the scenario from them.
for f in ("vars-G", "vars-table", "vars-B"):
    v = load(f)
    r = v["read"]
    check(r.get("innodb_buffer_pool_size") == 16 << 20, f"{f}: innodb_buffer_pool_size {r.get('innodb_buffer_pool_size')}")
    check(r.get("innodb_lru_scan_depth") == 1536, f"{f}: innodb_lru_scan_depth")
    check("MariaDB" in str(r.get("version", "")), f"{f}: version {r.get('version')}")
    check(v["scenario"]["engine"] == "mariadb-10.11", f"{f}: engine")
mix = load("mix")
check(mix["scenario"]["engine"] == "mariadb-10.11" and mix["scenario"]["pool_mb"] == 16, "mix: scenario")
check("innodb_lru_scan_depth" not in mix["assumed"], "mix: depth assumed though pasted")
check(mix["read"]["free_buffers"] == g["read"]["free_buffers"], "mix: the status's values")

if fail:
    print("status-live: FAILED", file=sys.stderr)
    for f in fail:
        print("  " + f, file=sys.stderr)
    sys.exit(1)
how = (f"quiet: the counters equal before and after the captures, attempt {attempts}" if quiet
       else f"the server never quiet in {attempts} attempts: within brackets {spread}")
print(f"status-live: ok ({seen} value lines of the buffer pool section, 3 formats of each output; pool {g['read']['pool_pages']} pages, {g['read']['pages_read']} pages read; {how})")
EOF

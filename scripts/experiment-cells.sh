#!/usr/bin/env bash
# The cells of docs/experiment.md's CPU table, on a private MariaDB (scripts/mariadb-server.sh):
# 64 MiB with the defaults, with innodb_old_blocks_time 0, with innodb_lru_scan_depth 128, with
# a 2 s pause between passes, then 256 MiB with the defaults; 60 s of warm-up, 150 s of scans,
# the model's ensembles of 5 runs (both CPU models). Each cell's `uptime` is written before it
# runs (the machine may be shared), its JSON and its stderr beside it. About 30 minutes.
#
#   scripts/experiment-cells.sh OUT_DIR [path/to/midpoint] [cell ...]
#   cells: 64-default 64-t0 64-depth128 64-pause2000 256-default (default: all)
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/mariadb-server.sh

out="${1:?give the output directory}"
bin="${2:-target/release/midpoint}"
shift $(($# < 2 ? $# : 2))
cells=("$@")
((${#cells[@]})) || cells=(64-default 64-t0 64-depth128 64-pause2000 256-default)
mkdir -p "$out"
trap mariadb_stop EXIT

pool=""
for cell in "${cells[@]}"; do
    args=()
    case "$cell" in
    64-default) want=64 ;;
    64-t0) want=64 args=(--old-blocks-time 0) ;;
    64-depth128) want=64 args=(--lru-scan-depth 128) ;;
    64-pause2000) want=64 args=(--pause-ms 2000) ;;
    256-default) want=256 ;;
    *)
        echo "experiment-cells: no cell '$cell'" >&2
        exit 1
        ;;
    esac
    if [[ "$pool" != "$want" ]]; then
        mariadb_stop
        mariadb_start "$want"
        pool="$want"
    fi
    uptime >"$out/$cell.uptime"
    echo "experiment-cells: $cell ($(cat "$out/$cell.uptime"))" >&2
    "$bin" experiment --url "$MIDPOINT_MARIADB_URL" --warmup-s 60 --scan-s 150 --runs 5 \
        "${args[@]}" --json --svg "$out/$cell.svg" >"$out/$cell.json" 2>"$out/$cell.err"
done

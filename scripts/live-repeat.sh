#!/usr/bin/env bash
# The live section of scripts/test.sh (tests/status-live.sh, then tests/experiment-live.sh) N
# times in a row, each script on a MariaDB server it starts just before it
# (scripts/mariadb-server.sh) and stops after it: a live test that races shows up here as a
# failure in a few runs instead of one fresh machine in a few.
#
#   scripts/live-repeat.sh N [--status-only]      (MIDPOINT_BIN=path/to/midpoint to skip the build)
#
# Prints each run's result line, then one line per script, "status-live: 10/10 passed", and
# exits non-zero if any run failed; a failed run's output is kept under /tmp and named.
set -euo pipefail
if [[ -n ${CARGO_TARGET_DIR:-} ]]; then
    CARGO_TARGET_DIR="$(realpath -m "$CARGO_TARGET_DIR")"
    export CARGO_TARGET_DIR
fi
cd "$(dirname "${BASH_SOURCE[0]}")/.."

n="${1:-}"
if ! [[ "$n" =~ ^[0-9]+$ ]] || ((n < 1)); then
    echo "usage: scripts/live-repeat.sh N [--status-only]   (N: how many times, 1 or more)" >&2
    exit 2
fi
scripts=(tests/status-live.sh tests/experiment-live.sh)
case "${2:-}" in
    "") ;;
    --status-only) scripts=(tests/status-live.sh) ;;
    *)
        echo "live-repeat: unknown option '$2' (known: --status-only)" >&2
        exit 2
        ;;
esac

BIN="${MIDPOINT_BIN:-}"
if [[ -z "$BIN" ]]; then
    nice cargo build --release --quiet --bin midpoint
    BIN="${CARGO_TARGET_DIR:-target}/release/midpoint"
fi
BIN="$(realpath "$BIN")"
echo "live-repeat: $n runs of ${scripts[*]} with $BIN ($(git rev-parse --short HEAD 2>/dev/null || echo 'no git'))"

logs="$(mktemp -d /tmp/midpoint-live-repeat.XXXXXX)"
declare -A passed
for s in "${scripts[@]}"; do passed[$s]=0; done
failed=0
for ((i = 1; i <= n; i++)); do
    for s in "${scripts[@]}"; do
        name="$(basename "$s" .sh)"
        log="$logs/$name-$i.log"
        t0=$(date +%s)
        if MIDPOINT_BIN="$BIN" "$s" "$BIN" >"$log" 2>&1; then
            passed[$s]=$((passed[$s] + 1))
            printf '%2d/%d %-16s ok   %4ds  %s\n' "$i" "$n" "$name" $(($(date +%s) - t0)) "$(grep -E "^$name: ok" "$log" | tail -n 1)"
        else
            failed=1
            printf '%2d/%d %-16s FAIL %4ds  (log: %s)\n' "$i" "$n" "$name" $(($(date +%s) - t0)) "$log"
            tail -n 15 "$log" | sed 's/^/      /'
        fi
    done
done
for s in "${scripts[@]}"; do
    echo "$(basename "$s" .sh): ${passed[$s]}/$n passed"
done
if ((failed)); then
    echo "live-repeat: some runs failed; their logs are in $logs" >&2
    exit 1
fi
rm -rf "$logs"

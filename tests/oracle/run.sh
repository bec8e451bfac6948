#!/usr/bin/env bash
# Cross-checks midpoint's replacement policies against libCacheSim (PyPI `libcachesim`, a
# test-only dependency installed into $CARGO_TARGET_DIR/oracle-venv, target/ by default): equal miss counts for every policy
# both have, on a Zipf trace, a random trace with reuse and the seed-000 export.
#
#   tests/oracle/run.sh [MIDPOINT_BINARY]     (default: $CARGO_TARGET_DIR/release/midpoint, built here)
set -euo pipefail
# A relative CARGO_TARGET_DIR means the caller's directory, as for cargo itself.
target_dir="$(realpath -m "${CARGO_TARGET_DIR:-$(dirname "${BASH_SOURCE[0]}")/../../target}")"
# cargo below runs from the repository's root: give it the same, absolute, directory.
[[ -n ${CARGO_TARGET_DIR:-} ]] && export CARGO_TARGET_DIR="$target_dir"
cd "$(dirname "${BASH_SOURCE[0]}")/../.."

venv=$target_dir/oracle-venv
if [[ ! -x $venv/bin/python ]] || ! "$venv/bin/python" -c 'import libcachesim' 2>/dev/null; then
    echo "creating $venv with libcachesim"
    python3 -m venv "$venv"
    "$venv/bin/pip" install -q libcachesim
fi
bin="${1:-$target_dir/release/midpoint}"
if [[ $# -eq 0 ]]; then
    cargo build --release -q
fi
work=$target_dir/oracle
mkdir -p "$work"
"$bin" export --preset seed000-hot4485-b2b --format oracle-general "$work/seed000.oracleGeneral"
"$venv/bin/python" tests/oracle/check.py "$bin" "$work" "$work/seed000.oracleGeneral"

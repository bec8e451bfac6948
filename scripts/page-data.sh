#!/usr/bin/env bash
# Regenerate the page's committed sweep, www/data/sweep.json, with the command-line simulator:
# the sweep figure opens drawn from it (the lab's and the article's, at the default settings),
# and crates/cli/tests/page_data.rs runs the same command and compares the result in full.
#
#   scripts/page-data.sh      (~1 min on 2 cores, after the release build)
#
# The file is `midpoint sweep --json`'s output with the command, the commit it ran at and the
# runs per point beside it, as the other www/data/ files carry theirs.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
runs=5
args=(sweep --preset seed000-hot4485-b2b --runs "$runs" --json)
cargo build --release --quiet -p midpoint-cli
tmp="$(mktemp)"
trap 'rm -f "$tmp"' EXIT
"${CARGO_TARGET_DIR:-target}/release/midpoint" "${args[@]}" >"$tmp"
python3 - "$tmp" "midpoint ${args[*]}" "$(git rev-parse --short HEAD)" "$runs" >www/data/sweep.json <<'PY'
import json, sys
path, command, commit, runs = sys.argv[1:]
result = json.load(open(path))
out = {"command": command, "commit": commit, "runs": int(runs), **result}
json.dump(out, sys.stdout, indent=1)
print()
PY
echo "wrote www/data/sweep.json"

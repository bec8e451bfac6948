#!/usr/bin/env bash
# Build the WASM (scripts/build-wasm.sh), then serve the repository root on loopback for local
# development. The page imports ../pkg/midpoint.js, so the root (not www/) must be served.
#
#   scripts/serve.sh            # http://127.0.0.1:8000/www/index.html
#   PORT=9000 scripts/serve.sh
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
port="${PORT:-8000}"

bash scripts/build-wasm.sh

echo
echo "Serving http://127.0.0.1:$port/www/index.html  (Ctrl-C to stop)"
echo
exec python3 -m http.server "$port" --bind 127.0.0.1

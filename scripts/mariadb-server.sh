# A private MariaDB server on loopback, for the live tests (sourced, not run).
#
#   mariadb_start POOL_MB   installs Debian's mariadb-server and mariadb-client if missing
#                           (apt-get, as root), starts a private mariadbd on 127.0.0.1 with its
#                           own temporary datadir, socket and a free port, and an InnoDB buffer
#                           pool of POOL_MB MiB; waits until it answers; exports
#                             MIDPOINT_MARIADB_SOCKET  its Unix socket
#                             MIDPOINT_MARIADB_PORT    its TCP port
#                             MIDPOINT_MARIADB_URL     mysql://root@127.0.0.1:PORT (root, no
#                                                      password, on this instance only)
#                           A second call while the server runs, in this shell or in a
#                           script it started (the variables are exported), uses that server
#                           when its pool has the size asked, and fails when not. Starts in
#                           several processes at once take turns (a lock file in /tmp).
#   mariadb_stop            shuts it down and removes its datadir; nothing when none runs, and
#                           nothing when another shell started it (a script run on a server its
#                           caller started leaves it to the caller: scripts/test.sh's fit lane).
#
# No other server is touched: the system's service is not started (a policy-rc.d refuses it
# during the install when the machine has none), and the private server reads no option file
# (--no-defaults). Both functions print nothing unless something fails; they return non-zero
# then, with the reason and the server's error log on stderr.

mariadb__sbin() {
    local name
    for name in "$@"; do
        if command -v "$name" >/dev/null 2>&1; then
            command -v "$name"
            return 0
        fi
        if [[ -x "/usr/sbin/$name" ]]; then
            printf '%s\n' "/usr/sbin/$name"
            return 0
        fi
    done
    return 1
}

mariadb__have_tools() {
    mariadb__sbin mariadbd >/dev/null && mariadb__sbin mariadb-install-db >/dev/null &&
        mariadb__sbin mariadb >/dev/null && mariadb__sbin mariadb-admin >/dev/null
}

mariadb__install() {
    mariadb__have_tools && return 0
    if [[ "$(id -u)" != 0 ]]; then
        echo "mariadb-server.sh: mariadb-server and mariadb-client are missing; installing them needs root (apt-get install mariadb-server mariadb-client)" >&2
        return 1
    fi
    if ! command -v apt-get >/dev/null 2>&1; then
        echo "mariadb-server.sh: mariadb-server and mariadb-client are missing and there is no apt-get; install MariaDB (mariadbd, mariadb-install-db, mariadb, mariadb-admin) by hand" >&2
        return 1
    fi
    local policy=/usr/sbin/policy-rc.d made_policy=""
    if [[ ! -e "$policy" ]]; then
        # Keep the package's postinst from starting the system's own server.
        printf '#!/bin/sh\nexit 101\n' >"$policy" && chmod 755 "$policy" && made_policy=1
    fi
    local log rc=0
    log="$(mktemp /tmp/midpoint-mariadb-apt.XXXXXX)"
    if ! DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 update -qq >"$log" 2>&1 ||
        ! DEBIAN_FRONTEND=noninteractive apt-get -o DPkg::Lock::Timeout=600 install -y -qq \
            --no-install-recommends mariadb-server mariadb-client >>"$log" 2>&1; then
        echo "mariadb-server.sh: apt-get could not install mariadb-server mariadb-client:" >&2
        tail -n 20 "$log" >&2
        rc=1
    fi
    if [[ -n "$made_policy" ]]; then
        rm -f "$policy"
    fi
    rm -f "$log"
    [[ $rc == 0 ]] || return 1
    mariadb__have_tools || {
        echo "mariadb-server.sh: installed mariadb-server, but mariadbd or its tools are still not found" >&2
        return 1
    }
}

# A TCP port nothing listens on (the kernel picks it; a race with another program is unlikely).
mariadb__free_port() {
    python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'
}

mariadb__running() {
    [[ -n "${MIDPOINT_MARIADB_PID:-}" ]] && kill -0 "$MIDPOINT_MARIADB_PID" 2>/dev/null
}

mariadb_start() {
    local pool_mb="${1:-}"
    if ! [[ "$pool_mb" =~ ^[0-9]+$ ]] || ((pool_mb < 5)); then
        echo "mariadb_start: give the buffer pool's size in MiB (5 or more), e.g. mariadb_start 64" >&2
        return 1
    fi
    if mariadb__running; then
        if [[ "${MIDPOINT_MARIADB_POOL_MB:-}" != "$pool_mb" ]]; then
            echo "mariadb_start: the private server already running (pid $MIDPOINT_MARIADB_PID) has a ${MIDPOINT_MARIADB_POOL_MB:-?} MiB pool, not the $pool_mb MiB asked" >&2
            return 1
        fi
        return 0
    fi
    # Starts are one at a time across processes (scripts/test.sh runs the live tests side by side):
    # the install, the port's pick and the server's bind happen under one lock, so two starts can
    # neither run apt-get together nor pick the same free port before either binds it.
    local lockfd="" rc=0
    if command -v flock >/dev/null 2>&1; then
        exec {lockfd}>"${TMPDIR:-/tmp}/midpoint-mariadb-start.lock" && flock "$lockfd"
    fi
    mariadb__start_locked "$pool_mb" "$lockfd" || rc=$?
    [[ -z "$lockfd" ]] || exec {lockfd}>&-
    return "$rc"
}

# mariadb__start_locked POOL_MB LOCKFD: mariadb_start's work, with the start lock held on fd
# LOCKFD (empty when there is no flock), which the server must not inherit.
mariadb__start_locked() {
    local pool_mb="$1" lockfd="$2"
    mariadb__install || return 1
    local mariadbd install_db client admin
    mariadbd="$(mariadb__sbin mariadbd)"
    install_db="$(mariadb__sbin mariadb-install-db)"
    client="$(mariadb__sbin mariadb)"
    admin="$(mariadb__sbin mariadb-admin)"

    local dir port user=()
    dir="$(mktemp -d /tmp/midpoint-mariadb.XXXXXX)" || return 1
    port="$(mariadb__free_port)" || {
        echo "mariadb_start: no free port found (python3 is needed)" >&2
        rm -rf "$dir"
        return 1
    }
    [[ "$(id -u)" == 0 ]] && user=(--user=root)

    if ! "$install_db" --no-defaults --datadir="$dir/data" "${user[@]}" \
        --auth-root-authentication-method=normal --skip-test-db >"$dir/install.log" 2>&1; then
        echo "mariadb_start: mariadb-install-db failed:" >&2
        tail -n 20 "$dir/install.log" >&2
        rm -rf "$dir"
        return 1
    fi

    # The server must not hold the start lock: it would outlive this start.
    (
        [[ -z "$lockfd" ]] || exec {lockfd}>&-
        exec "$mariadbd" --no-defaults "${user[@]}" \
            --datadir="$dir/data" --socket="$dir/mysqld.sock" --pid-file="$dir/mysqld.pid" \
            --log-error="$dir/error.log" --bind-address=127.0.0.1 --port="$port" \
            --skip-name-resolve --innodb-buffer-pool-size="${pool_mb}M" \
            </dev/null >/dev/null 2>&1
    ) &
    local pid=$!

    local i
    for ((i = 0; i < 240; i++)); do
        if ! kill -0 "$pid" 2>/dev/null; then
            echo "mariadb_start: mariadbd exited while starting; its log:" >&2
            tail -n 30 "$dir/error.log" >&2
            rm -rf "$dir"
            return 1
        fi
        if "$admin" --no-defaults --socket="$dir/mysqld.sock" -uroot --connect-timeout=2 ping >/dev/null 2>&1; then
            break
        fi
        sleep 0.25
    done
    if ((i == 240)); then
        echo "mariadb_start: mariadbd did not answer within 60 s; its log:" >&2
        tail -n 30 "$dir/error.log" >&2
        kill "$pid" 2>/dev/null
        wait "$pid" 2>/dev/null
        rm -rf "$dir"
        return 1
    fi

    # With --skip-name-resolve a TCP login from 127.0.0.1 is matched against host '127.0.0.1':
    # give root there no password, on this private instance only.
    if ! "$client" --no-defaults --socket="$dir/mysqld.sock" -uroot -e \
        "CREATE USER IF NOT EXISTS 'root'@'127.0.0.1' IDENTIFIED BY ''; GRANT ALL PRIVILEGES ON *.* TO 'root'@'127.0.0.1' WITH GRANT OPTION;" \
        >"$dir/grant.log" 2>&1; then
        echo "mariadb_start: could not let root log in over TCP:" >&2
        cat "$dir/grant.log" >&2
        kill "$pid" 2>/dev/null
        wait "$pid" 2>/dev/null
        rm -rf "$dir"
        return 1
    fi

    export MIDPOINT_MARIADB_DIR="$dir"
    export MIDPOINT_MARIADB_PID="$pid"
    export MIDPOINT_MARIADB_SOCKET="$dir/mysqld.sock"
    export MIDPOINT_MARIADB_PORT="$port"
    export MIDPOINT_MARIADB_URL="mysql://root@127.0.0.1:$port"
    export MIDPOINT_MARIADB_POOL_MB="$pool_mb"
    # The shell that started it, the one that stops it.
    export MIDPOINT_MARIADB_OWNER="$BASHPID"
}

mariadb_stop() {
    if [[ -n "${MIDPOINT_MARIADB_OWNER:-}" && "$MIDPOINT_MARIADB_OWNER" != "$BASHPID" ]]; then
        return 0
    fi
    local dir="${MIDPOINT_MARIADB_DIR:-}" pid="${MIDPOINT_MARIADB_PID:-}"
    if [[ -n "$pid" ]] && kill -0 "$pid" 2>/dev/null; then
        local admin
        admin="$(mariadb__sbin mariadb-admin)"
        [[ -z "$admin" ]] ||
            "$admin" --no-defaults --socket="${MIDPOINT_MARIADB_SOCKET:-$dir/mysqld.sock}" -uroot \
                --connect-timeout=5 shutdown >/dev/null 2>&1
        local i=0
        while kill -0 "$pid" 2>/dev/null && ((i < 120)); do
            sleep 0.25
            i=$((i + 1))
        done
        if kill -0 "$pid" 2>/dev/null; then
            kill "$pid" 2>/dev/null
            sleep 1
            kill -9 "$pid" 2>/dev/null
        fi
        wait "$pid" 2>/dev/null
    fi
    if [[ -n "$dir" && "$dir" == /tmp/midpoint-mariadb.* ]]; then
        rm -rf "$dir"
    fi
    unset MIDPOINT_MARIADB_DIR MIDPOINT_MARIADB_PID MIDPOINT_MARIADB_SOCKET \
        MIDPOINT_MARIADB_PORT MIDPOINT_MARIADB_URL MIDPOINT_MARIADB_POOL_MB MIDPOINT_MARIADB_OWNER
    return 0
}

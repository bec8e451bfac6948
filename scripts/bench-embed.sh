#!/usr/bin/env bash
# What a blog post's reader on a phone waits for, as one JSON line:
#
#   {"embed_poster_ms", "embed_first_frame_ms", "embed_live_at_moment_ms", "embed_transfer_kb",
#    "encoding", "runs": [...]}
#
# for the close-up embed (lab.html?view=strip&at=batch&embed=1) at 390x844, the CPU slowed 4x and
# a slow 4G network (150 ms, 1.6 Mbit/s down), median of 3 runs with an empty cache
# (tests/browser/bench-embed.mjs says what each figure measures). The repository is served the way
# a static host serves it: gzip level 9 (GitHub Pages), or brotli quality 11 with --brotli
# (tests/browser/static-server.mjs). It measures the committed pkg/.
#
#   scripts/bench-embed.sh [--brotli] [--runs N] [--path /www/...] [--requests]
#
# --requests lists the first run's requests (path, status, KiB over the wire) on stderr.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
source scripts/common.sh
need_page_bench bench-embed

server_args=()
bench_args=()
while (($#)); do
    case "$1" in
    --brotli) server_args+=(--brotli) ;;
    --requests) bench_args+=(--requests) ;;
    --runs | --path | --timeout-s)
        (($# >= 2)) || die "bench-embed: $1 needs a value"
        bench_args+=("$1" "$2")
        shift
        ;;
    *) die "bench-embed: unknown argument '$1' (--brotli, --runs N, --path P, --timeout-s S, --requests)" ;;
    esac
    shift
done

start_static_server bench-embed "${server_args[@]}"
node tests/browser/bench-embed.mjs "${bench_args[@]}"

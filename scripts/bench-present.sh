#!/usr/bin/env bash
# How long the classroom's presentation (lab.html?view=present) makes a class wait for a beat,
# as one JSON line:
#
#   {"viewport", "beats_ready_ms", "moments_mb", "key_to_drawn_ms": {"1": ..., "6": ...}, "cold_key_to_drawn_ms": {...}, "runs"}
#
# key_to_drawn_ms: for each beat, the median over N runs (default 3) of the time from the key
# (ArrowRight, or ArrowLeft for beat 1) to the first frame drawn at the beat's moment
# (data-seeking removed), once the page has prepared the beats' moments (beats_ready_ms after
# load); cold_key_to_drawn_ms: the same for a first pass started at once after load, before the
# moments are ready; moments_mb: roughly what the prepared moments hold
# (tests/browser/bench-present.mjs). It measures the committed pkg/.
#
#   scripts/bench-present.sh [--runs N] [--viewport WxH]
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
source scripts/common.sh
need_page_bench bench-present

bench_args=()
while (($#)); do
    case "$1" in
    --runs | --viewport)
        (($# >= 2)) || die "bench-present: $1 needs a value"
        bench_args+=("$1" "$2")
        shift
        ;;
    *) die "bench-present: unknown argument '$1' (--runs N, --viewport WxH)" ;;
    esac
    shift
done

start_static_server bench-present
node tests/browser/bench-present.mjs "${bench_args[@]}"

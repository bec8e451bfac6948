#!/usr/bin/env bash
# How long the classroom's presentation (lab.html?view=present) makes a class wait for a beat,
# as one JSON line:
#
#   {"viewport", "cold_key_to_drawn_ms": {"2": ..., "6": ...}, "five_keys_last_to_drawn_ms",
#    "tour6_load_to_drawn_ms", "key_to_drawn_ms": {"1": ..., "6": ...}, "runs"}
#
# Nothing is prepared ahead (every beat is a seek at full speed), so every figure is cold.
# cold_key_to_drawn_ms: from the key (ArrowRight) to the first frame drawn at the beat's moment
# (data-seeking removed), a first pass at once after load; five_keys_last_to_drawn_ms: five
# ArrowRight 150 ms apart right after beat 1 is drawn, from the last keydown to beat 6 drawn
# (target <= 1000); tour6_load_to_drawn_ms: ?view=present&tour=6 from the load event to beat 6
# drawn (target <= 2500); key_to_drawn_ms: for each beat, the median over N runs (default 3) of
# key to drawn (ArrowLeft for beat 1) (tests/browser/bench-present.mjs). It measures the
# committed pkg/.
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

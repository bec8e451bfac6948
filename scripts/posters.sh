#!/usr/bin/env bash
# Writes www/posters/*.webp, the posters lab.html shows in an embedded figure's box until the live
# figure has drawn: each figure's opening moment at 390 and 800 CSS px wide, drawn by the page
# itself (the committed pkg/ and www/) in headless Chromium. Run it after a change to how a
# figure opens, and commit the result; tests/browser/poster.test.mjs fails on a stale poster.
#
#   scripts/posters.sh
#   MIDPOINT_POSTERS=write,pair scripts/posters.sh   (those figures only)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
source scripts/common.sh
need_node >&2
[[ -d node_modules/playwright-core ]] || npm ci --silent >&2
start_static_server posters
node scripts/posters.mjs

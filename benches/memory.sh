#!/usr/bin/env bash
# A window's memory idle, just after a burst and once the program has been quiet: RSS and its
# anonymous part, from /proc/PID/smaps_rollup (docs/performance.md, "Memory").
#
# Usage: benches/memory.sh [BYTES]   (default 16000000 bytes of the plain payload)
set -euo pipefail
cd "$(dirname "$0")/.."
bytes=${1:-16000000}
cargo build --release -q -p sluice-benches --bin flood
source benches/xvfb.sh

memory() {
  awk '/^Rss/ {r = $2} /^Anonymous/ {a = $2} END {printf "%.1f / %.1f", r / 1024, a / 1024}' \
    "/proc/$1/smaps_rollup"
}

"$bin/sluice" --size 100x30 -e sh -c "sleep 6; '$bin/flood' plain $bytes; sleep 1000" \
  >/dev/null 2>&1 &
pid=$!
trap 'kill $pid 2>/dev/null; kill $xvfb 2>/dev/null; rm -rf "$tmp"' EXIT
sleep 5
idle=$(memory $pid)
sleep 4.5
after=$(memory $pid)
sleep 6
quiet=$(memory $pid)
echo "RSS / anonymous MiB: idle $idle; 3.5 s after $bytes bytes begin $after; 9.5 s after $quiet"

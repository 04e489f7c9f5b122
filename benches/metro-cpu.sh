#!/usr/bin/env bash
# Where a window's CPU goes during a Metro-like build: each thread's clock ticks (10 ms, from
# /proc/PID/task/*/stat) from just before `sluice-bench metro-sim --warm --log-every 1` starts
# inside a 100x30 window to just after it ends (docs/performance.md, "A trickle of small
# writes"). Builds to compare are given as binaries and alternated, round by round.
#
# Usage: benches/metro-cpu.sh [ROUNDS] [SLUICE_BINARY…]   (defaults: 3 rounds, this build)
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-3}
shift || true
source benches/xvfb.sh
builds=("$@")
[ ${#builds[@]} -gt 0 ] || builds=("$bin/sluice")

# utime + stime; the fields are counted from the end of the name, which may hold spaces.
ticks() { sed 's/.*) //' "$1/stat" 2>/dev/null | awk '{print $12 + $13}' || echo 0; }

one() { # BINARY: prints "total=N thread=N …" for one build
  "$1" --size 100x30 --font-size 10 -e sh -c \
    "sleep 4; '$bin/sluice-bench' metro-sim --warm --log-every 1 2>'$tmp/metro.json'; sleep 30" \
    >/dev/null 2>&1 &
  local pid=$!
  local -A before=()
  sleep 3.5
  for t in /proc/$pid/task/*; do before[$t]=$(ticks "$t"); done
  sleep 3.5 # the build takes about 1.3 s
  local total=0 line=""
  for t in /proc/$pid/task/*; do
    local d=$(($(ticks "$t") - ${before[$t]:-0}))
    total=$((total + d))
    if [ $d -gt 0 ]; then line="$line $(cat "$t/comm")=$d"; fi
  done
  kill $pid
  wait $pid 2>/dev/null || true
  echo "total=$total$line  build: $(tr -d '\n' <"$tmp/metro.json")"
}

for r in $(seq 1 "$rounds"); do
  for b in "${builds[@]}"; do
    echo "round $r $b: $(one "$b")"
    sleep 1
  done
done

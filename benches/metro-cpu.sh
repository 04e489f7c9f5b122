#!/usr/bin/env bash
# Where a window's CPU goes during a Metro-like build: each thread's CPU time in milliseconds
# (the scheduler's own count, /proc/PID/task/*/sched; where the kernel has none, clock ticks
# of 10 ms from /proc/PID/task/*/stat) from just before `sluice-bench metro-sim --warm
# --log-every 1` starts inside a window (100x30 unless SIZE says) to just after it ends
# (docs/performance.md, "A trickle of small writes"), for a first build in a fresh window and
# a second one in the same window. Builds to compare are given as binaries (or scripts that
# exec one) and alternated, round by round.
#
# Usage: [SIZE=COLSxROWS] benches/metro-cpu.sh [ROUNDS] [SLUICE_BINARY…]
#   (defaults: 100x30, 3 rounds, this build)
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-3}
shift || true
source benches/xvfb.sh
builds=("$@")
[ ${#builds[@]} -gt 0 ] || builds=("$bin/sluice")

# A thread's CPU time in ms: the scheduler's sum_exec_runtime, else utime + stime in 10 ms
# ticks (counted from the end of the name, which may hold spaces).
cpu_ms() {
  if [ -r "$1/sched" ]; then
    awk '/se.sum_exec_runtime/ {print $3; found = 1} END {if (!found) print 0}' "$1/sched"
  else
    sed 's/.*) //' "$1/stat" 2>/dev/null | awk '{print ($12 + $13) * 10}' || echo 0
  fi
}

# Each thread's CPU since `before` (an array of thread -> ms), as "total=MS thread=MS …".
spent() {
  local pid=$1 total=0 line=""
  local -n from=$2
  for t in /proc/$pid/task/*; do
    local d
    d=$(awk -v a="$(cpu_ms "$t")" -v b="${from[$t]:-0}" 'BEGIN {printf "%.1f", a - b}')
    total=$(awk -v t="$total" -v d="$d" 'BEGIN {printf "%.1f", t + d}')
    if awk -v d="$d" 'BEGIN {exit !(d >= 0.5)}'; then line="$line $(cat "$t/comm")=$d"; fi
  done
  echo "total=$total$line"
}

# BINARY: two builds in one window, 4 s apart, each measured on its own: the first in a
# fresh window (its scrollback grows: page faults and allocation on the parser's thread),
# the second in a window whose scrollback already holds the first build's lines.
one() {
  local build="'$bin/sluice-bench' metro-sim --warm --log-every 1"
  "$1" --size "${SIZE:-100x30}" --font-size 10 -e sh -c \
    "sleep 4; $build 2>'$tmp/fresh.json'; sleep 2.7; $build 2>'$tmp/warm.json'; sleep 30" \
    >/dev/null 2>&1 &
  local pid=$!
  local -A before=()
  sleep 3.5
  for t in /proc/$pid/task/*; do before[$t]=$(cpu_ms "$t"); done
  sleep 3.5 # the build takes about 1.3 s
  local fresh
  fresh=$(spent $pid before)
  for t in /proc/$pid/task/*; do before[$t]=$(cpu_ms "$t"); done
  sleep 3.5
  local warm
  warm=$(spent $pid before)
  kill $pid
  wait $pid 2>/dev/null || true
  echo "fresh window: $fresh  build: $(tr -d '\n' <"$tmp/fresh.json")"
  echo "    warm window: $warm  build: $(tr -d '\n' <"$tmp/warm.json")"
}

for r in $(seq 1 "$rounds"); do
  for b in "${builds[@]}"; do
    echo "round $r $b: $(one "$b")"
    sleep 1
  done
done

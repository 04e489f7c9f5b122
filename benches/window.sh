#!/usr/bin/env bash
# Window latency and idle CPU, through real windows on a private Xvfb display:
# - keystroke to PTY read, and PTY write to pixels on screen, idle and under an output flood
#   (sluice-bench window-latency), for Sluice with its default 16 MiB ring, with a 1 MiB ring,
#   and for any other terminal installed here (xterm);
# - CPU used by an idle Sluice window (a shell at its prompt) over 30 s.
#
# Usage: benches/window.sh [SAMPLES] [IDLE_SECONDS]     (defaults: 200 samples, 30 s)
set -euo pipefail
cd "$(dirname "$0")/.."
samples=${1:-200}
idle_seconds=${2:-30}

. benches/xvfb.sh

latency() { # NAME TERMINAL-COMMAND...
  local name=$1; shift
  echo "== $name =="
  "$bin/sluice-bench" window-latency --samples "$samples" -- "$@" 2>/dev/null
}

latency "sluice (16 MiB ring)" "$bin/sluice" --size 100x30 -e {}
latency "sluice --read-ahead 1M" "$bin/sluice" --size 100x30 --read-ahead 1M -e {}
if command -v xterm >/dev/null; then
  latency "xterm $(xterm -version 2>/dev/null | head -1)" xterm -geometry 100x30 -e {}
fi

ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }
hz=$(getconf CLK_TCK)
echo "== idle window: a shell at its prompt, CPU over ${idle_seconds} s =="
PS1='$ ' "$bin/sluice" --size 100x30 -e sh >/dev/null 2>&1 &
pid=$!
sleep 3
before=$(ticks $pid)
sleep "$idle_seconds"
after=$(ticks $pid)
kill $pid
awk -v t=$((after - before)) -v hz="$hz" -v s="$idle_seconds" \
  'BEGIN {printf "sluice idle: %d ticks = %.3f CPU s in %d s (%.3f%% of a core)\n", t, t / hz, s, 100 * t / hz / s}'

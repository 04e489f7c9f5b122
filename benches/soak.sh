#!/usr/bin/env bash
# Soak: hostile floods in a real window, each for SECONDS, with Sluice's RSS sampled every
# second, then a check that the window still takes input: a line typed after the flood must
# reach the shell (the time from the first key to the shell acting on the line is printed; it
# includes xdotool's typing, ~12 ms a key). Nothing may panic; RSS must stay under the bound
# (the 16 MiB ring, 10,000 lines of history at 100 columns, the fixed base).
#
# Usage: benches/soak.sh [SECONDS] [FLOOD…]   (default: 60 s of each flood below)
# Figures: docs/performance.md ("Soak").
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-60}
shift || true
. benches/xvfb.sh

declare -A floods=(
  [urandom]='cat /dev/urandom'
  [yes]='yes'
  [bells]="yes \"\$(printf '\\a')\" | tr -d '\\n'"
  [replies]="stty -echo; yes \"\$(printf '\\033[c\\033[6n')\" | tr -d '\\n'"
  [titles]="i=0; while :; do printf '\\033]2;title %s\\007' \$i; i=\$((i+1)); done"
  [osc]="while :; do printf '\\033]8;;'; head -c 3000000 /dev/zero | tr '\\0' u; printf '\\033\\\\'; done"
  [combining]="printf e; yes \"\$(printf '\\314\\201')\" | tr -d '\\n'"
)
order=("$@")
((${#order[@]})) || order=(urandom yes bells replies titles osc combining)
bound_kib=$((256 * 1024))
status=0

rss_kib() { awk '/^VmRSS:/ {print $2}' "/proc/$1/status" 2>/dev/null || echo 0; }

for name in "${order[@]}"; do
  printf '%s\n' "${floods[$name]}" > "$tmp/$name.flood.sh"
  done_file="$tmp/$name.done"
  # The flood runs for the soak's length, then the shell waits for a typed line.
  printf '%s\n' "timeout $seconds sh $tmp/$name.flood.sh; stty sane; printf '\\033c'" \
    "read -r line; touch $done_file" > "$tmp/$name.sh"
  "$bin/sluice" --size 100x30 -e sh "$tmp/$name.sh" >/dev/null 2>"$tmp/$name.log" &
  pid=$!
  peak=0
  for _ in $(seq 1 "$seconds"); do
    sleep 1
    rss=$(rss_kib $pid)
    ((rss > peak)) && peak=$rss
  done
  sleep 2 # the flood's end, and the reset, reach the screen
  window=$(xdotool search --pid $pid 2>/dev/null | head -1 || true)
  alive=yes
  kill -0 $pid 2>/dev/null || alive=no
  started=$(date +%s%N)
  if [ -n "$window" ]; then
    xdotool windowfocus --sync "$window" 2>/dev/null || true
    xdotool type --delay 12 "ok" && xdotool key Return
  fi
  for _ in $(seq 1 500); do [ -e "$done_file" ] && break; sleep 0.01; done
  if [ -e "$done_file" ]; then
    typed_ms=$((($(date +%s%N) - started) / 1000000))
  else
    typed_ms=never
  fi
  panicked=$(grep -c panicked "$tmp/$name.log" || true)
  kill $pid 2>/dev/null || true
  wait $pid 2>/dev/null || true
  verdict=ok
  if [ "$alive" != yes ] || [ "$typed_ms" = never ] || ((peak >= bound_kib)) || ((panicked > 0)); then
    verdict=FAIL
    status=1
  fi
  printf '%-10s %3d s  peak RSS %6.1f MiB  typed line reached the shell in %s ms  %s\n' \
    "$name" "$seconds" "$(awk -v k="$peak" 'BEGIN {print k / 1024}')" "$typed_ms" "$verdict"
done
exit $status

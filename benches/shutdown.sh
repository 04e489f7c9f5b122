#!/usr/bin/env bash
# How long Sluice takes to end, in 100x30 release windows on a private Xvfb display, from the
# moment the cause happens to the moment the process is gone (every thread with it):
# - the program killed (SIGKILL) during a flood;
# - the shell exiting while a background job keeps the PTY open;
# - the window destroyed by another client during a flood (xdotool windowclose);
# - the last pane closed by `sluice msg close` during a flood.
# Goal (issue 12): under 100 ms each.
#
# Usage: benches/shutdown.sh [ROUNDS]     (default 5)
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-5}

. benches/xvfb.sh

now_ns() { date +%s%N; }
# Waits for $pid to end, polling every millisecond; prints ms since $1.
gone_after() {
  while kill -0 "$pid" 2>/dev/null; do sleep 0.001; done
  echo $(( ($(now_ns) - $1) / 1000000 ))
}
start() { # ARGS…: sluice in the background, once its socket answers
  "$bin/sluice" --size 100x30 "$@" >/dev/null 2>&1 &
  pid=$!
  until "$bin/sluice" msg list >/dev/null 2>&1; do sleep 0.05; done
}
pane_pid() { "$bin/sluice" msg list | python3 -c 'import json,sys; print(json.load(sys.stdin)["windows"][0]["tabs"][0]["panes"][0]["pid"])'; }
pane_id() { "$bin/sluice" msg list | python3 -c 'import json,sys; print(json.load(sys.stdin)["windows"][0]["tabs"][0]["panes"][0]["id"])'; }

printf '%-6s %8s %8s %10s %8s   (ms)\n' round killed job destroyed closed
for r in $(seq 1 "$rounds"); do
  start -e sh -c 'yes'
  sleep 1
  child=$(pane_pid)
  t0=$(now_ns); kill -9 "$child"; killed=$(gone_after "$t0")

  rm -f "$tmp/exited"
  start -e sh -c "sleep 100 & sleep 1; date +%s%N > '$tmp/exited'; exit 0"
  until [ -s "$tmp/exited" ]; do sleep 0.001; done
  job=$(gone_after "$(cat "$tmp/exited")")
  pkill -f 'sleep 100' || true

  start -e sh -c 'yes'
  sleep 1
  window=$(xdotool search --pid "$pid" | head -1)
  t0=$(now_ns); xdotool windowclose "$window"; destroyed=$(gone_after "$t0")

  start -e sh -c 'yes'
  sleep 1
  id=$(pane_id)
  t0=$(now_ns); "$bin/sluice" msg close --pane "$id" >/dev/null; closed=$(gone_after "$t0")

  printf '%-6s %8s %8s %10s %8s\n' "$r" "$killed" "$job" "$destroyed" "$closed"
done

#!/usr/bin/env bash
# Never the slow reader, per pane, in real windows on a private Xvfb display:
# - read capacity (`sluice-bench write`, plain lines) of a program under a bare PTY drain, in a
#   focused window, in a background tab, and in one of two panes both flooding, same rounds;
# - the first window's open time against a second one's (`sluice msg create-window`), from
#   Sluice's own log and as the client waits for it;
# - the RSS each extra tab and each extra window costs (empty shells: no history filled).
#
# Usage: benches/tabs.sh [ROUNDS] [BYTES] [PARTS]   (defaults: 3 rounds of 64M, all parts;
#        PARTS is any of capacity,open,memory)
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-3}
bytes=${2:-64M}
parts=${3:-capacity,open,memory}
part() { [[ ",$parts," == *",$1,"* ]]; }

. benches/xvfb.sh

writer() { # OUTPUT-FILE: the writer's command line
  echo "'$bin/sluice-bench' write --payload plain --bytes $bytes --json --output '$1'"
}
rate() { # FILE: MB/s the writer measured
  python3 -c 'import json,sys; print("%.1f" % json.load(open(sys.argv[1]))[0]["mb_per_s"])' "$1"
}
msg() { "$bin/sluice" msg "$@"; }
wait_for() { # FILE: until the writer has written its results
  until [ -s "$1" ]; do sleep 0.2; done
}
start_sluice() { # ARGS…: a window in the background, once its socket answers
  SLUICE_LOG=sluice=info PS1='$ ' "$bin/sluice" --size 100x30 "$@" >/dev/null 2>"$tmp/sluice.log" &
  pid=$!
  until msg list >/dev/null 2>&1; do sleep 0.1; done
}
first_pane() { msg list | python3 -c 'import json,sys; print(json.load(sys.stdin)["windows"][0]["tabs"][0]["panes"][0]["id"])'; }
rss_kib() { awk '/^VmRSS/ {print $2}' "/proc/$1/status"; }

if part capacity; then
echo "== read capacity, MB/s ($bytes of plain lines per run), $rounds rounds =="
printf '%-6s %8s %8s %11s %9s %9s %9s %9s\n' round bare focused background "split A" "split B" "bare2 A" "bare2 B"
for r in $(seq 1 "$rounds"); do
  rm -f "$tmp"/*.json
  "$bin/sluice-bench" reader -- sh -c "$(writer "$tmp/bare.json")" >/dev/null
  # Two bare drains at once: what two writers get from this machine's CPUs with no terminal,
  # the reference for two flooding panes.
  "$bin/sluice-bench" reader -- sh -c "$(writer "$tmp/bare2-a.json")" >/dev/null &
  other=$!
  "$bin/sluice-bench" reader -- sh -c "$(writer "$tmp/bare2-b.json")" >/dev/null
  wait $other
  "$bin/sluice" --size 100x30 -e sh -c "$(writer "$tmp/focused.json")" >/dev/null 2>&1

  # The writer's tab opens active; the first tab is selected again before it starts writing.
  start_sluice -e sh
  first=$(first_pane)
  msg create-tab -e sh -c "sleep 1; $(writer "$tmp/background.json")" >/dev/null
  msg focus --pane "$first" >/dev/null
  wait_for "$tmp/background.json"
  kill $pid; wait $pid 2>/dev/null || true

  # Two panes of one window, both flooding at once: each may only lose what the CPU they
  # share costs it, not the other's drawing. Both writers wait for the same go-file.
  rm -f "$tmp/go"
  gate="while [ ! -e '$tmp/go' ]; do sleep 0.01; done"
  start_sluice -e sh -c "$gate; $(writer "$tmp/split-a.json"); sleep 30"
  msg split --direction right -e sh -c "$gate; $(writer "$tmp/split-b.json"); sleep 30" >/dev/null
  sleep 1
  touch "$tmp/go"
  wait_for "$tmp/split-a.json"; wait_for "$tmp/split-b.json"
  kill $pid; wait $pid 2>/dev/null || true

  printf '%-6s %8s %8s %11s %9s %9s %9s %9s\n' "$r" "$(rate "$tmp/bare.json")" "$(rate "$tmp/focused.json")" \
    "$(rate "$tmp/background.json")" "$(rate "$tmp/split-a.json")" "$(rate "$tmp/split-b.json")" \
    "$(rate "$tmp/bare2-a.json")" "$(rate "$tmp/bare2-b.json")"
done
fi

if part open; then
echo "== opening windows: the first (GPU, fonts) and a second of the same process =="
for r in $(seq 1 "$rounds"); do
  start=$(date +%s.%N)
  start_sluice -e sh
  first_ready=$(date +%s.%N)
  t0=$(date +%s.%N)
  msg create-window -e sh >/dev/null
  t1=$(date +%s.%N)
  # The log is coloured even in a file: strip the escapes before reading the field.
  opened=$(sed 's/\x1b\[[0-9;]*m//g' "$tmp/sluice.log" | grep -o 'ms=[0-9.]*' | cut -d= -f2 | tr '\n' ' ' || true)
  kill $pid; wait $pid 2>/dev/null || true
  awk -v a="$start" -v b="$first_ready" -v c="$t0" -v d="$t1" -v o="$opened" -v r="$r" 'BEGIN {
    split(o, ms, " ");
    printf "round %d: first window %.1f ms in Window::open (%.0f ms from exec to a socket that answers); second %.1f ms in Window::open, %.1f ms for sluice msg create-window\n",
      r, ms[1], (b - a) * 1000, ms[2], (d - c) * 1000 }'
done
fi

part memory || exit 0
echo "== memory: RSS of each extra tab and window (empty shells, default 10,000-line history) =="
start_sluice -e sh
sleep 2
base=$(rss_kib $pid)
for i in 1 2 3 4 5; do msg create-tab -e sh >/dev/null; done
sleep 2
tabs=$(rss_kib $pid)
for i in 1 2 3; do msg create-window -e sh >/dev/null; done
sleep 2
windows=$(rss_kib $pid)
kill $pid; wait $pid 2>/dev/null || true
awk -v b="$base" -v t="$tabs" -v w="$windows" 'BEGIN {
  printf "one window, one tab: %.1f MiB; +5 tabs: %.1f MiB (%.2f MiB a tab); +3 windows: %.1f MiB (%.2f MiB a window)\n",
    b / 1024, t / 1024, (t - b) / 5 / 1024, w / 1024, (w - t) / 3 / 1024 }'

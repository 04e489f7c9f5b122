#!/usr/bin/env bash
# Sluice's window against other terminals installed here (xterm), in real windows on a private
# Xvfb display, in the same run: read capacity (`sluice-bench write`, every payload) and what
# the terminal costs a Metro-like build that logs a line per module (`metro-sim --log-every 1`).
#
# Usage: benches/terminals.sh [ROUNDS] [BYTES]     (defaults: 3 rounds of 16M per payload)
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-3}
bytes=${2:-16M}

. benches/xvfb.sh

terminals=(sluice)
command -v xterm >/dev/null && terminals+=(xterm)

run_in() { # TERMINAL SCRIPT: runs `sh -c SCRIPT` in a 100x30 window of TERMINAL, waits for it
  case $1 in
    sluice) "$bin/sluice" --size 100x30 -e sh -c "$2" >/dev/null 2>&1 ;;
    xterm) xterm -geometry 100x30 -e sh -c "$2" >/dev/null 2>&1 ;;
  esac
}

echo "== read capacity, MB/s per payload ($bytes each), $rounds rounds =="
for r in $(seq 1 "$rounds"); do
  for t in "${terminals[@]}"; do
    run_in "$t" "'$bin/sluice-bench' write --bytes $bytes --json --output '$tmp/write.json'"
    python3 - "$t" "$r" "$tmp/write.json" <<'PY'
import json, sys
t, r, path = sys.argv[1:]
rows = json.load(open(path))
print(f"{t:<8} round {r}: " + "  ".join(f"{x['payload']} {x['mb_per_s']:.1f}" for x in rows)
      + f"  (longest write {max(x['longest_write_ms'] for x in rows):.1f} ms)")
PY
  done
done

echo "== metro-sim --log-every 1 (warm build), build seconds, $rounds rounds =="
for r in $(seq 1 "$rounds"); do
  for t in "${terminals[@]}"; do
    run_in "$t" "'$bin/sluice-bench' metro-sim --log-every 1 2>'$tmp/metro.json'"
    python3 - "$t" "$r" "$tmp/metro.json" <<'PY'
import json, sys
t, r, path = sys.argv[1:]
m = json.loads(open(path).read().strip().splitlines()[-1])
print(f"{t:<8} round {r}: build {m['build_seconds']:.3f} s, {m['write_seconds']:.3f} s inside write(2), longest write {m['longest_write_ms']:.1f} ms")
PY
  done
done

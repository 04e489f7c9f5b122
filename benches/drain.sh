#!/usr/bin/env bash
# End-to-end drain: `sluice --headless` against a bare PTY drain of the same output, in the
# same run, in ABBA order, both timed by the writer; then a parser slowed on purpose, to show the
# writer does not feel it until the ring is full. Prints each round and the median ratios. Run
# it with nothing else on the machine: a build beside it slows the bare arm more than Sluice.
#
# Usage: benches/drain.sh [ROUNDS] [BYTES]     (defaults: 6 rounds of 256 MiB)
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-6}
bytes=${2:-$((256 << 20))}

cargo build --release -q -p sluice -p sluice-bench -p sluice-benches --bins
bin="$PWD/target/release"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

field() { sed -n "s/.*\"$1\": *\([0-9.e+-]*\).*/\1/p" "$2" | tail -1; }
median() { sort -g | awk '{a[NR]=$1} END {print (NR%2) ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2}'; }

# Both arms are timed the same way, from the writer's side: `flood` reports how long its own
# writes took (bytes / that = the rate the terminal accepted them), as `sluice-bench write`
# and the Metro investigation measure. (Timing each reader by its own clock, until its last
# read, made Sluice look 1.1-1.8x faster than a bare drain, which no reader that also parses
# can be: the two clocks started and stopped at different moments.) The bare arm is the
# physical limit: `sluice-bench reader`, a loop of 64 KiB read(2)s on the master and nothing
# else.
bare() { # seconds flood spent writing BYTES of PAYLOAD to a bare PTY drain
  "$bin/sluice-bench" reader --json -- "$bin/flood" "$1" "$2" "$tmp/w_bare.json" >/dev/null
  field seconds "$tmp/w_bare.json"
}
sluice() { # seconds flood spent writing BYTES of PAYLOAD to sluice --headless
  "$bin/sluice" --headless --size 160x50 -e "$bin/flood" "$1" "$2" "$tmp/w_sluice.json" >/dev/null
  field seconds "$tmp/w_sluice.json"
}

echo "== drain: $((bytes >> 20)) MiB of plain 100-byte lines, $rounds rounds (ABBA), writer-side =="
printf '%-6s %12s %12s %8s\n' round bare_s sluice_s ratio
for r in $(seq 1 "$rounds"); do
  if (( r % 2 )); then b=$(bare plain "$bytes"); s=$(sluice plain "$bytes")
  else s=$(sluice plain "$bytes"); b=$(bare plain "$bytes"); fi
  ratio=$(awk -v b="$b" -v s="$s" 'BEGIN {printf "%.3f", b / s}')
  printf '%-6s %12.3f %12.3f %8s\n' "$r" "$b" "$s" "$ratio"
  echo "$ratio" >>"$tmp/ratios"
done
echo "median throughput ratio sluice/bare (writer-side): $(median <"$tmp/ratios")  (goal >= 0.95)"

# A parser slowed to 8 MB/s with the default 16 MiB ring: 12 MiB fits in the ring, so the
# writer should finish as fast as under a bare drain; 32 MiB does not, so the writer waits
# for the parser to free (32 - 16) MiB, about 2.1 s.
rate=8000000
echo
echo "== parser slowed to $((rate / 1000000)) MB/s: the writer's own time (flood's write time) =="
printf '%-8s %-6s %12s %12s %14s\n' payload round bare_s slowed_s sluice_total_s
for size in $((12 << 20)) $((32 << 20)); do
  : >"$tmp/slow_ratios"
  for r in $(seq 1 "$((rounds / 2 > 1 ? rounds / 2 : 1))"); do
    "$bin/sluice-bench" reader --json -- "$bin/flood" plain "$size" "$tmp/w_bare.json" >/dev/null
    "$bin/sluice" --headless --stats --debug-parse-rate "$rate" -e "$bin/flood" plain "$size" "$tmp/w_slow.json" \
      2>"$tmp/slow.json" >/dev/null
    wb=$(field seconds "$tmp/w_bare.json"); ws=$(field seconds "$tmp/w_slow.json"); tot=$(field total_seconds "$tmp/slow.json")
    printf '%-8s %-6s %12.3f %12.3f %14.3f\n' "$((size >> 20))MiB" "$r" "$wb" "$ws" "$tot"
    awk -v b="$wb" -v s="$ws" 'BEGIN {print s / b}' >>"$tmp/slow_ratios"
  done
  echo "  median writer slowdown ($((size >> 20)) MiB): $(median <"$tmp/slow_ratios")x"
done

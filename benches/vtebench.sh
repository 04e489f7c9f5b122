#!/usr/bin/env bash
# vtebench inside each terminal: alacritty/vtebench 0.3.1 from crates.io (whose package ships
# its benchmark scripts), run at 100x30 with DejaVu Sans Mono 10 pt in each terminal, started
# by `sluice-bench run-in` exactly as `sluice-bench compare` starts it, on a private Xvfb.
# Prints each benchmark's median sample (ms to take one sample's output, lower is better) per
# terminal as a Markdown table, the fastest in bold, and each terminal's geometric mean as a
# multiple of the fastest (docs/benchmarks.md, "vtebench").
#
# Usage: [ROUNDS=N] benches/vtebench.sh [MAX_SECS] [TERMINAL...]
#   MAX_SECS: seconds per benchmark (default 10, vtebench's own); TERMINALs: names that
#   `sluice-bench compare` knows (default: sluice and every other one installed here).
#   ROUNDS (default 1): run every terminal this many times, each round in a rotated order, and
#   take each benchmark's median over all rounds' samples. This machine drifts by more than the
#   terminals differ on the scrolling benchmarks: in two single runs of 2026-12-03 minutes
#   apart, whichever terminal ran second was faster on them by 10-25% (docs/benchmarks.md).
set -euo pipefail
cd "$(dirname "$0")/.."
max_secs=${1:-10}
shift || true
version=0.3.1
root="$PWD/target/vtebench"
if [ ! -x "$root/bin/vtebench" ]; then
  cargo install -q vtebench --version "$version" --root "$root"
fi
if [ ! -d "$root/vtebench-$version/benchmarks" ]; then
  crate=$(ls "${CARGO_HOME:-$HOME/.cargo}"/registry/cache/*/vtebench-$version.crate | head -1)
  tar xzf "$crate" -C "$root"
fi
source benches/xvfb.sh
export PATH="$bin:$PATH"

terminals=("$@")
if [ ${#terminals[@]} -eq 0 ]; then
  terminals=(sluice)
  for t in alacritty kitty xterm urxvt st; do
    command -v "$t" >/dev/null && terminals+=("$t")
  done
fi

rounds=${ROUNDS:-1}
count=${#terminals[@]}
for r in $(seq 0 $((rounds - 1))); do
  for i in $(seq 0 $((count - 1))); do
    t=${terminals[$(((i + r) % count))]}
    echo "round $((r + 1)): vtebench in $t ($max_secs s per benchmark)..." >&2
    "$bin/sluice-bench" run-in --terminal "$t" --size 100x30 --timeout 1800 -- \
      "$root/bin/vtebench" -b "$root/vtebench-$version/benchmarks" --max-secs "$max_secs" \
      --silent --dat "$tmp/$t.$r.dat"
    [ -s "$tmp/$t.$r.dat" ] || echo "$t: vtebench left no results in round $((r + 1))" >&2
  done
done

python3 - "$tmp" "${terminals[@]}" <<'PY'
import math, os, statistics, sys

tmp, names = sys.argv[1], sys.argv[2:]
results = {}
for name in names:
    # Every round's samples of a benchmark, pooled.
    columns = {}
    for entry in sorted(os.listdir(tmp)):
        path = os.path.join(tmp, entry)
        if not (entry.startswith(name + ".") and entry.endswith(".dat")):
            continue
        if entry.count(".") != 2 or os.path.getsize(path) == 0:
            continue
        lines = open(path).read().split("\n")
        header = lines[0].split()
        for line in lines[1:]:
            for bench, value in zip(header, line.split()):
                if value != "_":
                    columns.setdefault(bench, []).append(float(value))
    if columns:
        results[name] = {b: statistics.median(v) for b, v in columns.items() if v}

names = [n for n in names if n in results]
benches = sorted({b for r in results.values() for b in r})
print("| benchmark (median ms per sample) | " + " | ".join(names) + " |")
print("|---" * (len(names) + 1) + "|")
ratios = {n: [] for n in names}
for bench in benches:
    have = {n: results[n][bench] for n in names if bench in results[n]}
    best = min(have.values())
    cells = []
    for n in names:
        if n not in have:
            cells.append("—")
            continue
        ratios[n].append(have[n] / best)
        text = f"{have[n]:.2f}"
        cells.append(f"**{text}**" if have[n] == best else text)
    print(f"| {bench} | " + " | ".join(cells) + " |")
geo = [math.exp(sum(map(math.log, ratios[n])) / len(ratios[n])) for n in names]
print("| geometric mean, × the fastest | " + " | ".join(f"{g:.2f}" for g in geo) + " |")
wins = [sum(1 for r in ratios[n] if r == 1.0) for n in names]
print("| fastest on | " + " | ".join(f"{w} of {len(benches)}" for w in wins) + " |")
PY

#!/usr/bin/env bash
# vtebench inside each terminal: alacritty/vtebench 0.3.1 from crates.io (whose package ships
# its benchmark scripts), run at 100x30 with DejaVu Sans Mono 10 pt in each terminal, started
# by `sluice-bench run-in` exactly as `sluice-bench compare` starts it, on a private Xvfb.
# Prints each benchmark's median sample (ms to take one sample's output, lower is better) per
# terminal as a Markdown table, the fastest in bold, and each terminal's geometric mean as a
# multiple of the fastest and of the drain (docs/benchmarks.md, "vtebench"); then a second
# table of each arm's middle half of samples (p25–p75) and how many it took.
#
# The drain, run first in every round's rotation, is vtebench on a bare PTY of the same size
# whose output a tight read loop discards (`sluice-bench run-in --drain`, compare's limit arm):
# a baseline, not the limit. On the drawing benchmarks it is close to the limit; on the
# scrolling ones, whose output is a line feed every two bytes, an eager reader makes the kernel
# hand every few hundred bytes over between threads on the writer's time, and terminals that
# read less often came out up to 2.5x faster than the drain (docs/benchmarks.md, "vtebench").
#
# Usage: [ROUNDS=N] benches/vtebench.sh [MAX_SECS] [TERMINAL...]
#   MAX_SECS: seconds per benchmark (default 10, vtebench's own); TERMINALs: names that
#   `sluice-bench compare` knows (default: sluice and every other one installed here).
#   ROUNDS (default 1): run every terminal this many times, each round in a rotated order, and
#   take each benchmark's median over all rounds' samples. This machine drifts by more than the
#   terminals differ on the scrolling benchmarks: in two single runs of 2026-12-03 minutes
#   apart, whichever terminal ran second was faster on them by 10-25% (docs/benchmarks.md).
#
# The arms take turns benchmark by benchmark, not terminal by terminal: each benchmark runs in
# every arm (rotated) before the next benchmark starts, a fresh terminal each time. A slow spell
# of the machine lasts seconds to tens of seconds (on 2026-12-06 one terminal's samples of three
# scrolling benchmarks in a row took 2.5x its usual time, and st's first samples of `scrolling`
# in another round 2x); run terminal by terminal, such a spell lands on one terminal's run of
# several benchmarks, where benchmark by benchmark it is spread over the arms, each arm's run of
# one benchmark lasting MAX_SECS (docs/benchmarks.md, "vtebench").
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

arms=(drain "${terminals[@]}")
rounds=${ROUNDS:-1}
count=${#arms[@]}
# One directory per benchmark, so that vtebench runs one at a time.
benchmarks=()
for dir in "$root/vtebench-$version/benchmarks"/*/; do
  name=$(basename "$dir")
  mkdir -p "$tmp/only/$name"
  ln -sfn "$dir" "$tmp/only/$name/$name"
  benchmarks+=("$name")
done
for r in $(seq 0 $((rounds - 1))); do
  for b in "${!benchmarks[@]}"; do
    bench=${benchmarks[$b]}
    for i in $(seq 0 $((count - 1))); do
      t=${arms[$(((i + r + b) % count))]}
      echo "round $((r + 1)): $bench in $t ($max_secs s)..." >&2
      host=(--terminal "$t")
      [ "$t" = drain ] && host=(--drain)
      "$bin/sluice-bench" run-in "${host[@]}" --size 100x30 --timeout 600 -- \
        "$root/bin/vtebench" -b "$tmp/only/$bench" --max-secs "$max_secs" \
        --silent --dat "$tmp/$t.$r.$bench.dat"
      [ -s "$tmp/$t.$r.$bench.dat" ] || echo "$t: no results for $bench in round $((r + 1))" >&2
    done
  done
done

python3 - "$tmp" "${arms[@]}" <<'PY'
import math, os, statistics, sys

tmp, names = sys.argv[1], sys.argv[2:]
results = {}
pooled = {}
for name in names:
    # Every round's samples of a benchmark, pooled.
    columns = {}
    for entry in sorted(os.listdir(tmp)):
        path = os.path.join(tmp, entry)
        if not (entry.startswith(name + ".") and entry.endswith(".dat")):
            continue
        if entry.count(".") != 3 or os.path.getsize(path) == 0:
            continue
        lines = open(path).read().split("\n")
        header = lines[0].split()
        for line in lines[1:]:
            for bench, value in zip(header, line.split()):
                if value != "_":
                    columns.setdefault(bench, []).append(float(value))
    if columns:
        pooled[name] = {b: sorted(v) for b, v in columns.items() if v}
        results[name] = {b: statistics.median(v) for b, v in pooled[name].items()}

names = [n for n in names if n in results]
terminals = [n for n in names if n != "drain"]
drain = results.get("drain", {})
benches = sorted({b for r in results.values() for b in r})
header = ["drain (baseline)" if n == "drain" else n for n in names]
print("| benchmark (median ms per sample) | " + " | ".join(header) + " |")
print("|---" * (len(names) + 1) + "|")
to_best = {n: [] for n in terminals}
to_drain = {n: [] for n in terminals}
for bench in benches:
    have = {n: results[n][bench] for n in names if bench in results[n]}
    # The fastest terminal is bold; the drain is a baseline, not a competitor.
    best = min((have[n] for n in terminals if n in have), default=None)
    cells = []
    for n in names:
        if n not in have:
            cells.append("—")
            continue
        text = f"{have[n]:.2f}"
        if n != "drain":
            to_best[n].append(have[n] / best)
            if bench in drain:
                to_drain[n].append(have[n] / drain[bench])
            if have[n] == best:
                text = f"**{text}**"
        cells.append(text)
    print(f"| {bench} | " + " | ".join(cells) + " |")


def geomean(values):
    return math.exp(sum(map(math.log, values)) / len(values)) if values else float("nan")


def row(title, figures):
    cells = ["—" if n == "drain" else figures[n] for n in names]
    print(f"| {title} | " + " | ".join(cells) + " |")


row("geometric mean, × the fastest", {n: f"{geomean(to_best[n]):.2f}" for n in terminals})
row("geometric mean, × the drain", {n: f"{geomean(to_drain[n]):.2f}" for n in terminals})
row("fastest on", {n: f"{sum(r == 1.0 for r in to_best[n])} of {len(to_best[n])}" for n in terminals})


def quartile(values, q):
    # The sample at the q-th fraction of the sorted samples (nearest rank).
    return values[round(q * (len(values) - 1))]


# The spread of each arm's samples: a median can come out ahead or behind from a few slow
# samples, and on the scrolling benchmarks Sluice's samples spread wider than the others'
# (docs/performance.md, "The scrolling benchmarks' slow samples").
print()
print("| benchmark (p25–p75 ms per sample, samples) | " + " | ".join(header) + " |")
print("|---" * (len(names) + 1) + "|")
for bench in benches:
    cells = []
    for n in names:
        v = pooled[n].get(bench)
        cells.append(f"{quartile(v, 0.25):.0f}–{quartile(v, 0.75):.0f} ({len(v)})" if v else "—")
    print(f"| {bench} | " + " | ".join(cells) + " |")
PY

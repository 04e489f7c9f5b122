#!/usr/bin/env bash
# Builds the fuzz targets with coverage instrumentation (stable Rust: the -C flags cargo-fuzz
# passes, without a sanitizer, which safe Rust does not need) and runs each for SECONDS.
#
#   fuzz/run.sh [SECONDS] [TARGET…]     (defaults: 60 seconds, every target)
#
# Each target starts from its seed corpus in fuzz/corpus/TARGET (committed) and keeps what it
# finds in fuzz/target/corpus/TARGET; a crash is saved under fuzz/artifacts/TARGET/ and makes
# this script exit non-zero. Replay one with: fuzz/target/HOST/release/TARGET ARTIFACT
set -euo pipefail
cd "$(dirname "$0")"
seconds=${1:-60}
shift || true
targets=("$@")
((${#targets[@]})) || targets=(feed keys paste config)

export RUSTFLAGS="-Cpasses=sancov-module -Cllvm-args=-sanitizer-coverage-level=4 \
-Cllvm-args=-sanitizer-coverage-inline-8bit-counters -Cllvm-args=-sanitizer-coverage-pc-table \
-Cllvm-args=-sanitizer-coverage-trace-compares --cfg fuzzing"
# With --target, RUSTFLAGS reach only the targets, not build scripts and proc macros (which
# would need libFuzzer's symbols to link).
host=$(rustc -vV | sed -n 's/^host: //p')
cargo build --release -j 2 -q --bins --target "$host"
bin="target/$host/release"

# feed's inputs stay under the caps that make Sluice's terminal differ from a plain one on
# purpose (an OSC 8 target over 2 KiB is not a link), so any difference is a bug.
max_len() { case $1 in feed) echo 2048 ;; *) echo 4096 ;; esac; }

status=0
for target in "${targets[@]}"; do
  mkdir -p "target/corpus/$target" "artifacts/$target" "corpus/$target"
  echo "fuzz: $target for ${seconds}s" >&2
  if ! "$bin/$target" -max_total_time="$seconds" -max_len="$(max_len "$target")" \
      -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
      -artifact_prefix="artifacts/$target/" "target/corpus/$target" "corpus/$target" \
      2> "target/$target.log"; then
    echo "fuzz: $target FOUND A CRASH; see fuzz/target/$target.log and fuzz/artifacts/$target/" >&2
    tail -40 "target/$target.log" >&2
    status=1
  else
    grep -E "^stat::number_of_executed_units|^stat::peak_rss_mb" "target/$target.log" | sed "s/^/fuzz: $target /" >&2
  fi
done
exit $status

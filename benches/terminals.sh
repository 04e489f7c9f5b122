#!/usr/bin/env bash
# Sluice against every other terminal installed here, in real windows, with a bare PTY drain
# in every round: `sluice-bench compare` (docs/benchmarks.md). Install the peers with
#   apt-get install alacritty kitty xterm rxvt-unicode stterm
# The table goes to stdout; the plot to docs/compare-latest.svg (the plot benchmarks.md shows
# beside its latest run: an older run's plot is kept under its date, never overwritten) and
# every round's figures to target/compare.json. Without a DISPLAY, compare starts its own Xvfb.
#
# Usage: benches/terminals.sh [ROUNDS] [BYTES] [COLSxROWS]   (defaults: 3 rounds, 64M, 100x30)
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-3}
bytes=${2:-64M}
size=${3:-100x30}

cargo build --release -q -p sluice -p sluice-bench
export PATH="$PWD/target/release:$PATH"

terminals=(--terminal sluice)
for t in alacritty kitty xterm urxvt st foot wezterm; do
  # foot needs a Wayland compositor, which a bare X display is not.
  if [[ $t == foot && -z ${WAYLAND_DISPLAY:-} ]]; then continue; fi
  if command -v "$t" >/dev/null; then terminals+=(--terminal "$t"); fi
done

unset DISPLAY # the same bare, private X server for every terminal, whatever the desktop is
sluice-bench compare "${terminals[@]}" --rounds "$rounds" --bytes "$bytes" --size "$size" \
  --plot docs/compare-latest.svg --json target/compare.json

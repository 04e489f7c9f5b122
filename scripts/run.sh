#!/usr/bin/env bash
# Sets up a fresh machine, builds Sluice optimised, and runs it with any arguments given
# (e.g. `scripts/run.sh --headless -e ls`).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh
cargo build --release -j 2 -q -p sluice
exec target/release/sluice "$@"

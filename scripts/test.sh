#!/usr/bin/env bash
# Sets up a fresh machine and runs every check CI runs: formatting, lints, the API docs, and
# the tests.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup.sh test
export XDG_RUNTIME_DIR=${XDG_RUNTIME_DIR:-$(mktemp -d)}
cargo fmt --all -- --check
cargo fmt --manifest-path fuzz/Cargo.toml -- --check
cargo clippy -j 2 --all-targets -- -D warnings
# The API documentation, private items included, builds without a warning (a link to a private
# item, or to nothing, is a doc that lies).
RUSTDOCFLAGS="-D warnings" cargo doc -j 2 --no-deps --workspace --document-private-items
cargo test -j 2 --all-targets
# Every fuzz target for a short, fixed time from its seed corpus (fuzz/README.md).
fuzz/run.sh "${SLUICE_FUZZ_SECONDS:-20}"

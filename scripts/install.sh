#!/usr/bin/env bash
# Builds Sluice and installs it for the current user (or under PREFIX): the binary, the
# terminfo entry (compiled with tic -x), the desktop entry, its icons and AppStream metainfo,
# and the shell integration scripts (PREFIX/share/sluice/shell-integration/).
#
#   scripts/install.sh            # into ~/.local (binary in ~/.local/bin), terminfo in ~/.terminfo
#   PREFIX=/usr/local sudo -E scripts/install.sh    # system-wide
set -euo pipefail
cd "$(dirname "$0")/.."
prefix=${PREFIX:-$HOME/.local}
scripts/setup.sh
cargo build --release -j 2 -q -p sluice
install -Dm755 target/release/sluice "$prefix/bin/sluice"
if [ -n "${PREFIX:-}" ]; then
  tic -x assets/terminfo/sluice.terminfo
else
  tic -x -o "$HOME/.terminfo" assets/terminfo/sluice.terminfo
fi
install -Dm644 assets/desktop/dev.sluice.Sluice.desktop "$prefix/share/applications/dev.sluice.Sluice.desktop"
install -Dm644 assets/desktop/dev.sluice.Sluice.metainfo.xml "$prefix/share/metainfo/dev.sluice.Sluice.metainfo.xml"
install -Dm644 assets/icons/dev.sluice.Sluice.svg "$prefix/share/icons/hicolor/scalable/apps/dev.sluice.Sluice.svg"
for size in 48 128 256; do
  install -Dm644 "assets/icons/${size}x${size}/dev.sluice.Sluice.png" \
    "$prefix/share/icons/hicolor/${size}x${size}/apps/dev.sluice.Sluice.png"
done
for shell in bash zsh fish; do
  install -Dm644 "assets/shell-integration/sluice.$shell" \
    "$prefix/share/sluice/shell-integration/sluice.$shell"
done
echo "installed: $prefix/bin/sluice (TERM=sluice from now on: the terminfo entry is installed)"

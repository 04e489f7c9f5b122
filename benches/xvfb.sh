# Sourced by the window benchmarks: the release binaries, a scratch directory, and a private
# Xvfb display (removed on exit) that accepts clients before this returns. Sets $bin, $tmp
# and DISPLAY.
cargo build --release -q -p sluice -p sluice-bench
bin="$PWD/target/release"
tmp=$(mktemp -d)
export XDG_RUNTIME_DIR="$tmp"

display=99
while [ -e "/tmp/.X$display-lock" ] || [ -e "/tmp/.X11-unix/X$display" ]; do display=$((display + 1)); done
# -noreset: the readiness probe below must not leave a server resetting as the terminal starts.
Xvfb ":$display" -screen 0 1280x800x24 -nolisten tcp -noreset >/dev/null 2>&1 &
xvfb=$!
trap 'kill $xvfb 2>/dev/null; rm -rf "$tmp"' EXIT
export DISPLAY=":$display"
until xdotool getdisplaygeometry >/dev/null 2>&1; do sleep 0.1; done

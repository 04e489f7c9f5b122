#!/usr/bin/env bash
# Installs the system packages Sluice needs to run (`scripts/setup.sh`) or to be tested too
# (`scripts/setup.sh test`) on Debian/Ubuntu. Idempotent: it skips apt-get when everything is
# already there. Needs root (or sudo).
set -euo pipefail

# What running Sluice needs: the windowing libraries, a font, and a Vulkan (or GL) driver and
# loader for the GPU backend (the software renderer needs none). A packager depends on these
# (see README.md).
packages=(
  mesa-vulkan-drivers   # lavapipe: software Vulkan, for machines without a GPU
  libvulkan1            # the Vulkan loader wgpu opens
  libegl1 libgl1        # the GL fallback
  libx11-6 libx11-xcb1 libxcursor1 libxrandr2 libxi6 libxkbcommon0 libxkbcommon-x11-0  # winit and softbuffer on X11
  libwayland-client0 libwayland-egl1 libwayland-cursor0                  # winit on Wayland
  fonts-dejavu-core     # the system copy of the bundled font's family
  libfontconfig1        # family names (monospace, aliases) resolve through fontconfig
  ncurses-bin           # tic, to install the sluice terminfo entry
)
# What the tests need on top (`scripts/setup.sh test`).
if [ "${1:-run}" = test ]; then
  packages+=(
    xvfb xdotool imagemagick x11-utils  # a real window on a virtual display, driven, photographed, xprop
    weston                    # a real Wayland compositor (headless), for the software renderer on Wayland
    fonts-noto-color-emoji fonts-noto-cjk  # fallback fonts the tests look at
    g++                       # the fuzz targets: libfuzzer-sys compiles libFuzzer (C++)
    bash                      # bash 5's bracketed paste, the paste-injection test
    zsh fish                  # the shell integration scripts, each in its own shell
    dbus-daemon dbus-bin      # a private session bus and dbus-monitor: the desktop notifications
    desktop-file-utils appstream  # desktop-file-validate, appstreamcli: the desktop entry
  )
fi

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  echo "setup: installing ${missing[*]}" >&2
  export DEBIAN_FRONTEND=noninteractive
  $sudo apt-get update -qq
  $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

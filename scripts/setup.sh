#!/usr/bin/env bash
# Installs the system packages Sluice needs to build, run and be tested on Debian/Ubuntu.
# Idempotent: it skips apt-get when everything is already there. Needs root (or sudo).
set -euo pipefail

packages=(
  mesa-vulkan-drivers   # lavapipe: software Vulkan, for machines without a GPU
  libvulkan1            # the Vulkan loader wgpu opens
  libegl1 libgl1        # the GL fallback
  libx11-6 libxcursor1 libxrandr2 libxi6 libxkbcommon0 libxkbcommon-x11-0  # winit on X11
  libwayland-client0 libwayland-egl1 libwayland-cursor0                  # winit on Wayland
  xvfb xdotool imagemagick  # tests: a real window on a virtual display, driven and photographed
  fonts-dejavu-core fonts-noto-color-emoji fonts-noto-cjk  # fallback fonts the tests look at
  g++                       # the fuzz targets: libfuzzer-sys compiles libFuzzer (C++)
  bash                      # tests: bash 5's bracketed paste, the paste-injection test
)

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

#!/usr/bin/env bash
# LBD Studio from a fresh clone: installs what is missing from Debian 12's archive (idempotent),
# configures and builds in Release, then
#   run   opens LBD Studio on the Fashion-MNIST-LT default (with a display), or trains the quick
#         CPU preset in the terminal with a progress bar and prints the results (without one);
#   test  runs the whole test suite (what CI runs).
set -euo pipefail
cd "$(dirname "$0")/.."

mode="${1:-run}"
case "$mode" in
  run|test|build) ;;
  *) echo "usage: $0 run|test|build" >&2; exit 2 ;;
esac

packages=(
  build-essential cmake ninja-build git pkg-config
  qt6-base-dev libqt6opengl6-dev qt6-charts-dev qt6-svg-dev libqcustomplot-dev
  libopencv-dev libtorch-dev libgloo-dev nlohmann-json3-dev libcli11-dev zlib1g-dev libopenblas0-pthread
  dataset-fashion-mnist xvfb xauth fonts-dejavu-core help2man python3-torch
)
missing=()
for package in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$package")
  fi
done
if [ "${#missing[@]}" -gt 0 ]; then
  echo "==> installing ${#missing[@]} missing Debian packages: ${missing[*]}"
  sudo=""
  if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

jobs="$(nproc)"
# A torch translation unit needs ~1.5 GB to compile: keep parallel jobs within memory.
memory_jobs=$(( $(awk '/MemAvailable/ {print $2}' /proc/meminfo) / 1800000 ))
if [ "$memory_jobs" -lt 1 ]; then memory_jobs=1; fi
if [ "$memory_jobs" -lt "$jobs" ]; then jobs="$memory_jobs"; fi

echo "==> configuring and building (Release, $jobs jobs) in build/"
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release
cmake --build build -j "$jobs"

case "$mode" in
  build) ;;
  run)
    if { [ -n "${DISPLAY:-}" ] || [ -n "${WAYLAND_DISPLAY:-}" ]; } && [ -x build/app/lbd-studio ]; then
      exec build/app/lbd-studio
    fi
    echo "==> no display: training the quick CPU preset in the terminal (runs go to ${LBD_RUNS_DIR:-$HOME/LBDStudio/runs})"
    exec build/app/lbd train --preset quick-cpu
    ;;
  test)
    cd build
    exec ctest --output-on-failure --timeout 1500 -j "$jobs"
    ;;
esac

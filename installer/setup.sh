#!/usr/bin/env bash
# LBD Studio from a fresh clone: installs what is missing from Debian 12's archive (idempotent),
# configures and builds in Release, then
#   run   opens LBD Studio on the Fashion-MNIST-LT default (with a display), or trains the quick
#         CPU preset in the terminal with a progress bar and prints the results (without one);
#   test  runs the whole test suite (what CI runs).
# TORCH_PREFIX=DIR uses your own LibTorch instead of Debian's 1.13 (CPU): an extracted LibTorch
# archive, or a pip PyTorch's `python3 -c 'import torch; print(torch.utils.cmake_prefix_path)'`;
# it becomes CMake's CMAKE_PREFIX_PATH and libtorch-dev is not installed.
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
  libopencv-dev nlohmann-json3-dev libcli11-dev zlib1g-dev libopenblas0-pthread
  dataset-fashion-mnist xvfb xauth openbox fonts-dejavu-core help2man python3-torch python3-onnx
  python3-torchvision # the torchvision parity test of --init-from (tests/core/test_pretrainedload.cpp)
)
torch_args=()
if [ -n "${TORCH_PREFIX:-}" ]; then
  torch_config=$(find "$TORCH_PREFIX" -maxdepth 4 -name TorchConfig.cmake -print -quit 2>/dev/null || true)
  if [ -z "$torch_config" ]; then
    echo "TORCH_PREFIX=$TORCH_PREFIX has no TorchConfig.cmake (give the LibTorch folder or torch.utils.cmake_prefix_path)" >&2
    exit 2
  fi
  torch_dir=$(realpath -m "$(dirname "$torch_config")")
  torch_args=("-DCMAKE_PREFIX_PATH=$TORCH_PREFIX")
  # cuDNN's headers for the fused batch-norm kernels (cmake/build-headless.sh does the same).
  if [ -n "${CUDNN_ROOT:-}" ]; then torch_args+=("-DCUDNN_ROOT=$CUDNN_ROOT"); fi
else
  packages+=(libtorch-dev libgloo-dev) # c10d's Gloo headers (pip's PyTorch ships its own)
  torch_dir=$(realpath -m /usr/lib/x86_64-linux-gnu/cmake/Torch)
fi
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

# The cache keeps the Torch_DIR (and Caffe2_DIR) of its first configure: another LibTorch needs a
# fresh one.
cached_torch=$(sed -n 's/^Torch_DIR:PATH=//p' build/CMakeCache.txt 2>/dev/null || true)
if [ -n "$cached_torch" ] && [ "$(realpath -m "$cached_torch")" != "$torch_dir" ]; then
  echo "==> build/ was configured with the LibTorch in $cached_torch: configuring afresh"
  rm -f build/CMakeCache.txt
fi
echo "==> configuring and building (Release, $jobs jobs) in build/ with the LibTorch in $torch_dir"
cmake -S . -B build -G Ninja -DCMAKE_BUILD_TYPE=Release "${torch_args[@]}"
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

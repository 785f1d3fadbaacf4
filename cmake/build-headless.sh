#!/usr/bin/env bash
# Builds lbd_core + the `lbd` command line (no Qt, no OpenCV, no tests) against another LibTorch,
# e.g. the CUDA one inside a pip-installed PyTorch 2.x:
#   cmake/build-headless.sh [BUILD_DIR] [extra cmake arguments...]
# LibTorch is taken from $TORCH_PREFIX, else from python3's torch.utils.cmake_prefix_path.
# nlohmann-json and CLI11 may come from the system or from $LBD_JSON_INCLUDE_DIR (a folder with
# nlohmann/json.hpp) and $LBD_CLI11_INCLUDE_DIR (a folder with CLI/CLI.hpp).
set -euo pipefail
cd "$(dirname "$0")/.."
build="${1:-build-headless}"
shift || true
prefix="${TORCH_PREFIX:-$(python3 -c 'import torch; print(torch.utils.cmake_prefix_path)')}"
args=(-DCMAKE_BUILD_TYPE=Release -DLBD_BUILD_GUI=OFF -DLBD_BUILD_TESTS=OFF -DLBD_WITH_OPENCV=OFF
      "-DCMAKE_PREFIX_PATH=$prefix")
# cuDNN's headers, for the fused batch-norm kernels: pip's nvidia-cudnn package ships them next to
# the library LibTorch loads.
cudnn="${CUDNN_ROOT:-$(python3 -c 'import nvidia.cudnn as c; print(c.__path__[0])' 2>/dev/null || true)}"
if [ -n "$cudnn" ]; then args+=("-DCUDNN_ROOT=$cudnn"); fi
if [ -n "${LBD_JSON_INCLUDE_DIR:-}" ]; then args+=("-DLBD_JSON_INCLUDE_DIR=$LBD_JSON_INCLUDE_DIR"); fi
if [ -n "${LBD_CLI11_INCLUDE_DIR:-}" ]; then args+=("-DLBD_CLI11_INCLUDE_DIR=$LBD_CLI11_INCLUDE_DIR"); fi
generator=()
if command -v ninja >/dev/null; then generator=(-G Ninja); fi
cmake -S . -B "$build" "${generator[@]}" "${args[@]}" "$@"
cmake --build "$build" -j "$(nproc)" --target lbd
echo "built $build/app/lbd"

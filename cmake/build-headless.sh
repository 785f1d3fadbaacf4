#!/usr/bin/env bash
# Builds lbd_core + the `lbd` command line (no Qt, no OpenCV, no tests) against another LibTorch,
# e.g. the CUDA one inside a pip-installed PyTorch 2.x:
#   cmake/build-headless.sh [BUILD_DIR] [extra cmake arguments...]
# LibTorch is taken from $TORCH_PREFIX, else from python3's torch.utils.cmake_prefix_path, else
# from the system (Debian's libtorch-dev). tools/gpu/gui.sh reuses this script for the GUI build:
# $LBD_PREFIX_PATH adds prefixes to CMAKE_PREFIX_PATH (its private Qt), $LBD_TARGETS names the
# targets to build (default: lbd), and its extra arguments turn the GUI and the tests on.
# nlohmann-json and CLI11 may come from the system or from $LBD_JSON_INCLUDE_DIR (a folder with
# nlohmann/json.hpp) and $LBD_CLI11_INCLUDE_DIR (a folder with CLI/CLI.hpp).
set -euo pipefail
cd "$(dirname "$0")/.."
build="${1:-build-headless}"
shift || true
prefix="${TORCH_PREFIX:-$(python3 -c 'import torch; print(torch.utils.cmake_prefix_path)' 2>/dev/null || true)}"
prefix="$prefix${LBD_PREFIX_PATH:+;$LBD_PREFIX_PATH}"
args=(-DCMAKE_BUILD_TYPE=Release -DLBD_BUILD_GUI=OFF -DLBD_BUILD_TESTS=OFF -DLBD_WITH_OPENCV=OFF)
if [ -n "${prefix#;}" ]; then args+=("-DCMAKE_PREFIX_PATH=${prefix#;}"); fi
# cuDNN's headers, for the fused batch-norm kernels: pip's nvidia-cudnn package ships them next to
# the library LibTorch loads.
cudnn="${CUDNN_ROOT:-$(python3 -c 'import nvidia.cudnn as c; print(c.__path__[0])' 2>/dev/null || true)}"
if [ -n "$cudnn" ]; then args+=("-DCUDNN_ROOT=$cudnn"); fi
# NCCL's header, for data-parallel CUDA training: pip's nvidia-nccl package ships it too.
nccl="${NCCL_ROOT:-$(python3 -c 'import nvidia.nccl as n; print(n.__path__[0])' 2>/dev/null || true)}"
if [ -z "$nccl" ]; then
  header=$(python3 -c 'import glob, site; print(next(iter(sorted(f for d in site.getsitepackages() for f in glob.glob(d + "/nvidia/**/include/nccl.h", recursive=True))), ""))' 2>/dev/null || true)
  [ -n "$header" ] && nccl=$(dirname "$(dirname "$header")")
fi
if [ -n "$nccl" ]; then args+=("-DNCCL_ROOT=$nccl"); fi
# JPEG decoding without OpenCV: Debian's libjpeg-turbo from the kit of tools/gpu/jpegkit.sh when it
# came along ($JPEGKIT, default .jpegkit), extracted into a private prefix and linked statically.
# Without it a libjpeg of the system is used where CMake finds one, else the build decodes no images.
if [ -f "${JPEGKIT:-.jpegkit}/MANIFEST" ]; then
  mapfile -t jpeg_args < <(tools/gpu/jpegkit.sh unpack "${JPEGKIT:-.jpegkit}")
  [ "${#jpeg_args[@]}" -gt 0 ] || exit 2
  args+=("${jpeg_args[@]}")
fi
if [ -n "${LBD_JSON_INCLUDE_DIR:-}" ]; then args+=("-DLBD_JSON_INCLUDE_DIR=$LBD_JSON_INCLUDE_DIR"); fi
if [ -n "${LBD_CLI11_INCLUDE_DIR:-}" ]; then args+=("-DLBD_CLI11_INCLUDE_DIR=$LBD_CLI11_INCLUDE_DIR"); fi
generator=()
if command -v ninja >/dev/null; then generator=(-G Ninja); fi
cmake -S . -B "$build" "${generator[@]}" "${args[@]}" "$@"
read -r -a targets <<< "${LBD_TARGETS:-lbd}"
cmake --build "$build" -j "$(nproc)" --target "${targets[@]}"
echo "built ${targets[*]} in $build"

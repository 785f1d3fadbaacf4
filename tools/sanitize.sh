#!/usr/bin/env bash
# Builds the engine, the `lbd` command line and the core / datasets / app tests with AddressSanitizer
# and UndefinedBehaviorSanitizer in a build folder of their own, and runs those tests:
#   tools/sanitize.sh [BUILD_DIR] [ctest arguments...]     (default build-asan; e.g. -R datasets_)
# GUI off (as cmake/build-headless.sh, but with OpenCV and the tests). LibTorch, Qt and OpenCV are
# not instrumented: only our code is checked, as it calls them. Environment: CXX (default
# clang++-14, else g++), JOBS (default 2: one torch translation unit takes ~1.5 GB and ~25 s),
# LBD_SANITIZE_TARGETS (default: everything the selected tests need).
set -euo pipefail
cd "$(dirname "$0")/.."
build="${1:-build-asan}"
shift || true
jobs="${JOBS:-2}"
if [ -z "${CXX:-}" ]; then
  if command -v clang++-14 >/dev/null; then CXX=clang++-14 CC=clang-14; else CXX=g++ CC=gcc; fi
fi
export CC="${CC:-cc}" CXX
flags="-fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer"
generator=()
if command -v ninja >/dev/null; then generator=(-G Ninja); fi
launcher=()
if command -v ccache >/dev/null; then launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache); fi
# -O1 -g: readable stacks at a bearable speed (the tests train small models).
nice -n 19 cmake -S . -B "$build" "${generator[@]}" "${launcher[@]}" \
  -DCMAKE_BUILD_TYPE=RelWithDebInfo -DCMAKE_CXX_FLAGS_RELWITHDEBINFO="-O1 -g" \
  -DLBD_BUILD_GUI=OFF -DLBD_BUILD_TESTS=ON -DLBD_WITH_OPENCV=ON \
  "-DCMAKE_CXX_FLAGS=$flags" "-DCMAKE_EXE_LINKER_FLAGS=-fsanitize=address,undefined" \
  "-DCMAKE_SHARED_LINKER_FLAGS=-fsanitize=address,undefined"
if [ -n "${LBD_SANITIZE_TARGETS:-}" ]; then
  # shellcheck disable=SC2086
  nice -n 19 cmake --build "$build" -j "$jobs" --target $LBD_SANITIZE_TARGETS
else
  nice -n 19 cmake --build "$build" -j "$jobs"
fi

# Leak detection stays on: a small program using LibTorch 1.13 (a Linear layer, forward and
# backward) built with -fsanitize=address reports no leak at exit. If Qt or OpenCV inside the
# tests report process-long allocations, rerun with ASAN_OPTIONS=detect_leaks=0 (our readers'
# own leaks are still checked by the fuzz targets, which run with leak detection on).
export ASAN_OPTIONS="${ASAN_OPTIONS:-abort_on_error=0:strict_string_checks=1}"
export UBSAN_OPTIONS="${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1}"
cd "$build"
nice -n 19 ctest -L 'core|datasets|app' --output-on-failure "$@"

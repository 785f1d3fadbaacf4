#!/usr/bin/env bash
# The headless CUDA build for tools/gpu/gpu-lease.sh (LEASE_BUILD): nlohmann-json and CLI11 from
# the carried .deps (the GPU machine has no package registry), into $LEASE/build.
set -euo pipefail
export LBD_JSON_INCLUDE_DIR="$PWD/.deps/json/usr/include" LBD_CLI11_INCLUDE_DIR="$PWD/.deps/cli11"
cmake/build-headless.sh "$LEASE/build"

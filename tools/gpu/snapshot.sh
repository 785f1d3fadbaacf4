#!/usr/bin/env bash
# A GPU lease builds what was committed, not the working tree: other work in progress in this
# checkout (uncommitted, maybe half-edited) travels with the device tool's copy and could break
# the build there. `tools/gpu/snapshot.sh` writes HEAD's sources into .gpu-src/ (git-ignored) with
# .deps linked in; carry .gpu-src and .deps/json .deps/cli11 .deps/fmnist, then run the GPU
# scripts from .gpu-src on the device (cd .gpu-src && tools/gpu/paper-studies.sh build ...).
set -euo pipefail
cd "$(dirname "$0")/../.."
rm -rf .gpu-src
mkdir .gpu-src
git archive HEAD CMakeLists.txt cmake core datasets app resources tools python docs/results/paper-studies | tar -x -C .gpu-src
ln -s ../.deps .gpu-src/.deps
git rev-parse HEAD > .gpu-src/COMMIT
echo "HEAD $(git rev-parse --short HEAD) in .gpu-src ($(du -sh .gpu-src | cut -f1))"

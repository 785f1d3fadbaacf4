#!/usr/bin/env bash
# Issue 13 on the GPU machine (the device tool runs this from the repository root; nothing is
# installed there but PyTorch, so lbd is built headless and Fashion-MNIST travels in .deps/fmnist):
#   tools/gpu/studies.sh build              headless CUDA build into build-gpu
#   tools/gpu/studies.sh packed             the recipe's seed 0 alone, then seeds 0-3 packed in one
#                                           process (--parallel 4), both in the foreground
#   tools/gpu/studies.sh start STUDY...     the built-in studies one after another, in the background
#   tools/gpu/studies.sh collect            copies every study's results/ and the runs' small
#                                           files to $OUT and prints the progress
# Study folders live in $LBD_GPU_WORK (default /tmp/lbd-gpu), which survives between calls while
# the machine stays warm.
set -euo pipefail
cd "$(dirname "$0")/../.."
work="${LBD_GPU_WORK:-/tmp/lbd-gpu}"
out="${OUT:-$work/out}"
data="$PWD/.deps/fmnist"
lbd="$PWD/build-gpu/app/lbd"
parallel="${LBD_PARALLEL:-4}"
mkdir -p "$work" "$out"

packedStudy() {
  cat > "$work/recipe.json" <<JSON
{"name": "recipe", "title": "The Fashion-MNIST-LT recipe over seeds", "claim": "packed execution",
 "preset": "fashion-mnist-lt", "seeds": [0, 1, 2, 3],
 "factors": [{"name": "recipe", "levels": [{"label": "fashion-mnist-lt"}]}]}
JSON
}

case "${1:-}" in
  build)
    # With NCCL where its header is found; should communicator.cpp not compile against this
    # LibTorch's ProcessGroupNCCL, the build goes on without it (CUDA ranks then use Gloo) and says so.
    export LBD_JSON_INCLUDE_DIR=$PWD/.deps/json/usr/include LBD_CLI11_INCLUDE_DIR=$PWD/.deps/cli11
    if ! cmake/build-headless.sh build-gpu > "$out/build.log" 2>&1; then
      grep -E "error" "$out/build.log" | head -20
      echo "build failed: again without NCCL"
      cmake/build-headless.sh build-gpu -DLBD_WITH_NCCL=OFF > "$out/build-no-nccl.log" 2>&1 \
        || { tail -40 "$out/build-no-nccl.log"; exit 1; }
    fi
    grep -E "^-- (distributed|nccl|cuDNN)" "$out/build.log" || true
    "$lbd" --version
    ;;
  packed)
    packedStudy
    nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader | tee "$out/gpu.txt"
    rm -rf "$work/alone" "$work/packed"
    "$lbd" study "$work/recipe.json" --seeds 0 --out "$work/alone" --device cuda:0 --set data.data_dir="$data" \
      > "$out/alone.md" 2> "$out/alone.log" || true
    "$lbd" study "$work/recipe.json" --out "$work/packed" --device cuda:0 --parallel 4 --set data.data_dir="$data" \
      > "$out/packed.md" 2> "$out/packed.log" || true
    tail -2 "$out/alone.md" "$out/packed.md"
    ;;
  start)
    shift
    nohup setsid bash -c '
      for study in "$@"; do
        "'"$lbd"'" study "$study" --out "'"$work"'/studies/$study" --device cuda:0 --parallel '"$parallel"' \
          --set data.data_dir="'"$data"'" > "'"$work"'/$study.md" 2> "'"$work"'/$study.log"
      done' studies "$@" > /dev/null 2>&1 &
    echo "started: $* (parallel $parallel)"
    ;;
  collect)
    for folder in "$work"/alone "$work"/packed "$work"/studies/*; do
      [ -d "$folder" ] || continue
      name=$(basename "$folder")
      (cd "$folder" && find . \( -name '*.json' -o -name '*.jsonl' -o -name '*.md' -o -name '*.csv' -o -name '*.tex' \) \
         -print0 | tar --null -cf - -T - ) | (mkdir -p "$out/$name" && cd "$out/$name" && tar -xf -)
    done
    cp "$work"/*.md "$work"/*.log "$out/" 2>/dev/null || true
    for log in "$work"/*.log; do [ -f "$log" ] && { echo "== $log"; tail -3 "$log"; }; done
    nvidia-smi --query-gpu=utilization.gpu,memory.used --format=csv,noheader
    ;;
  *) echo "usage: $0 build|packed|start STUDY...|collect" >&2; exit 2 ;;
esac

#!/usr/bin/env bash
# Issues 15 and 16 on a machine of several GPUs: data-parallel training throughput of
# `lbd bench --gpus N` (one process per GPU, gradients all-reduced through c10d/NCCL) for
# N = 1, 2, 4 (those the machine has), fixed per-GPU batch, all in one call:
#   ResNet-50, M = 3, 224 x 224 x 3 synthetic images, 1000 classes, batch 64 per GPU
#   ResNet-32, M = 3, 32 x 32 x 1 (Fashion-MNIST-LT's shape), batch 128 per GPU
# N = 1 is the ordinary single-GPU path (it captures the step in a CUDA graph; the ranks do not),
# measured again without the graph (the ranks' path); N > 1 with the gradient all-reduce in
# buckets overlapped with the backward pass (the default) and in one all-reduce after it.
# Writes scaling-*.json and scaling.txt into $OUT. NVLink multicast stays off (NCCL_NVLS_ENABLE=0,
# as the device machines set it; set here too so that nobody switches it on by accident).
#   tools/gpu/scaling.sh [SECONDS]      (per measurement, default 15; LBD_SCALING_MAX_GPUS=2: N <= 2)
set -uo pipefail
cd "$(dirname "$0")/../.."
out="${OUT:-/tmp/lbd-gpu/out}"
lbd="$PWD/build-gpu/app/lbd"
seconds="${1:-15}"
export NCCL_NVLS_ENABLE=0
mkdir -p "$out"
gpus=$(nvidia-smi --query-gpu=index --format=csv,noheader | wc -l)
counts=()
max="${LBD_SCALING_MAX_GPUS:-$gpus}" # e.g. 2: issue 15's 1- and 2-GPU figures only
for n in 1 2 4 8; do [ "$n" -le "$gpus" ] && [ "$n" -le "$max" ] && counts+=("$n"); done
measure() { # $1 label, $2 GPUs, rest: bench options
  local label=$1 n=$2
  shift 2
  local launch=(--device cuda:0)
  [ "$n" -gt 1 ] && launch=(--gpus "$n")
  timeout "${LBD_BENCH_LIMIT:-240}" "$lbd" bench --what train "${launch[@]}" --no-straightforward --train-seconds "$seconds" "$@" \
    --out "$out/scaling-$label-$n.json" 2>&1 | grep -E "^training|error|failed" | sed "s/^/$label $n GPU(s): /"
}
{
  echo "date $(date -u +%FT%TZ)"
  nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader | head -1
  nvidia-smi topo -m 2>/dev/null | head -$((gpus + 1))
  # The same path as the ranks (no CUDA graph) on one GPU: the baseline that their efficiency is
  # also computed against (on 2026-11-27 the ranks ran faster per GPU than the graph path).
  measure resnet50-eager 1 --no-cuda-graph --arch resnet50 --particles 3 --batch 64 --image-size 224 --channels 3 --classes 1000 --train-images 2000
  measure resnet32-eager 1 --no-cuda-graph --arch resnet32 --particles 3 --batch 128
  # Ranks all-reduce their gradients in 25 MB buckets started during the backward pass (the
  # default); "-onereduce" measures the same with one all-reduce after it (--bucket-mb 0).
  for n in "${counts[@]}"; do
    measure resnet50 "$n" --arch resnet50 --particles 3 --batch 64 --image-size 224 --channels 3 --classes 1000 --train-images 2000
    [ "$n" -gt 1 ] && measure resnet50-onereduce "$n" --bucket-mb 0 --arch resnet50 --particles 3 --batch 64 --image-size 224 --channels 3 --classes 1000 --train-images 2000
  done
  for n in "${counts[@]}"; do
    measure resnet32 "$n" --arch resnet32 --particles 3 --batch 128
    [ "$n" -gt 1 ] && measure resnet32-onereduce "$n" --bucket-mb 0 --arch resnet32 --particles 3 --batch 128
  done
  python3 - "$out" <<'PY'
import glob, json, os, sys
out = sys.argv[1]
def rate(name):
    try:
        return json.load(open(os.path.join(out, name)))["results"][0]["images_per_second"]
    except (OSError, ValueError, KeyError, IndexError):
        return None
for arch, base in (("resnet50", "resnet50"), ("resnet50-onereduce", "resnet50"), ("resnet32", "resnet32"),
                   ("resnet32-onereduce", "resnet32")):
    graph, eager = rate(f"scaling-{base}-1.json"), rate(f"scaling-{base}-eager-1.json")
    for n in (1, 2, 4, 8):
        r = rate(f"scaling-{arch}-{n}.json")
        if r is None:
            continue
        line = f"{arch}: {n} GPU(s) {r:.0f} images/s ({r / n:.0f} per GPU)"
        if graph:
            line += f", efficiency {r / (n * graph) * 100:.1f} % of 1 GPU with its CUDA graph"
        if eager:
            line += f", {r / (n * eager) * 100:.1f} % of 1 GPU eager (as the ranks run)"
        print(line)
PY
} 2>&1 | tee "$out/scaling.txt"

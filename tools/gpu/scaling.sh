#!/usr/bin/env bash
# Issues 15 and 16 on a machine of several GPUs: data-parallel training throughput of
# `lbd bench --gpus N` (one process per GPU, gradients all-reduced through c10d/NCCL) for
# N = 1, 2, 4 (those the machine has), fixed per-GPU batch, all in one call:
#   ResNet-50, M = 3, 224 x 224 x 3 synthetic images, 1000 classes, batch 64 per GPU
#   ResNet-32, M = 3, 32 x 32 x 1 (Fashion-MNIST-LT's shape), batch 128 per GPU
# N = 1 is the ordinary single-GPU path (it captures the step in a CUDA graph; the ranks do not).
# Writes scaling-*.json and scaling.txt into $OUT. NVLink multicast stays off (NCCL_NVLS_ENABLE=0,
# as the device machines set it; set here too so that nobody switches it on by accident).
#   tools/gpu/scaling.sh [SECONDS]      (per measurement, default 15)
set -uo pipefail
cd "$(dirname "$0")/../.."
out="${OUT:-/tmp/lbd-gpu/out}"
lbd="$PWD/build-gpu/app/lbd"
seconds="${1:-15}"
export NCCL_NVLS_ENABLE=0
mkdir -p "$out"
gpus=$(nvidia-smi --query-gpu=index --format=csv,noheader | wc -l)
counts=()
for n in 1 2 4 8; do [ "$n" -le "$gpus" ] && counts+=("$n"); done
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
  for n in "${counts[@]}"; do
    measure resnet50 "$n" --arch resnet50 --particles 3 --batch 64 --image-size 224 --channels 3 --classes 1000 --train-images 2000
  done
  for n in "${counts[@]}"; do
    measure resnet32 "$n" --arch resnet32 --particles 3 --batch 128
  done
  python3 - "$out" <<'PY'
import glob, json, os, sys
out = sys.argv[1]
for arch in ("resnet50", "resnet32"):
    rates = {}
    for name in glob.glob(os.path.join(out, f"scaling-{arch}-*.json")):
        record = json.load(open(name))
        n = int(name.rsplit("-", 1)[1].split(".")[0])
        rates[n] = record["results"][0]["images_per_second"]
    if 1 not in rates:
        continue
    for n in sorted(rates):
        print(f"{arch}: {n} GPU(s) {rates[n]:.0f} images/s, efficiency {rates[n] / (n * rates[1]) * 100:.1f} %")
PY
} 2>&1 | tee "$out/scaling.txt"

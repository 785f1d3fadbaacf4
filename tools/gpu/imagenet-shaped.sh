#!/usr/bin/env bash
# Issue 15's ImageNet-LT-shaped run on one GPU: the whole path (list files, JPEG decoding on a thread
# pool, random resized crop + colour jitter on the GPU, ResNet-50 particles, evaluation, report) on
# synthetic photographs, timed. The GPU machine has no OpenCV: carry .jpegkit/ (tools/gpu/jpegkit.sh,
# 0.5 MB) with the tree, and build with tools/gpu/paper-studies.sh build (or cmake/build-headless.sh),
# which links its libjpeg. Writes into $OUT: imagenet-shaped.txt (the timings), the run's small files.
#   tools/gpu/imagenet-shaped.sh [EPOCHS]     (default 2: about 290 steps of 256 images each; the
#   first epoch's images/s includes cuDNN's autotuning and the graph capture, the second's is the
#   steady rate: on 2 x H200, 2026-11-27, a 1-epoch run measured 717 images/s with both in it)
set -uo pipefail
cd "$(dirname "$0")/../.."
out="${OUT:-/tmp/lbd-gpu/out}"
work="${LBD_GPU_WORK:-/tmp/lbd-gpu}/imagenet-shaped"
lbd="$PWD/build-gpu/app/lbd"
epochs="${1:-2}"
mkdir -p "$out" "$work"
{
  echo "date $(date -u +%FT%TZ)"
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -1
  echo "cores $(nproc)"
  "$lbd" --version | head -4
  # 1000 classes, 320 down to 5 training images (ratio 64, about 75,000), 20 test images each.
  [ -f "$work/data/ImageNet_LT_train.txt" ] || "$lbd" make-list-data "$work/data" --classes 1000 --max-per-class 320 --ratio 64 --test-per-class 20
  "$lbd" bench --what decode --seconds 5 --out "$out/decode.json" | grep -E "^decode"
  "$lbd" bench --what augment --device cuda:0 --seconds 3 | grep -E "random resized"
  rm -rf "$work/run"
  "$lbd" train --preset imagenet-lt --data-dir "$work/data" --device cuda:0 --epochs "$epochs" --out "$work/run" \
    --set train.eval_every=1 2>&1 | grep -vE "^\s*$" | tail -15
  python3 - "$work/run" <<'PY'
import json, sys
run = sys.argv[1]
for line in open(run + "/metrics.jsonl"):
    m = json.loads(line)
    print("epoch", m.get("epoch"), "images/s", m.get("images_per_second"), "seconds", m.get("epoch_seconds"))
report = json.load(open(run + "/report.json"))
e = report["evaluation"]
print("test images", e["images"], "accuracy", e["accuracy"]["accuracy"], "device", report.get("device"))
PY
} 2>&1 | tee "$out/imagenet-shaped.txt"
tar -czf "$out/imagenet-shaped-run.tar.gz" -C "$work" --exclude='*.pt' run 2>/dev/null || true

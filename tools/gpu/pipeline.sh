#!/usr/bin/env bash
# Issue 28's GPU bars in one call: the overlapped input pipeline and the dataset cache on
# ImageNet-LT-shaped JPEG lists. The GPU machine has no OpenCV: carry .jpegkit/ (tools/gpu/jpegkit.sh)
# and .deps/ (json, cli11) with the tree; lbd is built headless (tools/gpu/studies.sh build).
#   tools/gpu/pipeline.sh [EPOCHS]   (default 2; the second epoch is the steady one)
# Writes into $OUT: pipeline.json (docs-ready: every rate, the per-stage lines, the cache's size and
# build time, the accuracies), pipeline.txt (the log), bench-*.json, the runs' small files.
# Steps: build; make-list-data (1000 classes, 320..5 per class, 20 test each); bench --what train
# (ResNet-50 M=3, 224 px, batch 256, synthetic tensors: the GPU's rate); bench --what pipeline;
# lbd data cache (timed, sized); lbd train --preset imagenet-lt without and with --cache, same seed.
set -uo pipefail
cd "$(dirname "$0")/../.."
out="${OUT:-/tmp/lbd-gpu/out}"
work="${LBD_GPU_WORK:-/tmp/lbd-gpu}/pipeline"
lbd="$PWD/build-gpu/app/lbd"
epochs="${1:-2}"
mkdir -p "$out" "$work"

[ -x "$lbd" ] || bash tools/gpu/studies.sh build || { echo "build failed"; exit 1; }

{
  echo "date $(date -u +%FT%TZ)"
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -1
  echo "cores $(nproc)"
  "$lbd" --version | head -4
  [ -f "$work/data/ImageNet_LT_train.txt" ] \
    || "$lbd" make-list-data "$work/data" --classes 1000 --max-per-class 320 --ratio 64 --test-per-class 20
  "$lbd" bench --what train --arch resnet50 --particles 3 --image-size 224 --channels 3 --classes 1000 --batch 256 \
    --device cuda:0 --no-straightforward --out "$out/bench-train.json" | tail -3
  "$lbd" bench --what pipeline --device cuda:0 --batch 256 --pipeline-files 2048 --seconds 10 --step-ms 87 \
    --out "$out/bench-pipeline.json"
  rm -rf "$work/cache"
  start=$(date +%s.%N)
  "$lbd" data cache --dataset list --data-dir "$work/data" --train-list ImageNet_LT_train.txt \
    --test-list ImageNet_LT_val.txt --channels 3 --image-size 256 --cache-dir "$work/cache" 2>&1 | tail -4
  end=$(date +%s.%N)
  echo "cache build seconds $(python3 -c "print(round($end - $start, 1))")"
  du -sb "$work/cache" | awk '{print "cache bytes", $1}'
  for mode in files cache; do
    rm -rf "$work/run-$mode"
    flag=(); [ "$mode" = cache ] && flag=(--cache --set "data.cache_dir=$work/cache")
    "$lbd" train --preset imagenet-lt --data-dir "$work/data" --device cuda:0 --epochs "$epochs" --out "$work/run-$mode" \
      --train-seed 0 --set train.eval_every=1 "${flag[@]}" 2>&1 | grep -E "input:|dataset cache|accuracy|images/s" | tail -12
  done
  # Several GPUs (the issue's second bar): the synthetic rate on N GPUs and one epoch from the cache.
  gpus=$(nvidia-smi -L | wc -l)
  if [ "$gpus" -ge 2 ]; then
    n=$(( gpus >= 4 ? 4 : 2 ))
    "$lbd" bench --what train --arch resnet50 --particles 3 --image-size 224 --channels 3 --classes 1000 --batch 256 \
      --gpus "$n" --no-straightforward --out "$out/bench-train-gpus$n.json" | tail -2
    rm -rf "$work/run-gpus$n"
    "$lbd" train --preset imagenet-lt --data-dir "$work/data" --gpus "$n" --epochs "$epochs" --out "$work/run-gpus$n" \
      --train-seed 0 --cache --set "data.cache_dir=$work/cache" 2>&1 | grep -E "input:|images/s" | tail -6
  fi
} 2>&1 | tee "$out/pipeline.txt"

python3 - "$out" "$work" <<'PY'
import json, re, sys
out, work = sys.argv[1], sys.argv[2]
doc = {"log": open(out + "/pipeline.txt").read().splitlines()[:6]}
try:
    train = json.load(open(out + "/bench-train.json"))
    doc["synthetic_train_images_per_second"] = max(r.get("images_per_second", 0) for r in train["results"])
    doc["device"] = train.get("device")
except Exception as error:
    doc["bench_train_error"] = str(error)
try:
    doc["pipeline_bench"] = json.load(open(out + "/bench-pipeline.json"))["results"]
except Exception as error:
    doc["bench_pipeline_error"] = str(error)
text = open(out + "/pipeline.txt").read()
for key, pattern in (("cache_build_seconds", r"cache build seconds ([\d.]+)"), ("cache_bytes", r"cache bytes (\d+)")):
    match = re.search(pattern, text)
    doc[key] = float(match.group(1)) if match else None
import glob
for extra in glob.glob(work + "/run-gpus*"):
    doc.setdefault("modes", []).append(extra.rsplit("-", 1)[1])
for mode in ["files", "cache"] + doc.get("modes", []):
    run = f"{work}/run-{mode}"
    entry = {}
    try:
        epochs = [json.loads(line) for line in open(run + "/metrics.jsonl")]
        entry["images_per_second"] = [m.get("images_per_second") for m in epochs]
        entry["epoch_seconds"] = [m.get("epoch_seconds") for m in epochs]
        report = json.load(open(run + "/report.json"))
        entry["test_accuracy"] = report["evaluation"]["accuracy"]["accuracy"]
        entry["stages"] = [l.strip() for l in open(run + "/log.txt") if "input:" in l]
        if mode.startswith("gpus"):
            bench = json.load(open(f"{out}/bench-train-{mode}.json"))
            entry["synthetic_images_per_second"] = max(r.get("images_per_second", 0) for r in bench["results"])
    except Exception as error:
        entry["error"] = str(error)
    doc["run_" + mode] = entry
synthetic = doc.get("synthetic_train_images_per_second")
for mode in ("files", "cache"):
    rates = doc["run_" + mode].get("images_per_second") or []
    if synthetic and rates:
        doc["run_" + mode]["steady_share_of_synthetic"] = round(rates[-1] / synthetic, 3)
doc["bars"] = {"cache >= 0.90 of synthetic": (doc["run_cache"].get("steady_share_of_synthetic") or 0) >= 0.90,
               "files >= 0.70 of synthetic (target)": (doc["run_files"].get("steady_share_of_synthetic") or 0) >= 0.70}
for mode in doc.get("modes", []):
    rates = doc["run_" + mode].get("images_per_second") or []
    n = int(mode[len("gpus"):])
    if synthetic and rates:
        share = round(rates[-1] / (n * synthetic), 3)
        doc["run_" + mode]["steady_share_of_n_times_one_gpu_synthetic"] = share
        doc["bars"][f"{n} GPUs from the cache >= 0.85 of {n} x one GPU's synthetic"] = share >= 0.85
json.dump(doc, open(out + "/pipeline.json", "w"), indent=2)
print(json.dumps({k: v for k, v in doc.items() if k not in ("pipeline_bench", "log")}, indent=2))
PY
tar -czf "$out/pipeline-runs.tar.gz" -C "$work" --exclude='*.pt' run-files run-cache $(cd "$work" && ls -d run-gpus* 2>/dev/null) 2>/dev/null || true

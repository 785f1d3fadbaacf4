#!/usr/bin/env bash
# Issue 13, second device call: does the recipe's seed 1 diverge when trained alone (it diverged at
# epoch 30 when packed with seeds 0, 2, 3), and seeds 0-1 packed two at a time. Metrics come back
# flattened (the device tool returns files at most a few folders deep).
set -uo pipefail
cd "$(dirname "$0")/../.."
out="${OUT:-/tmp/out}"
work=/tmp/lbd-gpu
mkdir -p "$work"
bash tools/gpu/studies.sh build > "$out/build.txt" 2>&1 || { tail -30 "$out/build.txt"; exit 1; }
cat > "$work/recipe.json" <<JSON
{"name": "recipe", "title": "The Fashion-MNIST-LT recipe over seeds", "claim": "packed execution",
 "preset": "fashion-mnist-lt", "seeds": [0, 1, 2, 3],
 "factors": [{"name": "recipe", "levels": [{"label": "fashion-mnist-lt"}]}]}
JSON
lbd=build-gpu/app/lbd
set_data=(--set "data.data_dir=$PWD/.deps/fmnist")
$lbd study "$work/recipe.json" --seeds 1 --out "$work/alone1" --device cuda:0 "${set_data[@]}" > "$out/alone1.md" 2> "$out/alone1.log"
$lbd study "$work/recipe.json" --seeds 0,1 --out "$work/packed2" --device cuda:0 --parallel 2 "${set_data[@]}" > "$out/packed2.md" 2> "$out/packed2.log"
for folder in alone1 packed2; do
  for run in "$work/$folder"/runs/*/seed-*; do
    seed=$(basename "$run")
    cp "$run/metrics.jsonl" "$out/$folder-$seed-metrics.jsonl" 2>/dev/null
    cp "$run/status.json" "$out/$folder-$seed-status.json" 2>/dev/null
    cp "$run/report.json" "$out/$folder-$seed-report.json" 2>/dev/null
  done
  cp "$work/$folder/results/summary.json" "$out/$folder-summary.json" 2>/dev/null
done
tail -3 "$out/alone1.md" "$out/packed2.md"

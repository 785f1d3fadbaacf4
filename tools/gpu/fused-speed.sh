#!/usr/bin/env bash
# Issue 36: training speed of runs fused into one model (`lbd study --fuse G`) against one run
# alone, on one GPU. Trains N seeds of the Fashion-MNIST-LT recipe (ResNet-32, M = 3, batch 128,
# fp16) as one study with --fuse N, for EPOCHS epochs, for N = 1 (the run alone, CUDA graph on) and
# each of COUNTS; images/s of a group = the sum over its runs of their last epoch's images/s
# (metrics.jsonl, the epoch's images / its seconds; the first epochs warm up). Writes
# $OUT/fused-speed.json and each study's table.
#   bash tools/gpu/fused-speed.sh                    on a GPU: 1 alone, then 3, 6, 9 fused (about 6 min)
#   LBD_FUSED_TINY=1 bash tools/gpu/fused-speed.sh   the same logic on a CPU at the quick-cpu scale (1 epoch; 1 and 2)
set -euo pipefail
cd "$(dirname "$0")/../.."
LBD="${LBD:-build/app/lbd}"
OUT="${OUT:-/tmp/lbd-fused-speed}"
mkdir -p "$OUT"
WORK="$(mktemp -d)"
trap 'rm -rf "$WORK"' EXIT
if [ -n "${LBD_FUSED_TINY:-}" ]; then
  PRESET=quick-cpu; DEVICE=cpu; EPOCHS="${EPOCHS:-1}"; COUNTS="${COUNTS:-2}"
else
  PRESET=fashion-mnist-lt; DEVICE=cuda:0; EPOCHS="${EPOCHS:-4}"; COUNTS="${COUNTS:-3 6 9}"
fi
cat > "$WORK/recipe.json" <<JSON
{"name": "fused-speed", "title": "the recipe over seeds", "preset": "$PRESET", "seeds": [0],
 "factors": [{"name": "recipe", "levels": [{"label": "recipe", "set": {}}]}]}
JSON
measure() { # $1 runs, $2 --fuse value
  local n="$1" fuse="$2" dir="$WORK/study-$1-$2" seeds
  seeds=$(seq -s, 0 $((n - 1)))
  local start=$(date +%s.%N)
  "$LBD" study "$WORK/recipe.json" --seeds "$seeds" --device "$DEVICE" --fuse "$fuse" --out "$dir" \
    --set train.epochs="$EPOCHS" --set train.eval_every="$EPOCHS" >"$OUT/study-$n-fuse$fuse.log" 2>&1
  local end=$(date +%s.%N)
  cp "$dir/results/table.md" "$OUT/table-$n-fuse$fuse.md" 2>/dev/null || true
  /usr/bin/env python3 - "$dir" "$n" "$fuse" "$start" "$end" <<'PY'
import glob, json, sys
d, n, fuse, start, end = sys.argv[1], int(sys.argv[2]), sys.argv[3], float(sys.argv[4]), float(sys.argv[5])
runs = []
for path in sorted(glob.glob(d + "/runs/*/seed-*/metrics.jsonl")):
    lines = [json.loads(l) for l in open(path) if l.strip()]
    status = json.load(open(path.replace("metrics.jsonl", "status.json")))
    last = lines[-1] if lines else {}
    acc = last.get("evaluation", {}).get("accuracy", {}).get("accuracy")
    runs.append({"run": path.split("/runs/")[1].rsplit("/", 1)[0], "state": status.get("state"),
                 "images_per_second": last.get("images_per_second", 0), "accuracy": acc})
print(json.dumps({"runs": n, "fuse": fuse, "seconds": round(end - start, 1),
                  "images_per_second": round(sum(r["images_per_second"] for r in runs), 1),
                  "finished": sum(r["state"] == "finished" for r in runs), "each": runs}))
PY
}
{
  echo "{\"preset\": \"$PRESET\", \"device\": \"$DEVICE\", \"epochs\": $EPOCHS,"
  echo " \"gpu\": \"$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1)\","
  echo " \"commit\": \"$(git rev-parse --short HEAD 2>/dev/null || cat COMMIT 2>/dev/null)\", \"date\": \"$(date -u +%F)\","
  echo " \"measurements\": ["
  measure 1 1
  for n in $COUNTS; do echo ","; measure "$n" "$n"; done
  echo "]}"
} > "$OUT/fused-speed.json"
/usr/bin/env python3 - "$OUT/fused-speed.json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
alone = r["measurements"][0]["images_per_second"] or 1
for m in r["measurements"]:
    print(f'{m["runs"]} runs, --fuse {m["fuse"]}: {m["images_per_second"]:.0f} images/s '
          f'({m["images_per_second"] / alone:.2f}x one run alone), {m["finished"]}/{m["runs"]} finished, {m["seconds"]} s')
PY

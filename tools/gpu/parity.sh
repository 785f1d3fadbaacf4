#!/usr/bin/env bash
# Issue 15's accuracy parity: the Fashion-MNIST-LT recipe (preset fashion-mnist-lt, global batch
# 128) trained data-parallel on 2 GPUs (`lbd train --gpus 2`: 64 images per GPU, gradients
# all-reduced through NCCL in buckets during the backward pass), training seeds 0 and 1 on split 0
# (`--seed 0 --train-seed S`: the protocol of the single-GPU bar, docs/results/fashion-mnist-lt-h100.md;
# until 2026-11-27 this script drew the split with the seed too). Bar: >= 90.5 % overall and
# >= 88 % tail test accuracy for both seeds, as the single-GPU recipe.
# With 4 GPUs both seeds train at once (seed 0 on GPUs 0-1, seed 1 on GPUs 2-3), else one after
# the other. Build first (tools/gpu/paper-studies.sh build); Fashion-MNIST travels in .deps/fmnist.
#   tools/gpu/parity.sh start [SEED...]   starts them (default seeds 0 1) in the background, returns
#   tools/gpu/parity.sh collect    waits (at most $LBD_WAIT s, default 420) and writes parity.txt
#                                  and the runs' small files (parity-runs.tar.gz) into $OUT
#                                  (parity-sync-bn.txt and parity-sync-bn-runs.tar.gz for that variant)
# LBD_PARITY_SYNC_BN=1 (for both commands) trains with --sync-bn (batch norm over the global batch
# of 128, as on one GPU, instead of per rank over 64) in parity-sync-bn/, parity-sync-bn.txt.
set -uo pipefail
cd "$(dirname "$0")/../.."
variant=parity
extra=()
if [ "${LBD_PARITY_SYNC_BN:-0}" = 1 ]; then
  variant=parity-sync-bn
  extra=(--sync-bn)
fi
work="${LBD_GPU_WORK:-/tmp/lbd-gpu}/$variant"
out="${OUT:-/tmp/lbd-gpu/out}"
lbd="$PWD/build-gpu/app/lbd"
data="$PWD/.deps/fmnist"
export NCCL_NVLS_ENABLE=0
mkdir -p "$work" "$out"

train() { # $1 seed, $2 visible GPUs
  CUDA_VISIBLE_DEVICES=$2 "$lbd" train --preset fashion-mnist-lt --gpus 2 --seed 0 --train-seed "$1" ${PARITY_EXTRA:-} --out "$work/seed$1" \
    --set "data.data_dir=$data" > "$work/seed$1.log" 2>&1
  echo "exit $?" > "$work/seed$1.done"
}

case "${1:-}" in
  start)
    shift
    seeds=("$@")
    [ "${#seeds[@]}" -eq 0 ] && seeds=(0 1)
    rm -rf "$work"/seed*
    echo "${seeds[*]}" > "$work/seeds"
    gpus=$(nvidia-smi --query-gpu=index --format=csv,noheader | wc -l)
    export -f train
    PARITY_EXTRA="${extra[*]:-}"
    export work lbd data PARITY_EXTRA
    if [ "$gpus" -ge 4 ] && [ "${#seeds[@]}" -eq 2 ]; then
      nohup setsid bash -c "train ${seeds[0]} 0,1" > /dev/null 2>&1 < /dev/null &
      nohup setsid bash -c "train ${seeds[1]} 2,3" > /dev/null 2>&1 < /dev/null &
    else
      chain=""
      for seed in "${seeds[@]}"; do chain+="train $seed 0,1; "; done
      nohup setsid bash -c "$chain" > /dev/null 2>&1 < /dev/null &
    fi
    echo "parity: seeds ${seeds[*]} started $(date -u +%FT%TZ) on $gpus GPUs"
    ;;
  collect)
    [ -f "$work/seeds" ] || { echo "parity: nothing started on this machine (a fresh one: the last was given back)" >&2; exit 1; }
    read -r -a seeds < "$work/seeds"
    waited=0
    pending() { for seed in "${seeds[@]}"; do [ -f "$work/seed$seed.done" ] || return 0; done; return 1; }
    while pending && [ "$waited" -lt "${LBD_WAIT:-420}" ]; do
      sleep 10; waited=$((waited + 10))
    done
    {
      echo "date $(date -u +%FT%TZ), waited ${waited} s"
      nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -1
      for seed in "${seeds[@]}"; do
        echo "== seed $seed: $(cat "$work/seed$seed.done" 2>/dev/null || echo 'not finished')"
        grep -E "rank|collectives|buckets|error|failed" "$work/seed$seed.log" | head -6
        tail -4 "$work/seed$seed.log"
      done
      python3 - "$work" "${seeds[@]}" <<'PY'
import json, os, sys
work = sys.argv[1]
for seed in sys.argv[2:]:
    run = os.path.join(work, f"seed{seed}")
    try:
        report = json.load(open(os.path.join(run, "report.json")))
        epochs = [json.loads(l) for l in open(os.path.join(run, "metrics.jsonl"))]
    except (OSError, ValueError) as error:
        print(f"seed {seed}: no report ({error})")
        continue
    acc = report["evaluation"]["accuracy"]
    rates = [e["images_per_second"] for e in epochs if e.get("images_per_second")]
    thirds = {r["region"]: r["accuracy"] for r in report["evaluation"]["regions"]["thirds"]}
    regions = ", ".join(f"{name} {value * 100:.2f} %" for name, value in thirds.items() if value is not None)
    print(f"seed {seed}: overall {acc['accuracy'] * 100:.2f} %, {regions}, "
          f"epochs {len(epochs)}, median images/s {sorted(rates)[len(rates) // 2] if rates else 'n/a'}, device {report.get('device')}")
PY
    } 2>&1 | tee "$out/$variant.txt"
    tar -czf "$out/$variant-runs.tar.gz" -C "$work" --exclude='*.pt' --exclude='*.pt.tmp' . 2>/dev/null || true
    ;;
  *) echo "usage: $0 start|collect" >&2; exit 2 ;;
esac

#!/usr/bin/env bash
# The six claims on a machine of several GPUs, under the corrected protocols of lbd-math.md
# section 8 (issue 27: paper-standard = one-hot training, mean-logit decisions; the utility
# ablation's tail-sensitive cell paper-tail). The device tool runs this from the repository root;
# nothing is installed there but PyTorch, so lbd is built headless and Fashion-MNIST travels in
# .deps/fmnist. The six studies share most of their runs, so their union is trained once and each
# study then copies its runs with --reuse-from (tests/core/test_runreuse.cpp checks that this plan
# covers every run of the six, and trains none twice):
#   paper-union-a.json  11 cells x 3 seeds, threads of one process over every GPU (2 per GPU)
#   paper-union-b.json  the particle study's M = 8, 5, 2, 1 x 2 seeds, a second process (1 per GPU)
# and, beside them, the single-GPU parity bar's second run (split 0, training seed 1; the study's
# seed 1 draws split 1). Longest runs first. The earlier protocol's plan (tail-sensitive training,
# 2026-11-27) is in this file's history.
# Runs an earlier lease finished (the archive $LBD_PREVIOUS, by default the 2026-11-28 4 x H200
# lease's: 10 runs of the unions and the parity run, report.json and logs, no weights) are copied
# with --reuse-from instead of trained again; the recipe's seed 0 is trained anyway, since the OOD
# measurement of issue 26 needs its weights. Their run.json says which commit trained them.
#
#   tools/gpu/paper-studies.sh build     headless CUDA build (tools/gpu/studies.sh build)
#   tools/gpu/paper-studies.sh start     starts all three in the background, returns
#   tools/gpu/paper-studies.sh progress  where they are (and packs what there is into $OUT)
#   tools/gpu/paper-studies.sh finish    waits for them (up to $LBD_WAIT s), runs the six studies
#                                        with --reuse-from, packs every result into $OUT (few files),
#                                        and the recipe's seed-0 run folder whole (for the OOD fit)
set -euo pipefail
cd "$(dirname "$0")/../.."
work="${LBD_GPU_WORK:-/tmp/lbd-gpu}"
out="${OUT:-$work/out}"
data="$PWD/.deps/fmnist"
lbd="$PWD/build-gpu/app/lbd"
tools="$PWD/tools/gpu"
threads=4 # CPU threads per run: the batches are augmented on the GPU; more only oversubscribes
mkdir -p "$work" "$out"
# The GPUs this script may use: CUDA_VISIBLE_DEVICES's when set (another job has the others).
if [ -n "${CUDA_VISIBLE_DEVICES:-}" ]; then
  gpus=$(echo "$CUDA_VISIBLE_DEVICES" | tr ',' '\n' | grep -c . || true)
else
  gpus=$(nvidia-smi --query-gpu=index --format=csv,noheader | wc -l)
fi
[ "$gpus" -ge 1 ] || { echo "no GPU to use (CUDA_VISIBLE_DEVICES='${CUDA_VISIBLE_DEVICES:-}')" >&2; exit 1; }
common=(--set "data.data_dir=$data" --threads "$threads")
previous="${LBD_PREVIOUS:-$PWD/docs/results/paper-studies/runs-2026-11-28-h200x4.tar.xz}"
reuse_previous=""

unionA() {
  "$lbd" study "$tools/paper-union-a.json" --out "$work/union-a" --device all-gpus --parallel $((gpus * 2)) \
    ${reuse_previous:+--reuse-from "$reuse_previous"} --set "data.data_dir=$data" --threads "$threads" > "$work/union-a.md" 2> "$work/union-a.log"
  touch "$work/union-a.done"
}

parity() {
  # The preset as it ships, split 0 with training seed 1, alone on the last GPU's share.
  "$lbd" train --preset fashion-mnist-lt --seed 0 --train-seed 1 --device "cuda:$((gpus - 1))" --out "$work/parity-split0-seed1" \
    --set "data.data_dir=$data" --threads "$threads" > "$work/parity-split0-seed1.txt" 2>&1
  touch "$work/parity.done"
}

unionB() {
  "$lbd" study "$tools/paper-union-b.json" --out "$work/union-b" --device all-gpus --parallel "$gpus" \
    ${reuse_previous:+--reuse-from "$reuse_previous"} --set "data.data_dir=$data" --threads "$threads" > "$work/union-b.md" 2> "$work/union-b.log"
  touch "$work/union-b.done"
}

# Everything so far, small files only, into one archive in $OUT: every call returns what it can,
# since a machine left idle for 30 s between calls is given back with all of it.
pack() {
  (cd "$work" && find . -path ./out -prune -o \( -name '*.json' -o -name '*.jsonl' -o -name '*.md' -o -name '*.csv' \
     -o -name '*.tex' -o -name '*.log' -o -name '*.txt' \) -print0 | tar --null -czf "$out/paper-studies.tar.gz" -T -)
}

# `retry` and `finish` continue what `start` began on this same machine.
needState() {
  if [ ! -x "$lbd" ] || [ ! -f "$work/started" ]; then
    echo "nothing of an earlier start on this machine (a fresh machine: the last one was given back)" >&2
    exit 1
  fi
}

case "${1:-}" in
  build) bash "$tools/studies.sh" build ;;
  start)
    rm -f "$work"/*.done
    date -u +%FT%TZ > "$work/started"
    if [ -f "$previous" ]; then
      rm -rf "$work/previous" && mkdir -p "$work/previous"
      tar -xJf "$previous" -C "$work/previous"
      rm -rf "$work/previous/union-a/runs/lbd/seed-0" # trained again: its weights are wanted
      reuse_previous="$work/previous"
      echo "reusing the finished runs of $(basename "$previous")"
      # A run is reused only under the same config, data.data_dir included: the earlier lease ran
      # from /work/main/.gpu-src, as tools/gpu/snapshot.sh sets it up.
      earlier=$(sed -n 's/.*"data_dir": *"\([^"]*\)".*/\1/p' "$work/previous/union-a/runs/lbd/seed-1/config.json" | head -1)
      [ "$earlier" = "$data" ] || echo "WARNING: the earlier runs read $earlier, this lease $data: none of them will match"
    fi
    export -f unionA unionB parity
    export work lbd tools gpus data threads reuse_previous
    nohup setsid bash -c unionA > /dev/null 2>&1 < /dev/null &
    nohup setsid bash -c unionB > /dev/null 2>&1 < /dev/null &
    if grep -qs '"finished"' "$work/previous/parity-split0-seed1/status.json"; then
      cp -r "$work/previous/parity-split0-seed1" "$work/previous/parity-split0-seed1.txt" "$work/"
      touch "$work/parity.done"
      echo "the parity run: finished by the earlier lease, copied"
    else
      nohup setsid bash -c parity > /dev/null 2>&1 < /dev/null &
    fi
    echo "started on $gpus GPUs: union A ($((gpus * 2)) runs at once), union B ($gpus at once), parity run"
    ;;
  progress)
    for log in "$work"/union-a.log "$work"/union-b.log; do
      [ -f "$log" ] && { echo "== $(basename "$log")"; grep -E "^(finished|failed|progress)|images/s|start|done|wall" "$log" | tail -6; }
    done
    [ -f "$work/parity-split0-seed1.txt" ] && { echo "== parity"; grep -E "epoch|test acc|accuracy" "$work/parity-split0-seed1.txt" | tail -3; }
    nvidia-smi --query-gpu=index,utilization.gpu,memory.used --format=csv,noheader
    pack
    ;;
  retry)
    # Union A's failed runs again, one process per seed on physical GPUs 1-3 (threads of one process can
    # disturb each other's CUDA graph capture: "operation not permitted when stream is
    # capturing"), each stopped cleanly after $2 seconds. Finished runs are copied, not trained.
    needState
    while [ ! -f "$work/union-a.done" ] || [ ! -f "$work/union-b.done" ]; do sleep 5; done
    grep -E "^failed" "$work/union-a.log" || true
    pids=()
    for seed in 0 1 2; do
      CUDA_VISIBLE_DEVICES=$((seed + 1)) timeout "${2:-280}" "$lbd" study "$tools/paper-union-a.json" --seeds "$seed" \
        --out "$work/union-a-retry-$seed" --reuse-from "$work/union-a" --device cuda:0 "${common[@]}" \
        > "$work/union-a-retry-$seed.md" 2> "$work/union-a-retry-$seed.log" &
      pids+=($!)
    done
    wait "${pids[@]}" || true
    grep -hE "^(finished|failed)|runs finished" "$work"/union-a-retry-*.log "$work"/union-a-retry-*.md || true
    pack
    ;;
  finish)
    # Waits (at most $LBD_WAIT seconds, default 480: a device call lasts 10 minutes at most) for
    # both lines, then runs the six studies: each should only copy runs; one that would train
    # (a run of the plan failed) is stopped after 90 s and says so in its table.
    needState
    waited=0
    while { [ ! -f "$work/union-a.done" ] || [ ! -f "$work/union-b.done" ] || [ ! -f "$work/parity.done" ]; } \
          && [ "$waited" -lt "${LBD_WAIT:-480}" ]; do
      sleep 10; waited=$((waited + 10))
    done
    if [ -f "$work/union-a.done" ] && [ -f "$work/union-b.done" ]; then
      mkdir -p "$work/studies"
      for study in methods calibration utility discrepancy repulsion particles; do
        reuse=()
        for folder in "$work"/union-a "$work"/union-a-retry-* "$work"/union-b "$work"/union-c; do
          [ -d "$folder" ] && reuse+=(--reuse-from "$folder")
        done
        timeout "${LBD_STUDY_LIMIT:-90}" "$lbd" study "$study" --out "$work/studies/$study" --device all-gpus --parallel 8 \
          "${common[@]}" "${reuse[@]}" > "$work/studies/$study.md" 2> "$work/studies/$study.log" || true
        echo "$study: $(tail -1 "$work/studies/$study.md")"
      done
    else
      echo "not finished after ${waited} s: collecting what there is"
      bash "$0" progress
    fi
    pack
    # The recipe's seed-0 run whole (weights.pt included, about 6 MB): its OOD score is fitted and
    # measured on the CPU at home (docs/results/ood.md).
    recipe="$work/union-a/runs/lbd/seed-0"
    [ -f "$recipe/weights.pt" ] && tar -C "$work/union-a/runs/lbd" -czf "$out/recipe-seed0-run.tar.gz" seed-0
    nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader > "$out/gpu.txt"
    ls -la "$out"
    ;;
  *) echo "usage: $0 build|start|progress|retry|finish" >&2; exit 2 ;;
esac

#!/usr/bin/env bash
# Issue 13 on a machine of several GPUs (the device tool runs this from the repository root;
# nothing is installed there but PyTorch, so lbd is built headless and Fashion-MNIST travels in
# .deps/fmnist). The six built-in studies share most of their runs, so their union is trained
# once and each study then copies its runs with --reuse-from (tests/core/test_runreuse.cpp checks
# that this plan covers every run of the six, and trains none twice):
#   paper-union-a.json  11 cells x 3 seeds, threads of one process over every GPU (2 per GPU)
#   paper-union-b.json  the particle study's M = 8, 5, 2, 1 x 2 seeds, a second process (1 per GPU)
# Longest runs first in both. (The packing measurement of docs/results/packed-execution.md was
# this script's GPU 0 line until 2026-11-27; its commands are recorded there. The runs the first
# leases lost were trained by tools/gpu/open-bars.sh.)
#
#   tools/gpu/paper-studies.sh build     headless CUDA build (tools/gpu/studies.sh build)
#   tools/gpu/paper-studies.sh start     starts both in the background, returns
#   tools/gpu/paper-studies.sh progress  where they are (and packs what there is into $OUT)
#   tools/gpu/paper-studies.sh finish    waits for both (up to $LBD_WAIT s), runs the six studies
#                                        with --reuse-from, packs every result into $OUT (few files)
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

unionA() {
  "$lbd" study "$tools/paper-union-a.json" --out "$work/union-a" --device all-gpus --parallel $((gpus * 2)) \
    --set "data.data_dir=$data" --threads "$threads" > "$work/union-a.md" 2> "$work/union-a.log"
  touch "$work/union-a.done"
}

unionB() {
  "$lbd" study "$tools/paper-union-b.json" --out "$work/union-b" --device all-gpus --parallel "$gpus" \
    --set "data.data_dir=$data" --threads "$threads" > "$work/union-b.md" 2> "$work/union-b.log"
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
    export -f unionA unionB
    export work lbd tools gpus data threads
    nohup setsid bash -c unionA > /dev/null 2>&1 < /dev/null &
    nohup setsid bash -c unionB > /dev/null 2>&1 < /dev/null &
    echo "started on $gpus GPUs: union A ($((gpus * 2)) runs at once), union B ($gpus at once)"
    ;;
  progress)
    for log in "$work"/union-c.log "$work"/union-a.log "$work"/union-b.log; do
      [ -f "$log" ] && { echo "== $(basename "$log")"; grep -E "^(finished|failed|progress)|images/s|start|done|wall" "$log" | tail -6; }
    done
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
    while { [ ! -f "$work/union-a.done" ] || [ ! -f "$work/union-b.done" ]; } && [ "$waited" -lt "${LBD_WAIT:-480}" ]; do
      sleep 10; waited=$((waited + 10))
    done
    if [ -f "$work/union-a.done" ] && [ -f "$work/union-b.done" ]; then
      mkdir -p "$work/studies"
      for study in methods calibration utility discrepancy discrepancy-as-linear repulsion particles; do
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
    nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader > "$out/gpu.txt"
    ls -la "$out"
    ;;
  *) echo "usage: $0 build|start|progress|retry|finish" >&2; exit 2 ;;
esac

#!/usr/bin/env bash
# Issue 13 on a machine of several GPUs (the device tool runs this from the repository root;
# nothing is installed there but PyTorch, so lbd is built headless and Fashion-MNIST travels in
# .deps/fmnist). The six built-in studies share most of their runs, so their union is trained
# once and each study then copies its runs with --reuse-from (tests/core/test_runreuse.cpp checks
# that this plan covers every run of the six):
#   GPUs 1..N-1  paper-union-a.json (13 cells x 3 seeds, longest first, 3 runs per GPU)
#   GPU 0        the packing measurement first: `lbd bench` alone, 4 at once as processes, 4 at
#                once under CUDA MPS; the recipe's seed 0 trained alone; its seeds 0-3 trained 4 at
#                once (as MPS processes when MPS gave more in the bench, else as threads of one
#                process); then paper-union-b.json (M = 8, 2 seeds)
#
#   tools/gpu/paper-studies.sh build     headless CUDA build (tools/gpu/studies.sh build)
#   tools/gpu/paper-studies.sh start     starts both lines above in the background, returns
#   tools/gpu/paper-studies.sh progress  where they are
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
gpus=$(nvidia-smi --query-gpu=index --format=csv,noheader | wc -l)
common=(--set "data.data_dir=$data" --threads "$threads")

benchFour() { # $1: label; runs 4 `lbd bench` processes at once on GPU 0
  local pids=()
  for i in 0 1 2 3; do
    CUDA_VISIBLE_DEVICES=0 "$lbd" bench --what train --device cuda:0 --arch resnet32 --particles 3 --batch 128 \
      --train-seconds 20 --no-straightforward --out "$work/bench-$1-$i.json" > "$work/bench-$1-$i.txt" 2>&1 &
    pids+=($!)
  done
  wait "${pids[@]}" || true
}

fastImagesPerSecond() { # the fast mode's images/s summed over `lbd bench` records
  python3 -c "
import json, sys
total = 0
for name in sys.argv[1:]:
    try:
        total += sum(r['images_per_second'] for r in json.load(open(name))['results'] if r.get('mode') == 'fast')
    except (OSError, ValueError, KeyError):
        pass
print(round(total))" "$@"
}

gpuZero() {
  set +e
  exec > "$work/gpu0.log" 2>&1
  echo "gpu0 start $(date -u +%FT%TZ)"
  CUDA_VISIBLE_DEVICES=0 "$lbd" bench --what train --device cuda:0 --arch resnet32 --particles 3 --batch 128 \
    --train-seconds 20 --no-straightforward --out "$work/bench-alone.json" > "$work/bench-alone.txt" 2>&1
  benchFour processes
  local mps=no
  if command -v nvidia-cuda-mps-control > /dev/null; then
    # A private pipe folder: only the processes given it use MPS (union A on GPUs 1.. does not).
    export CUDA_MPS_PIPE_DIRECTORY="$work/mps-pipe" CUDA_MPS_LOG_DIRECTORY="$work/mps-log"
    mkdir -p "$CUDA_MPS_PIPE_DIRECTORY" "$CUDA_MPS_LOG_DIRECTORY"
    if CUDA_VISIBLE_DEVICES=0 nvidia-cuda-mps-control -d; then
      benchFour mps
      mps=yes
    else
      echo "MPS daemon did not start"
    fi
  else
    echo "nvidia-cuda-mps-control not found"
  fi
  local alone processes mpsSum
  alone=$(fastImagesPerSecond "$work/bench-alone.json")
  processes=$(fastImagesPerSecond "$work"/bench-processes-*.json)
  mpsSum=$(fastImagesPerSecond "$work"/bench-mps-*.json)
  echo "bench alone $alone images/s; 4 processes together $processes; 4 under MPS together $mpsSum"
  local useMps
  useMps=$(python3 -c "print('yes' if '$mps' == 'yes' and float('$mpsSum') > 1.5 * float('$alone') else 'no')")
  if [ "$mps" = yes ]; then echo quit | nvidia-cuda-mps-control; fi
  unset CUDA_MPS_PIPE_DIRECTORY # the run alone trains without MPS

  echo "alone start $(date -u +%FT%TZ)"
  CUDA_VISIBLE_DEVICES=0 "$lbd" study "$work/recipe.json" --seeds 0 --out "$work/recipe-alone" \
    --device cuda:0 --set "data.data_dir=$data" --threads "$threads" > "$work/recipe-alone.md" 2> "$work/recipe-alone.log"
  echo "packed start $(date -u +%FT%TZ) (MPS processes: $useMps)"
  local start end
  start=$(date +%s.%N)
  if [ "$useMps" = yes ]; then
    export CUDA_MPS_PIPE_DIRECTORY="$work/mps-pipe"
    CUDA_VISIBLE_DEVICES=0 nvidia-cuda-mps-control -d
    local pids=()
    for seed in 0 1 2 3; do
      CUDA_VISIBLE_DEVICES=0 "$lbd" study "$work/recipe.json" --seeds "$seed" --out "$work/recipe-packed/seed-$seed" \
        --device cuda:0 --set "data.data_dir=$data" --threads "$threads" > "$work/recipe-packed-$seed.md" 2> "$work/recipe-packed-$seed.log" &
      pids+=($!)
    done
    wait "${pids[@]}"
    echo quit | nvidia-cuda-mps-control
    unset CUDA_MPS_PIPE_DIRECTORY
  else
    CUDA_VISIBLE_DEVICES=0 "$lbd" study "$work/recipe.json" --out "$work/recipe-packed/threads" --device cuda:0 --parallel 4 \
      --set "data.data_dir=$data" --threads "$threads" > "$work/recipe-packed-threads.md" 2> "$work/recipe-packed-threads.log"
  fi
  end=$(date +%s.%N)
  echo "packed wall $(python3 -c "print(round($end - $start, 1))") s"
  echo "union-b start $(date -u +%FT%TZ)"
  CUDA_VISIBLE_DEVICES=0 "$lbd" study "$tools/paper-union-b.json" --out "$work/union-b" --device cuda:0 --parallel 2 \
    --set "data.data_dir=$data" --threads "$threads" > "$work/union-b.md" 2> "$work/union-b.log"
  echo "gpu0 done $(date -u +%FT%TZ)"
  touch "$work/gpu0.done"
}

unionA() {
  CUDA_VISIBLE_DEVICES="$1" "$lbd" study "$tools/paper-union-a.json" --out "$work/union-a" --device all-gpus \
    --parallel "$2" --set "data.data_dir=$data" --threads "$threads" > "$work/union-a.md" 2> "$work/union-a.log"
  touch "$work/union-a.done"
}

# Everything so far, small files only, into one archive in $OUT: every call returns what it can,
# since a machine left idle for 30 s between calls is given back with all of it.
pack() {
  (cd "$work" && find . -path ./out -prune -o \( -name '*.json' -o -name '*.jsonl' -o -name '*.md' -o -name '*.csv' \
     -o -name '*.tex' -o -name '*.log' -o -name '*.txt' \) -print0 | tar --null -czf "$out/paper-studies.tar.gz" -T -)
}

# `retry` and `finish` continue what `start` began on this same machine.
needState() {
  if [ ! -x "$lbd" ] || [ ! -f "$work/recipe.json" ]; then
    echo "nothing of an earlier start on this machine (a fresh machine: the last one was given back)" >&2
    exit 1
  fi
}

case "${1:-}" in
  build) bash "$tools/studies.sh" build ;;
  start)
    # The recipe as its own one-cell study (the methods study's LBD cell: the same config).
    cat > "$work/recipe.json" <<JSON
{"name": "recipe", "title": "The Fashion-MNIST-LT recipe over seeds", "claim": "packed execution",
 "preset": "fashion-mnist-lt", "seeds": [0, 1, 2, 3],
 "factors": [{"name": "recipe", "levels": [{"label": "LBD"}]}]}
JSON
    others=$(seq -s, 1 $((gpus - 1)))
    workers=$(( (gpus - 1) * 3 ))
    rm -f "$work"/*.done
    export -f gpuZero benchFour unionA fastImagesPerSecond
    export work lbd data tools threads
    nohup setsid bash -c "unionA $others $workers" > /dev/null 2>&1 < /dev/null &
    nohup setsid bash -c gpuZero > /dev/null 2>&1 < /dev/null &
    echo "started: union A on GPUs $others ($workers at once), GPU 0: packing then union B"
    ;;
  progress)
    for log in "$work"/union-a.log "$work"/union-b.log "$work"/gpu0.log; do
      [ -f "$log" ] && { echo "== $(basename "$log")"; grep -E "^(finished|failed|progress)|images/s|start|done|wall" "$log" | tail -6; }
    done
    nvidia-smi --query-gpu=index,utilization.gpu,memory.used --format=csv,noheader
    pack
    ;;
  retry)
    # Union A's failed runs again, one process per seed and GPU (threads of one process can
    # disturb each other's CUDA graph capture: "operation not permitted when stream is
    # capturing"), each stopped cleanly after $2 seconds. Finished runs are copied, not trained.
    needState
    while [ ! -f "$work/union-a.done" ] || [ ! -f "$work/gpu0.done" ]; do sleep 5; done
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
    while { [ ! -f "$work/union-a.done" ] || [ ! -f "$work/gpu0.done" ]; } && [ "$waited" -lt "${LBD_WAIT:-480}" ]; do
      sleep 10; waited=$((waited + 10))
    done
    if [ -f "$work/union-a.done" ] && [ -f "$work/gpu0.done" ]; then
      mkdir -p "$work/studies"
      for study in methods calibration utility discrepancy repulsion particles; do
        reuse=()
        for folder in "$work"/recipe-alone "$work"/recipe-packed "$work"/union-a "$work"/union-a-retry-* "$work"/union-b; do
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
    cp "$work/gpu0.log" "$out/" 2>/dev/null || true
    nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader > "$out/gpu.txt"
    ls -la "$out"
    ;;
  *) echo "usage: $0 build|start|progress|finish" >&2; exit 2 ;;
esac

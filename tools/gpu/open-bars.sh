#!/usr/bin/env bash
# The GPU measurements issues 13 and 15 still lack (as of 2026-11-27, night), on one 4-GPU lease.
# The machine is given back 30 s after a call ends, with all of its state: issue the calls back to
# back and read the results afterwards. Every call packs what has finished (small files only) into
# $OUT, so a lost machine loses only the runs still training.
# The run folders of the earlier study leases were not kept (git-ignored, lost with that checkout):
# this plan trains the two studies it completes in full, and `progress` returns every finished
# run's small files so that they can be committed and reused (`lbd study --reuse-from`).
#   stage 1  carry .deps/json .deps/cli11 .deps/fmnist .jpegkit: build (about 2 minutes), then in
#            the background
#              GPUs 0-1: the parity run still missing (tools/gpu/parity.sh start 1: training seed 1
#                        on split 0, --gpus 2), then 3 epochs with --sync-bn (its speed since the
#                        statistics stay on the GPU), then the particle study's M = 8, 5, 2, 1
#                        (paper-union-b.json, 2 seeds), then the as-linear cells' seed 2
#              GPUs 2-3: the discrepancy study as built (all 15 runs, its linear cell included),
#                        then the as-linear cells' seeds 0 and 1 (paper-missing-as-linear.json)
#   stage 2  [SECONDS]: waits SECONDS (default 540) or until everything has ended, then reports
#            the parity run (once ended) and the studies' progress, and packs (repeat)
# Usage: tools/gpu/open-bars.sh 1 | 2 [SECONDS]
set -uo pipefail
cd "$(dirname "$0")/../.."
work="${LBD_GPU_WORK:-/tmp/lbd-gpu}"
out="${OUT:-$work/out}"
lbd="$PWD/build-gpu/app/lbd"
tools="$PWD/tools/gpu"
data="$PWD/.deps/fmnist"
export NCCL_NVLS_ENABLE=0
mkdir -p "$work" "$out"
start=$(date +%s)
elapsed() { echo "[$(( $(date +%s) - start )) s] $*"; }

# One study into its own folder: $1 study (name or file), $2 folder, $3 runs at once, then extra
# arguments (--seeds ...). Each run trains on the visible GPUs in turn, with 4 CPU threads.
study() {
  local spec=$1 folder=$2 parallel=$3
  shift 3
  "$lbd" study "$spec" --out "$work/$folder" --device all-gpus --parallel "$parallel" \
    --set "data.data_dir=$data" --threads 4 "$@" > "$work/$folder.md" 2> "$work/$folder.log"
  echo "exit $?" > "$work/$folder.done"
}

lineGpus01() {
  bash "$tools/parity.sh" start 1 > "$work/parity-start.txt"
  while [ ! -f "$work/parity/seed1.done" ]; do sleep 5; done
  CUDA_VISIBLE_DEVICES=0,1 timeout 120 "$lbd" train --preset fashion-mnist-lt --gpus 2 --epochs 3 --seed 0 --sync-bn \
    --out "$work/speed-sync-bn" --set "data.data_dir=$data" > "$work/speed-sync-bn.log" 2>&1
  echo "exit $?" > "$work/speed-sync-bn.done"
  export CUDA_VISIBLE_DEVICES=0,1
  study "$tools/paper-union-b.json" particles-rest 8
  study "$tools/paper-missing-as-linear.json" as-linear-seed2 4 --seeds 2
}

lineGpus23() {
  export CUDA_VISIBLE_DEVICES=2,3
  study discrepancy discrepancy 8
  study "$tools/paper-missing-as-linear.json" as-linear-seeds01 8 --seeds 0,1
}

progress() {
  {
    date -u +%FT%TZ
    nvidia-smi --query-gpu=index,name,utilization.gpu,memory.used --format=csv,noheader
    if [ -f "$work/parity/seed1.done" ]; then LBD_WAIT=0 bash "$tools/parity.sh" collect | tail -4; fi
    if [ -f "$work/speed-sync-bn.done" ]; then
      echo "sync-bn 3 epochs: $(cat "$work/speed-sync-bn.done")"
      grep -E "^epoch|error|failed" "$work/speed-sync-bn.log" | tail -3
    fi
    for folder in discrepancy particles-rest as-linear-seeds01 as-linear-seed2; do
      [ -f "$work/$folder.log" ] || continue
      echo "== $folder ($(cat "$work/$folder.done" 2>/dev/null || echo running)): $(grep -c '^finished' "$work/$folder.log") finished, $(grep -c '^failed' "$work/$folder.log") failed"
      grep -E "^failed" "$work/$folder.log" | head -4
    done
  } 2>&1 | tee "$out/progress.txt"
  (cd "$work" && find . -path ./out -prune -o \( -name '*.json' -o -name '*.jsonl' -o -name '*.md' -o -name '*.csv' \
     -o -name '*.tex' -o -name '*.log' -o -name '*.txt' -o -name '*.done' \) -print0 | tar --null -czf "$out/open-bars.tar.gz" -T -)
}

case "${1:-}" in
  1)
    bash "$tools/paper-studies.sh" build 2>&1 | tail -3
    [ -x "$lbd" ] || { echo "no lbd built" >&2; exit 1; }
    elapsed "built"
    date -u +%FT%TZ > "$work/started"
    export -f study lineGpus01 lineGpus23
    export work lbd tools data
    nohup setsid bash -c lineGpus01 > "$work/line01.txt" 2>&1 < /dev/null &
    nohup setsid bash -c lineGpus23 > "$work/line23.txt" 2>&1 < /dev/null &
    sleep 20
    cat "$work/parity-start.txt" 2>/dev/null
    progress
    ;;
  2)
    [ -f "$work/started" ] || { echo "nothing started on this machine (a fresh one: the last was given back)" >&2; exit 1; }
    waited=0
    all_done() { [ -f "$work/as-linear-seed2.done" ] && [ -f "$work/as-linear-seeds01.done" ]; }
    while ! all_done && [ "$waited" -lt "${2:-540}" ]; do sleep 10; waited=$((waited + 10)); done
    progress
    ;;
  *) echo "usage: $0 1 | 2 [SECONDS] (see the header)" >&2; exit 2 ;;
esac

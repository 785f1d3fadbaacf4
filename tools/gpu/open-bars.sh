#!/usr/bin/env bash
# The GPU measurements issues 13 and 15 still lack (as of 2026-11-27, evening), in device calls
# made back to back on one lease: the machine is given back 30 s after a call ends, with all of
# its state, so issue the next call at once and read the results afterwards. Each stage prints
# what it saw and leaves its records in $OUT (a few files).
#   stage 1  carry .deps/json .deps/cli11 .deps/fmnist .jpegkit (about 3 minutes):
#            build; tools/gpu/stdcxx-check.sh (the libstdc++ fix); 3 epochs of the recipe on
#            GPUs 0-1 with batch norm per rank and with --sync-bn (its speed since the statistics
#            stay on the GPU); then in the background the parity run still missing (training
#            seed 1 on split 0, GPUs 0-1, about 6.5 minutes) and, on 4 GPUs, the studies'
#            missing runs on GPUs 2-3
#   stage 2  [SECONDS]: waits for the parity run (at most SECONDS, default 540) and collects it
#            (seed 0 of this protocol is the run of docs/results/scaling.md); the studies' progress
#   stage 3  [SECONDS]: waits SECONDS, then the studies' progress, packed (repeat)
# Usage: tools/gpu/open-bars.sh STAGE [SECONDS]
set -uo pipefail
cd "$(dirname "$0")/../.."
out="${OUT:-/tmp/lbd-gpu/out}"
lbd="$PWD/build-gpu/app/lbd"
tools="$PWD/tools/gpu"
export NCCL_NVLS_ENABLE=0
mkdir -p "$out"
start=$(date +%s)
elapsed() { echo "[$(( $(date +%s) - start )) s] $*"; }
gpus=$(nvidia-smi --query-gpu=index --format=csv,noheader | wc -l)

case "${1:-}" in
  1)
    bash "$tools/paper-studies.sh" build 2>&1 | tail -3
    elapsed "built"
    LBD_CHECK_TRAIN=0 bash "$tools/stdcxx-check.sh" | tail -12
    for variant in per-rank sync-bn; do
      extra=(--seed 0); [ "$variant" = sync-bn ] && extra+=(--sync-bn)
      CUDA_VISIBLE_DEVICES=0,1 timeout 90 "$lbd" train --preset fashion-mnist-lt --gpus 2 --epochs 3 "${extra[@]}" \
        --out "/tmp/lbd-gpu/speed-$variant" --set "data.data_dir=$PWD/.deps/fmnist" > "$out/speed-$variant.log" 2>&1
      echo "$variant: exit $?; $(grep -E '^epoch' "$out/speed-$variant.log" | tail -1)"
    done
    elapsed "batch-norm speeds"
    bash "$tools/parity.sh" start 1
    if [ "$gpus" -ge 4 ]; then
      CUDA_VISIBLE_DEVICES=2,3 bash "$tools/paper-studies.sh" start-missing
    fi
    ;;
  2)
    LBD_WAIT="${2:-540}" bash "$tools/parity.sh" collect | tail -10
    elapsed "parity collected"
    if [ -f "${LBD_GPU_WORK:-/tmp/lbd-gpu}/started" ]; then bash "$tools/paper-studies.sh" progress; fi
    ;;
  3)
    sleep "${2:-0}"
    bash "$tools/paper-studies.sh" progress
    ;;
  *) echo "usage: $0 1|2|3 [SECONDS] (see the header)" >&2; exit 2 ;;
esac

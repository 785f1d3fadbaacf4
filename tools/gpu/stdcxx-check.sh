#!/usr/bin/env bash
# Why lbd died of SIGSEGV on the GPU machine (the decode benchmark, rank 1 of `--gpus 2`, the
# launcher: every process that removes a ScratchFolder), and that the fix holds: pip LibTorch
# exports copies of libstdc++ functions (pytorch/pytorch#133437), and the machine's /opt/gcc g++
# linked libstdc++ statically, so lbd ran on a mix of copies; cmake/LbdDependencies.cmake now
# makes every program name the shared libstdc++ first. Prints the evidence; writes
# stdcxx-check.txt into $OUT (LBD_CHECK_TRAIN=0: without the 2-GPU training run at the end).
# Build first (tools/gpu/paper-studies.sh build).
set -uo pipefail
cd "$(dirname "$0")/../.."
out="${OUT:-/tmp/lbd-gpu/out}"
lbd="$PWD/build-gpu/app/lbd"
mkdir -p "$out"
export NCCL_NVLS_ENABLE=0
torchlib=$(python3 -c 'import os, torch; print(os.path.join(os.path.dirname(torch.__file__), "lib"))' 2>/dev/null || true)
[ -d "$torchlib" ] || { echo "stdcxx-check: python3 cannot import torch (its lib folder is what is checked)" >&2; exit 1; }
{
  echo "date $(date -u +%FT%TZ); $(nvidia-smi --query-gpu=name --format=csv,noheader | head -1) x $(nvidia-smi -L | wc -l)"
  echo "== the toolchain: $(command -v g++) ($(g++ -dumpfullversion))"
  for name in libstdc++.so.6 libstdc++.so libstdc++.a; do echo "$name: $(g++ -print-file-name=$name)"; done
  grep -E "libstdc\+\+ linked first|no shared libstdc" build-gpu/CMakeCache.txt "$out/build.log" 2>/dev/null | head -2
  echo "== std::filesystem functions exported by $torchlib/libtorch_cpu.so"
  nm -D --defined-only "$torchlib/libtorch_cpu.so" | c++filt | grep -c "std::filesystem"
  nm -D --defined-only "$torchlib/libtorch_cpu.so" | c++filt | grep "std::filesystem" | grep -E "remove_all|__erase" | head -6
  echo "== lbd's NEEDED order"
  readelf -d "$lbd" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | tr '\n' ' '; echo
  sh tests/link/check_needed_order.sh "$lbd"
  echo "== decode benchmark (it removes a ScratchFolder)"
  timeout 60 "$lbd" bench --what decode --decode-threads 4 --seconds 1 2>&1 | tail -4
  echo "exit ${PIPESTATUS[0]}"
  echo "== the same with libtorch_cpu.so preloaded (for comparison: before the fix this did not crash)"
  timeout 60 env LD_PRELOAD="$torchlib/libtorch_cpu.so" "$lbd" bench --what decode --decode-threads 4 --seconds 1 2>&1 | tail -8
  echo "exit ${PIPESTATUS[0]}"
  if [ "${LBD_CHECK_TRAIN:-1}" = 0 ]; then exit 0; fi
  echo "== lbd train --device cuda --gpus 2 --sync-bn, 1 epoch (the launcher's --device fix, sync BN on NCCL)"
  timeout 150 "$lbd" train --preset quick-cpu --device cuda --gpus 2 --sync-bn --epochs 1 --out /tmp/lbd-gpu/device-fix \
    --set "data.data_dir=$PWD/.deps/fmnist" 2>&1 | grep -E "rank|error|crash|instruction|mapping|inished|test acc" | head -12
  echo "exit ${PIPESTATUS[0]}"
} 2>&1 | tee "$out/stdcxx-check.txt"

#!/usr/bin/env bash
# The six claims under the corrected protocols (issue 27) in three back-to-back device calls of at
# most 10 minutes each, from the committed snapshot (tools/gpu/snapshot.sh; carry .gpu-src and
# .deps/json .deps/cli11 .deps/fmnist). Every call leaves what it has in $OUT, because a machine
# idle for 30 s is given back with its files.
#   cd .gpu-src && bash tools/gpu/claims-lease.sh 1   build, start the union studies and the parity run, watch
#   cd .gpu-src && bash tools/gpu/claims-lease.sh 2   watch (progress, packed)
#   cd .gpu-src && bash tools/gpu/claims-lease.sh 3   finish: wait, run the six studies with --reuse-from, pack
set -uo pipefail
cd "$(dirname "$0")/../.."
[ -e .deps ] || ln -s ../.deps .deps
export OUT="${OUT:-/tmp/lbd-gpu/out}"
mkdir -p "$OUT"
start=$(date +%s)
budget="${LBD_CALL_SECONDS:-560}"
watch() {
  while [ $(( $(date +%s) - start )) -lt "$budget" ]; do
    sleep 45
    echo "== $(date -u +%T) progress"
    bash tools/gpu/paper-studies.sh progress 2>&1 | tail -14
  done
}
case "${1:-}" in
  1)
    nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader | tee "$OUT/gpu.txt"
    echo "commit $(cat COMMIT 2>/dev/null)"
    bash tools/gpu/paper-studies.sh build 2>&1 | tail -8 || exit 1
    bash tools/gpu/paper-studies.sh start
    watch
    ;;
  2) watch ;;
  3) LBD_WAIT="${LBD_WAIT:-420}" bash tools/gpu/paper-studies.sh finish 2>&1 | tail -30 ;;
  *) echo "usage: $0 1|2|3" >&2; exit 2 ;;
esac

#!/usr/bin/env bash
# Usage (device tool, carry .gpu-src .deps/fmnist-xz .deps/json .deps/cli11): BOX=315 bash .gpu-src/tools/gpu/oneshot-staggered.sh
# One short call: build lbd (CUDA), then tools/gpu/staggered-study.sh at EPOCHS=3 on one GPU
# (12 runs, --parallel 4, the late run alone twice), time-boxed; packs what finished into $OUT.
set -u
t0=$(date +%s); export LEASE=/root/lease; mkdir -p $LEASE
cd "$(dirname "$0")/../.."  # the snapshot's root (.gpu-src, with .deps beside it)
nvidia-smi --query-gpu=index,name,driver_version,memory.total --format=csv,noheader > $OUT/gpu.txt
(time bash tools/gpu/lease-build.sh) > $OUT/build.log 2>&1 || { tail -30 $OUT/build.log; exit 1; }
echo "built in $(( $(date +%s) - t0 )) s"
data=/root/fm; mkdir -p $data
for f in .deps/fmnist-xz/*.xz; do xz -dc $f > $data/$(basename $f .xz) || python3 -c "import lzma,sys; sys.stdout.buffer.write(lzma.open(sys.argv[1]).read())" $f > $data/$(basename $f .xz); done
left=$(( ${BOX:-300} - ($(date +%s) - t0) ))
echo "staggered: $left s left"
date -u > $OUT/started.txt
LBD=$LEASE/build/app/lbd EPOCHS=${EPOCHS:-3} TOLERANCE=0.5 timeout $left bash tools/gpu/staggered-study.sh $data /root/stag > /root/stag.log 2>&1
echo "staggered exit $? after $(( $(date +%s) - t0 )) s"
date -u >> $OUT/started.txt
tar czf $OUT/stag.tgz -C /root stag stag.log 2>/dev/null
tail -25 /root/stag.log; cat /root/stag/summary.md 2>/dev/null | head -40

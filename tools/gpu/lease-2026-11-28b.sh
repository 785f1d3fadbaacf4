#!/usr/bin/env bash
# The job of the 2026-11-28 second GPU lease (issues 33, 35, 36), run by tools/gpu/gpu-lease.sh:
#   call 1:  cd .gpu-src && LEASE_BUILD="$PWD/tools/gpu/lease-build.sh" bash tools/gpu/gpu-lease.sh start tools/gpu/lease-2026-11-28b.sh
#   call 2+: cd .gpu-src && bash tools/gpu/gpu-lease.sh wait
# It runs in $LEASE (outside the copied tree) with $LBD and $REPO; everything that should come back
# goes under $LEASE/out (gpu-lease packs it each call, *.pt left out: weights travel as *.pt.bin).
#   1. the staggered studies (issue 33 item 1 bar: 12 runs, --parallel 4, on cuda:0 and then on
#      both GPUs, and one of them alone) and, beside them on cuda:1, the fused-run speed (issue 36:
#      1 run alone, 3/6/9 fused) when lbd has it;
#   2. the recipe's seed 0 alone on cuda:1 (its weights: the caution's bar of issue 35, measured on
#      the CPU machine with `lbd ood --measure`);
#   3. the six claims' union at 3 seeds on every GPU (issue 33 item 3), copying what earlier leases
#      finished (--reuse-from the committed archives) and training the rest, --parallel 4;
set -uo pipefail
out="$LEASE/out"
mkdir -p "$out"
log() { echo "$(date -u +%T) $*" | tee -a "$out/timeline.txt"; }
data="$LEASE/fmnist"
if [ ! -d "$data" ]; then
  # Fashion-MNIST travels as .deps/fmnist-xz (raw IDX files, xz: 4.5 MB less than the .gz files
  # against the device tool's 64 MiB) or as .deps/fmnist; lbd reads raw IDX files as well.
  mkdir -p "$data.part"
  if [ -d "$REPO/.deps/fmnist-xz" ]; then
    for f in "$REPO"/.deps/fmnist-xz/*.xz; do
      xz -dc "$f" > "$data.part/$(basename "$f" .xz)" \
        || python3 -c "import lzma, sys; sys.stdout.buffer.write(lzma.open(sys.argv[1]).read())" "$f" > "$data.part/$(basename "$f" .xz)"
    done
  else
    cp "$REPO"/.deps/fmnist/* "$data.part/"
  fi
  mv "$data.part" "$data"
fi
rm -rf "$LEASE/tools" && cp -r "$REPO/tools/gpu" "$LEASE/tools"
previous="$LEASE/previous"
if [ ! -d "$previous" ]; then
  mkdir -p "$previous"
  # The committed archives: in the snapshot (.gpu-src) or in the tree around it.
  archives=$(ls "$REPO"/docs/results/paper-studies/runs-2026-11-28-*.tar.xz "$REPO"/../docs/results/paper-studies/runs-2026-11-28-*.tar.xz 2>/dev/null | awk -F/ '!seen[$NF]++')
  for archive in $archives; do
    mkdir -p "$previous/$(basename "$archive" .tar.xz)" && tar -xJf "$archive" -C "$previous/$(basename "$archive" .tar.xz)"
  done
fi
nvidia-smi --query-gpu=index,name,driver_version,memory.total --format=csv,noheader > "$out/gpu.txt"
"$LBD" --version > "$out/lbd-version.txt" 2>&1
cat "$REPO/COMMIT" > "$out/commit.txt" 2>/dev/null
log "start on $(wc -l < "$out/gpu.txt") GPU(s), commit $(cat "$out/commit.txt" 2>/dev/null)"

# 1a. Staggered (background).
(
  log "staggered: start"
  # (a) one GPU, (b) two GPUs, (c) one late run alone: tools/gpu/staggered-study.sh's header.
  LBD="$LBD" EPOCHS="${STAGGERED_EPOCHS:-10}" TOLERANCE=0.3 bash "$LEASE/tools/staggered-study.sh" "$data" "$out/staggered" \
    > "$out/staggered.log" 2>&1
  log "staggered (1 and 2 GPUs, and alone): exit $?"
  touch "$LEASE/staggered.done"
) &

# 1b. Fused speed on cuda:1 (foreground of this branch), then the recipe alone, in the background.
(
  if [ -f "$LEASE/tools/fused-speed.sh" ] && "$LBD" study --help 2>&1 | grep -q -- "--fuse"; then
    # One recipe run alone (CUDA graph) against 3 fused (eager), 3 epochs each, on GPU 1 alone
    # (CUDA_VISIBLE_DEVICES: the script trains on cuda:0). A wrapper gives lbd the data folder.
    # Bounded: the fused path has never run on a GPU, and the claims wait for it.
    printf '#!/bin/sh\nexec "%s" "$@" --set "data.data_dir=%s"\n' "$LBD" "$data" > "$LEASE/lbd-with-data"
    chmod +x "$LEASE/lbd-with-data"
    log "fused speed: start"
    CUDA_VISIBLE_DEVICES=1 LBD="$LEASE/lbd-with-data" EPOCHS="${FUSED_EPOCHS:-3}" COUNTS="${FUSED_COUNTS:-3}" \
      OUT="$out/fused-speed" timeout "${FUSED_SECONDS:-240}" bash "$LEASE/tools/fused-speed.sh" > "$out/fused-speed.log" 2>&1
    log "fused speed: exit $?"
  else
    log "fused speed: skipped (no --fuse in this lbd)"
  fi
  touch "$LEASE/fused.done"
  log "recipe seed 0 alone: start"
  "$LBD" train --preset fashion-mnist-lt --seed 0 --device cuda:1 --out "$LEASE/recipe-seed0" --threads 4 \
    --set "data.data_dir=$data" > "$out/recipe-seed0.txt" 2>&1
  log "recipe seed 0 alone: exit $?"
  mkdir -p "$out/recipe-seed0"
  (cd "$LEASE/recipe-seed0" && for f in *; do
     case "$f" in
       weights.pt|checkpoint.pt) cp "$f" "$out/recipe-seed0-$f.bin" ;; # beside the archive (gpu-lease.sh)
       *.pt) ;;
       *) [ -f "$f" ] && cp "$f" "$out/recipe-seed0/" ;;
     esac
   done)
  touch "$LEASE/recipe.done"
) &

# 3. The claims' union on every GPU (background), after the fused speed has had its GPU alone.
(
  while [ ! -f "$LEASE/fused.done" ]; do sleep 5; done
  log "claims union: start"
  "$LBD" study "$LEASE/tools/claims-union.json" --out "$out/claims-union" --device all-gpus --parallel "${CLAIMS_PARALLEL:-6}" \
    --threads 4 --reuse-from "$previous" --set "data.data_dir=$data" > "$out/claims-union.md" 2> "$out/claims-union.log"
  log "claims union: exit $?"
  touch "$LEASE/claims.done"
) &

wait
# Weights and probabilities are not packed (*.pt); the run folders' small files are.
find "$out" -name '*.pt' -delete
log "all done"
touch "$LEASE/done"

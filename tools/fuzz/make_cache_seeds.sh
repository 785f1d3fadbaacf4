#!/usr/bin/env bash
# Writes the seeds of the `datasetcache` fuzz target (tools/fuzz/corpus/datasetcache/): real caches
# built by core's builder through `lbd data cache` (raw and JPEG, 1 and 3 channels, max side 8) from
# four small PNG images (Debian's python3-pil), each twice: first byte 1 (the target fixes up the
# checksums of the mutated bytes) and 0 (the bytes as they are). Needs build/app/lbd.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
lbd="${LBD:-$root/build/app/lbd}"
out="$here/corpus/datasetcache"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
/usr/bin/python3 - "$work" <<'PY'
import sys
import numpy as np
from PIL import Image
work = sys.argv[1]
rng = np.random.default_rng(0)
for i, (h, w) in enumerate([(12, 9), (7, 15), (10, 10), (5, 6)]):
    Image.fromarray(rng.integers(0, 256, (h, w, 3), dtype=np.uint8)).save(f"{work}/img{i}.png")
open(f"{work}/train.txt", "w").write("img0.png 0\nimg1.png 1\nimg2.png 0\n")
open(f"{work}/test.txt", "w").write("img3.png 1\n")
open(f"{work}/names.txt", "w").write("cat\ndog\n")
PY
mkdir -p "$out"
for format in raw jpeg; do
  for channels in 1 3; do
    # --image-size 1024 with a 1 MiB budget: the splits count as streamed (only those are cached).
    "$lbd" data cache --dataset list --data-dir "$work" --train-list "$work/train.txt" --test-list "$work/test.txt" \
      --class-names "$work/names.txt" --image-size 1024 --max-side 8 --channels "$channels" --format "$format" \
      --cache-dir "$work/cache-$format-$channels" --threads 1 --set data.max_in_memory_mb=1 >/dev/null
    for cache in "$work/cache-$format-$channels"/*.lbdcache; do
      split="$(basename "$cache" | cut -d- -f1)"
      { printf '\001'; cat "$cache"; } >"$out/$format-$channels-$split-fixup"
      { printf '\000'; cat "$cache"; } >"$out/$format-$channels-$split-asis"
    done
  done
done
ls -l "$out"

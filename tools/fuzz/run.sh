#!/usr/bin/env bash
# Builds the libFuzzer targets (ASan + UBSan, -fno-sanitize-recover=all) and runs each until
# 1,000,000 executions or SECONDS seconds, whichever comes first, two at a time at low priority:
#   tools/fuzz/run.sh [SECONDS] [TARGET...]        (default 600 s, every target)
# The committed seeds (tools/fuzz/corpus/<target>/) are read, never written: new inputs go to
# $FUZZ_WORK/<target>/corpus, findings to $FUZZ_WORK/<target>/ (crash-*, leak-*, timeout-*, oom-*).
# FUZZ_FLAGS adds libFuzzer flags (e.g. FUZZ_FLAGS=-max_len=65536 for inputs past 4,096 bytes).
# Targets whose readers take paths write each input to a scratch folder on /dev/shm (tmpfs; else
# /tmp; LBD_FUZZ_SCRATCH chooses), removed when the target exits (tools/fuzz/fuzzfile.h).
# Prints one line per target (executions, seconds, findings) and exits 1 when anything was found.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
seconds="${1:-600}"
shift || true
build="${FUZZ_BUILD:-$root/build-fuzz}"
work="${FUZZ_WORK:-$build/work}"
jobs="${FUZZ_JOBS:-2}"
all=(imageheader idx_raw idx_gzip cifar list utilitymatrix configjson runfolder studyspec pickle datasetcache)
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then targets=("${all[@]}"); fi

generator=()
if command -v ninja >/dev/null; then generator=(-G Ninja); fi
CC=clang-14 CXX=clang++-14 nice -n 19 cmake -S "$here" -B "$build" "${generator[@]}" -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
nice -n 19 cmake --build "$build" -j "$jobs" --target "${targets[@]/#/fuzz_}"

run_one() {
  local target="$1" dir="$work/$1"
  rm -rf "$dir" && mkdir -p "$dir/corpus"
  # detect_leaks stays on: the readers must not leak. -timeout: one input taking 10 s is a finding.
  nice -n 19 "$build/fuzz_$target" "$dir/corpus" "$here/corpus/$target" \
    -runs=1000000 -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
    -artifact_prefix="$dir/" ${FUZZ_FLAGS:-} >"$dir/log.txt" 2>&1 || true
}
export -f run_one
export build work here seconds FUZZ_FLAGS
# The studies target resolves presets by name: the source tree's.
export LBD_PRESETS_DIR="$root/resources/presets"
printf '%s\n' "${targets[@]}" | xargs -P "$jobs" -I{} bash -c 'run_one {}'

status=0
printf '%-14s %12s %8s %9s  %s\n' target executions seconds findings "log"
for target in "${targets[@]}"; do
  dir="$work/$target"
  execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$dir/log.txt" | tail -1)
  secs=$(sed -n 's/^Done [0-9]* runs in \([0-9]*\) second.*/\1/p' "$dir/log.txt" | tail -1)
  findings=$(find "$dir" -maxdepth 1 -type f \( -name 'crash-*' -o -name 'leak-*' -o -name 'timeout-*' -o -name 'oom-*' \) | wc -l)
  printf '%-14s %12s %8s %9s  %s\n' "$target" "${execs:-?}" "${secs:-?}" "$findings" "$dir/log.txt"
  if [ "$findings" -gt 0 ] || [ -z "$execs" ]; then status=1; fi
done
exit $status

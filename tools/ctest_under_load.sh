#!/usr/bin/env bash
# The whole CTest suite N times in a row while a compiler loads both cores (issue 12: "a CI that
# cannot flake"). The load is real work of the kind CI machines share time with: g++ compiling one
# of core's torch translation units over and over, two at a time, at normal priority.
#
#   tools/ctest_under_load.sh BUILD_DIR [N=5]
#   LBD_LOAD=external tools/ctest_under_load.sh BUILD_DIR 5   # the load is already running (a build)
#
# Exits 0 only when all N runs pass; prints each run's summary line.
set -euo pipefail
build=${1:?usage: tools/ctest_under_load.sh BUILD_DIR [N]}
runs=${2:-5}
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$work"' EXIT

# The compile command of one torch translation unit, taken from the build's own database.
command=$(python3 - "$build/compile_commands.json" <<'PY'
import json, re, sys
for entry in json.load(open(sys.argv[1])):
    if entry["file"].endswith("core/train/trainer.cpp"):
        # The same command, its object written nowhere (the -c SOURCE stays).
        print(re.sub(r" -o \S+", " -o /dev/null", entry["command"]).replace(" -MD ", " "))
        break
PY
)
[ -n "$command" ] || { echo "no compile command for core/train/trainer.cpp in $build/compile_commands.json" >&2; exit 2; }
if [ "${LBD_LOAD:-compile}" = compile ]; then
    for i in 1 2; do
        (cd "$build" && while true; do eval "$command" >/dev/null 2>&1 || true; done) &
    done
    sleep 5
fi
passed=0
for run in $(seq 1 "$runs"); do
    start=$(date +%s)
    if (cd "$build" && ctest -j2 --output-on-failure > "$work/ctest-$run.log" 2>&1); then
        passed=$((passed + 1))
        verdict=passed
    else
        verdict=FAILED
    fi
    echo "run $run: $verdict in $(( $(date +%s) - start )) s, load $(cut -d' ' -f1-3 /proc/loadavg): $(grep -E 'tests passed|tests failed' "$work/ctest-$run.log")"
    if [ "$verdict" = FAILED ]; then
        grep -E "Failed|\*\*\*" "$work/ctest-$run.log" | head -20
        cp "$work/ctest-$run.log" "$root/ctest-under-load-failure-$run.log"
    fi
done
echo "$passed of $runs runs passed under load"
[ "$passed" -eq "$runs" ]

#!/bin/sh
# The layering rule (README, Layout): arrows only point down, app -> ui -> core -> datasets.
# Fails, naming each offending line, when a file under datasets/ includes anything from core/, ui/
# or app/ (or Qt or torch: the readers stay free of both), a file under core/ anything from ui/ or
# app/ (or Qt), or a file under ui/ anything from app/.
# Usage: check_includes.sh [REPOSITORY_ROOT]
root="${1:-$(dirname "$0")/../..}"
status=0

# check DIR PATTERN WHAT: every #include "X" / <X> under ROOT/DIR whose X matches PATTERN is a violation.
check() {
    if [ ! -d "$root/$1" ]; then
        echo "check_includes: $root/$1: no such folder" >&2
        status=2
        return
    fi
    found=$(grep -rnE --include='*.h' --include='*.hpp' --include='*.cpp' --include='*.cc' \
        "^[[:space:]]*#[[:space:]]*include[[:space:]]*[<\"]($2)" "$root/$1")
    if [ -n "$found" ]; then
        echo "$found" | sed "s|^$root/||; s|\$|   <- $1/ must not include $3|"
        status=1
    fi
}

check datasets 'core/|ui/|app/|torch/|ATen/|c10/|Q' 'core/, ui/, app/, Qt or torch'
check core 'ui/|app/|Q' 'ui/, app/ or Qt'
check ui 'app/' 'app/'
if [ "$status" -eq 0 ]; then
    echo "includes follow app -> ui -> core -> datasets"
fi
exit "$status"

#!/bin/sh
# Fails unless libstdc++ comes before every LibTorch library among BINARY's DT_NEEDED entries
# (cmake/LbdDependencies.cmake says why: std::filesystem copies exported by pip LibTorch).
# Usage: check_needed_order.sh BINARY
set -eu
binary="$1"
needed=$(readelf -d "$binary" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p')
[ -n "$needed" ] || { echo "no NEEDED entries read from $binary" >&2; exit 1; }
position() { echo "$needed" | grep -n -m1 -E "$1" | cut -d: -f1; }
stdcxx=$(position '^libstdc\+\+\.so')
torch=$(position '^lib(torch|c10)')
[ -n "$stdcxx" ] || { echo "$binary does not name libstdc++:" $needed >&2; exit 1; }
[ -n "$torch" ] || { echo "$binary names no LibTorch library:" $needed >&2; exit 1; }
if [ "$stdcxx" -gt "$torch" ]; then
  echo "$binary names LibTorch (entry $torch) before libstdc++ (entry $stdcxx):" $needed >&2
  exit 1
fi
echo "libstdc++ is NEEDED entry $stdcxx, LibTorch's first $torch"

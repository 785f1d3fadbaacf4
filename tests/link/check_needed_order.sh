#!/bin/sh
# Fails unless BINARY links the shared libstdc++, before every LibTorch library among its
# DT_NEEDED entries, and carries no static copy of libstdc++'s std::filesystem functions
# (cmake/LbdDependencies.cmake says why: pip LibTorch exports copies of libstdc++ functions, and
# a program that mixed copies crashed on the GPU machine).
# Usage: check_needed_order.sh BINARY [READELF] [NM]
set -eu
binary="$1"
readelf="${2:-readelf}"
nm="${3:-nm}"
needed=$("$readelf" -d "$binary" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p')
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
# remove_all is no inline function: defined in the binary, it came from a static libstdc++.
if "$nm" -C --defined-only "$binary" 2>/dev/null | grep -E ' [Tt] std::filesystem::remove_all\(' >&2; then
  echo "$binary carries its own std::filesystem::remove_all: libstdc++ linked statically" >&2
  exit 1
fi
echo "libstdc++ is NEEDED entry $stdcxx, LibTorch's first $torch; no static std::filesystem"

#!/usr/bin/env bash
# JPEG decoding for the headless build on a machine without OpenCV (the GPU machine: Ubuntu 24.04,
# no package registry): Debian 12's libjpeg-turbo travels as .deb files, as the Qt kit does
# (tools/gpu/qtkit.sh), and the build links its static libjpeg.a, so `lbd` needs nothing of it at
# run time.
#   tools/gpu/jpegkit.sh [download] [KIT_DIR]   here, on Debian 12 with its archive reachable: the
#                     two .deb files into KIT_DIR (default .jpegkit, git-ignored) with a MANIFEST of
#                     their SHA-256 sums
#   tools/gpu/jpegkit.sh unpack [KIT_DIR]      there: checks the MANIFEST, extracts the kit with
#                     `dpkg -x` into $JPEGKIT_PREFIX (default /tmp/jpegkit; never into /) and prints
#                     the CMake arguments that point the build at it, one a line
# cmake/build-headless.sh runs `unpack` itself when the kit is there ($JPEGKIT, default .jpegkit).
set -euo pipefail
cd "$(dirname "$0")/../.."
mode=download
if [ "${1:-}" = download ] || [ "${1:-}" = unpack ]; then
  mode=$1
  shift
fi
kit="$(realpath -m "${1:-${JPEGKIT:-.jpegkit}}")"
# libjpeg62-turbo-dev holds the headers and libjpeg.a; libjpeg62-turbo the shared library its
# libjpeg.so link points at (unused by a static link, but the pair is what Debian ships as one).
packages=(libjpeg62-turbo libjpeg62-turbo-dev)

download() {
  . tools/gpu/debkit.sh
  debkit_download "$kit" jpegkit.sh cmake/build-headless.sh "${packages[@]}"
  echo "$kit: $(cd "$kit" && ls *.deb | tr '\n' ' ')($(du -sb "$kit" | awk '{printf "%.1f MB", $1 / 1e6}'))"
}

unpack() {
  local prefix="${JPEGKIT_PREFIX:-/tmp/jpegkit}"
  local stamp="$prefix/.kit-manifest"
  [ -f "$kit/MANIFEST" ] || { echo "jpegkit.sh: no kit in $kit (make it with tools/gpu/jpegkit.sh on Debian 12)" >&2; exit 2; }
  if ! { [ -f "$stamp" ] && cmp -s "$kit/MANIFEST" "$stamp"; }; then
    (cd "$kit" && sha256sum --quiet -c MANIFEST) >&2 || { echo "jpegkit.sh: $kit does not match its MANIFEST" >&2; exit 2; }
    rm -rf "$prefix"
    mkdir -p "$prefix"
    local deb
    for deb in "$kit"/*.deb; do dpkg -x "$deb" "$prefix"; done
    cp "$kit/MANIFEST" "$stamp"
  fi
  local include="$prefix/usr/include"
  local library="$prefix/usr/lib/x86_64-linux-gnu/libjpeg.a"
  for file in "$include/jpeglib.h" "$include/x86_64-linux-gnu/jconfig.h" "$library"; do
    [ -f "$file" ] || { echo "jpegkit.sh: the kit extracted into $prefix has no $file" >&2; exit 2; }
  done
  echo "-DJPEG_INCLUDE_DIR=$include"
  echo "-DJPEG_LIBRARY=$library"
}

"$mode"

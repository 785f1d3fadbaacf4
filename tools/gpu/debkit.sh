# Sourced by tools/gpu/qtkit.sh and tools/gpu/jpegkit.sh: Debian 12 packages downloaded (never
# installed) as .deb files into a kit folder, with a MANIFEST of their SHA-256 sums that the scripts
# unpacking the kit on another machine check. The .deb files are kept as Debian signed them.
#   debkit_download KIT_DIR SCRIPT_NAME PURPOSE PACKAGE...
debkit_download() {
  local kit=$1 name=$2 purpose=$3
  shift 3
  . /etc/os-release
  if [ "${VERSION_CODENAME:-}" != bookworm ]; then
    # Another release has other versions, sonames and dependencies: the lists are Debian 12's.
    echo "$name: this list is Debian 12's (bookworm); this machine is ${PRETTY_NAME:-unknown}" >&2
    exit 2
  fi
  mkdir -p "$kit"
  # Start from an empty kit: a .deb left from an earlier list or version must not travel.
  rm -f "$kit"/*.deb "$kit/MANIFEST"
  # apt-get download runs as the _apt user when it can; it must be able to write the kit folder.
  (cd "$kit" && apt-get download "$@") > /dev/null 2> "$kit/.download.log" || {
    cat "$kit/.download.log" >&2
    echo "$name: apt-get download failed (an 'apt-get update' may help)" >&2
    exit 1
  }
  rm -f "$kit/.download.log"
  {
    echo "# Debian 12 packages for $purpose, made by tools/gpu/$name on $(date -u +%F)"
    (cd "$kit" && sha256sum -- *.deb)
  } > "$kit/MANIFEST"
  local count
  count=$(ls "$kit"/*.deb | wc -l)
  if [ "$count" -ne "$#" ]; then
    echo "$name: asked for $# packages, got $count .deb files" >&2
    exit 1
  fi
}

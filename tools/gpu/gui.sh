#!/usr/bin/env bash
# The GUI on a machine without Qt (issue 14, item 0): the GPU machine has only PyTorch, so Debian
# 12's Qt travels as .deb files (tools/gpu/qtkit.sh makes them in .qtkit/) and is extracted here
# into a private prefix, never into /. Run from anywhere, as any user that can write the prefix:
#   tools/gpu/gui.sh setup        extract the kit into $QTKIT_PREFIX (default /tmp/qtkit) and check
#                                 with ldd that every library the GUI loads is found
#   tools/gpu/gui.sh build        setup, then lbd-studio, lbd and the ui tests into $LBD_GUI_BUILD
#                                 (default build-gui) through cmake/build-headless.sh
#   tools/gpu/gui.sh test [ARGS]  the ui tests offscreen (ctest -L ui ARGS)
#   tools/gpu/gui.sh screenshot [ARGS]  lbd-studio --screenshot $OUT/screens ARGS (e.g. --preset)
#   tools/gpu/gui.sh all          build, then test
#   tools/gpu/gui.sh cuda [EPOCHS]  build; the ui tests with their runs on cuda:0 (LBD_TEST_DEVICE);
#                                 a --screenshot run of the Fashion-MNIST-LT preset (EPOCHS, default
#                                 30) on the GPU; the event loop's latency while it trains
# The kit is read from $QTKIT (default .qtkit); once extracted, later calls need no kit (the
# prefix survives while the machine does). LibTorch: as in build-headless.sh ($TORCH_PREFIX, else
# python3's torch, else the system's); CUDA is used only if that LibTorch has it.
# Logs go to $OUT (default $LBD_GUI_BUILD/out), a few flat files.
set -euo pipefail
cd "$(dirname "$0")/../.."
root="$PWD"
kit="$(realpath -m "${QTKIT:-.qtkit}")"
prefix="${QTKIT_PREFIX:-/tmp/qtkit}"
build="${LBD_GUI_BUILD:-build-gui}"
out="$(realpath -m "${OUT:-$build/out}")"
mkdir -p "$out"
# Debian 12 is merged-/usr, but some of its packages still ship their files under /lib.
libdirs="$prefix/usr/lib/x86_64-linux-gnu:$prefix/lib/x86_64-linux-gnu"

# What the GUI's processes need at run time. Libraries are found through the executables' RPATH
# (see build), not LD_LIBRARY_PATH, so cmake, ninja and g++ keep the host's own libraries.
export QT_PLUGIN_PATH="$prefix/usr/lib/x86_64-linux-gnu/qt6/plugins"
export FONTCONFIG_FILE="$prefix/fonts.conf"
export QT_QPA_PLATFORM="${QT_QPA_PLATFORM:-offscreen}"

setup() {
  local stamp="$prefix/.kit-manifest"
  if [ -f "$stamp" ] && { [ ! -f "$kit/MANIFEST" ] || cmp -s "$kit/MANIFEST" "$stamp"; }; then
    return 0 # extracted from this kit already (or no kit came this time: keep what is there)
  fi
  [ -f "$kit/MANIFEST" ] || { echo "gui.sh: no kit in $kit (make it with tools/gpu/qtkit.sh)" >&2; exit 2; }
  (cd "$kit" && sha256sum --quiet -c MANIFEST) || { echo "gui.sh: $kit does not match its MANIFEST" >&2; exit 2; }
  rm -rf "$prefix"
  mkdir -p "$prefix"
  local deb
  for deb in "$kit"/*.deb; do dpkg -x "$deb" "$prefix"; done

  # A few link-time symlinks point at absolute /usr/... paths: point them into the prefix.
  local link target
  while IFS= read -r -d '' link; do
    target=$(readlink "$link")
    ln -sfn "$prefix$target" "$link"
  done < <(find "$prefix" -type l -lname '/*' -print0)

  # moc, uic and rcc are Debian binaries that load Debian's libQt6Core, ICU 72 and friends: a
  # wrapper at the path Qt's CMake package names runs the real tool with the prefix's libraries.
  # (The real binary moves to .real/ under its own name, so its messages still say "moc".)
  local tool real
  for tool in "$prefix"/usr/lib/qt6/libexec/* "$prefix"/usr/lib/qt6/bin/*; do
    [ -f "$tool" ] && [ ! -L "$tool" ] && head -c 4 "$tool" | grep -q ELF || continue
    real="$(dirname "$tool")/.real/$(basename "$tool")"
    mkdir -p "$(dirname "$real")"
    mv "$tool" "$real"
    printf '#!/bin/sh\nLD_LIBRARY_PATH=%s${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH} exec "%s" "$@"\n' \
      "$libdirs" "$real" > "$tool"
    chmod +x "$tool"
  done

  # Qt's CMake packages check that every file their targets name exists, also for targets this
  # build never uses (qmake, Network, Sql, the VNC platform, GTK themes...) and the kit leaves
  # out. An empty placeholder satisfies the check; linking or running one fails loudly.
  local named
  while IFS= read -r named; do
    [ -e "$prefix/usr$named" ] && continue
    mkdir -p "$(dirname "$prefix/usr$named")"
    printf '#!/bin/sh\necho "%s is not in the Qt kit of tools/gpu/gui.sh" >&2\nexit 1\n' "$named" > "$prefix/usr$named"
    echo "$named" >> "$prefix/placeholders.txt"
  done < <(grep -rhoE '"\$\{_IMPORT_PREFIX\}/[^"]+"' "$prefix"/usr/lib/x86_64-linux-gnu/cmake/*/*Targets-*.cmake \
             | sed -e 's/"//g' -e 's/\${_IMPORT_PREFIX}//' | sort -u)

  # Debian's libfontconfig reads /etc/fonts/fonts.conf, which a machine without fonts lacks:
  # FONTCONFIG_FILE points at this one (the kit's DejaVu, then whatever the host has).
  cat > "$prefix/fonts.conf" <<XML
<?xml version="1.0"?>
<!DOCTYPE fontconfig SYSTEM "fonts.dtd">
<fontconfig>
  <dir>$prefix/usr/share/fonts</dir>
  <dir>/usr/share/fonts</dir>
  <cachedir>$prefix/fontconfig-cache</cachedir>
</fontconfig>
XML

  # Every library and plugin the GUI loads must resolve inside the prefix or on the host.
  # (Not every file of the kit: libqt6gui6 also brings the xcb and eglfs platforms, which need
  # X and DRM libraries that offscreen never loads.)
  local missing module
  local loaded=(libQCustomPlotQt6.so.2.1 qt6/plugins/platforms/libqoffscreen.so
                qt6/plugins/imageformats/libqsvg.so qt6/plugins/iconengines/libqsvgicon.so)
  for module in Core Gui Widgets DBus Concurrent PrintSupport Test OpenGL OpenGLWidgets Charts Svg; do
    loaded+=("libQt6$module.so.6")
  done
  missing=$(cd "$prefix/usr/lib/x86_64-linux-gnu" && LD_LIBRARY_PATH="$libdirs" ldd "${loaded[@]}" \
      "$prefix"/usr/lib/qt6/libexec/.real/{moc,uic,rcc} 2>&1 | grep 'not found' | sort -u || true)
  if [ -n "$missing" ]; then
    echo "gui.sh: libraries the kit lacks and this machine does not have:" >&2
    echo "$missing" >&2
    exit 1
  fi
  cp "$kit/MANIFEST" "$stamp"
  echo "Qt $(LD_LIBRARY_PATH="$libdirs" "$prefix/usr/lib/qt6/libexec/.real/moc" -v 2>&1 | awk '{print $2}') extracted into $prefix"
}

build() {
  setup
  local tests=() src
  for src in tests/ui/test_*.cpp; do tests+=("ui_$(basename "$src" .cpp)"); done
  # Header-only packages carried in .deps/ (as tools/gpu/studies.sh does), else the system's.
  if [ -d .deps/json/usr/include ]; then export LBD_JSON_INCLUDE_DIR="$root/.deps/json/usr/include"; fi
  if [ -d .deps/cli11 ]; then export LBD_CLI11_INCLUDE_DIR="$root/.deps/cli11"; fi
  # Torch's CMake package otherwise probes the GPU for its architecture list (the H100 is 9.0).
  export TORCH_CUDA_ARCH_LIST="${TORCH_CUDA_ARCH_LIST:-9.0}"
  # --disable-new-dtags writes DT_RPATH, which (unlike RUNPATH) also serves the libraries' own
  # dependencies: Qt's ICU, GLib, fontconfig... resolve in the prefix without LD_LIBRARY_PATH.
  LBD_PREFIX_PATH="$prefix/usr" LBD_TARGETS="lbd lbd-studio ${tests[*]}" \
    cmake/build-headless.sh "$build" -DLBD_BUILD_GUI=ON -DLBD_BUILD_TESTS=ON \
      "-DCMAKE_BUILD_RPATH=${libdirs//:/;}" "-DCMAKE_EXE_LINKER_FLAGS=-Wl,--disable-new-dtags" \
      > "$out/gui-build.log" 2>&1 || { tail -60 "$out/gui-build.log"; exit 1; }
  grep -E '^-- (Found Torch|cuDNN|Found CUDA)|Torch_VERSION|CUDA' "$out/gui-build.log" | head -5 || true
  "$build/app/lbd-studio" --version
}

runTests() {
  [ -x "$build/app/lbd-studio" ] || { echo "gui.sh: build first ($build has no lbd-studio)" >&2; exit 2; }
  setup
  local jobs="${LBD_CTEST_JOBS:-1}"
  (cd "$build" && ctest -L ui --output-on-failure --timeout 1500 -j "$jobs" --output-junit "$out/ui-tests.xml" "$@") \
    > "$out/ui-tests.log" 2>&1 && status=0 || status=$?
  grep -E '^ *[0-9]+/[0-9]+ Test|tests passed|tests failed|Total Test time' "$out/ui-tests.log" || true
  return "$status"
}

screenshot() {
  [ -x "$build/app/lbd-studio" ] || { echo "gui.sh: build first ($build has no lbd-studio)" >&2; exit 2; }
  setup
  # The presets read Fashion-MNIST from its Debian location; the GPU machine carries it in .deps.
  if [ ! -e /usr/share/datasets/fashion-mnist ] && [ -d .deps/fmnist ]; then
    mkdir -p /usr/share/datasets && ln -s "$root/.deps/fmnist" /usr/share/datasets/fashion-mnist
    echo "linked /usr/share/datasets/fashion-mnist -> .deps/fmnist"
  fi
  mkdir -p "$out/screens"
  "$build/app/lbd-studio" --screenshot "$out/screens" "$@" > "$out/screenshot.log" 2>&1 && status=0 || status=$?
  tail -20 "$out/screenshot.log"
  return "$status"
}

# Issue 14's item 0: the GUI trains on the GPU. Each step goes on when one before failed, so that
# a call returns every result there is.
onCuda() {
  local epochs="${1:-30}" status=0
  build || return 1
  LBD_TEST_DEVICE=cuda:0 LBD_CTEST_JOBS="${LBD_CTEST_JOBS:-4}" runTests || status=1
  screenshot --preset fashion-mnist-lt --epochs "$epochs" --screenshot-size 1600x1000 || status=1
  "$build/app/lbd-studio" --measure-latency --preset fashion-mnist-lt --epochs "$epochs" > "$out/latency.txt" 2>&1 || status=1
  tail -8 "$out/latency.txt"
  nvidia-smi --query-gpu=name,driver_version --format=csv,noheader | head -1 > "$out/gpu.txt"
  return "$status"
}

command="${1:-}"
shift || true
case "$command" in
  setup) setup ;;
  build) build ;;
  test) runTests "$@" ;;
  screenshot) screenshot "$@" ;;
  all) build && runTests "$@" ;;
  cuda) onCuda "$@" ;;
  *) echo "usage: $0 setup|build|test [CTEST ARGS]|screenshot [LBD-STUDIO ARGS]|all|cuda [EPOCHS]" >&2; exit 2 ;;
esac

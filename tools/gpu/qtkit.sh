#!/usr/bin/env bash
# Makes .qtkit/: Debian 12's Qt 6 (and QCustomPlot) as .deb files, for building and running the
# GUI on a machine that has no Qt and no package registry (the GPU machine: Ubuntu 24.04, only
# PyTorch there). Run it here, on Debian 12 with its archive reachable:
#   tools/gpu/qtkit.sh [KIT_DIR]        (default .qtkit, git-ignored)
# tools/gpu/gui.sh extracts the kit with `dpkg -x` into a private prefix there (never into /).
# The .deb files are kept as they are (already xz-compressed): nothing is extracted here, so what
# travels is exactly what Debian signed, and the kit lists each file's SHA-256 in MANIFEST.
set -euo pipefail
cd "$(dirname "$0")/../.."
kit="${1:-.qtkit}"

# What the GUI links (ui/CMakeLists.txt, cmake/LbdDependencies.cmake: Core Gui Widgets Test Charts
# Concurrent PrintSupport, Svg when present, QCustomPlotQt6) and what those libraries load.
qt_runtime=(
  libqt6core6 libqt6gui6 libqt6widgets6 libqt6dbus6 libqt6concurrent6 libqt6printsupport6
  libqt6test6 libqt6opengl6 libqt6openglwidgets6 libqt6charts6 libqt6svg6 libqcustomplot2.1-qt6
)
# Headers and CMake packages. qt6-base-dev-tools holds moc, uic and rcc (lib/qt6/libexec), which
# Qt's CMake package runs from the prefix it was found in. libqt6opengl6-dev: Qt6Charts' CMake
# package needs Qt6OpenGL and Qt6OpenGLWidgets. Qt6Gui's needs OpenGL (WrapOpenGL), so the GL
# headers and libglvnd's link libraries come along (no Mesa driver: offscreen does not draw with GL).
# qmake6: not for qmake (gui.sh puts a placeholder there) but for mkspecs/linux-g++, which
# Qt6::Platform adds to every include path.
qt_dev=(
  qt6-base-dev qt6-base-dev-tools libqt6opengl6-dev qt6-charts-dev qt6-svg-dev libqcustomplot-dev
  qmake6 libgl-dev libglx-dev libopengl-dev libegl-dev
)
# Libraries those link that Ubuntu 24.04 either lacks with the same soname (ICU: 74 there, 72 here)
# or may lack on a minimal image with only CUDA and PyTorch (no X, no fonts, no GL, no GLib).
# Left out because every Ubuntu 24.04 image with g++ has them: libc, libstdc++, libgcc-s, zlib,
# libzstd, liblz4, libpcre2-8, libsystemd, libgcrypt, libselinux, libmount, libgomp (g++ needs it).
# gui.sh checks with ldd that nothing is missing and names what is.
runtime_deps=(
  libicu72 libdouble-conversion3 libb2-1 libmd4c0 libpcre2-16-0 libxkbcommon0 libdbus-1-3
  libglib2.0-0 libharfbuzz0b libgraphite2-3 libfreetype6 libfontconfig1 libexpat1 libpng16-16
  libbrotli1 libx11-6 libxcb1 libxau6 libxdmcp6 libbsd0 libmd0
  libgl1 libglx0 libglvnd0 libopengl0 libegl1
)
# One font: the offscreen platform draws text through fontconfig, which finds nothing on a machine
# without fonts (screenshots then show empty labels).
fonts=(fonts-dejavu-core)

packages=("${qt_runtime[@]}" "${qt_dev[@]}" "${runtime_deps[@]}" "${fonts[@]}")
. tools/gpu/debkit.sh
debkit_download "$kit" qtkit.sh tools/gpu/gui.sh "${packages[@]}"
count=${#packages[@]}
echo "$kit: $count packages, $(du -sb "$kit" | awk '{printf "%.1f MB", $1 / 1e6}')"

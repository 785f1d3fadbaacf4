# Debian package of LBD Studio: `cmake --build build && cd build && cpack -G DEB`.
# (cpack first builds `all`, tests included; configure with -DCMAKE_SKIP_INSTALL_ALL_DEPENDENCY=ON
# or -DLBD_BUILD_TESTS=OFF to package after building only `lbd` / `lbd-studio`.)
#
# The package holds what the targets install (bin/lbd from app/, bin/lbd-studio when the GUI is
# built, the presets from core/) plus, for the GUI, a desktop entry, the icon and AppStream
# metadata. Runtime dependencies: dpkg-shlibdeps derives the linked libraries' packages with
# versions; without it (or with LBD_DEB_SHLIBDEPS=OFF) Debian 12's names are listed here.

set(LBD_INSTALLER_DIR "${CMAKE_CURRENT_LIST_DIR}")
set(LBD_PACKAGE_MAINTAINER "LBD Studio maintainers <maintainers@users.noreply.a-seed-d8f0b8d5.example>"
    CACHE STRING "Maintainer field of the Debian package")
option(LBD_DEB_SHLIBDEPS "Let dpkg-shlibdeps add versioned dependencies of the binaries" ON)

# ---- files the application adds on top of the targets --------------------------------------
install(FILES "${LBD_INSTALLER_DIR}/copyright" DESTINATION share/doc/lbd-studio)

# The desktop entry, icon and metadata describe the window application: without it they
# would put a launcher on the desktop that starts nothing.
if(TARGET lbd-studio)
  set(LBD_APPSTREAM_ID io.github.lbd_studio.LbdStudio)
  # SOURCE_DATE_EPOCH, when set, makes the date (and so the package) reproducible.
  string(TIMESTAMP LBD_RELEASE_DATE "%Y-%m-%d" UTC)
  configure_file("${LBD_INSTALLER_DIR}/${LBD_APPSTREAM_ID}.metainfo.xml.in"
                 "${CMAKE_BINARY_DIR}/installer/${LBD_APPSTREAM_ID}.metainfo.xml" @ONLY)
  install(FILES "${LBD_INSTALLER_DIR}/lbd-studio.desktop" DESTINATION share/applications)
  install(FILES "${CMAKE_BINARY_DIR}/installer/${LBD_APPSTREAM_ID}.metainfo.xml" DESTINATION share/metainfo)
  install(FILES "${PROJECT_SOURCE_DIR}/resources/icons/lbd-studio.svg"
          DESTINATION share/icons/hicolor/scalable/apps)
  # Rendered from the SVG with `rsvg-convert -w 256 -h 256` (see resources/icons/README.md).
  install(FILES "${PROJECT_SOURCE_DIR}/resources/icons/lbd-studio-256.png"
          DESTINATION share/icons/hicolor/256x256/apps RENAME lbd-studio.png)
endif()

# ---- runtime dependencies -------------------------------------------------------------------
# LibTorch's runtime package is whatever Debian package owns the library we linked
# (libtorch1.13 on Debian 12). A LibTorch from elsewhere (a CUDA build from pip) is no Debian
# package: the DEB then cannot declare it, and the user must provide it.
set(LBD_TORCH_PACKAGE "")
find_program(LBD_DPKG_QUERY dpkg-query)
if(LBD_DPKG_QUERY AND TORCH_LIBRARY)
  get_filename_component(lbd_torch_real "${TORCH_LIBRARY}" REALPATH)
  execute_process(COMMAND "${LBD_DPKG_QUERY}" -S "${lbd_torch_real}"
                  OUTPUT_VARIABLE lbd_torch_owner ERROR_QUIET RESULT_VARIABLE lbd_torch_rc)
  if(lbd_torch_rc EQUAL 0 AND lbd_torch_owner MATCHES "^([^:,]+)")
    set(LBD_TORCH_PACKAGE "${CMAKE_MATCH_1}")
  endif()
endif()
if(NOT LBD_TORCH_PACKAGE)
  message(STATUS "CPack: LibTorch (${TORCH_LIBRARY}) is not from a Debian package; "
                 "the DEB will not depend on it and will not run dpkg-shlibdeps")
endif()

# What no binary links, so dpkg-shlibdeps cannot see it: the fast BLAS LibTorch's linear layers
# use through the libblas.so.3 alternative, and Qt's platform plugins (only a Recommends of
# libqt6gui6, so without them a --no-install-recommends system cannot open a window).
set(lbd_runtime_only libopenblas0-pthread)
if(TARGET lbd-studio)
  list(APPEND lbd_runtime_only qt6-qpa-plugins)
endif()
# What the binaries link, by Debian 12's names (dpkg-shlibdeps finds the same with versions).
set(lbd_linked ${LBD_TORCH_PACKAGE} zlib1g)
if(LBD_WITH_OPENCV)
  list(APPEND lbd_linked libopencv-core406 libopencv-imgproc406 libopencv-imgcodecs406)
endif()
if(TARGET lbd-studio)
  list(APPEND lbd_linked libqt6widgets6 libqt6concurrent6 libqt6charts6 libqt6printsupport6 libqcustomplot2.1-qt6)
endif()

find_program(LBD_DPKG_SHLIBDEPS dpkg-shlibdeps)
if(LBD_DEB_SHLIBDEPS AND LBD_DPKG_SHLIBDEPS AND LBD_TORCH_PACKAGE)
  set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
  set(lbd_depends ${lbd_runtime_only})
else()
  set(lbd_depends ${lbd_linked} ${lbd_runtime_only})
endif()
list(JOIN lbd_depends ", " CPACK_DEBIAN_PACKAGE_DEPENDS)
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "dataset-fashion-mnist")

# ---- package metadata -----------------------------------------------------------------------
set(CPACK_PACKAGE_NAME lbd-studio)
set(CPACK_PACKAGE_VENDOR "LBD Studio")
set(CPACK_PACKAGE_VERSION "${PROJECT_VERSION}")
set(CPACK_PACKAGE_CONTACT "${LBD_PACKAGE_MAINTAINER}")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "long-tailed image classification with Bayesian particle ensembles")
if(TARGET lbd-studio)
  set(lbd_contents "the desktop application (lbd-studio) and the\ncommand line (lbd).")
else()
  set(lbd_contents "the command line (lbd); this build has no\ndesktop application.")
endif()
# The first line of the Debian description is CPACK_PACKAGE_DESCRIPTION_SUMMARY; this is the rest.
set(CPACK_DEBIAN_PACKAGE_DESCRIPTION
    "LBD Studio trains image classifiers on long-tailed data with Long-tailed
Bayesian Decision: an ensemble of particles trained with a utility-aware
objective, whose decisions can be shaped by a utility matrix so that rare
classes are not mistaken for common ones. It reads Fashion-MNIST, MNIST,
CIFAR-10/100, image folders and list files, reports accuracy by region,
the false head rate and calibration, and exports weights for Python.
.
This package holds ${lbd_contents}")
set(CPACK_PACKAGE_INSTALL_DIRECTORY lbd-studio)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)

set(CPACK_DEBIAN_PACKAGE_NAME lbd-studio)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT) # lbd-studio_<version>_<arch>.deb
set(CPACK_DEBIAN_PACKAGE_MAINTAINER "${LBD_PACKAGE_MAINTAINER}")
set(CPACK_DEBIAN_PACKAGE_SECTION science)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
# Debian has no licence field: share/doc/lbd-studio/copyright (GPL-3.0-or-later) says it.

set(CPACK_GENERATOR DEB)
set(CPACK_SOURCE_GENERATOR TGZ)
set(CPACK_SOURCE_IGNORE_FILES "/\\\\.git/" "/build[^/]*/")
include(CPack)

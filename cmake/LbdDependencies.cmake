# Finds every third-party package in one place, so that the headless CUDA build
# (LBD_BUILD_GUI=OFF, LBD_BUILD_TESTS=OFF) needs only LibTorch and nlohmann-json.
find_package(Torch REQUIRED)
# PyTorch's pip wheels (2.5 on) carry copies of libstdc++ functions (std::filesystem among them)
# and export them (pytorch/pytorch#133437). A program that takes libstdc++ symbols from them at
# link time (LibTorch comes first on the link line), or that links libstdc++ statically (the GPU
# machine's /opt/gcc g++ did: lbd named no libstdc++ at all), runs on a mix of copies; lbd died of
# SIGSEGV there, a call through a null pointer, in every process that removed a scratch folder.
# So every program of ours names the shared libstdc++ first (tests/link checks lbd).
if(UNIX AND NOT APPLE AND CMAKE_CXX_COMPILER_ID MATCHES "GNU|Clang" AND NOT CMAKE_CXX_FLAGS MATCHES "-stdlib=libc\\+\\+")
  separate_arguments(lbd_cxx_flags UNIX_COMMAND "${CMAKE_CXX_FLAGS}") # --gcc-toolchain, -B, ...
  execute_process(COMMAND "${CMAKE_CXX_COMPILER}" ${lbd_cxx_flags} -print-file-name=libstdc++.so.6
                  OUTPUT_VARIABLE lbd_libstdcxx OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
  if(NOT IS_ABSOLUTE "${lbd_libstdcxx}" OR NOT EXISTS "${lbd_libstdcxx}")
    find_library(LBD_SHARED_LIBSTDCXX NAMES libstdc++.so.6)
    set(lbd_libstdcxx "${LBD_SHARED_LIBSTDCXX}")
  endif()
  if(lbd_libstdcxx)
    # One item (CMake de-duplicates link options), the path its own argument (it may hold a comma).
    add_link_options("SHELL:-Wl,--push-state,--no-as-needed \"${lbd_libstdcxx}\" -Wl,--pop-state")
    message(STATUS "libstdc++ linked first: ${lbd_libstdcxx}")
  else()
    message(WARNING "no shared libstdc++ found: with a pip LibTorch, lbd may crash (cmake/LbdDependencies.cmake)")
  endif()
endif()
# Recent LibTorch releases (2.10+) are written in C++20; Debian's 1.13 is C++17.
if(Torch_VERSION VERSION_GREATER_EQUAL 2.10 AND CMAKE_CXX_STANDARD LESS 20)
  set(CMAKE_CXX_STANDARD 20)
endif()
find_package(Threads REQUIRED)
find_package(ZLIB REQUIRED)

# nlohmann-json is header-only: a system package, or a directory given with
# -DLBD_JSON_INCLUDE_DIR=... (e.g. extracted from Debian's nlohmann-json3-dev on a GPU box).
find_package(nlohmann_json 3 QUIET)
if(NOT nlohmann_json_FOUND)
  find_path(LBD_JSON_INCLUDE_DIR nlohmann/json.hpp REQUIRED)
  add_library(nlohmann_json::nlohmann_json INTERFACE IMPORTED)
  target_include_directories(nlohmann_json::nlohmann_json INTERFACE "${LBD_JSON_INCLUDE_DIR}")
endif()

# CLI11 (the command line's parser) is header-only too: Debian's libcli11-dev, or a directory
# with CLI/CLI.hpp given with -DLBD_CLI11_INCLUDE_DIR=... (the headless GPU build carries it).
find_package(CLI11 CONFIG QUIET)
if(NOT CLI11_FOUND)
  find_path(LBD_CLI11_INCLUDE_DIR CLI/CLI.hpp REQUIRED)
  add_library(CLI11::CLI11 INTERFACE IMPORTED)
  target_include_directories(CLI11::CLI11 INTERFACE "${LBD_CLI11_INCLUDE_DIR}")
endif()

# The image decoder (datasets/common/imagedecoder.h): OpenCV, else libjpeg-turbo (JPEG only; the
# headless GPU build carries Debian's, see tools/gpu/jpegkit.sh), else none. LBD_IMAGE_DECODER
# names the one chosen: opencv, libjpeg or none.
if(LBD_WITH_OPENCV)
  find_package(OpenCV REQUIRED COMPONENTS core imgproc imgcodecs)
  set(LBD_IMAGE_DECODER opencv)
  message(STATUS "Image decoder: OpenCV ${OpenCV_VERSION} (every format)")
else()
  set(LBD_IMAGE_DECODER none)
  if(LBD_WITH_LIBJPEG)
    # -DJPEG_INCLUDE_DIR=... -DJPEG_LIBRARY=.../libjpeg.a pick a libjpeg outside the system.
    find_package(JPEG)
  endif()
  if(JPEG_FOUND)
    # jconfig.h sits in a multiarch folder on Debian and Ubuntu; taken next to the jpeglib.h found.
    find_path(LBD_JPEG_CONFIG_DIR jconfig.h
              HINTS "${JPEG_INCLUDE_DIR}/${CMAKE_LIBRARY_ARCHITECTURE}" "${JPEG_INCLUDE_DIR}" NO_CACHE)
    set(LBD_IMAGE_DECODER libjpeg)
    set(flavour "libjpeg ${JPEG_VERSION}")
    if(LBD_JPEG_CONFIG_DIR)
      file(STRINGS "${LBD_JPEG_CONFIG_DIR}/jconfig.h" turbo REGEX "^#define LIBJPEG_TURBO_VERSION ")
      if(turbo MATCHES "LIBJPEG_TURBO_VERSION +([0-9.]+)")
        set(flavour "libjpeg-turbo ${CMAKE_MATCH_1}")
      endif()
    endif()
    message(STATUS "Image decoder: ${flavour} (JPEG only; ${JPEG_LIBRARIES}, headers in ${JPEG_INCLUDE_DIR})")
  else()
    message(STATUS "Image decoder: none (LBD_WITH_OPENCV=OFF and no libjpeg-turbo: image files cannot be decoded)")
  endif()
endif()

if(LBD_BUILD_GUI OR LBD_BUILD_TESTS)
  find_package(Qt6 REQUIRED COMPONENTS Core Gui Widgets Test)
endif()
if(LBD_BUILD_GUI)
  find_package(Qt6 REQUIRED COMPONENTS Charts Concurrent PrintSupport)
  find_package(QCustomPlotQt6 REQUIRED)
endif()
if(Qt6_FOUND)
  qt_standard_project_setup()
endif()

# Finds every third-party package in one place, so that the headless CUDA build
# (LBD_BUILD_GUI=OFF, LBD_BUILD_TESTS=OFF) needs only LibTorch and nlohmann-json.
find_package(Torch REQUIRED)
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

if(LBD_WITH_OPENCV)
  find_package(OpenCV REQUIRED COMPONENTS core imgproc imgcodecs)
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

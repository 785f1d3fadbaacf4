#pragma once
// Versions of what this build links, for `lbd --version`, the About dialog and every run's
// provenance (run.json).
#include <string>
#include <vector>

namespace lbd {

struct BuildInfo {
    std::string lbdVersion;
    std::string gitCommit;              // `git describe --always --dirty` at configure time; "unknown" from a tarball
    std::string torchVersion;
    std::string openCvVersion;          // "not built with OpenCV; image decoder: ..." when absent
    bool cudaAvailable = false;
    std::vector<std::string> cudaDevices; // "cuda:0 NVIDIA H100 80GB HBM3" ...
    // "none" where this build or machine has no CUDA: the CUDA runtime and cuDNN LibTorch loaded,
    // and the NCCL headers data-parallel training was built against.
    std::string cudaVersion = "none";
    std::string cudnnVersion = "none";
    std::string ncclVersion = "none";
};

BuildInfo buildInfo();

} // namespace lbd

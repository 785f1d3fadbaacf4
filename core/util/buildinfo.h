#pragma once
// Versions of what this build links, for `lbd --version` and the About dialog.
#include <string>
#include <vector>

namespace lbd {

struct BuildInfo {
    std::string lbdVersion;
    std::string torchVersion;
    std::string openCvVersion;          // "not built with OpenCV; image decoder: ..." when absent
    bool cudaAvailable = false;
    std::vector<std::string> cudaDevices; // "cuda:0 NVIDIA H100 80GB HBM3" ...
};

BuildInfo buildInfo();

} // namespace lbd

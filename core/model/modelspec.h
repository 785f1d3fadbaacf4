#pragma once
// What a particle model looks like: a plain value type so that configs, the command line and the
// GUI can describe a model without pulling in torch headers.
#include <cstdint>
#include <string>
#include <vector>

namespace lbd {

struct ModelSpec {
    std::string arch = "resnet32";  // one of knownArchitectures()
    int64_t particles = 1;          // M, ensemble members trained jointly
    int64_t inputChannels = 3;      // 1 for grayscale, 3 for RGB
    int64_t numClasses = 10;
    double cosineScale = 30.0;      // s in logits = s * cos(feature, class weight)
    int64_t inputSize = 32;         // side of the square input images, in pixels

    // Throws InputError naming the first bad field ("model.particles must be >= 1, got 0").
    void validate() const;

    // The smallest input side the architecture accepts (its total downsampling).
    static int64_t minimumInputSize(const std::string& arch);
    static std::vector<std::string> knownArchitectures();
};

} // namespace lbd

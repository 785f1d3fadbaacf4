#pragma once
// What a particle model looks like: a plain value type so that configs, the command line and the
// GUI can describe a model without pulling in torch headers.
#include <cstdint>
#include <string>
#include <vector>

namespace lbd {

// Limits of the resource policy (README "Limits"): a model beyond them is refused before any
// memory is allocated. 64 particles of ResNet-32 train on a CPU; 100,000 classes cover every
// long-tailed benchmark; 1024 pixels is 4.5x ImageNet's 224.
inline constexpr int64_t kMaxParticles = 64;
inline constexpr int64_t kMaxClasses = 100000;
inline constexpr int64_t kMaxInputSize = 1024;

struct ModelSpec {
    std::string arch = "resnet32";  // one of knownArchitectures()
    int64_t particles = 1;          // M, ensemble members trained jointly
    int64_t inputChannels = 3;      // 1 for grayscale, 3 for RGB
    int64_t numClasses = 10;
    double cosineScale = 30.0;      // s in logits = s * cos(feature, class weight)
    int64_t inputSize = 32;         // side of the square input images, in pixels
    // model.init_from: the weights training starts from (empty: random initialisation); a
    // torchvision ResNet-50 state dict or an earlier run's weights.pt (pretrainedload.h). Read
    // once when a run starts; a resumed or reopened run has its own weights.
    std::string initFrom;

    // Throws InputError naming the first bad field ("model.particles must be >= 1, got 0").
    void validate() const;

    // The smallest input side the architecture accepts (its total downsampling).
    static int64_t minimumInputSize(const std::string& arch);
    static std::vector<std::string> knownArchitectures();
};

} // namespace lbd

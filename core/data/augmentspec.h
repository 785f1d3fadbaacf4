#pragma once
// Training-time augmentation settings (the CIFAR recipe of the published code by default).
// No torch here: the GUI edits this value type.
#include <cstdint>

namespace lbd {

struct AugmentSpec {
    bool enabled = true;
    int64_t padding = 4;            // random crop of the output size from the zero-padded image
    bool horizontalFlip = true;
    double maxRotationDegrees = 15; // 0 disables rotation (and bilinear sampling)
    int64_t outputSize = 32;        // smaller inputs are centred and zero-padded (28 -> 32)
};

} // namespace lbd

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

    // ImageNet-style crops (torchvision's RandomResizedCrop, as the published ImageNet-LT code):
    // a box of [cropScaleMin, 1] of the image's area and aspect ratio in [3/4, 4/3] (log-uniform),
    // resized to outputSize x outputSize (bilinear). Replaces the padded crop when on.
    bool randomResizedCrop = false;
    double cropScaleMin = 0.08;
    // Colour jitter (torchvision's ColorJitter without hue): factors drawn uniformly from
    // [1 - x, 1 + x] per image, applied brightness, contrast, saturation in this order; 0: off.
    double brightness = 0;
    double contrast = 0;
    double saturation = 0;
};

} // namespace lbd

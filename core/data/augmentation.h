#pragma once
// Whole-batch augmentation on the device (CPU or CUDA, same semantics): zero-pad + random crop
// (or ImageNet's random resized crop), horizontal flip, rotation in [-r, r] degrees, colour jitter,
// per-channel normalisation. The random parameters
// are drawn on the host from a seeded Rng, so one seed gives the same batch on every device.
#include <torch/torch.h>

#include <cstdint>
#include <vector>

#include "core/data/augmentspec.h"
#include "core/util/random.h"

namespace lbd {


struct Normalization {
    std::vector<float> mean; // per channel, in [0, 1] pixel units
    std::vector<float> std;
};

// Per-channel mean and standard deviation of uint8 images [N, C, H, W] (a sample of at most
// `maxImages` evenly spaced images).
Normalization computeNormalization(const torch::Tensor& images, int64_t maxImages = 20000);

// One row per image: shift x, shift y (pixels, in [-padding, padding]), flip (0/1), angle (radians);
// with a resized crop or colour jitter (usesExtendedParams) also: the box's area fraction and
// aspect ratio, its position (two fractions in [0, 1)), and the brightness, contrast and
// saturation factors (1: unchanged), kExtendedAugmentColumns in all.
constexpr int64_t kExtendedAugmentColumns = 11;
bool usesExtendedParams(const AugmentSpec& spec);
torch::Tensor drawAugmentParams(int64_t count, const AugmentSpec& spec, Rng& rng);

// uint8 [B, C, H, W] (any device) -> float [B, C, S, S] normalised, S = spec.outputSize.
// `params` as from drawAugmentParams (CPU); an undefined tensor means identity (evaluation).
torch::Tensor augmentBatch(const torch::Tensor& images, const torch::Tensor& params, const AugmentSpec& spec,
                           const Normalization& normalization);

// Evaluation preprocessing: centre pad / crop to `outputSize` and normalise, no randomness.
torch::Tensor preprocessBatch(const torch::Tensor& images, int64_t outputSize, const Normalization& normalization);

} // namespace lbd

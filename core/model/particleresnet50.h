#pragma once
// ResNet-50 for ImageNet-sized inputs (224 px): stem 7x7/2 conv 64 + BN + ReLU + 3x3/2 max-pool,
// Bottleneck stages of 3, 4, 6, 3 blocks. As in the published ImageNet-LT code, the stem, layer1
// and layer2 are shared and layer3 and layer4 are per particle (fused: grouped convolutions with
// groups = M), each particle ending in 2048 features and its cosine classifier.
#include "core/model/particleresnet.h"

namespace lbd {

class ParticleResNet50Impl : public ParticleResNetImpl<ParticleBottleneck> {
public:
    explicit ParticleResNet50Impl(const ModelSpec& spec);
};
TORCH_MODULE(ParticleResNet50);

} // namespace lbd

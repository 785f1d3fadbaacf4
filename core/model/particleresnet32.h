#pragma once
// ResNet-32 for 32x32 inputs (He et al. 2016, CIFAR variant with option-A shortcuts), as the
// LBD code uses it: a shared stem (3x3 conv to 16 channels, BN, ReLU) and, per particle, three
// stages of five BasicBlocks (16, 32, 64 channels; strides 1, 2, 2), global average pooling
// and a cosine classifier. All particles run fused (grouped convolutions); with M = 1 this is
// the plain ResNet-32 (~0.46M parameters for 10 classes).
#include "core/model/particleresnet.h"

namespace lbd {

class ParticleResNet32Impl : public ParticleResNetImpl<ParticleBasicBlock> {
public:
    explicit ParticleResNet32Impl(const ModelSpec& spec);
};
TORCH_MODULE(ParticleResNet32);

} // namespace lbd

#pragma once
// ResNet-32 for 32x32 inputs (He et al. 2016, CIFAR variant with option-A shortcuts), as the
// LBD code uses it: a shared stem (3x3 conv to 16 channels, BN, ReLU) and, per particle, three
// stages of five BasicBlocks (16, 32, 64 channels; strides 1, 2, 2), global average pooling
// and a cosine classifier. All particles run fused (grouped convolutions); with M = 1 this is
// the plain ResNet-32 (~0.46M parameters for 10 classes).
#include "core/model/particleblocks.h"
#include "core/model/particlemodel.h"

namespace lbd {

class ParticleResNet32Impl : public ParticleModelImpl {
public:
    explicit ParticleResNet32Impl(const ModelSpec& spec);

    ParticleOutput forwardWithFeatures(const torch::Tensor& x) override;
    ParticleOutput forwardSeparately(const torch::Tensor& x) override;

private:
    torch::Tensor stem(const torch::Tensor& x);

    torch::nn::Conv2d m_stemConv{nullptr};
    torch::nn::BatchNorm2d m_stemBn{nullptr};
    std::vector<ParticleBasicBlock> m_blocks;  // the 15 blocks in order, across the 3 stages
};
TORCH_MODULE(ParticleResNet32);

} // namespace lbd

#pragma once
// ResNet-50 for ImageNet-sized inputs (224 px): stem 7x7/2 conv 64 + BN + ReLU + 3x3/2 max-pool,
// Bottleneck stages of 3, 4, 6, 3 blocks. To keep memory and compute sane with M particles,
// the stem and layer1..layer3 are shared and only layer4 and the cosine head are per particle
// (RIDE-style sharing, Wang et al. 2021; the LBD spec allows it for ResNet-50). layer4 runs
// fused: grouped 3x3 and grouped 1x1 convolutions with groups = M, 2048 features per particle.
#include "core/model/particleblocks.h"
#include "core/model/particlemodel.h"

namespace lbd {

class ParticleResNet50Impl : public ParticleModelImpl {
public:
    explicit ParticleResNet50Impl(const ModelSpec& spec);

    ParticleOutput forwardWithFeatures(const torch::Tensor& x) override;
    ParticleOutput forwardSeparately(const torch::Tensor& x) override;

private:
    // Stem and layer1..layer3: [B, Cin, H, W] -> [B, 1024, H/16, W/16]
    torch::Tensor trunk(const torch::Tensor& x);

    torch::nn::Conv2d m_stemConv{nullptr};
    torch::nn::BatchNorm2d m_stemBn{nullptr};
    std::vector<ParticleBottleneck> m_sharedBlocks;
    std::vector<ParticleBottleneck> m_particleBlocks;
};
TORCH_MODULE(ParticleResNet50);

} // namespace lbd

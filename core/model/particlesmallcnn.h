#pragma once
// A small CNN for quick CPU runs (Fashion-MNIST-sized data on a laptop): a shared stem
// (3x3 stride-2 conv to 16 channels, BN, ReLU, 2x2 max-pool: 32x32 -> 8x8), then per particle,
// fused, three 3x3 conv + BN + ReLU layers (32, 64, 128 channels) with 2x2 max-pooling between
// them, global average pooling and the cosine classifier (128 features).
#include "core/model/particleblocks.h"
#include "core/model/particlemodel.h"

namespace lbd {

class ParticleSmallCnnImpl : public ParticleModelImpl {
public:
    explicit ParticleSmallCnnImpl(const ModelSpec& spec);

    ParticleOutput forwardWithFeatures(const torch::Tensor& x) override;
    ParticleOutput forwardSeparately(const torch::Tensor& x) override;
    ParticleStageFeatures forwardWithStageFeatures(const torch::Tensor& x) override; // stem, conv2..conv4
    std::vector<int64_t> stageFeatureDims() const override;

private:
    torch::Tensor stem(const torch::Tensor& x);

    torch::nn::Conv2d m_stemConv{nullptr};
    torch::nn::BatchNorm2d m_stemBn{nullptr};
    std::vector<ParticleConvBn> m_layers;
};
TORCH_MODULE(ParticleSmallCnn);

} // namespace lbd

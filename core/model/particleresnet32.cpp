#include "core/model/particleresnet32.h"

#include "core/model/batchnormrelu.h"

namespace lbd {

namespace {
constexpr int64_t kBlocksPerStage = 5;  // 6n + 2 layers with n = 5
constexpr int64_t kStemWidth = 16;
constexpr int64_t kFeatureDim = 64;
} // namespace

ParticleResNet32Impl::ParticleResNet32Impl(const ModelSpec& spec) : ParticleModelImpl(spec)
{
    const int64_t m = spec.particles;
    m_stemConv = register_module(
        "conv1", torch::nn::Conv2d(torch::nn::Conv2dOptions(spec.inputChannels, kStemWidth, 3)
                                       .padding(1)
                                       .bias(false)));
    initParticleConvWeight(m_stemConv->weight, 1, ConvInit::KaimingFanIn);
    m_stemBn = register_module("bn1", torch::nn::BatchNorm2d(kStemWidth));

    int64_t inPlanes = kStemWidth;
    const int64_t widths[3] = {16, 32, 64};
    const int64_t strides[3] = {1, 2, 2};
    for (int stage = 0; stage < 3; ++stage) {
        auto list = register_module("layer" + std::to_string(stage + 1), torch::nn::ModuleList());
        for (int64_t b = 0; b < kBlocksPerStage; ++b) {
            const bool first = b == 0;
            // Only the very first block sees the shared stem output.
            const bool shared = stage == 0 && first;
            ParticleBasicBlock block(m, inPlanes, widths[stage], first ? strides[stage] : 1,
                                     shared);
            list->push_back(block);
            m_blocks.push_back(block);
            inPlanes = widths[stage];
        }
    }
    m_head = register_module("head", CosineClassifier(m, spec.numClasses, kFeatureDim,
                                                      spec.cosineScale));
}

torch::Tensor ParticleResNet32Impl::stem(const torch::Tensor& x)
{
    return batchNormAddRelu(m_stemConv->forward(x), *m_stemBn);
}

ParticleOutput ParticleResNet32Impl::forwardWithFeatures(const torch::Tensor& x)
{
    auto h = stem(x);
    for (auto& block : m_blocks) {
        h = block->forward(h);
    }
    auto features = poolParticleFeatures(h, m_spec.particles);
    auto logits = m_head->forward(features);
    return {logits, features};
}

ParticleOutput ParticleResNet32Impl::forwardSeparately(const torch::Tensor& x)
{
    const auto shared = stem(x);
    std::vector<torch::Tensor> logits, features;
    for (int64_t j = 0; j < m_spec.particles; ++j) {
        auto h = shared;
        for (auto& block : m_blocks) {
            h = block->forwardParticle(h, j);
        }
        features.push_back(h.mean({2, 3}));
        logits.push_back(m_head->forwardParticle(features.back(), j));
    }
    return {torch::stack(logits), torch::stack(features)};
}

} // namespace lbd

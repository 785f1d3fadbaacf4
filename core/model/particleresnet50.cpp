#include "core/model/particleresnet50.h"

#include "core/model/batchnormrelu.h"

namespace lbd {

namespace F = torch::nn::functional;

namespace {
constexpr int64_t kStemWidth = 64;
constexpr int64_t kBlocks[4] = {3, 4, 6, 3};
constexpr int64_t kPlanes[4] = {64, 128, 256, 512};
} // namespace

ParticleResNet50Impl::ParticleResNet50Impl(const ModelSpec& spec) : ParticleModelImpl(spec)
{
    m_stemConv = register_module(
        "conv1", torch::nn::Conv2d(torch::nn::Conv2dOptions(spec.inputChannels, kStemWidth, 7)
                                       .stride(2)
                                       .padding(3)
                                       .bias(false)));
    initParticleConvWeight(m_stemConv->weight, 1, ConvInit::KaimingFanOut);
    m_stemBn = register_module("bn1", torch::nn::BatchNorm2d(kStemWidth));

    int64_t inPlanes = kStemWidth;
    for (int stage = 0; stage < 4; ++stage) {
        const bool perParticle = stage == 3;
        const int64_t m = perParticle ? m_spec.particles : 1;
        auto list = register_module("layer" + std::to_string(stage + 1), torch::nn::ModuleList());
        for (int64_t b = 0; b < kBlocks[stage]; ++b) {
            const int64_t stride = (b == 0 && stage > 0) ? 2 : 1;
            const bool shared = perParticle && b == 0;
            ParticleBottleneck block(m, inPlanes, kPlanes[stage], stride, shared);
            list->push_back(block);
            (perParticle ? m_particleBlocks : m_sharedBlocks).push_back(block);
            inPlanes = kPlanes[stage] * ParticleBottleneckImpl::kExpansion;
        }
    }
    m_head = register_module(
        "head", CosineClassifier(m_spec.particles, spec.numClasses, inPlanes, spec.cosineScale));
}

torch::Tensor ParticleResNet50Impl::trunk(const torch::Tensor& x)
{
    auto h = batchNormAddRelu(m_stemConv->forward(x), *m_stemBn);
    h = F::max_pool2d(h, F::MaxPool2dFuncOptions(3).stride(2).padding(1));
    for (auto& block : m_sharedBlocks) {
        h = block->forward(h);
    }
    return h;
}

ParticleOutput ParticleResNet50Impl::forwardWithFeatures(const torch::Tensor& x)
{
    auto h = trunk(x);
    for (auto& block : m_particleBlocks) {
        h = block->forward(h);
    }
    auto features = poolParticleFeatures(h, m_spec.particles);
    return {m_head->forward(features), features};
}

ParticleOutput ParticleResNet50Impl::forwardSeparately(const torch::Tensor& x)
{
    const auto shared = trunk(x);
    std::vector<torch::Tensor> logits, features;
    for (int64_t j = 0; j < m_spec.particles; ++j) {
        auto h = shared;
        for (auto& block : m_particleBlocks) {
            h = block->forwardParticle(h, j);
        }
        features.push_back(h.mean({2, 3}));
        logits.push_back(m_head->forwardParticle(features.back(), j));
    }
    return {torch::stack(logits), torch::stack(features)};
}

} // namespace lbd

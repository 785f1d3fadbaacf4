#pragma once
// One ResNet for every depth (the pytorch-cpp ResNetImpl<Block> / make_layer pattern): a stem,
// stages of blocks, global average pooling and the cosine classifier. The stages before
// `firstParticleStage` are shared by all particles; from there on every block is per particle
// and runs fused (grouped convolutions, particleblocks.h). ResNet-32 and ResNet-50 are layouts
// of this one template (particleresnet32.h, particleresnet50.h).
#include "core/model/batchnormrelu.h"
#include "core/model/particleblocks.h"
#include "core/model/particlemodel.h"

#include <string>
#include <vector>

namespace lbd {

struct ResNetLayout {
    int64_t stemWidth = 16;
    int64_t stemKernel = 3;
    int64_t stemStride = 1;
    bool stemMaxPool = false;    // 3x3/2 max-pool after the stem (ImageNet ResNets)
    ConvInit stemInit = ConvInit::KaimingFanIn;
    std::vector<int64_t> blocks;  // per stage
    std::vector<int64_t> planes;  // per stage, before the block's expansion
    std::vector<int64_t> strides; // of each stage's first block
    size_t firstParticleStage = 0; // stages before it are shared
};

template <typename Block>
class ParticleResNetImpl : public ParticleModelImpl {
public:
    ParticleResNetImpl(const ModelSpec& spec, ResNetLayout layout) : ParticleModelImpl(spec), m_layout(std::move(layout))
    {
        m_stemConv = register_module("conv1", torch::nn::Conv2d(torch::nn::Conv2dOptions(spec.inputChannels, m_layout.stemWidth,
                                                                                         m_layout.stemKernel)
                                                                    .stride(m_layout.stemStride)
                                                                    .padding(m_layout.stemKernel / 2)
                                                                    .bias(false)));
        initParticleConvWeight(m_stemConv->weight, 1, m_layout.stemInit);
        m_stemBn = register_module("bn1", torch::nn::BatchNorm2d(m_layout.stemWidth));
        int64_t inPlanes = m_layout.stemWidth;
        for (size_t stage = 0; stage < m_layout.blocks.size(); ++stage) {
            inPlanes = makeLayer(stage, inPlanes);
        }
        m_head = register_module("head", CosineClassifier(spec.particles, spec.numClasses, inPlanes, spec.cosineScale));
    }

    ParticleOutput forwardWithFeatures(const torch::Tensor& x) override
    {
        auto h = trunk(x);
        for (auto& block : m_particleBlocks) {
            h = block->forward(h);
        }
        auto features = poolParticleFeatures(h, m_spec.particles);
        return {m_head->forward(features), features};
    }

    ParticleOutput forwardSeparately(const torch::Tensor& x) override
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

    // The stem's and every stage's pooled output (the feature ensemble of the caution); the shared
    // ones repeated for each particle.
    ParticleStageFeatures forwardWithStageFeatures(const torch::Tensor& x) override
    {
        const int64_t m = m_spec.particles;
        const auto sharedPooled = [m](const torch::Tensor& h) { return h.mean({2, 3}).unsqueeze(0).expand({m, -1, -1}); };
        auto h = batchNormAddRelu(m_stemConv->forward(x), *m_stemBn);
        if (m_layout.stemMaxPool) {
            h = torch::nn::functional::max_pool2d(h, torch::nn::functional::MaxPool2dFuncOptions(3).stride(2).padding(1));
        }
        ParticleStageFeatures out;
        out.stages.push_back(sharedPooled(h));
        size_t shared = 0, particle = 0;
        for (size_t stage = 0; stage < m_layout.blocks.size(); ++stage) {
            const bool perParticle = stage >= m_layout.firstParticleStage;
            for (int64_t b = 0; b < m_layout.blocks[stage]; ++b) {
                h = perParticle ? m_particleBlocks[particle++]->forward(h) : m_sharedBlocks[shared++]->forward(h);
            }
            out.stages.push_back(perParticle ? poolParticleFeatures(h, m) : sharedPooled(h));
        }
        out.logits = m_head->forward(out.stages.back());
        return out;
    }

    std::vector<int64_t> stageFeatureDims() const override
    {
        std::vector<int64_t> dims{m_layout.stemWidth};
        for (const int64_t planes : m_layout.planes) {
            dims.push_back(planes * Block::Impl::kExpansion);
        }
        return dims;
    }

    // Which stages are per particle (pretrainedload.cpp copies a single network's weights of
    // those stages into every particle).
    const ResNetLayout& layout() const { return m_layout; }

private:
    // Registers stage `stage` as "layer<stage+1>" and returns its output channels.
    int64_t makeLayer(size_t stage, int64_t inPlanes)
    {
        const bool perParticle = stage >= m_layout.firstParticleStage;
        const int64_t particles = perParticle ? m_spec.particles : 1;
        auto list = register_module("layer" + std::to_string(stage + 1), torch::nn::ModuleList());
        for (int64_t b = 0; b < m_layout.blocks[stage]; ++b) {
            // The first per-particle block reads the shared trunk's output.
            const bool sharedInput = perParticle && stage == m_layout.firstParticleStage && b == 0;
            Block block(particles, inPlanes, m_layout.planes[stage], b == 0 ? m_layout.strides[stage] : 1, sharedInput);
            list->push_back(block);
            (perParticle ? m_particleBlocks : m_sharedBlocks).push_back(block);
            inPlanes = m_layout.planes[stage] * Block::Impl::kExpansion;
        }
        return inPlanes;
    }

    // The stem and the shared stages.
    torch::Tensor trunk(const torch::Tensor& x)
    {
        auto h = batchNormAddRelu(m_stemConv->forward(x), *m_stemBn);
        if (m_layout.stemMaxPool) {
            h = torch::nn::functional::max_pool2d(h, torch::nn::functional::MaxPool2dFuncOptions(3).stride(2).padding(1));
        }
        for (auto& block : m_sharedBlocks) {
            h = block->forward(h);
        }
        return h;
    }

    ResNetLayout m_layout;
    torch::nn::Conv2d m_stemConv{nullptr};
    torch::nn::BatchNorm2d m_stemBn{nullptr};
    std::vector<Block> m_sharedBlocks;
    std::vector<Block> m_particleBlocks;
};

} // namespace lbd

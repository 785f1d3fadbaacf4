#include "core/model/fusedrunsmodel.h"

#include "core/model/batchnormrelu.h"
#include "core/model/particleblocks.h"
#include "core/model/particleresnet.h"
#include "core/model/particlesmallcnn.h"
#include "core/util/error.h"

namespace lbd {

namespace F = torch::nn::functional;

namespace {

using BasicResNet = ParticleResNetImpl<ParticleBasicBlock>;

const torch::nn::Conv2dImpl& stemConvOf(const ParticleModelImpl& member)
{
    return *member.named_children()["conv1"]->as<torch::nn::Conv2dImpl>();
}

} // namespace

std::optional<std::string> fusedRunsRefusal(const ParticleModelImpl& member)
{
    if (const auto* resnet = dynamic_cast<const BasicResNet*>(&member)) {
        if (resnet->layout().firstParticleStage != 0) {
            return std::string("its ResNet shares stages between particles");
        }
        return std::nullopt;
    }
    if (dynamic_cast<const ParticleSmallCnnImpl*>(&member) != nullptr) {
        return std::nullopt;
    }
    return "model.arch " + member.spec().arch + " is not fused (resnet32 and smallcnn are)";
}

FusedRunsModelImpl::FusedRunsModelImpl(const ParticleModelImpl& member, int64_t runs)
    : m_runs(runs), m_particles(member.particleCount())
{
    if (const auto refusal = fusedRunsRefusal(member)) {
        throw InputError("cannot fuse runs: " + *refusal);
    }
    const int64_t g = runs;
    const int64_t gm = runs * m_particles;
    // The stem as the run's, once per run (groups = G), under the run's names.
    const auto& stem = stemConvOf(member).options;
    const int64_t stemWidth = stem.out_channels();
    m_stemConv = register_module("conv1", torch::nn::Conv2d(torch::nn::Conv2dOptions(g * stem.in_channels(), g * stemWidth,
                                                                                     stem.kernel_size())
                                                                .stride(stem.stride())
                                                                .padding(stem.padding())
                                                                .groups(g)
                                                                .bias(false)));
    m_stemBn = register_module("bn1", torch::nn::BatchNorm2d(g * stemWidth));
    int64_t features = 0;
    if (const auto* resnet = dynamic_cast<const BasicResNet*>(&member)) {
        m_resnet = true;
        const ResNetLayout& layout = resnet->layout();
        m_stemMaxPool = layout.stemMaxPool;
        int64_t inPlanes = layout.stemWidth;
        for (size_t stage = 0; stage < layout.blocks.size(); ++stage) {
            auto list = register_module("layer" + std::to_string(stage + 1), torch::nn::ModuleList());
            for (int64_t b = 0; b < layout.blocks[stage]; ++b) {
                // Every block per particle: the first reads the stem output tiled per particle.
                ParticleBasicBlock block(gm, inPlanes, layout.planes[stage], b == 0 ? layout.strides[stage] : 1, false);
                list->push_back(block);
                m_blocks.emplace_back(block);
                inPlanes = layout.planes[stage];
            }
        }
        features = inPlanes;
    } else {
        for (const auto& child : member.named_children()) {
            const auto* layer = child.value()->as<ParticleConvBnImpl>();
            if (layer == nullptr) {
                continue;
            }
            ParticleConvOptions options = layer->options();
            options.particles = gm;
            options.sharedInput = false;
            m_blocks.emplace_back(register_module(child.key(), ParticleConvBn(options)));
            features = options.outChannels;
        }
    }
    m_head = register_module("head", CosineClassifier(gm, member.numClasses(), features, member.spec().cosineScale));
}

torch::Tensor FusedRunsModelImpl::tileRuns(const torch::Tensor& h) const
{
    const auto sizes = h.sizes();
    const int64_t perRun = sizes[1] / m_runs;
    return h.view({sizes[0], m_runs, 1, perRun, sizes[2], sizes[3]})
        .expand({sizes[0], m_runs, m_particles, perRun, sizes[2], sizes[3]})
        .reshape({sizes[0], m_runs * m_particles * perRun, sizes[2], sizes[3]})
        .contiguous(h.suggest_memory_format());
}

torch::Tensor FusedRunsModelImpl::forward(const torch::Tensor& x)
{
    const int64_t gm = m_runs * m_particles;
    torch::Tensor h;
    if (m_resnet) {
        h = batchNormAddRelu(m_stemConv->forward(x), *m_stemBn);
        if (m_stemMaxPool) {
            h = F::max_pool2d(h, F::MaxPool2dFuncOptions(3).stride(2).padding(1));
        }
        h = tileRuns(h);
        for (auto& block : m_blocks) {
            h = block.forward(h);
        }
    } else {
        h = tileRuns(F::max_pool2d(torch::relu(batchNorm(m_stemConv->forward(x), *m_stemBn)), F::MaxPool2dFuncOptions(2)));
        for (size_t i = 0; i < m_blocks.size(); ++i) {
            h = torch::relu(m_blocks[i].forward(h));
            if (i + 1 < m_blocks.size()) {
                h = F::max_pool2d(h, F::MaxPool2dFuncOptions(2));
            }
        }
    }
    return m_head->forward(poolParticleFeatures(h, gm));
}

} // namespace lbd

#pragma once
// The interface every particle model offers the objective and the trainer: one forward pass
// yields the logits of all M particles at once, and the particle-specific cosine-classifier
// weights are exposed for the repulsive term. Concrete models own their layers; this base owns
// the spec and the classifier head.
#include "core/model/cosineclassifier.h"
#include "core/model/modelspec.h"

#include <torch/torch.h>

namespace lbd {

struct ParticleOutput {
    torch::Tensor logits;    // [M, B, C]
    torch::Tensor features;  // [M, B, D], the pooled features the classifier sees
};

// The feature ensemble of the out-of-distribution caution (Lee et al. 2018): the globally
// average-pooled outputs of the stem and of every stage, first to last (the last is the features
// the classifier sees). Stages shared by the particles are repeated for each particle.
struct ParticleStageFeatures {
    torch::Tensor logits;              // [M, B, C], as forwardWithFeatures gives them
    std::vector<torch::Tensor> stages; // each [M, B, D_s]
};

class ParticleModelImpl : public torch::nn::Module {
public:
    ~ParticleModelImpl() override = default;

    // x: [B, Cin, H, W] float -> logits [M, B, C].
    torch::Tensor forward(const torch::Tensor& x) { return forwardWithFeatures(x).logits; }

    // The fused path: all particles in one set of (grouped) kernels. Features cost nothing
    // extra, the logits are computed from them.
    virtual ParticleOutput forwardWithFeatures(const torch::Tensor& x) = 0;

    // The straightforward path: the same weights, but the particles run one after another
    // with plain convolutions on slices of the fused parameters. It exists as the reference
    // the fused path is tested against and as the baseline for speed comparisons. In training
    // mode it uses batch statistics and updates the same running statistics as forward().
    virtual ParticleOutput forwardSeparately(const torch::Tensor& x) = 0;

    // The fused path with the pooled output of every stage (ParticleStageFeatures). A model that
    // does not say its stages gives the classifier's features alone.
    virtual ParticleStageFeatures forwardWithStageFeatures(const torch::Tensor& x)
    {
        ParticleOutput out = forwardWithFeatures(x);
        return {out.logits, {out.features}};
    }
    // D_s of each of those stages, without running the model.
    virtual std::vector<int64_t> stageFeatureDims() const { return {featureDim()}; }

    // [M, C, D], the raw (unnormalised) particle-specific class vectors, with gradient.
    torch::Tensor classifierWeights() const { return m_head->weight(); }

    int64_t particleCount() const { return m_spec.particles; }
    int64_t numClasses() const { return m_spec.numClasses; }
    int64_t featureDim() const { return m_head->featureDim(); }
    const ModelSpec& spec() const { return m_spec; }

protected:
    explicit ParticleModelImpl(ModelSpec spec) : m_spec(std::move(spec)) {}

    ModelSpec m_spec;
    CosineClassifier m_head{nullptr};  // registered by the concrete model, after its layers
};

// A holder that behaves like any torch module holder (model->to(device), model->parameters(),
// model(x)) but dispatches to the concrete architecture.
TORCH_MODULE(ParticleModel);

} // namespace lbd

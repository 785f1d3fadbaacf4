#pragma once
// The particle-specific cosine classifiers of all M particles in one parameter [M, C, D]:
// logits_j = s * normalize(f_j) . normalize(W_j)^T. Bounded by s in absolute value, which is
// what the LDAM margins are calibrated against.
#include <torch/torch.h>

namespace lbd {

class CosineClassifierImpl : public torch::nn::Module {
public:
    CosineClassifierImpl(int64_t particles, int64_t numClasses, int64_t featureDim, double scale);

    // features [M, B, D] -> logits [M, B, C]
    torch::Tensor forward(const torch::Tensor& features);
    // features of particle j [B, D] -> logits [B, C]
    torch::Tensor forwardParticle(const torch::Tensor& features, int64_t particle);

    const torch::Tensor& weight() const { return m_weight; }
    int64_t featureDim() const { return m_featureDim; }
    double scale() const { return m_scale; }

private:
    int64_t m_featureDim = 0;
    double m_scale = 30.0;
    torch::Tensor m_weight;  // [M, C, D]
};

TORCH_MODULE(CosineClassifier);

} // namespace lbd

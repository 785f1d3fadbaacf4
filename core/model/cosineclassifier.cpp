#include "core/model/cosineclassifier.h"

namespace lbd {

namespace F = torch::nn::functional;

CosineClassifierImpl::CosineClassifierImpl(int64_t particles, int64_t numClasses,
                                           int64_t featureDim, double scale)
    : m_featureDim(featureDim), m_scale(scale)
{
    // Like LDAM's NormedLinear: uniform(-1, 1), then every class vector scaled to unit norm,
    // so that particles start at different random directions (the repulsive term needs a
    // non-zero variance across particles from the first step).
    auto w = torch::empty({particles, numClasses, featureDim});
    {
        torch::NoGradGuard noGrad;
        w.uniform_(-1.0, 1.0);
        w.div_(w.norm(2, {-1}, /*keepdim=*/true).clamp_min(1e-12));
    }
    m_weight = register_parameter("weight", w);
}

torch::Tensor CosineClassifierImpl::forward(const torch::Tensor& features)
{
    const auto f = F::normalize(features, F::NormalizeFuncOptions().dim(-1));
    const auto w = F::normalize(m_weight, F::NormalizeFuncOptions().dim(-1));
    return torch::bmm(f, w.transpose(1, 2)) * m_scale;
}

torch::Tensor CosineClassifierImpl::forwardParticle(const torch::Tensor& features,
                                                    int64_t particle)
{
    const auto f = F::normalize(features, F::NormalizeFuncOptions().dim(-1));
    const auto w = F::normalize(m_weight[particle], F::NormalizeFuncOptions().dim(-1));
    return torch::mm(f, w.t()) * m_scale;
}

} // namespace lbd

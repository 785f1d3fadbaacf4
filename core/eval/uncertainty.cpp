#include "core/eval/uncertainty.h"

#include "core/eval/decisions.h"

namespace lbd {

torch::Tensor entropy(const torch::Tensor& probs)
{
    // p * log(max(p, floor)) is exactly 0 where p = 0, so zeros need no special case.
    return -(probs * probs.clamp_min(kProbabilityFloor).log()).sum(-1);
}

ImageUncertainty UncertaintyBatch::image(int64_t n) const
{
    ImageUncertainty result;
    result.total = total[n].item<double>();
    result.aleatoric = aleatoric[n].item<double>();
    result.epistemic = epistemic[n].item<double>();
    result.voteDisagreement = voteDisagreement[n].item<double>();
    const torch::Tensor top1 = particleTop1.select(1, n).to(torch::kCPU, torch::kInt64).contiguous();
    const torch::Tensor top1Probability = particleTop1Probability.select(1, n).to(torch::kCPU, torch::kFloat64).contiguous();
    result.particleTop1.assign(top1.data_ptr<int64_t>(), top1.data_ptr<int64_t>() + top1.numel());
    result.particleTop1Probability.assign(top1Probability.data_ptr<double>(),
                                          top1Probability.data_ptr<double>() + top1Probability.numel());
    return result;
}

UncertaintyBatch computeUncertainty(const torch::Tensor& particleProbs)
{
    const torch::Tensor probs = asParticleProbabilities(particleProbs);
    const int64_t particleCount = probs.size(0);
    const int64_t classCount = probs.size(2);

    UncertaintyBatch result;
    result.total = entropy(probs.mean(0));
    result.aleatoric = entropy(probs).mean(0);
    // Mutual information is >= 0 (Jensen); rounding can push it a hair below when the
    // particles agree, which a log-scale plot would not survive.
    result.epistemic = (result.total - result.aleatoric).clamp_min(0.0);

    const auto top = probs.max(2); // over classes: values and indices [M, N]
    result.particleTop1Probability = std::get<0>(top);
    result.particleTop1 = std::get<1>(top);
    if (classCount > 0 && probs.size(1) > 0) {
        const torch::Tensor votes = torch::one_hot(result.particleTop1, classCount).sum(0); // [N, C]
        const torch::Tensor largestAgreement = std::get<0>(votes.max(1)).to(probs.scalar_type());
        result.voteDisagreement = 1.0 - largestAgreement / static_cast<double>(particleCount);
    } else {
        result.voteDisagreement = torch::zeros({probs.size(1)}, probs.options());
    }
    return result;
}

} // namespace lbd

#include "core/eval/oodspace.h"

#include <algorithm>

namespace lbd {

std::string OodSpace::name() const
{
    return "stage " + std::to_string(stage) + (direction ? ", directions" : ", as they are");
}

torch::Tensor oodSpaceFeatures(const torch::Tensor& stageFeatures, bool direction)
{
    const auto f = stageFeatures.to(torch::kFloat64);
    return direction ? torch::nn::functional::normalize(f, torch::nn::functional::NormalizeFuncOptions().dim(-1)) : f;
}

std::vector<int64_t> fitOodSpace(OodSpace& space, const torch::Tensor& features, const torch::Tensor& labels, int64_t classes,
                                 const torch::Tensor& meansOnly, const torch::Tensor& meansOnlyLabels)
{
    const int64_t particles = features.size(0);
    const int64_t dim = features.size(2);
    std::vector<torch::Tensor> means;
    std::vector<int64_t> withMean;
    auto covariance = torch::zeros({particles, dim, dim}, torch::kFloat64);
    int64_t spreads = 0;
    for (int64_t c = 0; c < classes; ++c) {
        const auto rows = torch::nonzero(labels == c).flatten();
        if (rows.numel() == 0) {
            const bool fromTraining = meansOnlyLabels.defined() && (meansOnlyLabels == c).any().item<bool>();
            if (fromTraining) {
                means.push_back(meansOnly.index_select(1, torch::nonzero(meansOnlyLabels == c).flatten())
                                    .to(torch::kFloat64)
                                    .mean(1, /*keepdim=*/true));
                withMean.push_back(c);
            }
            continue; // no mean at all: the distance is to the other classes
        }
        const auto own = features.index_select(1, rows);
        const auto mean = own.mean(1, /*keepdim=*/true); // [M, 1, D]
        means.push_back(mean);
        withMean.push_back(c);
        const auto centred = own - mean;
        covariance += torch::matmul(centred.transpose(1, 2), centred) / double(rows.numel());
        ++spreads;
    }
    space.classMeans = torch::cat(means, 1); // [M, K, D]
    covariance /= double(std::max<int64_t>(spreads, 1));
    const auto meanVariance = covariance.diagonal(0, 1, 2).mean(1).clamp_min(1e-12); // [M]
    const auto identity = torch::eye(dim, torch::kFloat64).unsqueeze(0).expand({particles, dim, dim});
    covariance = covariance * (1.0 - kOodCovarianceShrinkage)
                 + identity * (kOodCovarianceShrinkage * meanVariance).view({particles, 1, 1});
    const auto precision = torch::linalg_inv(covariance);
    space.precision = (precision + precision.transpose(1, 2)) / 2.0; // exactly symmetric, as the file is checked to be
    return withMean;
}

torch::Tensor oodSpaceDistances(const OodSpace& space, const torch::Tensor& f)
{
    const auto a = torch::matmul(f, space.precision);                      // [M, N, D]
    const auto self = (a * f).sum(2, /*keepdim=*/true);                    // [M, N, 1]  x^T P x
    const auto cross = torch::matmul(a, space.classMeans.transpose(1, 2)); // [M, N, K]  x^T P mu
    const auto meanTerm = (torch::matmul(space.classMeans, space.precision) * space.classMeans).sum(2).unsqueeze(1); // mu^T P mu
    return std::get<0>((self - 2.0 * cross + meanTerm).clamp_min(0.0).min(2)).mean(0);
}

double classBalancedThreshold(const torch::Tensor& scores, const torch::Tensor& labels, double passRate)
{
    const auto candidates = std::get<0>(scores.to(torch::kFloat64).sort());
    auto passed = torch::zeros_like(candidates);
    int64_t classes = 0;
    const int64_t classCount = labels.numel() > 0 ? labels.max().item<int64_t>() + 1 : 0;
    for (int64_t c = 0; c < classCount; ++c) {
        const auto own = std::get<0>(scores.index_select(0, torch::nonzero(labels == c).flatten()).to(torch::kFloat64).sort());
        if (own.numel() == 0) {
            continue;
        }
        passed += torch::searchsorted(own, candidates, /*out_int32=*/false, /*right=*/true).to(torch::kFloat64)
                  / double(own.numel());
        ++classes;
    }
    const auto enough = torch::nonzero(passed / double(std::max<int64_t>(classes, 1)) >= passRate - 1e-12).flatten();
    return candidates[enough.numel() > 0 ? enough[0].item<int64_t>() : candidates.size(0) - 1].item<double>();
}

double scoreAuroc(const torch::Tensor& inside, const torch::Tensor& outside)
{
    const auto sorted = std::get<0>(inside.to(torch::kFloat64).flatten().sort());
    const auto out = outside.to(torch::kFloat64).flatten();
    if (sorted.numel() == 0 || out.numel() == 0) {
        return 0.5;
    }
    const auto below = torch::searchsorted(sorted, out, /*out_int32=*/false, /*right=*/false).to(torch::kFloat64);
    const auto atOrBelow = torch::searchsorted(sorted, out, /*out_int32=*/false, /*right=*/true).to(torch::kFloat64);
    return ((below + atOrBelow) / 2.0).sum().item<double>() / (double(sorted.numel()) * double(out.numel()));
}

} // namespace lbd

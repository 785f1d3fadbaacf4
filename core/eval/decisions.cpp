#include "core/eval/decisions.h"

#include "core/util/error.h"

namespace lbd {

torch::Tensor utilityTensor(const UtilityMatrix& utility, const torch::TensorOptions& options)
{
    const int64_t c = utility.classCount();
    // from_blob does not own the memory: clone before the matrix can go away, then convert.
    auto values = torch::from_blob(const_cast<double*>(utility.values().data()), {c, c}, torch::kFloat64).clone();
    return values.to(options);
}

torch::Tensor asParticleProbabilities(const torch::Tensor& particleProbs)
{
    if (!particleProbs.defined()) {
        throw InputError("particle probabilities: no tensor given");
    }
    torch::Tensor probs = particleProbs;
    if (probs.dim() == 2) {
        probs = probs.unsqueeze(0);
    }
    if (probs.dim() != 3) {
        throw InputError("particle probabilities must be [particles, images, classes], got "
                         + std::to_string(particleProbs.dim()) + " dimensions");
    }
    if (!probs.is_floating_point()) {
        throw InputError("particle probabilities must be floating point");
    }
    if (probs.scalar_type() != torch::kFloat32 && probs.scalar_type() != torch::kFloat64) {
        probs = probs.to(torch::kFloat32); // log of half-precision probabilities loses the tail
    }
    if (probs.size(0) == 0) {
        throw InputError("particle probabilities: there are no particles");
    }
    return probs;
}

torch::Tensor predictiveMean(const torch::Tensor& particleProbs)
{
    return asParticleProbabilities(particleProbs).mean(0);
}

torch::Tensor decisionScores(const torch::Tensor& particleProbs, const UtilityMatrix& utility, DecisionRule rule)
{
    const torch::Tensor probs = asParticleProbabilities(particleProbs);
    const int64_t classCount = probs.size(2);
    if (rule == DecisionRule::Argmax) {
        return probs.mean(0);
    }
    if (utility.classCount() != classCount) {
        throw InputError("utility matrix is " + std::to_string(utility.classCount()) + " x "
                         + std::to_string(utility.classCount()) + " but the model has " + std::to_string(classCount)
                         + " classes");
    }
    const torch::Tensor u = utilityTensor(utility, probs.options());
    if (rule == DecisionRule::Lbd) {
        // The score is linear in log p_j, so averaging the logs over particles first and then
        // applying U once is the same sum with M times fewer multiplications.
        const torch::Tensor meanLog = probs.clamp_min(kProbabilityFloor).log().mean(0); // [N, C]
        return torch::matmul(meanLog, u.t()); // score[n, d] = sum_k U[d, k] meanLog[n, k]
    }
    return torch::matmul(probs.mean(0), u); // EU[n, d] = sum_t pbar[n, t] U[t, d]
}

Decisions decide(const torch::Tensor& particleProbs, const UtilityMatrix& utility, DecisionRule rule)
{
    Decisions result;
    result.scores = decisionScores(particleProbs, utility, rule);
    result.decisions = result.scores.argmax(1);
    return result;
}

} // namespace lbd

#include "core/eval/decisions.h"

#include "core/util/error.h"

#include <cmath>
#include <limits>

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

namespace {

// L = (1/M) sum_j log p_j, the log-softmax of each particle's logits averaged (lbd-math.md section
// 5 item 3, vector F). No floor such as 1e-12: it would move a confident particle's log p from
// -40 to -27.6 and change decisions. Only an exact zero (softmax underflow) is lifted to the
// dtype's smallest normal number, so that 0 * log 0 stays finite; the cosine classifier bounds
// logits by s = 30, so its probabilities (>= e^-60) never come near it.
torch::Tensor meanLogProbabilities(const torch::Tensor& probs)
{
    const double smallest = probs.scalar_type() == torch::kFloat64 ? std::numeric_limits<double>::min()
                                                                    : static_cast<double>(std::numeric_limits<float>::min());
    return probs.clamp_min(smallest).log().mean(0); // [N, C]
}

} // namespace

torch::Tensor decisionScores(const torch::Tensor& particleProbs, const UtilityMatrix& utility, DecisionRule rule)
{
    const torch::Tensor probs = asParticleProbabilities(particleProbs);
    const int64_t classCount = probs.size(2);
    switch (rule) {
    case DecisionRule::Argmax: return probs.mean(0);
    case DecisionRule::MeanLogit: return meanLogProbabilities(probs);
    case DecisionRule::Expected:
    case DecisionRule::Eq7: break;
    }
    if (utility.classCount() != classCount) {
        throw InputError("utility matrix is " + std::to_string(utility.classCount()) + " x "
                         + std::to_string(utility.classCount()) + " but the model has " + std::to_string(classCount)
                         + " classes");
    }
    const torch::Tensor u = utilityTensor(utility, probs.options());
    if (rule == DecisionRule::Eq7) {
        // The score is linear in log p_j, so averaging the logs over particles first and then
        // applying U once is the same sum with M times fewer multiplications.
        return torch::matmul(meanLogProbabilities(probs), u.t()); // score[n, d] = sum_k U[d, k] L[n, k]
    }
    return torch::matmul(probs.mean(0), u); // EU[n, d] = sum_t pbar[n, t] U[t, d]
}

Decisions decide(const torch::Tensor& particleProbs, const UtilityMatrix& utility, DecisionRule rule,
                 std::optional<double> deferUtility)
{
    const DecisionRuleInfo& info = decisionRuleInfo(rule);
    if (deferUtility) {
        checkDeferUtility(*deferUtility, rule, "the defer utility");
    }
    const torch::Tensor probs = asParticleProbabilities(particleProbs);
    Decisions result;
    result.scores = decisionScores(probs, utility, rule);
    const torch::Tensor index = result.scores.argmax(1); // the first index on ties, on every device
    const torch::Tensor best = result.scores.gather(1, index.unsqueeze(1)).squeeze(1);
    result.undeferred = index;
    if (info.supportsDefer) {
        result.confidence = best; // max EU, or max pbar for argmax (EU under a one-hot matrix)
    } else {
        result.confidence = probs.mean(0).gather(1, index.unsqueeze(1)).squeeze(1);
    }
    result.decisions = index;
    if (deferUtility) {
        result.decisions = torch::where(best < *deferUtility, torch::full_like(index, kDeferred), index);
    }
    return result;
}

} // namespace lbd

#pragma once
// Decisions from cached particle probabilities (lbd-math.md section 5). Changing the utility
// matrix or the rule needs no retraining: the CLI, the GUI's tail-risk page and the evaluator
// all re-decide through these functions. Every function works on the tensors' own device.
#include "core/eval/decisionrule.h"
#include "core/lbd/utilitymatrix.h"

#include <torch/torch.h>

namespace lbd {

// Probabilities are clamped to this before the log: a zero probability times a zero utility
// must give 0, not -inf * 0 = NaN.
constexpr double kProbabilityFloor = 1e-12;

// U as a [C, C] tensor (rows = true class) with the given dtype / device.
torch::Tensor utilityTensor(const UtilityMatrix& utility, const torch::TensorOptions& options);

// Checks particle probabilities and returns them as [M, N, C] in a floating dtype the math can
// use (float or double; half / bfloat16 become float). A [N, C] tensor is one particle.
// Throws InputError for other shapes or non-floating dtypes.
torch::Tensor asParticleProbabilities(const torch::Tensor& particleProbs);

// pbar = (1/M) sum_j p_j: [M, N, C] -> [N, C].
torch::Tensor predictiveMean(const torch::Tensor& particleProbs);

// Scores [N, C] whose argmax is the decision: pbar (Argmax), the LBD score
// (1/M) sum_j sum_k U[d,k] log p_j(k|x) (Lbd) or EU(d) = sum_t pbar(t) U[t,d] (ExpectedUtility).
// Throws InputError when U is not C x C.
torch::Tensor decisionScores(const torch::Tensor& particleProbs, const UtilityMatrix& utility, DecisionRule rule);

struct Decisions {
    torch::Tensor scores;    // [N, C], dtype of the (float / double) probabilities
    torch::Tensor decisions; // [N] int64, argmax of scores (first index on ties)
};

Decisions decide(const torch::Tensor& particleProbs, const UtilityMatrix& utility, DecisionRule rule);

} // namespace lbd

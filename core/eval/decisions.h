#pragma once
// Decisions from cached particle probabilities (lbd-math.md section 5). Changing the utility
// matrix, the rule or the defer utility needs no retraining: the CLI, the GUI's pages and the
// evaluator all re-decide through these functions. Every function works on the tensors' own device.
#include "core/eval/decisionrule.h"
#include "core/lbd/utilitymatrix.h"

#include <torch/torch.h>

#include <optional>

namespace lbd {

// Probabilities are clamped to this before the log: a zero probability times a zero utility
// must give 0, not -inf * 0 = NaN.
constexpr double kProbabilityFloor = 1e-12;

// The decision index that stands for "defer" (reject) in Decisions::decisions.
constexpr int64_t kDeferred = -1;

// U as a [C, C] tensor (rows = true class) with the given dtype / device.
torch::Tensor utilityTensor(const UtilityMatrix& utility, const torch::TensorOptions& options);

// Checks particle probabilities and returns them as [M, N, C] in a floating dtype the math can
// use (float or double; half / bfloat16 become float). A [N, C] tensor is one particle.
// Throws InputError for other shapes or non-floating dtypes.
torch::Tensor asParticleProbabilities(const torch::Tensor& particleProbs);

// pbar = (1/M) sum_j p_j: [M, N, C] -> [N, C].
torch::Tensor predictiveMean(const torch::Tensor& particleProbs);

// Scores [N, C] whose argmax is the decision: EU(d) = sum_t pbar(t) U[t,d] (Expected), pbar
// (Argmax), L = (1/M) sum_j log p_j (MeanLogit) or sum_k U[d,k] L_k (Eq7).
// Throws InputError when a rule that uses U gets a matrix that is not C x C.
torch::Tensor decisionScores(const torch::Tensor& particleProbs, const UtilityMatrix& utility, DecisionRule rule);

struct Decisions {
    torch::Tensor scores;     // [N, C], dtype of the (float / double) probabilities
    torch::Tensor decisions;  // [N] int64, argmax of scores (first index on ties); kDeferred where deferred
    torch::Tensor undeferred; // [N] int64, the decision had there been no defer option
    // [N]: how sure the rule is of its decision, the order of the risk-coverage curve and the
    // quantity the defer utility competes with: max EU (Expected), max pbar (Argmax), and
    // pbar of the decision for the rules that do not score with expected utility.
    torch::Tensor confidence;
};

// `deferUtility` r adds the action "defer" with utility r for every true class: an image is
// deferred when the best EU is below r (lbd-math.md section 5 item 5). Only rules with
// supportsDefer take it; others throw InputError naming the rule. A non-finite r is an InputError.
Decisions decide(const torch::Tensor& particleProbs, const UtilityMatrix& utility, DecisionRule rule,
                 std::optional<double> deferUtility = std::nullopt);

} // namespace lbd

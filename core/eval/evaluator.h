#pragma once
// The test-set evaluation: decide every image with one rule and utility matrix, then compute
// every metric of lbd-math.md section 6 from those decisions and pbar. The CLI's `eval` verb and
// the GUI's evaluation pages both call this, so the numbers can't disagree.
#include "core/eval/decisionrule.h"
#include "core/eval/evaluationreport.h"
#include "core/lbd/utilitymatrix.h"

#include <torch/torch.h>

#include <cstdint>
#include <optional>
#include <vector>

namespace lbd {

// particleProbs [M, N, C] (float or double, any device), labels [N] int64 (any integer dtype),
// trainCounts of the C classes in head-to-tail order (for the count-based regions).
// Throws InputError when shapes, labels or U do not fit together or a probability is not finite.
// Every metric is that of deciding every image; with a defer utility r the report adds the
// selective metrics of deferring where the best expected utility is below r (report.defer).
EvaluationReport evaluate(const torch::Tensor& particleProbs, const torch::Tensor& labels,
                          const std::vector<int64_t>& trainCounts, const UtilityMatrix& utility, DecisionRule rule,
                          std::optional<double> deferUtility = std::nullopt);

} // namespace lbd

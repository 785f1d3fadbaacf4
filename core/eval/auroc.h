#pragma once
// Misclassification AUROC (lbd-math.md section 6): the probability that a correctly decided image
// scores higher than a wrongly decided one, exact Mann-Whitney statistic with ties counting 1/2.
#include <optional>
#include <vector>

namespace lbd {

// Empty when there are no positives (correct) or no negatives: the statistic is undefined there.
std::optional<double> misclassificationAuroc(const std::vector<double>& score, const std::vector<bool>& correct);

} // namespace lbd

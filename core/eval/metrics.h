#pragma once
// Counting metrics over decided test images (lbd-math.md sections 2 and 6): accuracy, per class,
// per region, confusion, NLL, mean utility. Plain vectors in, value types out: the evaluator
// copies tensors to the CPU once, and the tests call these directly. Labels and predictions
// outside [0, C) throw InputError.
#include "core/eval/evaluationreport.h"
#include "core/lbd/utilitymatrix.h"

#include <cstdint>
#include <vector>

namespace lbd {

// correct / total, 0 when total is 0.
GroupAccuracy groupAccuracy(int64_t correct, int64_t total);

GroupAccuracy accuracy(const std::vector<int64_t>& labels, const std::vector<int64_t>& predictions);
std::vector<GroupAccuracy> perClassAccuracy(const std::vector<int64_t>& labels,
                                            const std::vector<int64_t>& predictions, int64_t classCount);
// confusion[t][d] = images of true class t decided as d.
std::vector<std::vector<int64_t>> confusionMatrix(const std::vector<int64_t>& labels,
                                                  const std::vector<int64_t>& predictions, int64_t classCount);
// Region of each image = region of its true label; counts are the real test labels.
RegionAccuracies regionAccuracy(const std::vector<int64_t>& labels, const std::vector<int64_t>& predictions,
                                const std::vector<int64_t>& trainCounts, RegionScheme scheme);

// Mean -log max(p, 1e-12) of the probability each image gave its true class.
double negativeLogLikelihood(const std::vector<double>& trueClassProbability);
// Mean U[y, d] over images.
double meanUtility(const std::vector<int64_t>& labels, const std::vector<int64_t>& predictions,
                   const UtilityMatrix& utility);

} // namespace lbd

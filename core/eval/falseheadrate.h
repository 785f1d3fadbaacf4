#pragma once
// False Head Rate (lbd-math.md section 6): how often a tail image is decided as a head class,
// for every head / tail split of the head-to-tail class order.
#include "core/eval/evaluationreport.h"

#include <cstdint>
#include <vector>

namespace lbd {

// The paper's table reports three points; the published code picks head = first
// int(C * r + 0.5) classes (the paper's prose says the opposite). We follow the code and say so.
inline constexpr const char* kFhrConvention = "code convention: head = first int(C*r + 0.5) classes";
inline constexpr double kFhrRatios[] = {0.25, 0.5, 0.75};

// FHR at split k (head = classes < k), for any k in 0..C.
FhrSplit falseHeadRate(const std::vector<int64_t>& labels, const std::vector<int64_t>& predictions, int64_t k);
// k = 1 .. C-1.
std::vector<FhrSplit> falseHeadRateCurve(const std::vector<int64_t>& labels, const std::vector<int64_t>& predictions,
                                         int64_t classCount);
// int(C * ratio + 0.5), the code convention above.
int64_t fhrHeadClasses(int64_t classCount, double ratio);
// The three points for kFhrRatios.
std::vector<FhrPoint> falseHeadRatePoints(const std::vector<int64_t>& labels, const std::vector<int64_t>& predictions,
                                          int64_t classCount);

} // namespace lbd

#pragma once
// Calibration metrics beside ECE / MCE / NLL (issue 29; lbd-math.md section 6), torch-free over
// pbar as [N][C] row-major doubles:
//   Brier score   mean_n sum_k (pbar_nk - [y_n = k])^2                         (0 best, 2 worst)
//   classwise ECE (1/C) sum_k ECE_15 of (pbar_nk, [y_n = k]) over every image n (Kull et al. 2019)
//   adaptive ECE  ECE over B equal-mass bins of the decision's confidence: images sorted by
//                 confidence (ties by index), bin b = sorted positions [floor(bN/B), floor((b+1)N/B)),
//                 empty bins (N < B) skipped (Nixon et al. 2019)
//   ECE interval  the 2.5 and 97.5 percentiles (linear interpolation) of the 15-bin ECE over
//                 seeded bootstrap resamples of the images
#include "core/eval/evaluationreport.h"

#include <cstdint>
#include <utility>
#include <vector>

namespace lbd {

inline constexpr int64_t kEceBootstrapResamples = 1000;
inline constexpr uint64_t kEceBootstrapSeed = 29;

double brierScore(const std::vector<double>& pbar, const std::vector<int64_t>& labels, int64_t classCount);
double classwiseEce(const std::vector<double>& pbar, const std::vector<int64_t>& labels, int64_t classCount,
                    int binCount = 15);
double adaptiveEce(const std::vector<double>& confidence, const std::vector<bool>& correct, int binCount = 15);
// (low, high); (0, 0) for no image.
std::pair<double, double> bootstrapEceInterval(const std::vector<double>& confidence, const std::vector<bool>& correct,
                                               int64_t resamples = kEceBootstrapResamples,
                                               uint64_t seed = kEceBootstrapSeed, int binCount = 15);

// All of the above; `confidence` / `correct` are those of the report's ECE (pbar of the decision).
CalibrationMetrics calibrationMetrics(const std::vector<double>& pbar, const std::vector<int64_t>& labels,
                                      int64_t classCount, const std::vector<double>& confidence,
                                      const std::vector<bool>& correct, int64_t resamples = kEceBootstrapResamples,
                                      uint64_t seed = kEceBootstrapSeed);

} // namespace lbd

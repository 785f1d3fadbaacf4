#pragma once
// Calibration of the confidence max pbar (lbd-math.md section 6): equal-width bins,
// bin b = (b/B, (b+1)/B], the first bin also holds 0; ECE, MCE; the reliability diagram is the bins.
#include "core/eval/evaluationreport.h"

#include <cstdint>
#include <vector>

namespace lbd {

inline constexpr int kCalibrationBins = 15;

// Bin of one confidence; values outside [0, 1] go to the first / last bin.
int calibrationBinIndex(double confidence, int binCount = kCalibrationBins);

CalibrationReport calibrationBins(const std::vector<double>& confidence, const std::vector<bool>& correct,
                                  int binCount = kCalibrationBins);

// One report per region (Head, Medium, Tail), grouping images by the region of their true class.
std::vector<RegionCalibration> regionCalibration(const std::vector<double>& confidence,
                                                 const std::vector<bool>& correct,
                                                 const std::vector<int64_t>& labels,
                                                 const std::vector<Region>& classRegion, RegionScheme scheme,
                                                 int binCount = kCalibrationBins);

} // namespace lbd

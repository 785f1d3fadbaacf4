#pragma once
// Risk-coverage curve and AURC (lbd-math.md section 5 item 5): decide only the k most confident
// images and count the errors among them. Plain vectors in, a value type out.
#include "core/eval/evaluationreport.h"

#include <cstdint>
#include <vector>

namespace lbd {

// Up to this many images every point of the curve is kept; beyond, evenly spaced ones.
inline constexpr int64_t kRiskCoverageSamples = 500;

// Images are ordered by decreasing confidence; ties keep the images' order, so the curve is a
// pure function of its inputs. Throws InputError when the vectors differ in length.
RiskCoverageCurve riskCoverage(const std::vector<double>& confidence, const std::vector<bool>& correct);

} // namespace lbd

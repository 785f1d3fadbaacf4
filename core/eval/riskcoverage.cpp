#include "core/eval/riskcoverage.h"

#include "core/util/error.h"

#include <algorithm>
#include <numeric>

namespace lbd {

RiskCoverageCurve riskCoverage(const std::vector<double>& confidence, const std::vector<bool>& correct)
{
    if (confidence.size() != correct.size()) {
        throw InputError("risk-coverage: " + std::to_string(confidence.size()) + " confidences but "
                         + std::to_string(correct.size()) + " correctness flags");
    }
    RiskCoverageCurve curve;
    const auto n = static_cast<int64_t>(confidence.size());
    curve.count = n;
    if (n == 0) {
        return curve;
    }
    std::vector<size_t> order(confidence.size());
    std::iota(order.begin(), order.end(), size_t{0});
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return confidence[a] > confidence[b]; });

    // Which k to keep: all of them for small sets, else evenly spaced ones ending at N.
    const int64_t stride = n <= kRiskCoverageSamples ? 1 : (n + kRiskCoverageSamples - 1) / kRiskCoverageSamples;
    int64_t errors = 0;
    double riskSum = 0.0;
    for (int64_t k = 1; k <= n; ++k) {
        errors += correct[order[static_cast<size_t>(k - 1)]] ? 0 : 1;
        const double risk = static_cast<double>(errors) / static_cast<double>(k);
        riskSum += risk;
        if (k % stride == 0 || k == n) {
            curve.coverage.push_back(static_cast<double>(k) / static_cast<double>(n));
            curve.risk.push_back(risk);
        }
    }
    curve.aurc = riskSum / static_cast<double>(n);
    return curve;
}

} // namespace lbd

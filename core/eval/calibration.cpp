#include "core/eval/calibration.h"

#include "core/util/error.h"

#include <algorithm>
#include <cmath>

namespace lbd {

int calibrationBinIndex(double confidence, int binCount)
{
    if (!(confidence > 0.0)) {
        return 0; // includes 0 and (defensively) NaN
    }
    // ceil(x B) - 1 is the bin; then compare with the same boundaries b / B the bins report,
    // so that a confidence equal to a boundary lands in the lower bin despite rounding in x * B.
    int bin = static_cast<int>(std::ceil(confidence * binCount)) - 1;
    bin = std::clamp(bin, 0, binCount - 1);
    if (bin > 0 && confidence <= static_cast<double>(bin) / binCount) {
        --bin;
    } else if (bin < binCount - 1 && confidence > static_cast<double>(bin + 1) / binCount) {
        ++bin;
    }
    return bin;
}

CalibrationReport calibrationBins(const std::vector<double>& confidence, const std::vector<bool>& correct,
                                  int binCount)
{
    if (binCount < 1) {
        throw InputError("calibration: the number of bins must be at least 1, got " + std::to_string(binCount));
    }
    if (confidence.size() != correct.size()) {
        throw InputError("calibration: " + std::to_string(confidence.size()) + " confidences but "
                         + std::to_string(correct.size()) + " correctness flags");
    }
    std::vector<double> confidenceSum(static_cast<size_t>(binCount), 0.0);
    std::vector<int64_t> correctCount(static_cast<size_t>(binCount), 0);
    CalibrationReport report;
    report.bins.resize(static_cast<size_t>(binCount));
    for (size_t i = 0; i < confidence.size(); ++i) {
        const int bin = calibrationBinIndex(confidence[i], binCount);
        ++report.bins[bin].count;
        confidenceSum[bin] += confidence[i];
        correctCount[bin] += correct[i] ? 1 : 0;
    }
    report.count = static_cast<int64_t>(confidence.size());
    for (int b = 0; b < binCount; ++b) {
        CalibrationBin& bin = report.bins[b];
        bin.lower = static_cast<double>(b) / binCount;
        bin.upper = static_cast<double>(b + 1) / binCount;
        if (bin.count == 0) {
            continue;
        }
        bin.accuracy = static_cast<double>(correctCount[b]) / static_cast<double>(bin.count);
        bin.meanConfidence = confidenceSum[b] / static_cast<double>(bin.count);
        const double gap = std::abs(bin.accuracy - bin.meanConfidence);
        report.ece += static_cast<double>(bin.count) / static_cast<double>(report.count) * gap;
        report.mce = std::max(report.mce, gap);
    }
    return report;
}

std::vector<RegionCalibration> regionCalibration(const std::vector<double>& confidence,
                                                 const std::vector<bool>& correct,
                                                 const std::vector<int64_t>& labels,
                                                 const std::vector<Region>& classRegion, RegionScheme scheme,
                                                 int binCount)
{
    if (labels.size() != confidence.size() || correct.size() != confidence.size()) {
        throw InputError("calibration by region: confidences, correctness flags and labels differ in length");
    }
    std::vector<double> regionConfidence[kRegionCount];
    std::vector<bool> regionCorrect[kRegionCount];
    for (size_t i = 0; i < labels.size(); ++i) {
        if (labels[i] < 0 || labels[i] >= static_cast<int64_t>(classRegion.size())) {
            throw InputError("calibration by region: label " + std::to_string(labels[i]) + " of image "
                             + std::to_string(i) + " has no region");
        }
        const auto r = static_cast<int>(classRegion[labels[i]]);
        regionConfidence[r].push_back(confidence[i]);
        regionCorrect[r].push_back(correct[i]);
    }
    std::vector<RegionCalibration> result;
    for (int r = 0; r < kRegionCount; ++r) {
        RegionCalibration region;
        region.region = static_cast<Region>(r);
        region.name = regionName(region.region, scheme);
        region.calibration = calibrationBins(regionConfidence[r], regionCorrect[r], binCount);
        result.push_back(std::move(region));
    }
    return result;
}

} // namespace lbd

#include "core/eval/falseheadrate.h"

#include "core/util/error.h"

namespace lbd {

FhrSplit falseHeadRate(const std::vector<int64_t>& labels, const std::vector<int64_t>& predictions, int64_t k)
{
    if (labels.size() != predictions.size()) {
        throw InputError("false head rate: " + std::to_string(labels.size()) + " labels but "
                         + std::to_string(predictions.size()) + " predictions");
    }
    FhrSplit split;
    split.headClasses = k;
    for (size_t i = 0; i < labels.size(); ++i) {
        if (labels[i] >= k) {
            ++split.tailImages;
            split.falseHeads += predictions[i] < k ? 1 : 0;
        }
    }
    split.rate = split.tailImages > 0 ? static_cast<double>(split.falseHeads) / static_cast<double>(split.tailImages)
                                      : 0.0;
    return split;
}

std::vector<FhrSplit> falseHeadRateCurve(const std::vector<int64_t>& labels, const std::vector<int64_t>& predictions,
                                         int64_t classCount)
{
    std::vector<FhrSplit> curve;
    for (int64_t k = 1; k < classCount; ++k) {
        curve.push_back(falseHeadRate(labels, predictions, k));
    }
    return curve;
}

int64_t fhrHeadClasses(int64_t classCount, double ratio)
{
    return static_cast<int64_t>(static_cast<double>(classCount) * ratio + 0.5);
}

std::vector<FhrPoint> falseHeadRatePoints(const std::vector<int64_t>& labels, const std::vector<int64_t>& predictions,
                                          int64_t classCount)
{
    std::vector<FhrPoint> points;
    for (const double ratio : kFhrRatios) {
        FhrPoint point;
        point.ratio = ratio;
        point.split = falseHeadRate(labels, predictions, fhrHeadClasses(classCount, ratio));
        points.push_back(point);
    }
    return points;
}

} // namespace lbd

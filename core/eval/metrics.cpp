#include "core/eval/metrics.h"

#include "core/util/error.h"

#include <cmath>

namespace lbd {
namespace {

void checkPairs(const std::vector<int64_t>& labels, const std::vector<int64_t>& predictions, int64_t classCount)
{
    if (labels.size() != predictions.size()) {
        throw InputError("metrics: " + std::to_string(labels.size()) + " labels but "
                         + std::to_string(predictions.size()) + " predictions");
    }
    for (size_t i = 0; i < labels.size(); ++i) {
        if (labels[i] < 0 || labels[i] >= classCount) {
            throw InputError("metrics: label " + std::to_string(labels[i]) + " of image " + std::to_string(i)
                             + " is outside 0.." + std::to_string(classCount - 1));
        }
        if (predictions[i] < 0 || predictions[i] >= classCount) {
            throw InputError("metrics: prediction " + std::to_string(predictions[i]) + " of image "
                             + std::to_string(i) + " is outside 0.." + std::to_string(classCount - 1));
        }
    }
}

} // namespace

GroupAccuracy groupAccuracy(int64_t correct, int64_t total)
{
    GroupAccuracy result;
    result.correct = correct;
    result.total = total;
    result.accuracy = total > 0 ? static_cast<double>(correct) / static_cast<double>(total) : 0.0;
    return result;
}

GroupAccuracy accuracy(const std::vector<int64_t>& labels, const std::vector<int64_t>& predictions)
{
    if (labels.size() != predictions.size()) {
        throw InputError("metrics: " + std::to_string(labels.size()) + " labels but "
                         + std::to_string(predictions.size()) + " predictions");
    }
    int64_t correct = 0;
    for (size_t i = 0; i < labels.size(); ++i) {
        correct += labels[i] == predictions[i] ? 1 : 0;
    }
    return groupAccuracy(correct, static_cast<int64_t>(labels.size()));
}

std::vector<GroupAccuracy> perClassAccuracy(const std::vector<int64_t>& labels,
                                            const std::vector<int64_t>& predictions, int64_t classCount)
{
    checkPairs(labels, predictions, classCount);
    std::vector<int64_t> correct(static_cast<size_t>(classCount), 0);
    std::vector<int64_t> total(static_cast<size_t>(classCount), 0);
    for (size_t i = 0; i < labels.size(); ++i) {
        ++total[labels[i]];
        correct[labels[i]] += labels[i] == predictions[i] ? 1 : 0;
    }
    std::vector<GroupAccuracy> result;
    result.reserve(static_cast<size_t>(classCount));
    for (int64_t c = 0; c < classCount; ++c) {
        result.push_back(groupAccuracy(correct[c], total[c]));
    }
    return result;
}

std::vector<std::vector<int64_t>> confusionMatrix(const std::vector<int64_t>& labels,
                                                  const std::vector<int64_t>& predictions, int64_t classCount)
{
    checkPairs(labels, predictions, classCount);
    std::vector<std::vector<int64_t>> confusion(static_cast<size_t>(classCount),
                                                std::vector<int64_t>(static_cast<size_t>(classCount), 0));
    for (size_t i = 0; i < labels.size(); ++i) {
        ++confusion[labels[i]][predictions[i]];
    }
    return confusion;
}

RegionAccuracies regionAccuracy(const std::vector<int64_t>& labels, const std::vector<int64_t>& predictions,
                                const std::vector<int64_t>& trainCounts, RegionScheme scheme)
{
    const auto classCount = static_cast<int64_t>(trainCounts.size());
    checkPairs(labels, predictions, classCount);
    const std::vector<Region> regions = classRegions(trainCounts, scheme);
    int64_t correct[kRegionCount] = {};
    int64_t total[kRegionCount] = {};
    for (size_t i = 0; i < labels.size(); ++i) {
        const auto r = static_cast<int>(regions[labels[i]]);
        ++total[r];
        correct[r] += labels[i] == predictions[i] ? 1 : 0;
    }
    RegionAccuracies result;
    result.scheme = scheme;
    for (int r = 0; r < kRegionCount; ++r) {
        RegionAccuracy region;
        region.region = static_cast<Region>(r);
        region.name = regionName(region.region, scheme);
        region.counts = groupAccuracy(correct[r], total[r]);
        result.regions.push_back(region);
    }
    return result;
}

double negativeLogLikelihood(const std::vector<double>& trueClassProbability)
{
    if (trueClassProbability.empty()) {
        return 0.0;
    }
    double sum = 0.0;
    for (const double p : trueClassProbability) {
        sum -= std::log(std::max(p, 1e-12)); // same floor as the decisions: a 0 would be +inf in the JSON
    }
    return sum / static_cast<double>(trueClassProbability.size());
}

double meanUtility(const std::vector<int64_t>& labels, const std::vector<int64_t>& predictions,
                   const UtilityMatrix& utility)
{
    checkPairs(labels, predictions, utility.classCount());
    if (labels.empty()) {
        return 0.0;
    }
    double sum = 0.0;
    for (size_t i = 0; i < labels.size(); ++i) {
        sum += utility(labels[i], predictions[i]);
    }
    return sum / static_cast<double>(labels.size());
}

} // namespace lbd

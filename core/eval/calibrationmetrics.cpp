#include "core/eval/calibrationmetrics.h"

#include "core/eval/calibration.h"
#include "core/util/error.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>
#include <string>

namespace lbd {
namespace {

void checkShape(const std::vector<double>& pbar, const std::vector<int64_t>& labels, int64_t classCount,
                const char* what)
{
    if (classCount < 1 || pbar.size() != labels.size() * static_cast<size_t>(classCount)) {
        throw InputError(std::string(what) + ": " + std::to_string(pbar.size()) + " probabilities for "
                         + std::to_string(labels.size()) + " images of " + std::to_string(classCount) + " classes");
    }
    for (size_t n = 0; n < labels.size(); ++n) {
        if (labels[n] < 0 || labels[n] >= classCount) {
            throw InputError(std::string(what) + ": label " + std::to_string(labels[n]) + " of image "
                             + std::to_string(n) + " is not one of the " + std::to_string(classCount) + " classes");
        }
    }
}

// Percentile with linear interpolation between order statistics (numpy's default).
double percentile(std::vector<double> values, double fraction)
{
    std::sort(values.begin(), values.end());
    const double position = fraction * static_cast<double>(values.size() - 1);
    const auto below = static_cast<size_t>(std::floor(position));
    const size_t above = std::min(below + 1, values.size() - 1);
    return values[below] + (position - static_cast<double>(below)) * (values[above] - values[below]);
}

} // namespace

double brierScore(const std::vector<double>& pbar, const std::vector<int64_t>& labels, int64_t classCount)
{
    checkShape(pbar, labels, classCount, "Brier score");
    if (labels.empty()) {
        return 0.0;
    }
    double sum = 0.0;
    for (size_t n = 0; n < labels.size(); ++n) {
        for (int64_t k = 0; k < classCount; ++k) {
            const double target = labels[n] == k ? 1.0 : 0.0;
            const double d = pbar[n * static_cast<size_t>(classCount) + static_cast<size_t>(k)] - target;
            sum += d * d;
        }
    }
    return sum / static_cast<double>(labels.size());
}

double classwiseEce(const std::vector<double>& pbar, const std::vector<int64_t>& labels, int64_t classCount,
                    int binCount)
{
    checkShape(pbar, labels, classCount, "classwise ECE");
    double sum = 0.0;
    std::vector<double> confidence(labels.size());
    std::vector<bool> isClass(labels.size());
    for (int64_t k = 0; k < classCount; ++k) {
        for (size_t n = 0; n < labels.size(); ++n) {
            confidence[n] = pbar[n * static_cast<size_t>(classCount) + static_cast<size_t>(k)];
            isClass[n] = labels[n] == k;
        }
        sum += calibrationBins(confidence, isClass, binCount).ece;
    }
    return sum / static_cast<double>(classCount);
}

double adaptiveEce(const std::vector<double>& confidence, const std::vector<bool>& correct, int binCount)
{
    if (binCount < 1) {
        throw InputError("adaptive ECE: the number of bins must be at least 1, got " + std::to_string(binCount));
    }
    if (confidence.size() != correct.size()) {
        throw InputError("adaptive ECE: " + std::to_string(confidence.size()) + " confidences but "
                         + std::to_string(correct.size()) + " correctness flags");
    }
    const size_t n = confidence.size();
    if (n == 0) {
        return 0.0;
    }
    std::vector<size_t> order(n);
    std::iota(order.begin(), order.end(), size_t(0));
    std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return confidence[a] < confidence[b]; });
    double ece = 0.0;
    for (int b = 0; b < binCount; ++b) {
        const size_t begin = static_cast<size_t>(b) * n / static_cast<size_t>(binCount);
        const size_t end = static_cast<size_t>(b + 1) * n / static_cast<size_t>(binCount);
        if (end == begin) {
            continue;
        }
        double confidenceSum = 0.0;
        double correctSum = 0.0;
        for (size_t i = begin; i < end; ++i) {
            confidenceSum += confidence[order[i]];
            correctSum += correct[order[i]] ? 1.0 : 0.0;
        }
        // (n_b / N) |acc_b - conf_b| = |correct_b - confidence_b| / N
        ece += std::abs(correctSum - confidenceSum) / static_cast<double>(n);
    }
    return ece;
}

std::pair<double, double> bootstrapEceInterval(const std::vector<double>& confidence, const std::vector<bool>& correct,
                                               int64_t resamples, uint64_t seed, int binCount)
{
    if (resamples < 1) {
        throw InputError("ECE interval: the number of bootstrap resamples must be at least 1, got "
                         + std::to_string(resamples));
    }
    if (confidence.size() != correct.size()) {
        throw InputError("ECE interval: " + std::to_string(confidence.size()) + " confidences but "
                         + std::to_string(correct.size()) + " correctness flags");
    }
    const size_t n = confidence.size();
    if (n == 0) {
        return {0.0, 0.0};
    }
    // Bin once; a resample only recounts the bins.
    std::vector<int> bin(n);
    for (size_t i = 0; i < n; ++i) {
        bin[i] = calibrationBinIndex(confidence[i], binCount);
    }
    std::mt19937_64 generator(seed);
    std::uniform_int_distribution<size_t> pick(0, n - 1);
    std::vector<double> eces;
    eces.reserve(static_cast<size_t>(resamples));
    std::vector<double> confidenceSum(static_cast<size_t>(binCount));
    std::vector<double> correctSum(static_cast<size_t>(binCount));
    for (int64_t r = 0; r < resamples; ++r) {
        std::fill(confidenceSum.begin(), confidenceSum.end(), 0.0);
        std::fill(correctSum.begin(), correctSum.end(), 0.0);
        for (size_t draw = 0; draw < n; ++draw) {
            const size_t i = pick(generator);
            confidenceSum[static_cast<size_t>(bin[i])] += confidence[i];
            correctSum[static_cast<size_t>(bin[i])] += correct[i] ? 1.0 : 0.0;
        }
        double ece = 0.0;
        for (int b = 0; b < binCount; ++b) {
            ece += std::abs(correctSum[static_cast<size_t>(b)] - confidenceSum[static_cast<size_t>(b)]);
        }
        eces.push_back(ece / static_cast<double>(n));
    }
    return {percentile(eces, 0.025), percentile(eces, 0.975)};
}

CalibrationMetrics calibrationMetrics(const std::vector<double>& pbar, const std::vector<int64_t>& labels,
                                      int64_t classCount, const std::vector<double>& confidence,
                                      const std::vector<bool>& correct, int64_t resamples, uint64_t seed)
{
    CalibrationMetrics metrics;
    metrics.brier = brierScore(pbar, labels, classCount);
    metrics.classwiseEce = classwiseEce(pbar, labels, classCount);
    metrics.adaptiveEce = adaptiveEce(confidence, correct);
    const auto [low, high] = bootstrapEceInterval(confidence, correct, resamples, seed);
    metrics.eceLow = low;
    metrics.eceHigh = high;
    metrics.bootstrapResamples = resamples;
    metrics.bootstrapSeed = seed;
    return metrics;
}

} // namespace lbd

#include "core/eval/publishedmetrics.h"

#include "core/eval/auroc.h"
#include "core/eval/decisions.h"
#include "core/util/error.h"
#include "core/util/tensorvector.h"

#include <cmath>

namespace lbd {

PublishedCalibration publishedCalibration(const std::vector<double>& confidence, const std::vector<bool>& correct)
{
    if (confidence.size() != correct.size()) {
        throw InputError("published calibration: " + std::to_string(confidence.size()) + " confidences for "
                         + std::to_string(correct.size()) + " decisions");
    }
    std::vector<int64_t> count(kPublishedCalibrationBins, 0);
    std::vector<double> right(kPublishedCalibrationBins, 0.0);
    std::vector<double> sure(kPublishedCalibrationBins, 0.0);
    PublishedCalibration result;
    for (size_t i = 0; i < confidence.size(); ++i) {
        const double c = confidence[i];
        if (!(c >= 0.0 && c < 1.0)) {
            ++result.unbinned; // 1 - H(q) < 0 (a near-uniform q) or exactly 1: in no bin of the published code
            continue;
        }
        const int bin = std::min(kPublishedCalibrationBins - 1, static_cast<int>(std::floor(c * kPublishedCalibrationBins)));
        ++count[bin];
        right[bin] += correct[i] ? 1.0 : 0.0;
        sure[bin] += c;
    }
    double sum = 0.0;
    for (int b = 0; b < kPublishedCalibrationBins; ++b) {
        CalibrationBin bin;
        bin.lower = static_cast<double>(b) / kPublishedCalibrationBins;
        bin.upper = static_cast<double>(b + 1) / kPublishedCalibrationBins;
        bin.count = count[b];
        if (count[b] > 0) {
            // n_b |acc_b - conf_b| = |sum correct - sum confidence| over the bin
            sum += std::abs(right[b] - sure[b]);
            bin.accuracy = right[b] / static_cast<double>(count[b]);
            bin.meanConfidence = sure[b] / static_cast<double>(count[b]);
        }
        result.bins.push_back(bin);
    }
    result.ece = confidence.empty() ? 0.0 : sum / static_cast<double>(confidence.size());
    return result;
}

torch::Tensor publishedConfidence(const torch::Tensor& particleProbs)
{
    const torch::Tensor meanLog = decisionScores(particleProbs, UtilityMatrix(), DecisionRule::MeanLogit); // [N, C]
    const torch::Tensor logQ = torch::log_softmax(meanLog.to(torch::kFloat64), 1);
    const torch::Tensor entropy = -(logQ.exp() * logQ).sum(1); // 0 log 0 = 0: exp(-inf) * -inf never occurs, logQ is finite
    return 1.0 - entropy;
}

PublishedMetrics publishedMetrics(const torch::Tensor& particleProbs, const std::vector<int64_t>& labels)
{
    const torch::Tensor meanLog = decisionScores(particleProbs, UtilityMatrix(), DecisionRule::MeanLogit);
    if (static_cast<int64_t>(labels.size()) != meanLog.size(0)) {
        throw InputError("published metrics: " + std::to_string(labels.size()) + " labels for "
                         + std::to_string(meanLog.size(0)) + " images");
    }
    const std::vector<int64_t> decided = toVector<int64_t>(meanLog.argmax(1));
    const std::vector<double> confidence = toVector<double>(publishedConfidence(particleProbs));
    std::vector<bool> correct(labels.size());
    int64_t right = 0;
    for (size_t i = 0; i < labels.size(); ++i) {
        correct[i] = decided[i] == labels[i];
        right += correct[i] ? 1 : 0;
    }
    PublishedMetrics metrics;
    metrics.accuracy = labels.empty() ? 0.0 : static_cast<double>(right) / static_cast<double>(labels.size());
    const PublishedCalibration calibration = publishedCalibration(confidence, correct);
    metrics.ece = calibration.ece;
    metrics.unbinned = calibration.unbinned;
    metrics.bins = calibration.bins;
    metrics.auroc = misclassificationAuroc(confidence, correct);
    return metrics;
}

} // namespace lbd

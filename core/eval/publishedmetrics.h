#pragma once
// The published code's test-time decision and metrics (lbd-math.md section 6, `model/metric.py`
// and `trainer.py` of the published code), computed beside ours so that a number compared with the
// paper's tables is the paper's kind of number: q = softmax of the mean particle logits, decision
// argmax q, confidence_pub = 1 - H(q) in nats (negative when H > 1), ECE over 10 bins
// [i/10, (i+1)/10) divided by EVERY image (those outside [0, 1) sit in no bin), AUROC of
// (correct, confidence_pub).
#include "core/eval/evaluationreport.h"

#include <torch/torch.h>

#include <cstdint>
#include <vector>

namespace lbd {

inline constexpr int kPublishedCalibrationBins = 10;

struct PublishedCalibration {
    double ece = 0.0;
    int64_t unbinned = 0; // confidence outside [0, 1): counted in the denominator only
    std::vector<CalibrationBin> bins; // [i/10, (i+1)/10): count, accuracy, mean confidence
};

// The published ECE of one confidence per image (torch-free, so the hand-checked vector E tests it alone).
PublishedCalibration publishedCalibration(const std::vector<double>& confidence, const std::vector<bool>& correct);

// confidence_pub = 1 - H(softmax(mean logits)) per image, from particle probabilities [M, N, C]:
// the mean of log p_j equals the mean logits minus a constant per image, so softmax of it is q.
torch::Tensor publishedConfidence(const torch::Tensor& particleProbs);

// Everything of PublishedMetrics from particle probabilities [M, N, C] and labels [N].
PublishedMetrics publishedMetrics(const torch::Tensor& particleProbs, const std::vector<int64_t>& labels);

} // namespace lbd

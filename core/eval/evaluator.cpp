#include "core/eval/evaluator.h"

#include "core/eval/auroc.h"
#include "core/eval/calibration.h"
#include "core/eval/calibrationmetrics.h"
#include "core/eval/decisions.h"
#include "core/eval/degeneracy.h"
#include "core/eval/falseheadrate.h"
#include "core/eval/metrics.h"
#include "core/eval/publishedmetrics.h"
#include "core/eval/riskcoverage.h"
#include "core/eval/uncertainty.h"
#include "core/util/error.h"
#include "core/util/tensorvector.h"

namespace lbd {
namespace {

double mean(const std::vector<FhrSplit>& splits)
{
    double sum = 0.0;
    for (const auto& split : splits) {
        sum += split.rate;
    }
    return splits.empty() ? 0.0 : sum / static_cast<double>(splits.size());
}

DeferReport deferReport(double deferUtility, const std::vector<int64_t>& y, const std::vector<int64_t>& decisions,
                        const std::vector<int64_t>& trainCounts)
{
    DeferReport report;
    report.deferUtility = deferUtility;
    std::vector<int64_t> decidedLabels;
    std::vector<int64_t> decidedPredictions;
    for (size_t i = 0; i < y.size(); ++i) {
        if (decisions[i] == kDeferred) {
            ++report.deferred;
        } else {
            decidedLabels.push_back(y[i]);
            decidedPredictions.push_back(decisions[i]);
        }
    }
    report.decided = static_cast<int64_t>(decidedLabels.size());
    report.coverage = y.empty() ? 0.0 : static_cast<double>(report.decided) / static_cast<double>(y.size());
    report.selective = accuracy(decidedLabels, decidedPredictions);
    report.selectiveRegions = regionAccuracy(decidedLabels, decidedPredictions, trainCounts, RegionScheme::ThirdsByIndex);
    return report;
}

// The risk-coverage curve of the images whose true class is in the tail third.
RiskCoverageCurve tailRiskCoverage(const std::vector<double>& ruleConfidence, const std::vector<bool>& correct,
                                   const std::vector<int64_t>& y, const std::vector<int64_t>& trainCounts)
{
    const std::vector<Region> regions = classRegions(trainCounts, RegionScheme::ThirdsByIndex);
    std::vector<double> tailConfidence;
    std::vector<bool> tailCorrect;
    for (size_t i = 0; i < y.size(); ++i) {
        if (regions[static_cast<size_t>(y[i])] == Region::Tail) {
            tailConfidence.push_back(ruleConfidence[i]);
            tailCorrect.push_back(correct[i]);
        }
    }
    return riskCoverage(tailConfidence, tailCorrect);
}

} // namespace

EvaluationReport evaluate(const torch::Tensor& particleProbs, const torch::Tensor& labels,
                          const std::vector<int64_t>& trainCounts, const UtilityMatrix& utility, DecisionRule rule,
                          std::optional<double> deferUtility)
{
    torch::NoGradGuard noGrad;
    const torch::Tensor probs = asParticleProbabilities(particleProbs);
    const int64_t particleCount = probs.size(0);
    const int64_t imageCount = probs.size(1);
    const int64_t classCount = probs.size(2);
    if (classCount < 1) {
        throw InputError("evaluation: the probabilities have no classes");
    }
    if (!labels.defined() || labels.dim() != 1 || labels.size(0) != imageCount) {
        throw InputError("evaluation: expected " + std::to_string(imageCount) + " labels (one per image), got a tensor of "
                         + (labels.defined() ? std::to_string(labels.numel()) : std::string("no")) + " values");
    }
    if (static_cast<int64_t>(trainCounts.size()) != classCount) {
        throw InputError("evaluation: " + std::to_string(trainCounts.size()) + " training counts for "
                         + std::to_string(classCount) + " classes");
    }
    if (utility.classCount() != classCount) { // also for the rules that ignore U: mean utility uses it
        throw InputError("evaluation: the utility matrix is " + std::to_string(utility.classCount()) + " x "
                         + std::to_string(utility.classCount()) + " but there are " + std::to_string(classCount)
                         + " classes");
    }
    if (!torch::isfinite(probs).all().item<bool>()) {
        throw InputError("evaluation: the particle probabilities contain NaN or infinite values");
    }

    const Decisions decided = decide(probs, utility, rule, deferUtility);
    const torch::Tensor pbar = probs.mean(0);
    const torch::Tensor labels64 = labels.to(probs.device(), torch::kInt64);

    const std::vector<int64_t> y = toVector<int64_t>(labels);
    const std::vector<int64_t> yhat = toVector<int64_t>(decided.undeferred);
    // Calibration asks how often the decision is right when pbar gives it probability q: the
    // confidence is pbar of the decided class (= max pbar only for argmax).
    const std::vector<double> confidence = toVector<double>(pbar.gather(1, decided.undeferred.unsqueeze(1)).squeeze(1));
    const std::vector<double> ruleConfidence = toVector<double>(decided.confidence);
    const std::vector<double> negativeEntropy = toVector<double>(-entropy(pbar));
    EvaluationReport report;
    report.rule = rule;
    report.classCount = classCount;
    report.imageCount = imageCount;
    report.particleCount = particleCount;
    // Checks the labels' range before the gather below: a bad label is an InputError, not a c10::Error.
    report.perClass = perClassAccuracy(y, yhat, classCount);
    const std::vector<double> trueClassProbability = toVector<double>(pbar.gather(1, labels64.unsqueeze(1)).squeeze(1));

    std::vector<bool> correct(y.size());
    for (size_t i = 0; i < y.size(); ++i) {
        correct[i] = y[i] == yhat[i];
    }

    report.overall = accuracy(y, yhat);
    report.regionsThirds = regionAccuracy(y, yhat, trainCounts, RegionScheme::ThirdsByIndex);
    report.regionsCounts = regionAccuracy(y, yhat, trainCounts, RegionScheme::ByTrainCount);
    report.confusion = confusionMatrix(y, yhat, classCount);

    report.fhrCurve = falseHeadRateCurve(y, yhat, classCount);
    report.fhrPoints = falseHeadRatePoints(y, yhat, classCount);
    report.fhrConvention = kFhrConvention;
    report.fhrCurveMean = mean(report.fhrCurve);
    std::vector<FhrSplit> pointSplits;
    for (const auto& point : report.fhrPoints) {
        pointSplits.push_back(point.split);
    }
    report.fhrPointsMean = mean(pointSplits);

    report.calibration = calibrationBins(confidence, correct);
    report.regionCalibration = regionCalibration(confidence, correct, y,
                                                 classRegions(trainCounts, RegionScheme::ThirdsByIndex),
                                                 RegionScheme::ThirdsByIndex);

    report.aurocConfidence = misclassificationAuroc(confidence, correct);
    report.aurocNegativeEntropy = misclassificationAuroc(negativeEntropy, correct);
    report.nll = negativeLogLikelihood(trueClassProbability);
    report.calibrationMetrics =
        calibrationMetrics(toVector<double>(pbar.reshape({-1})), y, classCount, confidence, correct);
    report.published = publishedMetrics(probs, y);
    report.meanUtility = meanUtility(y, yhat, utility);

    report.riskCoverage = riskCoverage(ruleConfidence, correct);
    report.riskCoverageTail = tailRiskCoverage(ruleConfidence, correct, y, trainCounts);
    if (deferUtility) {
        report.defer = deferReport(*deferUtility, y, toVector<int64_t>(decided.decisions), trainCounts);
    }

    if (const auto warning = decisionRuleWarning(rule, utility)) {
        report.warnings.push_back(*warning);
    }
    for (std::string& warning : degeneracyWarnings(report)) {
        report.warnings.push_back(std::move(warning));
    }
    return report;
}

} // namespace lbd

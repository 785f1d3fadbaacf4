#include "core/eval/evaluator.h"

#include "core/eval/auroc.h"
#include "core/eval/calibration.h"
#include "core/eval/decisions.h"
#include "core/eval/falseheadrate.h"
#include "core/eval/metrics.h"
#include "core/eval/uncertainty.h"
#include "core/util/error.h"
#include "core/util/tensorvector.h"

namespace lbd {
EvaluationReport evaluate(const torch::Tensor& particleProbs, const torch::Tensor& labels,
                          const std::vector<int64_t>& trainCounts, const UtilityMatrix& utility, DecisionRule rule)
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
    if (utility.classCount() != classCount) {
        throw InputError("evaluation: the utility matrix is " + std::to_string(utility.classCount()) + " x "
                         + std::to_string(utility.classCount()) + " but there are " + std::to_string(classCount)
                         + " classes");
    }
    if (!torch::isfinite(probs).all().item<bool>()) {
        throw InputError("evaluation: the particle probabilities contain NaN or infinite values");
    }

    const Decisions decided = decide(probs, utility, rule);
    const torch::Tensor pbar = probs.mean(0);
    const torch::Tensor labels64 = labels.to(probs.device(), torch::kInt64);

    const std::vector<int64_t> y = toVector<int64_t>(labels);
    const std::vector<int64_t> yhat = toVector<int64_t>(decided.decisions);
    const std::vector<double> confidence = toVector<double>(std::get<0>(pbar.max(1)));
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

    report.calibration = calibrationBins(confidence, correct);
    report.regionCalibration = regionCalibration(confidence, correct, y,
                                                 classRegions(trainCounts, RegionScheme::ThirdsByIndex),
                                                 RegionScheme::ThirdsByIndex);

    report.aurocConfidence = misclassificationAuroc(confidence, correct);
    report.aurocNegativeEntropy = misclassificationAuroc(negativeEntropy, correct);
    report.nll = negativeLogLikelihood(trueClassProbability);
    report.meanUtility = meanUtility(y, yhat, utility);
    return report;
}

} // namespace lbd

#include "core/infer/runtuning.h"

#include "core/util/error.h"

#include <algorithm>
#include <cmath>
#include <functional>

namespace lbd {
namespace {

void requireValidation(const RunResults& results)
{
    if (results.split != ResultSplit::Validation) {
        throw InputError(results.directory + ": tuning reads the validation split, not the " + resultSplitName(results.split)
                         + " split");
    }
}

} // namespace

const std::vector<double>& defaultTailPenalties()
{
    static const std::vector<double> penalties = {0.0, 0.1, 0.25, 0.5, 0.75, 1.0, 1.5, 2.0, 3.0, 4.0, 6.0, 8.0};
    return penalties;
}

TunedTailPenalty tuneTailPenalty(const RunResults& validation, DecisionRule rule, double maxAccuracyLoss,
                                 const std::vector<double>& penalties)
{
    requireValidation(validation);
    if (!decisionRuleInfo(rule).usesUtility) {
        throw InputError("tuning the tail penalty needs a rule that uses the utility matrix (" + decisionRuleName(rule)
                         + " ignores it)");
    }
    if (!(maxAccuracyLoss >= 0.0 && maxAccuracyLoss <= 1.0)) {
        throw InputError("the accuracy budget must be between 0 and 100 points");
    }
    TunedTailPenalty tuned;
    tuned.maxAccuracyLoss = maxAccuracyLoss;
    const auto classes = static_cast<int64_t>(validation.classNames.size());
    const EvaluationReport baseline = evaluateRunResults(validation, UtilityMatrix::oneHot(classes), rule);
    tuned.baselineAccuracy = baseline.overall.accuracy;
    double bestFhr = baseline.fhrCurveMean;
    for (const double penalty : penalties) {
        const EvaluationReport report = evaluateRunResults(validation, UtilityMatrix::tailSensitive(classes, penalty), rule);
        tuned.candidates.push_back({penalty, report.overall.accuracy, report.fhrCurveMean});
        if (report.overall.accuracy >= tuned.baselineAccuracy - maxAccuracyLoss - 1e-12 && report.fhrCurveMean < bestFhr) {
            bestFhr = report.fhrCurveMean;
            tuned.penalty = penalty;
        }
    }
    return tuned;
}

TunedDeferUtility tuneDeferUtility(const RunResults& validation, const UtilityMatrix& utility, DecisionRule rule,
                                   double coverage)
{
    requireValidation(validation);
    if (!(coverage > 0.0 && coverage <= 1.0)) {
        throw InputError("the target coverage must be above 0 and at most 1, got " + std::to_string(coverage));
    }
    if (!decisionRuleInfo(rule).supportsDefer) {
        throw InputError("the " + decisionRuleName(rule) + " rule has no defer option (use expected or argmax)");
    }
    // An image is decided when its confidence is at least r: r = the k-th largest confidence,
    // k = ceil(coverage N), decides at least k images (more on ties).
    std::vector<double> confidence = decisionConfidences(validation, utility, rule);
    std::sort(confidence.begin(), confidence.end(), std::greater<>());
    const auto n = confidence.size();
    const auto k = std::clamp<size_t>(static_cast<size_t>(std::ceil(coverage * static_cast<double>(n) - 1e-9)), 1, n);
    TunedDeferUtility tuned;
    tuned.deferUtility = confidence[k - 1];
    const EvaluationReport report = evaluateRunResults(validation, utility, rule, tuned.deferUtility);
    tuned.coverage = report.defer->coverage;
    tuned.selectiveAccuracy = report.defer->selective.accuracy;
    return tuned;
}

} // namespace lbd

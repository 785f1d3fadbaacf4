#include "core/infer/runtuning.h"

#include "core/eval/particletemperature.h"
#include "core/lbd/priorutility.h"
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

// The "before" of a calibrated report: the same decision on the model's own probabilities.
UncalibratedSummary uncalibratedSummary(const EvaluationReport& before)
{
    UncalibratedSummary summary;
    summary.accuracy = before.overall.accuracy;
    summary.nll = before.nll;
    summary.ece = before.calibration.ece;
    summary.mce = before.calibration.mce;
    summary.metrics = before.calibrationMetrics;
    return summary;
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

const std::vector<double>& defaultPriorTaus()
{
    static const std::vector<double> taus = {0.0, 0.25, 0.5, 0.75, 1.0, 1.25, 1.5, 1.75, 2.0, 2.5, 3.0};
    return taus;
}

TunedPriorTau tunePriorTau(const RunResults& validation, DecisionRule rule, const std::vector<double>& taus)
{
    requireValidation(validation);
    if (!decisionRuleInfo(rule).usesUtility) {
        throw InputError("tuning prior:tau needs a rule that uses the utility matrix (" + decisionRuleName(rule)
                         + " ignores it)");
    }
    checkPriorUtilityRule(rule, "tuning prior:tau");
    if (taus.empty()) {
        throw InputError("tuning prior:tau: no tau to try");
    }
    TunedPriorTau tuned;
    double best = -1.0;
    for (const double tau : taus) {
        const EvaluationReport report = evaluateRunResults(validation, priorAdjusted(validation.trainCounts, tau), rule);
        double sum = 0.0;
        int64_t present = 0;
        for (const GroupAccuracy& group : report.perClass) {
            if (group.total > 0) {
                sum += group.accuracy;
                ++present;
            }
        }
        const double balanced = present > 0 ? sum / static_cast<double>(present) : 0.0;
        tuned.candidates.push_back({tau, report.overall.accuracy, balanced, report.fhrCurveMean});
        if (balanced > best + 1e-12) {
            best = balanced;
            tuned.tau = tau;
        }
    }
    return tuned;
}

std::vector<double> meanProbabilities(const RunResults& results)
{
    const auto cells = static_cast<size_t>(results.images * results.classes);
    std::vector<double> pbar(cells, 0.0);
    for (int64_t j = 0; j < results.particles; ++j) {
        const float* particle = results.distribution(j, 0);
        for (size_t i = 0; i < cells; ++i) {
            pbar[i] += particle[i];
        }
    }
    for (double& p : pbar) {
        p /= static_cast<double>(std::max<int64_t>(results.particles, 1));
    }
    return pbar;
}

TemperatureFit fitRunTemperature(const RunResults& validation)
{
    requireValidation(validation);
    TemperatureFit fit = fitTemperature(meanProbabilities(validation), validation.labels, validation.classes);
    fit.split = resultSplitName(ResultSplit::Validation);
    saveTemperature(fit, validation.directory);
    return fit;
}

TemperatureFit runTemperature(const std::string& directory, bool fitIfMissing)
{
    if (auto fit = loadTemperature(directory)) {
        return *fit;
    }
    const RunResults test = loadRunResults(directory, ResultSplit::Test);
    if (!test.hasValidation) {
        throw InputError(directory + ": no validation split, so no temperature can be fitted (T is never fitted on the "
                                     "test set); train with --val-fraction or a validation list");
    }
    if (!fitIfMissing) {
        throw InputError(directory + ": no " + std::string(kTemperatureFileName) + " yet (lbd eval --calibrate fits it)");
    }
    return fitRunTemperature(loadRunResults(directory, ResultSplit::Validation));
}

RunResults temperatureScaledResults(const RunResults& results, double temperature)
{
    RunResults scaled = results;
    const std::vector<double> calibrated = temperatureScaled(meanProbabilities(results), results.classes, temperature);
    scaled.particles = 1;
    scaled.probabilities.assign(calibrated.begin(), calibrated.end());
    return scaled;
}

EvaluationReport evaluateCalibrated(const RunResults& results, double temperature, const UtilityMatrix& utility,
                                    DecisionRule rule, std::optional<double> deferUtility)
{
    if (rule != DecisionRule::Expected && rule != DecisionRule::Argmax) {
        throw InputError("calibrated probabilities: the " + decisionRuleName(rule) + " rule decides from each particle, "
                         "and the temperature scales pbar (softmax(log pbar / T)); use expected or argmax");
    }
    EvaluationReport report = evaluateRunResults(temperatureScaledResults(results, temperature), utility, rule, deferUtility);
    report.particleCount = results.particles;
    report.temperature = temperature;
    report.uncalibrated = uncalibratedSummary(evaluateRunResults(results, utility, rule, deferUtility));
    return report;
}

RunResults particleTemperatureScaledResults(const RunResults& results, const std::vector<double>& temperatures)
{
    RunResults scaled = results;
    const std::vector<double> probabilities(results.probabilities.begin(), results.probabilities.end());
    const std::vector<double> calibrated =
        particleTemperatureScaled(probabilities, results.particles, results.classes, temperatures);
    scaled.probabilities.assign(calibrated.begin(), calibrated.end());
    return scaled;
}

EvaluationReport evaluateParticleCalibrated(const RunResults& results, const std::vector<double>& temperatures,
                                            const UtilityMatrix& utility, DecisionRule rule,
                                            std::optional<double> deferUtility)
{
    EvaluationReport report =
        evaluateRunResults(particleTemperatureScaledResults(results, temperatures), utility, rule, deferUtility);
    report.uncalibrated = uncalibratedSummary(evaluateRunResults(results, utility, rule, deferUtility));
    return report;
}

} // namespace lbd

#include "core/infer/calibratedprediction.h"

#include "core/eval/decisions.h"
#include "core/eval/temperature.h"
#include "core/util/error.h"
#include "core/util/numbertext.h"

#include <torch/torch.h>

#include <algorithm>
#include <cmath>
#include <numeric>

namespace lbd {

bool ruleTakesCalibration(DecisionRule rule)
{
    return rule == DecisionRule::Expected || rule == DecisionRule::Argmax;
}

Prediction calibratedPrediction(const Prediction& raw, double temperature, const UtilityMatrix& utility,
                                DecisionRule rule, std::optional<double> deferUtility)
{
    if (!(std::isfinite(temperature) && temperature > 0.0)) {
        throw InputError("calibrated probabilities: the temperature must be a finite number above 0 (got "
                         + numberText(temperature) + ")");
    }
    if (!ruleTakesCalibration(rule)) {
        throw InputError("calibrated probabilities: the " + decisionRuleName(rule) + " rule decides from each particle, "
                         "and the temperature scales pbar (softmax(log pbar / T)); use expected or argmax");
    }
    const auto classes = static_cast<int64_t>(raw.meanProbabilities.size());
    Prediction p = raw;
    p.meanProbabilities = temperatureScaled(raw.meanProbabilities, classes, temperature);
    // One "particle", the calibrated pbar: what evaluateCalibrated decides too.
    const torch::Tensor pbar = torch::tensor(p.meanProbabilities, torch::kDouble).view({1, 1, classes});
    const Decisions decided = decide(pbar, utility, rule, deferUtility);

    std::vector<int64_t> order(static_cast<size_t>(classes));
    std::iota(order.begin(), order.end(), int64_t(0));
    // Stable: ties keep the lower class first, as torch's sort of the uncalibrated pbar mostly does.
    std::stable_sort(order.begin(), order.end(), [&](int64_t a, int64_t b) {
        return p.meanProbabilities[static_cast<size_t>(a)] > p.meanProbabilities[static_cast<size_t>(b)];
    });
    const size_t shown = std::clamp<size_t>(raw.topK.size(), 1, static_cast<size_t>(classes));
    p.topK.clear();
    for (size_t k = 0; k < shown; ++k) {
        p.topK.emplace_back(order[k], p.meanProbabilities[static_cast<size_t>(order[k])]);
    }
    p.argmaxClass = order.front();
    p.rule = rule;
    p.decidedClass = decided.undeferred[0].item<int64_t>();
    p.decisionConfidence = decided.confidence[0].item<double>();
    p.deferUtility = deferUtility;
    p.deferred = decided.decisions[0].item<int64_t>() == kDeferred;
    p.warning = decisionRuleWarning(rule, utility);
    const torch::Tensor scores = decided.scores[0].to(torch::kDouble).contiguous();
    p.decisionScores.assign(scores.data_ptr<double>(), scores.data_ptr<double>() + classes);
    return p;
}

double predictionTemperature(const std::string& runDirectory)
{
    const std::optional<TemperatureFit> fit = loadTemperature(runDirectory);
    if (!fit) {
        throw InputError(runDirectory + " has no " + std::string(kTemperatureFileName)
                         + ": fit T on the run's validation split first (lbd eval " + runDirectory
                         + " --calibrate); it is never fitted on the test set or on the images being classified");
    }
    return fit->temperature;
}

} // namespace lbd

#include "core/infer/calibratedprediction.h"

#include "core/eval/decisions.h"
#include "core/eval/particletemperature.h"
#include "core/eval/temperature.h"
#include "core/eval/uncertainty.h"
#include "core/infer/runresults.h"
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

namespace {

// `raw` decided again on `particles` ([M, 1, C] doubles): pbar, top-k, argmax, the decision, its
// scores and confidence, and defer.
Prediction redecided(const Prediction& raw, const torch::Tensor& particles, const UtilityMatrix& utility, DecisionRule rule,
                     std::optional<double> deferUtility)
{
    const int64_t classes = particles.size(2);
    Prediction p = raw;
    const torch::Tensor mean = particles.mean(0)[0].contiguous();
    p.meanProbabilities.assign(mean.data_ptr<double>(), mean.data_ptr<double>() + classes);
    const Decisions decided = decide(particles, utility, rule, deferUtility);

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

} // namespace

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
    // One "particle", the calibrated pbar: what evaluateCalibrated decides too.
    const std::vector<double> scaled = temperatureScaled(raw.meanProbabilities, classes, temperature);
    return redecided(raw, torch::tensor(scaled, torch::kDouble).view({1, 1, classes}), utility, rule, deferUtility);
}

Prediction particleCalibratedPrediction(const Prediction& raw, const std::vector<double>& temperatures,
                                        const UtilityMatrix& utility, DecisionRule rule, std::optional<double> deferUtility)
{
    const auto particles = static_cast<int64_t>(raw.particleProbabilities.size());
    const auto classes = static_cast<int64_t>(raw.meanProbabilities.size());
    std::vector<double> flat;
    for (const std::vector<double>& row : raw.particleProbabilities) {
        flat.insert(flat.end(), row.begin(), row.end());
    }
    const std::vector<double> scaled = particleTemperatureScaled(flat, particles, classes, temperatures);
    const torch::Tensor tensor = torch::tensor(scaled, torch::kDouble).view({particles, 1, classes});
    Prediction p = redecided(raw, tensor, utility, rule, deferUtility);
    for (int64_t j = 0; j < particles; ++j) {
        const auto begin = scaled.begin() + static_cast<std::ptrdiff_t>(j * classes);
        p.particleProbabilities[static_cast<size_t>(j)].assign(begin, begin + static_cast<std::ptrdiff_t>(classes));
    }
    p.uncertainty = computeUncertainty(tensor).image(0); // the particles changed: so do their disagreement and entropies
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

ParticleTemperatureFit runParticleTemperatures(const std::string& runDirectory, int64_t particleCount)
{
    std::string outdated;
    if (auto fit = loadParticleTemperatures(runDirectory, particleCount, &outdated)) {
        return *fit;
    }
    const RunResults test = loadRunResults(runDirectory, ResultSplit::Test);
    if (!test.hasValidation) {
        throw InputError(runDirectory + ": no validation split, so no per-particle temperatures can be fitted (they are "
                                        "never fitted on the test set); train with --val-fraction or a validation list"
                         + (outdated.empty() ? std::string() : " (" + outdated.substr(0, outdated.find(';')) + ")"));
    }
    const RunResults validation = loadRunResults(runDirectory, ResultSplit::Validation);
    if (validation.particles != particleCount) {
        throw InputError(runDirectory + ": the validation probabilities hold " + std::to_string(validation.particles)
                         + " particles, the run " + std::to_string(particleCount));
    }
    const std::vector<double> probabilities(validation.probabilities.begin(), validation.probabilities.end());
    ParticleTemperatureFit fit = fitParticleTemperatures(probabilities, validation.particles, validation.labels, validation.classes);
    fit.split = resultSplitName(ResultSplit::Validation);
    fit.note = outdated;
    saveParticleTemperatures(fit, runDirectory);
    return fit;
}

} // namespace lbd

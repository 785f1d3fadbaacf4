#pragma once
// Temperature-scaled probabilities for one classified image (issue 29): `lbd predict --calibrate`
// and the Classify page's "Calibrated" toggle. The run's temperature.json (core/eval/temperature.h,
// T fitted on the validation split by `lbd eval --calibrate`, never on the test set) turns pbar
// into softmax(log pbar / T) before the decision and its confidence, exactly as the Decision lab
// and `lbd eval --calibrate` do (core/infer/runtuning.h: the calibrated pbar as one particle).
#include "core/eval/decisionrule.h"
#include "core/eval/particletemperature.h"
#include "core/infer/prediction.h"
#include "core/lbd/utilitymatrix.h"

#include <optional>
#include <string>
#include <vector>

namespace lbd {

// `raw` re-decided on its calibrated pbar: meanProbabilities, topK (as many entries as `raw`
// had), argmaxClass, the decision, its scores and confidence, and defer. The particles'
// distributions and the uncertainties stay the model's own (T scales pbar, not each particle).
// InputError for a T that is not finite and above 0, and for the mean-logit and eq7 rules, which
// decide from each particle (one T on pbar does not describe them; use expected or argmax).
Prediction calibratedPrediction(const Prediction& raw, double temperature, const UtilityMatrix& utility,
                                DecisionRule rule, std::optional<double> deferUtility = std::nullopt);

// Per particle (issue 29 item 3): particle j's distribution becomes softmax(log p_j / T_j) with
// the exact log p_j (core/eval/particletemperature.h), pbar
// their mean, the uncertainties are recomputed, and every rule decides from the calibrated
// particles. InputError when the temperatures are not one per particle or not above 0.
Prediction particleCalibratedPrediction(const Prediction& raw, const std::vector<double>& temperatures,
                                        const UtilityMatrix& utility, DecisionRule rule,
                                        std::optional<double> deferUtility = std::nullopt);

// RUN_DIR/particle_temperatures.json (checked against the run's `particleCount` and the fit's
// range: InputError naming the file and field), or, when it is missing or was written before the
// joint fit, T_1..T_M fitted jointly on the run's validation split (and saved there; the fit's
// `note` says when an outdated file was replaced). InputError naming the run when it has no
// validation split: they are never fitted on the test set.
ParticleTemperatureFit runParticleTemperatures(const std::string& runDirectory, int64_t particleCount);

// Whether `rule` can decide calibrated probabilities (expected and argmax).
bool ruleTakesCalibration(DecisionRule rule);

// T of RUN_DIR/temperature.json for prediction; InputError naming the run and how to make the
// file (`lbd eval RUN --calibrate`, on the validation split) when it has none or it is damaged.
double predictionTemperature(const std::string& runDirectory);

} // namespace lbd

#pragma once
// Tuning a decision on the validation split, never on the test set: the tail penalty c of a
// tail-sensitive decision matrix, tau of the logit-adjustment preset prior:tau, the defer utility
// r, or the temperature T of calibrated pbar. The caller then reports the test split at the tuned
// value (`lbd eval --tune` / `--calibrate`, the Decision lab). Torch-free interface over RunResults.
#include "core/eval/temperature.h"
#include "core/infer/runresults.h"

#include <vector>

namespace lbd {

struct TailPenaltyCandidate {
    double penalty = 0.0;      // c of tail:c
    double accuracy = 0.0;     // validation
    double fhrCurveMean = 0.0; // validation
};

struct TunedTailPenalty {
    double penalty = 0.0;                       // the chosen c
    std::vector<TailPenaltyCandidate> candidates; // every c tried, in order
    double baselineAccuracy = 0.0;              // c = 0 (one-hot) on validation
    double maxAccuracyLoss = 0.0;               // the budget, as a fraction
};

// The default grid of c.
const std::vector<double>& defaultTailPenalties();

// The c with the lowest validation FHR curve mean among those whose validation accuracy is at
// most `maxAccuracyLoss` (a fraction, 0.01 = one point) below c = 0's; ties go to the smaller c.
// `validation` must hold the validation split (InputError otherwise).
TunedTailPenalty tuneTailPenalty(const RunResults& validation, DecisionRule rule, double maxAccuracyLoss,
                                 const std::vector<double>& penalties = defaultTailPenalties());

struct TunedDeferUtility {
    double deferUtility = 0.0; // r
    double coverage = 0.0;     // validation coverage reached at r
    double selectiveAccuracy = 0.0;
};

// The largest r whose validation coverage is at least `coverage` (in (0, 1]) under `utility` and
// `rule` (one that supports defer).
TunedDeferUtility tuneDeferUtility(const RunResults& validation, const UtilityMatrix& utility, DecisionRule rule,
                                   double coverage);

struct PriorTauCandidate {
    double tau = 0.0;
    double accuracy = 0.0;         // validation
    double balancedAccuracy = 0.0; // validation: mean per-class accuracy over classes with images
    double fhrCurveMean = 0.0;     // validation
};

struct TunedPriorTau {
    double tau = 0.0;
    std::vector<PriorTauCandidate> candidates; // every tau tried, in order
};

// The default grid of tau (Menon et al. tune it in [0, 2] or so; 1 is the balanced-error Bayes rule).
const std::vector<double>& defaultPriorTaus();

// The tau of prior:tau (core/lbd/priorutility.h) with the highest validation balanced accuracy,
// the error logit adjustment targets; ties go to the smaller tau. The rule must use the utility
// matrix and not be eq7 (checkPriorUtilityRule); `validation` must hold the validation split.
TunedPriorTau tunePriorTau(const RunResults& validation, DecisionRule rule,
                           const std::vector<double>& taus = defaultPriorTaus());

// ---- Temperature scaling (core/eval/temperature.h) ---------------------------------------------

// pbar of every cached image, [N][C] row-major.
std::vector<double> meanProbabilities(const RunResults& results);

// Fits T on `validation` (InputError for any other split) and writes RUN_DIR/temperature.json.
TemperatureFit fitRunTemperature(const RunResults& validation);

// The run's temperature.json; when it is missing and `fitIfMissing`, fits T on the validation
// split and saves it. InputError naming the run when there is no validation split to fit on (a
// run trained without --val-fraction / a validation list): T is never fitted on the test set.
TemperatureFit runTemperature(const std::string& directory, bool fitIfMissing = true);

// The same results with one "particle", the calibrated pbar = softmax(log pbar / T).
RunResults temperatureScaledResults(const RunResults& results, double temperature);

// The report of deciding the calibrated pbar (expected and argmax rules: mean-logit and eq7 decide
// from each particle, which one temperature on pbar does not describe; InputError for them), with
// report.temperature = T and report.uncalibrated = the same decision without scaling.
EvaluationReport evaluateCalibrated(const RunResults& results, double temperature, const UtilityMatrix& utility,
                                    DecisionRule rule, std::optional<double> deferUtility = std::nullopt);

// Per particle (core/eval/particletemperature.h): the same results with particle j's
// distributions softmax(log p_j / T_j) of the exact log p_j, every particle kept (so every rule
// applies). They are stored as float again, like the model's own: a calibrated probability below
// float's range (T_j well under 1 on a particle already sure) becomes the smallest float the
// mean-logit rule reads, as an underflowed softmax does.
RunResults particleTemperatureScaledResults(const RunResults& results, const std::vector<double>& temperatures);

// The report of deciding the per-particle calibrated results (any rule), with report.uncalibrated
// = the same decision without scaling; report.temperature stays empty (there are M of them).
// With one particle and T_1 = T it equals evaluateCalibrated's report; with M > 1 it does not:
// the mean of softmax(log p_j / T) is not softmax(log pbar / T) unless T = 1.
EvaluationReport evaluateParticleCalibrated(const RunResults& results, const std::vector<double>& temperatures,
                                            const UtilityMatrix& utility, DecisionRule rule,
                                            std::optional<double> deferUtility = std::nullopt);

} // namespace lbd

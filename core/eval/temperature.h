#pragma once
// Temperature scaling of the ensemble's pbar (issue 29; Guo et al. 2017, netcal's
// TemperatureScaling): calibrated pbar = softmax(log pbar / T), one T > 0 fitted by minimising the
// mean NLL on the validation split, never on the test set. T > 1 softens over-confident
// probabilities, T < 1 sharpens. Scaling keeps the order of each image's classes, so argmax is
// unchanged; expected-utility decisions, confidences, defer and every calibration metric change.
// Torch-free: pbar is [N][C] row-major doubles.
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace lbd {

inline constexpr const char* kTemperatureFileName = "temperature.json";
// The search interval of T (and of every T_j, core/eval/particletemperature.h); a fit at an end
// says the split is degenerate (all right or all wrong). A temperature file read back must hold a
// value in it: nothing else can come from a fit.
inline constexpr double kMinTemperature = 0.05;
inline constexpr double kMaxTemperature = 20.0;

struct TemperatureFit {
    double temperature = 1.0;
    std::string split = "validation"; // the split it was fitted on
    int64_t images = 0;               // of that split
    double nllBefore = 0.0;           // on that split, T = 1
    double nllAfter = 0.0;            // at the fitted T
};

// softmax(log max(pbar, 1e-12) / T) for every image (rows of `classCount`).
std::vector<double> temperatureScaled(const std::vector<double>& pbar, int64_t classCount, double temperature);
// Mean -log max(calibrated pbar[y], 1e-12) at T (the evaluation's NLL).
double temperatureNll(const std::vector<double>& pbar, const std::vector<int64_t>& labels, int64_t classCount,
                      double temperature);
// The log T in [log kMinTemperature, log kMaxTemperature] at the minimum of a unimodal f(log T), by
// golden-section search to 1e-6: the single-T fit and each step of the per-particle fit search alike.
double minimiseOverLogTemperature(const std::function<double(double)>& f);
// Golden-section search on log T over [kMinTemperature, kMaxTemperature] (the NLL is convex in
// 1 / T, hence unimodal in log T), to |log T| within 1e-6. InputError for no image or a bad shape.
TemperatureFit fitTemperature(const std::vector<double>& pbar, const std::vector<int64_t>& labels, int64_t classCount);

// InputError "<where> = 1e+308 is outside [0.05, 20], ..." unless kMinTemperature <= T <= kMaxTemperature.
void checkFittedTemperature(double temperature, const std::string& where);

// RUN_DIR/temperature.json, written atomically.
void saveTemperature(const TemperatureFit& fit, const std::string& runDirectory);
// Nothing when the run has no temperature.json; InputError naming the file and the field when it is
// damaged or holds what no fit gives: T outside the fit's range, not fitted on the validation
// split, no image, an NLL that is not a finite number of at least 0 (the one check of this file).
std::optional<TemperatureFit> loadTemperature(const std::string& runDirectory);

} // namespace lbd

#pragma once
// Per-particle temperature scaling (issue 29 item 3, issue 35 item 2; lbd-math.md section 9):
// calibrated particle j = softmax(log p_j / T_j), calibrated pbar = their mean. Two rules of the
// section make it differ from one T on pbar:
//  - log p_j is EXACT: the log of the particle's own probability, as the mean-logit rule reads it
//    (core/eval/decisions.cpp), never the log of a probability floored at 1e-12; a floor would
//    move a confident particle's log p from -40 to -27.6 and change decisions (vectors F and I).
//  - T_1..T_M are fitted JOINTLY on the validation NLL of the calibrated mean: calibrated members
//    do not make a calibrated mean (their mean is under-confident), so each T_j is not fitted to
//    its own particle.
// Every rule applies (mean-logit and eq7 decide from the calibrated particles). Stored beside
// temperature.json as particle_temperatures.json. Torch-free: probabilities are [M][N][C]
// row-major doubles (RunResults' layout).
#include "core/eval/temperature.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace lbd {

inline constexpr const char* kParticleTemperatureFileName = "particle_temperatures.json";

struct ParticleTemperatureFit {
    std::vector<double> values;       // T_j, in particle order, each in [kMinTemperature, kMaxTemperature]
    std::string split = "validation"; // the split they were fitted on
    int64_t images = 0;               // of that split
    double nllBefore = 0.0;           // NLL of the mean of the particles on that split, every T_j = 1
    double nllAfter = 0.0;            // ... at the fitted T_j
    std::string note;                 // set when an outdated file was replaced by this fit (for the user)

    const std::vector<double>& temperatures() const { return values; }
};

// log p as the mean-logit rule takes it: exact; only an exact zero (softmax underflow) is lifted to
// the smallest normal double so that the log stays finite.
double exactLogProbability(double probability);

// Mean -log max(pbar[y], 1e-12) of pbar = mean_j softmax(log p_j / T_j) (the evaluation's NLL),
// computed in the log domain. InputError for a bad shape, a label outside the classes, no image,
// or temperatures that are not one per particle, finite and above 0.
double particleTemperatureNll(const std::vector<double>& probabilities, int64_t particleCount,
                              const std::vector<int64_t>& labels, int64_t classCount,
                              const std::vector<double>& temperatures);

// T_1..T_M minimising particleTemperatureNll on these (validation) probabilities, each in
// [kMinTemperature, kMaxTemperature]: from the best common T, coordinate descent (golden-section
// search on each log T_j, to 1e-6) until no T_j moves; a move that would raise the NLL is not taken.
ParticleTemperatureFit fitParticleTemperatures(const std::vector<double>& probabilities, int64_t particleCount,
                                               const std::vector<int64_t>& labels, int64_t classCount);

// Each particle's slice as softmax(log p_j / T_j) with the exact log p_j, same layout. InputError
// when the shape or the number of temperatures does not match, or a T is not finite and above 0.
std::vector<double> particleTemperatureScaled(const std::vector<double>& probabilities, int64_t particleCount,
                                              int64_t classCount, const std::vector<double>& temperatures);

// RUN_DIR/particle_temperatures.json, written atomically.
void saveParticleTemperatures(const ParticleTemperatureFit& fit, const std::string& runDirectory);

// The one check of a particle_temperatures.json read back: fitted on the validation split, on at
// least one image, exactly `particleCount` temperatures (the run's M), each within the fit's
// [kMinTemperature, kMaxTemperature], finite NLLs. InputError naming the file and the field.
// Nothing when the run has no such file. A file written before the joint fit (a "particles" list
// of one fit per particle) is not used: nothing is returned and `outdated` (when given) says why,
// so that the caller refits and says so.
std::optional<ParticleTemperatureFit> loadParticleTemperatures(const std::string& runDirectory, int64_t particleCount,
                                                               std::string* outdated = nullptr);

} // namespace lbd

#pragma once
// Per-particle temperature scaling (issue 29, item 3): one T_j per particle, each fitted by the
// mean NLL of that particle's own probabilities on the validation split (never the test set), so
// a particle that is more over-confident than the others is softened more. Calibrated particle
// j: softmax(log p_j / T_j); calibrated pbar: their mean. Unlike one T on pbar, every decision
// rule still applies (mean-logit and eq7 decide from the calibrated particles). Stored beside
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
    std::vector<TemperatureFit> particles; // one fit per particle, in particle order

    std::vector<double> temperatures() const;
};

// fitTemperature of each particle's [N][C] slice. InputError for a bad shape or no image.
ParticleTemperatureFit fitParticleTemperatures(const std::vector<double>& probabilities, int64_t particleCount,
                                               const std::vector<int64_t>& labels, int64_t classCount);
// Each particle's slice as softmax(log p_j / T_j), same layout. InputError when the shape or the
// number of temperatures does not match, or a T is not finite and above 0.
std::vector<double> particleTemperatureScaled(const std::vector<double>& probabilities, int64_t particleCount,
                                              int64_t classCount, const std::vector<double>& temperatures);

// RUN_DIR/particle_temperatures.json, written atomically.
void saveParticleTemperatures(const ParticleTemperatureFit& fit, const std::string& runDirectory);
// Nothing when the run has none; InputError naming the file when it is damaged or was not fitted
// on the validation split.
std::optional<ParticleTemperatureFit> loadParticleTemperatures(const std::string& runDirectory);

} // namespace lbd

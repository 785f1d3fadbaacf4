#include "core/eval/particletemperature.h"

#include "core/util/atomicfile.h"
#include "core/util/error.h"
#include "core/util/jsonfile.h"

#include <nlohmann/json.hpp>

#include <cmath>
#include <filesystem>

namespace lbd {
namespace {

// The image count of [M][N][C] probabilities; InputError when they are not.
size_t slice(const std::vector<double>& probabilities, int64_t particleCount, int64_t classCount)
{
    if (particleCount < 1 || classCount < 1
        || probabilities.size() % static_cast<size_t>(particleCount * classCount) != 0) {
        throw InputError("per-particle temperature scaling: " + std::to_string(probabilities.size())
                         + " probabilities are not " + std::to_string(particleCount) + " particles of rows of "
                         + std::to_string(classCount) + " classes");
    }
    return probabilities.size() / static_cast<size_t>(particleCount);
}

} // namespace

std::vector<double> ParticleTemperatureFit::temperatures() const
{
    std::vector<double> out;
    for (const TemperatureFit& fit : particles) {
        out.push_back(fit.temperature);
    }
    return out;
}

ParticleTemperatureFit fitParticleTemperatures(const std::vector<double>& probabilities, int64_t particleCount,
                                               const std::vector<int64_t>& labels, int64_t classCount)
{
    const size_t size = slice(probabilities, particleCount, classCount);
    ParticleTemperatureFit fit;
    for (int64_t j = 0; j < particleCount; ++j) {
        const auto begin = probabilities.begin() + static_cast<std::ptrdiff_t>(size * static_cast<size_t>(j));
        fit.particles.push_back(fitTemperature(std::vector<double>(begin, begin + static_cast<std::ptrdiff_t>(size)), labels,
                                               classCount));
    }
    return fit;
}

std::vector<double> particleTemperatureScaled(const std::vector<double>& probabilities, int64_t particleCount,
                                              int64_t classCount, const std::vector<double>& temperatures)
{
    const size_t size = slice(probabilities, particleCount, classCount);
    if (temperatures.size() != static_cast<size_t>(particleCount)) {
        throw InputError("per-particle temperature scaling: " + std::to_string(temperatures.size()) + " temperatures for "
                         + std::to_string(particleCount) + " particles");
    }
    std::vector<double> scaled;
    scaled.reserve(probabilities.size());
    for (int64_t j = 0; j < particleCount; ++j) {
        const auto begin = probabilities.begin() + static_cast<std::ptrdiff_t>(size * static_cast<size_t>(j));
        const std::vector<double> one = temperatureScaled(std::vector<double>(begin, begin + static_cast<std::ptrdiff_t>(size)),
                                                          classCount, temperatures[static_cast<size_t>(j)]);
        scaled.insert(scaled.end(), one.begin(), one.end());
    }
    return scaled;
}

void saveParticleTemperatures(const ParticleTemperatureFit& fit, const std::string& runDirectory)
{
    nlohmann::json particles = nlohmann::json::array();
    for (const TemperatureFit& one : fit.particles) {
        particles.push_back({{"temperature", one.temperature}, {"nll_before", one.nllBefore}, {"nll_after", one.nllAfter}});
    }
    const nlohmann::json json = {
        {"definition", "calibrated particle j = softmax(log p_j / T_j); calibrated pbar = their mean"},
        {"fitted_on", fit.particles.empty() ? std::string("validation") : fit.particles.front().split},
        {"images", fit.particles.empty() ? 0 : fit.particles.front().images},
        {"particles", particles},
    };
    writeFileAtomically((std::filesystem::path(runDirectory) / kParticleTemperatureFileName).string(), json.dump(2) + "\n");
}

std::optional<ParticleTemperatureFit> loadParticleTemperatures(const std::string& runDirectory)
{
    const std::string path = (std::filesystem::path(runDirectory) / kParticleTemperatureFileName).string();
    std::error_code error;
    if (!std::filesystem::exists(path, error)) {
        return std::nullopt;
    }
    const nlohmann::json json = readJsonFile(path);
    ParticleTemperatureFit fit;
    try {
        const std::string split = json.at("fitted_on").get<std::string>();
        if (split != "validation") {
            throw InputError(path + ": fitted_on is '" + split + "'; a temperature is fitted on the validation split only");
        }
        for (const nlohmann::json& one : json.at("particles")) {
            TemperatureFit particle;
            particle.temperature = one.at("temperature").get<double>();
            particle.nllBefore = one.at("nll_before").get<double>();
            particle.nllAfter = one.at("nll_after").get<double>();
            particle.images = json.at("images").get<int64_t>();
            if (!(particle.temperature > 0.0) || !std::isfinite(particle.temperature)) {
                throw InputError(path + ": every temperature must be a finite number above 0");
            }
            fit.particles.push_back(particle);
        }
    } catch (const nlohmann::json::exception& e) {
        throw InputError(path + ": not a per-particle temperature file (" + e.what() + ")");
    }
    if (fit.particles.empty()) {
        throw InputError(path + ": no particle temperatures");
    }
    return fit;
}

} // namespace lbd

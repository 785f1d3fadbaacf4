#include "core/eval/particletemperature.h"

#include "core/util/atomicfile.h"
#include "core/util/error.h"
#include "core/util/jsonfile.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <limits>

namespace lbd {
namespace {

constexpr double kNllFloor = 1e-12; // as the evaluation's NLL: -log max(pbar[y], 1e-12)

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

void checkTemperatures(const std::vector<double>& temperatures, int64_t particleCount)
{
    if (temperatures.size() != static_cast<size_t>(particleCount)) {
        throw InputError("per-particle temperature scaling: " + std::to_string(temperatures.size()) + " temperatures for "
                         + std::to_string(particleCount) + " particles");
    }
    for (const double t : temperatures) {
        if (!(t > 0.0) || !std::isfinite(t)) {
            throw InputError("per-particle temperature scaling: every T_j must be a finite number above 0, got "
                             + std::to_string(t));
        }
    }
}

double logSumExp(const double* values, size_t count, size_t stride = 1)
{
    double top = -INFINITY;
    for (size_t i = 0; i < count; ++i) {
        top = std::max(top, values[i * stride]);
    }
    double sum = 0.0;
    for (size_t i = 0; i < count; ++i) {
        sum += std::exp(values[i * stride] - top);
    }
    return top + std::log(sum);
}

// The validation set in the form the fit needs: exact log p of every particle, and per particle
// log q_j(y) = log softmax(log p_j / T_j)(y) of each image's true class at its current T_j.
class JointNll {
public:
    JointNll(const std::vector<double>& probabilities, int64_t particleCount, const std::vector<int64_t>& labels,
             int64_t classCount)
        : m_particles(static_cast<size_t>(particleCount)), m_classes(static_cast<size_t>(classCount)), m_labels(labels)
    {
        const size_t size = slice(probabilities, particleCount, classCount);
        if (labels.empty()) {
            throw InputError("per-particle temperature scaling: no image to fit T_j on");
        }
        if (size != labels.size() * m_classes) {
            throw InputError("per-particle temperature scaling: " + std::to_string(size / m_classes) + " images of "
                             "probabilities for " + std::to_string(labels.size()) + " labels");
        }
        for (size_t n = 0; n < labels.size(); ++n) {
            if (labels[n] < 0 || labels[n] >= classCount) {
                throw InputError("per-particle temperature scaling: label " + std::to_string(labels[n]) + " of image "
                                 + std::to_string(n) + " is not one of the " + std::to_string(classCount) + " classes");
            }
        }
        m_logP.resize(probabilities.size());
        std::transform(probabilities.begin(), probabilities.end(), m_logP.begin(), exactLogProbability);
        m_logTrue.assign(m_particles, std::vector<double>(labels.size()));
    }

    size_t particles() const { return m_particles; }

    // log q_j(y_n) of particle j at T for every image.
    std::vector<double> logTrue(size_t particle, double temperature) const
    {
        std::vector<double> out(m_labels.size());
        std::vector<double> scaled(m_classes);
        for (size_t n = 0; n < m_labels.size(); ++n) {
            const double* row = m_logP.data() + (particle * m_labels.size() + n) * m_classes;
            for (size_t k = 0; k < m_classes; ++k) {
                scaled[k] = row[k] / temperature;
            }
            out[n] = scaled[static_cast<size_t>(m_labels[n])] - logSumExp(scaled.data(), m_classes);
        }
        return out;
    }

    void setTemperature(size_t particle, double temperature) { m_logTrue[particle] = logTrue(particle, temperature); }

    // The NLL with particle `particle`'s log q(y) replaced by `candidate` (or none replaced).
    double nll(size_t particle = SIZE_MAX, const std::vector<double>* candidate = nullptr) const
    {
        const double floor = std::log(kNllFloor);
        const double logM = std::log(static_cast<double>(m_particles));
        std::vector<double> terms(m_particles);
        double sum = 0.0;
        for (size_t n = 0; n < m_labels.size(); ++n) {
            for (size_t j = 0; j < m_particles; ++j) {
                terms[j] = (j == particle && candidate ? *candidate : m_logTrue[j])[n];
            }
            sum -= std::max(logSumExp(terms.data(), m_particles) - logM, floor);
        }
        return sum / static_cast<double>(m_labels.size());
    }

private:
    size_t m_particles;
    size_t m_classes;
    const std::vector<int64_t>& m_labels;
    std::vector<double> m_logP;                  // [M][N][C], exact
    std::vector<std::vector<double>> m_logTrue;  // [M][N] at the current T_j
};


std::string definition()
{
    return "calibrated particle j = softmax(log p_j / T_j) with the exact log p_j; calibrated pbar = their mean; "
           "T_1..T_M fitted jointly on the validation NLL of that mean";
}

} // namespace

double exactLogProbability(double probability)
{
    return std::log(std::max(probability, std::numeric_limits<double>::min()));
}

double particleTemperatureNll(const std::vector<double>& probabilities, int64_t particleCount,
                              const std::vector<int64_t>& labels, int64_t classCount,
                              const std::vector<double>& temperatures)
{
    JointNll joint(probabilities, particleCount, labels, classCount);
    checkTemperatures(temperatures, particleCount);
    for (size_t j = 0; j < joint.particles(); ++j) {
        joint.setTemperature(j, temperatures[j]);
    }
    return joint.nll();
}

ParticleTemperatureFit fitParticleTemperatures(const std::vector<double>& probabilities, int64_t particleCount,
                                               const std::vector<int64_t>& labels, int64_t classCount)
{
    JointNll joint(probabilities, particleCount, labels, classCount);
    const size_t m = joint.particles();
    const auto setAll = [&](double t) {
        for (size_t j = 0; j < m; ++j) {
            joint.setTemperature(j, t);
        }
    };
    ParticleTemperatureFit fit;
    fit.images = static_cast<int64_t>(labels.size());
    setAll(1.0);
    fit.nllBefore = joint.nll();
    // Start from the best common T (every T_j equal), then let each T_j move on its own.
    const double common = minimiseOverLogTemperature([&](double logT) {
        setAll(std::exp(logT));
        return joint.nll();
    });
    std::vector<double> logT(m, common);
    setAll(std::exp(common));
    double current = joint.nll();
    for (int sweep = 0; sweep < 100; ++sweep) {
        double largestMove = 0.0;
        for (size_t j = 0; j < m; ++j) {
            const double best = minimiseOverLogTemperature([&](double x) {
                const std::vector<double> candidate = joint.logTrue(j, std::exp(x));
                return joint.nll(j, &candidate);
            });
            const std::vector<double> candidate = joint.logTrue(j, std::exp(best));
            const double value = joint.nll(j, &candidate);
            if (value < current) { // a search that found a worse point (not unimodal there) keeps T_j
                largestMove = std::max(largestMove, std::abs(best - logT[j]));
                logT[j] = best;
                current = value;
                joint.setTemperature(j, std::exp(best));
            }
        }
        if (largestMove < 1e-6) {
            break;
        }
    }
    for (const double x : logT) {
        fit.values.push_back(std::exp(x));
    }
    fit.nllAfter = current;
    return fit;
}

std::vector<double> particleTemperatureScaled(const std::vector<double>& probabilities, int64_t particleCount,
                                              int64_t classCount, const std::vector<double>& temperatures)
{
    slice(probabilities, particleCount, classCount);
    checkTemperatures(temperatures, particleCount);
    const auto c = static_cast<size_t>(classCount);
    const size_t perParticle = probabilities.size() / static_cast<size_t>(particleCount);
    std::vector<double> scaled(probabilities.size());
    for (size_t start = 0; start < probabilities.size(); start += c) {
        const double t = temperatures[start / perParticle];
        for (size_t k = 0; k < c; ++k) {
            scaled[start + k] = exactLogProbability(probabilities[start + k]) / t;
        }
        const double lse = logSumExp(scaled.data() + start, c);
        for (size_t k = 0; k < c; ++k) {
            scaled[start + k] = std::exp(scaled[start + k] - lse);
        }
    }
    return scaled;
}

void saveParticleTemperatures(const ParticleTemperatureFit& fit, const std::string& runDirectory)
{
    const nlohmann::json json = {
        {"definition", definition()},
        {"fit", "joint"},
        {"fitted_on", fit.split},
        {"images", fit.images},
        {"nll_before", fit.nllBefore},
        {"nll_after", fit.nllAfter},
        {"temperatures", fit.values},
    };
    writeFileAtomically((std::filesystem::path(runDirectory) / kParticleTemperatureFileName).string(), json.dump(2) + "\n");
}

std::optional<ParticleTemperatureFit> loadParticleTemperatures(const std::string& runDirectory, int64_t particleCount,
                                                               std::string* outdated)
{
    const std::string path = (std::filesystem::path(runDirectory) / kParticleTemperatureFileName).string();
    std::error_code error;
    if (!std::filesystem::exists(path, error)) {
        return std::nullopt;
    }
    const nlohmann::json json = readJsonFile(path);
    if (json.is_object() && json.contains("particles") && !json.contains("fit")) {
        if (outdated) {
            *outdated = path + " held one T_j fitted to each particle on its own (written before the joint fit); "
                               "refitted jointly on the validation NLL of the calibrated mean";
        }
        return std::nullopt;
    }
    ParticleTemperatureFit fit;
    const auto field = [&](const std::string& name) -> const nlohmann::json& {
        if (!json.is_object() || !json.contains(name)) {
            throw InputError(path + ": not a per-particle temperature file (no \"" + name + "\")");
        }
        return json.at(name);
    };
    try {
        if (field("fit").get<std::string>() != "joint") {
            throw InputError(path + ": fit is '" + json.at("fit").get<std::string>() + "'; expected 'joint'");
        }
        fit.split = field("fitted_on").get<std::string>();
        fit.images = field("images").get<int64_t>();
        fit.nllBefore = field("nll_before").get<double>();
        fit.nllAfter = field("nll_after").get<double>();
        fit.values = field("temperatures").get<std::vector<double>>();
    } catch (const nlohmann::json::exception& e) {
        throw InputError(path + ": not a per-particle temperature file (" + e.what() + ")");
    }
    if (fit.split != "validation") {
        throw InputError(path + ": fitted_on is '" + fit.split + "'; temperatures are fitted on the validation split only");
    }
    if (fit.images < 1) {
        throw InputError(path + ": images is " + std::to_string(fit.images) + "; a fit reads at least one image");
    }
    for (const auto& [name, value] : {std::pair<const char*, double>{"nll_before", fit.nllBefore}, {"nll_after", fit.nllAfter}}) {
        if (!std::isfinite(value) || value < 0.0) {
            throw InputError(path + ": " + name + " must be a finite number of at least 0");
        }
    }
    if (static_cast<int64_t>(fit.values.size()) != particleCount) {
        throw InputError(path + ": temperatures has " + std::to_string(fit.values.size()) + " values for the run's "
                         + std::to_string(particleCount) + " particles");
    }
    for (size_t j = 0; j < fit.values.size(); ++j) {
        checkFittedTemperature(fit.values[j], path + ": temperatures[" + std::to_string(j) + "]");
    }
    return fit;
}

} // namespace lbd

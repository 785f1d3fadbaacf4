#include "core/eval/temperature.h"

#include "core/util/atomicfile.h"
#include "core/util/error.h"
#include "core/util/jsonfile.h"
#include "core/util/numbertext.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <filesystem>

namespace lbd {
namespace {

constexpr double kProbabilityFloor = 1e-12; // as the evaluation's NLL

void checkTemperature(double temperature)
{
    if (!(temperature > 0.0) || !std::isfinite(temperature)) {
        throw InputError("temperature scaling: T must be a finite number above 0, got " + std::to_string(temperature));
    }
}

// log softmax(log pbar / T) of the true class for one image.
double logCalibrated(const double* row, int64_t classCount, int64_t label, double temperature)
{
    double top = -INFINITY;
    for (int64_t k = 0; k < classCount; ++k) {
        top = std::max(top, std::log(std::max(row[k], kProbabilityFloor)) / temperature);
    }
    double sum = 0.0;
    for (int64_t k = 0; k < classCount; ++k) {
        sum += std::exp(std::log(std::max(row[k], kProbabilityFloor)) / temperature - top);
    }
    return std::log(std::max(row[label], kProbabilityFloor)) / temperature - top - std::log(sum);
}

} // namespace

std::vector<double> temperatureScaled(const std::vector<double>& pbar, int64_t classCount, double temperature)
{
    checkTemperature(temperature);
    if (classCount < 1 || pbar.size() % static_cast<size_t>(classCount) != 0) {
        throw InputError("temperature scaling: " + std::to_string(pbar.size()) + " probabilities are not rows of "
                         + std::to_string(classCount) + " classes");
    }
    std::vector<double> scaled(pbar.size());
    const auto c = static_cast<size_t>(classCount);
    for (size_t start = 0; start < pbar.size(); start += c) {
        double top = -INFINITY;
        for (size_t k = 0; k < c; ++k) {
            scaled[start + k] = std::log(std::max(pbar[start + k], kProbabilityFloor)) / temperature;
            top = std::max(top, scaled[start + k]);
        }
        double sum = 0.0;
        for (size_t k = 0; k < c; ++k) {
            scaled[start + k] = std::exp(scaled[start + k] - top);
            sum += scaled[start + k];
        }
        for (size_t k = 0; k < c; ++k) {
            scaled[start + k] /= sum;
        }
    }
    return scaled;
}

double temperatureNll(const std::vector<double>& pbar, const std::vector<int64_t>& labels, int64_t classCount,
                      double temperature)
{
    checkTemperature(temperature);
    if (classCount < 1 || pbar.size() != labels.size() * static_cast<size_t>(classCount)) {
        throw InputError("temperature scaling: " + std::to_string(pbar.size()) + " probabilities for "
                         + std::to_string(labels.size()) + " images of " + std::to_string(classCount) + " classes");
    }
    if (labels.empty()) {
        throw InputError("temperature scaling: no image to fit T on");
    }
    double sum = 0.0;
    for (size_t n = 0; n < labels.size(); ++n) {
        if (labels[n] < 0 || labels[n] >= classCount) {
            throw InputError("temperature scaling: label " + std::to_string(labels[n]) + " of image " + std::to_string(n)
                             + " is not one of the " + std::to_string(classCount) + " classes");
        }
        const double logP = logCalibrated(pbar.data() + n * static_cast<size_t>(classCount), classCount, labels[n],
                                          temperature);
        sum -= std::max(logP, std::log(kProbabilityFloor));
    }
    return sum / static_cast<double>(labels.size());
}

double minimiseOverLogTemperature(const std::function<double(double)>& f)
{
    const double ratio = (std::sqrt(5.0) - 1.0) / 2.0;
    double a = std::log(kMinTemperature);
    double b = std::log(kMaxTemperature);
    double x1 = b - ratio * (b - a);
    double x2 = a + ratio * (b - a);
    double f1 = f(x1);
    double f2 = f(x2);
    while (b - a > 1e-6) {
        if (f1 <= f2) {
            b = x2;
            x2 = x1;
            f2 = f1;
            x1 = b - ratio * (b - a);
            f1 = f(x1);
        } else {
            a = x1;
            x1 = x2;
            f1 = f2;
            x2 = a + ratio * (b - a);
            f2 = f(x2);
        }
    }
    return (a + b) / 2.0;
}

TemperatureFit fitTemperature(const std::vector<double>& pbar, const std::vector<int64_t>& labels, int64_t classCount)
{
    const auto nll = [&](double logT) { return temperatureNll(pbar, labels, classCount, std::exp(logT)); };
    TemperatureFit fit;
    fit.temperature = std::exp(minimiseOverLogTemperature(nll));
    fit.images = static_cast<int64_t>(labels.size());
    fit.nllBefore = temperatureNll(pbar, labels, classCount, 1.0);
    fit.nllAfter = temperatureNll(pbar, labels, classCount, fit.temperature);
    return fit;
}

void checkFittedTemperature(double temperature, const std::string& where)
{
    if (!(temperature >= kMinTemperature && temperature <= kMaxTemperature)) {
        throw InputError(where + " = " + numberText(temperature) + " is outside [" + numberText(kMinTemperature, 6) + ", "
                         + numberText(kMaxTemperature, 6) + "], the range the fit searches, so no fit wrote it (delete the "
                         "file: lbd eval RUN --calibrate, with --per-particle for T_j, fits it again on the validation "
                         "split)");
    }
}

void saveTemperature(const TemperatureFit& fit, const std::string& runDirectory)
{
    checkTemperature(fit.temperature);
    const nlohmann::json json = {
        {"temperature", fit.temperature},
        {"definition", "calibrated pbar = softmax(log pbar / T)"},
        {"fitted_on", fit.split},
        {"images", fit.images},
        {"nll_before", fit.nllBefore},
        {"nll_after", fit.nllAfter},
    };
    writeFileAtomically((std::filesystem::path(runDirectory) / kTemperatureFileName).string(), json.dump(2) + "\n");
}

std::optional<TemperatureFit> loadTemperature(const std::string& runDirectory)
{
    const std::string path = (std::filesystem::path(runDirectory) / kTemperatureFileName).string();
    std::error_code error;
    if (!std::filesystem::exists(path, error)) {
        return std::nullopt;
    }
    const nlohmann::json json = readJsonFile(path);
    TemperatureFit fit;
    try {
        fit.temperature = json.at("temperature").get<double>();
        fit.split = json.at("fitted_on").get<std::string>();
        fit.images = json.at("images").get<int64_t>();
        fit.nllBefore = json.at("nll_before").get<double>();
        fit.nllAfter = json.at("nll_after").get<double>();
    } catch (const nlohmann::json::exception& e) {
        throw InputError(path + ": not a temperature file (" + e.what() + ")");
    }
    checkFittedTemperature(fit.temperature, path + ": temperature");
    if (fit.split != "validation") {
        throw InputError(path + ": fitted_on is '" + fit.split + "'; a temperature is fitted on the validation split only");
    }
    if (fit.images < 1) {
        throw InputError(path + ": images is " + std::to_string(fit.images) + "; a fit reads at least one image");
    }
    for (const auto& [name, value] : {std::pair<const char*, double>{"nll_before", fit.nllBefore}, {"nll_after", fit.nllAfter}}) {
        if (!std::isfinite(value) || value < 0.0) {
            throw InputError(path + ": " + name + " must be a finite number of at least 0");
        }
    }
    return fit;
}

} // namespace lbd

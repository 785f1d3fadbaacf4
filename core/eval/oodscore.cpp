#include "core/eval/oodscore.h"

#include "core/data/batchsource.h"
#include "core/util/atomicfile.h"
#include "core/util/error.h"
#include "core/util/jsonfile.h"
#include "core/util/machineinfo.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <vector>

namespace lbd {

namespace {

// Fewer images than this cannot give a meaningful 95th percentile on the threshold half.
constexpr int64_t kMinOodImages = 20;
// The shared covariance is shrunk towards a multiple of the identity by this share of its mean
// variance: tail classes of 5 images and a feature dimension above the image count would
// otherwise leave it singular.
constexpr double kCovarianceShrinkage = 1e-3;
// ood.json holds at most M * (K * D + D * D) numbers of ~12 characters; 3 particles of 512
// features and 100 classes are ~11 MB.
constexpr int64_t kMaxOodFileBytes = int64_t(48) << 20;

// The smallest threshold t that, averaged over the classes, `passRate` of a class's images pass
// (score <= t). The long-tailed training images are mostly head classes while test sets and the
// images users bring are not: a plain percentile would be set by the head classes and flag far
// more than 5 % of a tail class.
// The features in one of the two spaces the distance is measured in: as they are, or their
// directions (L2-normalised), which is all the cosine classifier sees. Each alone misses what the
// other catches (docs/results/ood.md): directions separate digits from garments (AUROC 0.99 vs
// 0.90), the raw features' size flags photographs and gradients whose direction is a bag's.
torch::Tensor inSpace(const torch::Tensor& features, bool direction)
{
    const auto f = features.to(torch::kFloat64);
    return direction ? torch::nn::functional::normalize(f, torch::nn::functional::NormalizeFuncOptions().dim(-1)) : f;
}

// Class means and the precision of the shared covariance, fitted on features [M, N, D]. The
// shared covariance is the mean of the classes' own: pooled over the images it would be the head
// classes' alone, and every tail image would look far.
void fitSpace(OodFit::Space& space, const torch::Tensor& features, const torch::Tensor& labels, int64_t classes)
{
    const int64_t particles = features.size(0);
    const int64_t dim = features.size(2);
    std::vector<torch::Tensor> means;
    auto covariance = torch::zeros({particles, dim, dim}, torch::kFloat64);
    for (int64_t c = 0; c < classes; ++c) {
        const auto rows = torch::nonzero(labels == c).flatten();
        if (rows.numel() == 0) {
            continue; // a class the fit half lacks has no mean; the distance is to the others
        }
        const auto own = features.index_select(1, rows);
        const auto mean = own.mean(1, /*keepdim=*/true); // [M, 1, D]
        means.push_back(mean);
        const auto centred = own - mean;
        covariance += torch::matmul(centred.transpose(1, 2), centred) / double(rows.numel());
    }
    space.classMeans = torch::cat(means, 1); // [M, K, D]
    covariance /= double(means.size());
    const auto meanVariance = covariance.diagonal(0, 1, 2).mean(1).clamp_min(1e-12); // [M]
    const auto identity = torch::eye(dim, torch::kFloat64).unsqueeze(0).expand({particles, dim, dim});
    covariance = covariance * (1.0 - kCovarianceShrinkage)
                 + identity * (kCovarianceShrinkage * meanVariance).view({particles, 1, 1});
    space.precision = torch::linalg_inv(covariance);
}

// Per image, the smallest squared distance to a class mean, averaged over the particles: [N].
torch::Tensor spaceDistances(const OodFit::Space& space, const torch::Tensor& f)
{
    const auto a = torch::matmul(f, space.precision);                                 // [M, N, D]
    const auto self = (a * f).sum(2, /*keepdim=*/true);                               // [M, N, 1]
    const auto cross = torch::matmul(a, space.classMeans.transpose(1, 2));            // [M, N, K]
    const auto meanTerm = (torch::matmul(space.classMeans, space.precision) * space.classMeans).sum(2).unsqueeze(1); // [M, 1, K]
    return std::get<0>((self - 2.0 * cross + meanTerm).clamp_min(0.0).min(2)).mean(0);
}

double classBalancedThreshold(const torch::Tensor& scores, const torch::Tensor& labels, double passRate)
{
    const auto candidates = std::get<0>(scores.to(torch::kFloat64).sort());
    auto passed = torch::zeros_like(candidates);
    int64_t classes = 0;
    const int64_t classCount = labels.numel() > 0 ? labels.max().item<int64_t>() + 1 : 0;
    for (int64_t c = 0; c < classCount; ++c) {
        const auto own = std::get<0>(scores.index_select(0, torch::nonzero(labels == c).flatten()).to(torch::kFloat64).sort());
        if (own.numel() == 0) {
            continue;
        }
        passed += torch::searchsorted(own, candidates, /*out_int32=*/false, /*right=*/true).to(torch::kFloat64)
                  / double(own.numel());
        ++classes;
    }
    const auto enough = torch::nonzero(passed / double(classes) >= passRate - 1e-12).flatten();
    return candidates[enough.numel() > 0 ? enough[0].item<int64_t>() : candidates.size(0) - 1].item<double>();
}

std::vector<double> flat(const torch::Tensor& tensor)
{
    const auto values = tensor.to(torch::kFloat64).contiguous().flatten();
    return {values.data_ptr<double>(), values.data_ptr<double>() + values.numel()};
}

torch::Tensor tensorFrom(const nlohmann::json& values, const std::vector<int64_t>& shape, const std::string& what,
                         const std::string& path)
{
    int64_t expected = 1;
    for (const int64_t size : shape) {
        expected *= size;
    }
    if (!values.is_array() || static_cast<int64_t>(values.size()) != expected) {
        throw InputError(path + ": " + what + " should hold " + std::to_string(expected) + " numbers");
    }
    std::vector<double> numbers;
    numbers.reserve(values.size());
    for (const auto& value : values) {
        if (!value.is_number() || !std::isfinite(value.get<double>())) {
            throw InputError(path + ": " + what + " holds something that is not a finite number");
        }
        numbers.push_back(value.get<double>());
    }
    return torch::tensor(numbers, torch::kFloat64).reshape(shape);
}

} // namespace

std::string oodMethodName(OodMethod method) { return method == OodMethod::Mahalanobis ? "mahalanobis" : "energy"; }

OodMethod parseOodMethod(const std::string& name, const std::string& source)
{
    if (name == "mahalanobis") {
        return OodMethod::Mahalanobis;
    }
    if (name == "energy") {
        return OodMethod::Energy;
    }
    throw InputError(source + ": unknown out-of-distribution score '" + name + "' (mahalanobis or energy)");
}

OodFeatures collectOodFeatures(ParticleModel& model, const DataSplit& split, const ImageFormat& format,
                               const torch::Device& device, const AugmentSpec& augment,
                               const Normalization& normalization)
{
    BatchOptions options;
    options.batchSize = 256;
    options.shuffle = false;
    options.augment = false;
    auto source = makeBatchSource(split, format, device, augment, normalization, options);
    const bool wasTraining = model->is_training();
    model->eval();
    std::vector<torch::Tensor> features, logits, labels;
    {
        torch::NoGradGuard noGrad;
        source->startEpoch(1);
        Batch batch;
        while (source->next(batch)) {
            const ParticleOutput out = model->forwardWithFeatures(batch.images);
            features.push_back(out.features.to(torch::kFloat32).cpu());
            logits.push_back(out.logits.to(torch::kFloat32).cpu());
            labels.push_back(batch.labels.cpu());
        }
    }
    model->train(wasTraining);
    if (features.empty()) {
        return {};
    }
    return {torch::cat(features, 1), torch::cat(logits, 1), torch::cat(labels, 0)};
}

OodFit fitOod(const OodFeatures& data, const std::string& source, int checkpointEpoch)
{
    const int64_t n = data.labels.defined() ? data.labels.size(0) : 0;
    if (n < kMinOodImages) {
        throw InputError("an out-of-distribution fit needs at least " + std::to_string(kMinOodImages)
                         + " in-distribution images; the " + source + " hold " + std::to_string(n));
    }
    OodFit fit;
    fit.source = source;
    fit.images = n;
    fit.checkpointEpoch = checkpointEpoch;
    fit.created = currentDateTimeUtc();

    // Even rows fit the class statistics, odd rows set the thresholds.
    const auto fitRows = torch::arange(0, n, 2, torch::kInt64);
    const auto thresholdRows = torch::arange(1, n, 2, torch::kInt64);
    const auto thresholdLabels = data.labels.index_select(0, thresholdRows);
    fit.energyThreshold =
        classBalancedThreshold(energyScores(data.logits.index_select(1, thresholdRows)), thresholdLabels, kOodPassRate);

    const int64_t dim = data.features.size(2);
    fit.hasMahalanobis = dim <= kMaxOodMahalanobisDim;
    fit.method = fit.hasMahalanobis ? kDefaultOodMethod : OodMethod::Energy;
    if (fit.hasMahalanobis) {
        const auto labels = data.labels.index_select(0, fitRows);
        const auto fitFeatures = data.features.index_select(1, fitRows);
        const auto thresholdFeatures = data.features.index_select(1, thresholdRows);
        const int64_t classes = data.logits.size(2);
        for (const bool direction : {true, false}) {
            OodFit::Space& space = direction ? fit.direction : fit.raw;
            fitSpace(space, inSpace(fitFeatures, direction), labels, classes);
            // Each distance in units of its own 95 % value, so that the larger of the two is one score.
            space.scale = std::max(classBalancedThreshold(spaceDistances(space, inSpace(thresholdFeatures, direction)),
                                                          thresholdLabels, kOodPassRate),
                                   1e-12);
        }
        fit.mahalanobisThreshold = classBalancedThreshold(mahalanobisScores(fit, thresholdFeatures), thresholdLabels, kOodPassRate);
    }
    return fit;
}

OodFit fitOodOnSplit(ParticleModel& model, const DataSplit& split, const ImageFormat& format,
                     const torch::Device& device, const AugmentSpec& augment, const Normalization& normalization,
                     const std::string& source, int checkpointEpoch)
{
    DataSplit sample = split;
    if (split.size() > kMaxOodFitImages) {
        sample = split.select(torch::linspace(0, double(split.size() - 1), kMaxOodFitImages, torch::kFloat64)
                                  .round()
                                  .to(torch::kInt64));
    }
    return fitOod(collectOodFeatures(model, sample, format, device, augment, normalization), source, checkpointEpoch);
}

torch::Tensor energyScores(const torch::Tensor& logits)
{
    return -torch::logsumexp(logits.to(torch::kFloat64).mean(0), 1);
}

torch::Tensor mahalanobisScores(const OodFit& fit, const torch::Tensor& features)
{
    if (!fit.hasMahalanobis) {
        throw InputError("the out-of-distribution fit has no Mahalanobis statistics (feature dimension above "
                         + std::to_string(kMaxOodMahalanobisDim) + ")");
    }
    return torch::maximum(spaceDistances(fit.direction, inSpace(features, true)) / fit.direction.scale,
                          spaceDistances(fit.raw, inSpace(features, false)) / fit.raw.scale);
}

torch::Tensor oodScores(const OodFit& fit, OodMethod method, const torch::Tensor& features, const torch::Tensor& logits)
{
    return method == OodMethod::Mahalanobis ? mahalanobisScores(fit, features) : energyScores(logits);
}

void saveOodFit(const OodFit& fit, const std::string& path)
{
    nlohmann::json json = {{"format", "lbd-ood-1"},
                           {"method", oodMethodName(fit.method)},
                           {"source", fit.source},
                           {"images", fit.images},
                           {"checkpoint_epoch", fit.checkpointEpoch},
                           {"pass_rate", fit.passRate},
                           {"created", fit.created},
                           {"energy", {{"threshold", fit.energyThreshold}}},
                           {"mahalanobis", nullptr}};
    if (fit.hasMahalanobis) {
        // Single precision is plenty for a distance and halves the file.
        const auto toFloat = [](const torch::Tensor& t) {
            std::vector<float> out;
            for (const double v : flat(t)) {
                out.push_back(static_cast<float>(v));
            }
            return out;
        };
        const auto space = [&toFloat](const OodFit::Space& s) {
            return nlohmann::json{{"scale", s.scale}, {"class_means", toFloat(s.classMeans)}, {"precision", toFloat(s.precision)}};
        };
        json["mahalanobis"] = {{"threshold", fit.mahalanobisThreshold},
                               {"particles", fit.raw.classMeans.size(0)},
                               {"classes", fit.raw.classMeans.size(1)},
                               {"feature_dim", fit.raw.classMeans.size(2)},
                               {"direction", space(fit.direction)},
                               {"raw", space(fit.raw)}};
    }
    writeFileAtomically(path, json.dump() + "\n");
}

OodFit loadOodFit(const std::string& path, int64_t particles, int64_t featureDim)
{
    const nlohmann::json json = parseJsonText(readTextFile(path, kMaxOodFileBytes), path);
    OodFit fit;
    try {
        if (json.at("format").get<std::string>() != "lbd-ood-1") {
            throw InputError(path + ": not an out-of-distribution fit of this version (format "
                             + json.at("format").dump() + ")");
        }
        fit.method = parseOodMethod(json.at("method").get<std::string>(), path);
        fit.source = json.at("source").get<std::string>();
        fit.images = json.at("images").get<int64_t>();
        fit.checkpointEpoch = json.at("checkpoint_epoch").get<int>();
        fit.passRate = json.at("pass_rate").get<double>();
        fit.created = json.value("created", std::string());
        fit.energyThreshold = json.at("energy").at("threshold").get<double>();
        const auto& m = json.at("mahalanobis");
        if (!m.is_null()) {
            const int64_t p = m.at("particles").get<int64_t>();
            const int64_t k = m.at("classes").get<int64_t>();
            const int64_t d = m.at("feature_dim").get<int64_t>();
            if (p != particles || d != featureDim || k < 1 || d > kMaxOodMahalanobisDim) {
                throw InputError(path + ": fitted for " + std::to_string(p) + " particles of " + std::to_string(d)
                                 + " features, the model has " + std::to_string(particles) + " of "
                                 + std::to_string(featureDim) + ": is it this run's?");
            }
            fit.hasMahalanobis = true;
            fit.mahalanobisThreshold = m.at("threshold").get<double>();
            for (const bool direction : {true, false}) {
                const std::string name = direction ? "direction" : "raw";
                OodFit::Space& space = direction ? fit.direction : fit.raw;
                const auto& entry = m.at(name);
                space.scale = entry.at("scale").get<double>();
                if (!std::isfinite(space.scale) || space.scale <= 0) {
                    throw InputError(path + ": " + name + ".scale must be a positive number");
                }
                space.classMeans = tensorFrom(entry.at("class_means"), {p, k, d}, name + ".class_means", path);
                space.precision = tensorFrom(entry.at("precision"), {p, d, d}, name + ".precision", path);
            }
        }
    } catch (const nlohmann::json::exception& error) {
        throw InputError(path + ": incomplete out-of-distribution fit (" + error.what() + ")");
    }
    if (!std::isfinite(fit.energyThreshold) || !std::isfinite(fit.mahalanobisThreshold)) {
        throw InputError(path + ": a threshold is not a finite number");
    }
    if (fit.method == OodMethod::Mahalanobis && !fit.hasMahalanobis) {
        throw InputError(path + ": the method is mahalanobis but the file holds no Mahalanobis statistics");
    }
    return fit;
}

} // namespace lbd

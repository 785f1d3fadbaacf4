#include "core/eval/oodscore.h"

#include "core/data/batchsource.h"
#include "core/eval/oodcorruptions.h"
#include "core/util/error.h"
#include "core/util/machineinfo.h"

#include <algorithm>
#include <cmath>

namespace lbd {

namespace {

// A step of the greedy choice must raise the criterion by more than this to be taken: smaller
// gains are within what another sample of corruptions would give.
constexpr double kMinSelectionGain = 1e-3;
// Corrupted copies of at most this many unseen images per corruption.
constexpr int64_t kMaxCorruptedImages = 1000;

// One candidate (stage, space) fitted, with its scaled distances on the threshold half and on each corruption.
struct Candidate {
    OodSpace space;
    torch::Tensor threshold;                // [N_t], divided by the space's scale
    std::vector<torch::Tensor> corruptions; // each [N_k], likewise
};

torch::Tensor combined(const std::vector<const torch::Tensor*>& parts)
{
    auto out = parts.front()->clone();
    for (size_t i = 1; i < parts.size(); ++i) {
        out = torch::maximum(out, *parts[i]);
    }
    return out;
}

// Mean AUROC over the corruptions of the largest scaled distance of the chosen candidates.
double criterion(const std::vector<Candidate>& candidates, const std::vector<size_t>& chosen, size_t corruptionCount)
{
    std::vector<const torch::Tensor*> inside;
    for (const size_t c : chosen) {
        inside.push_back(&candidates[c].threshold);
    }
    const auto insideScores = combined(inside);
    double sum = 0.0;
    for (size_t k = 0; k < corruptionCount; ++k) {
        std::vector<const torch::Tensor*> outside;
        for (const size_t c : chosen) {
            outside.push_back(&candidates[c].corruptions[k]);
        }
        sum += scoreAuroc(insideScores, combined(outside));
    }
    return sum / double(corruptionCount);
}

// Every stage small enough, both spaces, while the file stays within its budget (from the last
// stage backwards, so that the classifier's own features always fit): fitted on the fit half,
// scaled on the threshold half, with their distances to the corruptions.
std::vector<Candidate> fitCandidates(const OodFitInput& input, const OodFeatures& fitHalf, const OodFeatures& thresholdHalf)
{
    const OodFeatures& data = input.unseen;
    const int64_t classes = data.logits.size(2);
    const int64_t particles = data.logits.size(0);
    const int64_t last = static_cast<int64_t>(data.stages.size()) - 1;
    std::vector<Candidate> candidates;
    int64_t numbers = 0;
    for (int64_t s = last; s >= 0; --s) {
        const int64_t dim = data.stages[static_cast<size_t>(s)].size(2);
        const int64_t cost = 2 * particles * (classes * dim + dim * dim);
        if (dim > kMaxOodMahalanobisDim || numbers + cost > kMaxOodFitNumbers) {
            continue;
        }
        numbers += cost;
        for (const bool direction : {true, false}) {
            Candidate candidate;
            candidate.space.stage = s;
            candidate.space.direction = direction;
            const auto& meansOnly = input.meansOnly;
            fitOodSpace(candidate.space, oodSpaceFeatures(fitHalf.stages[static_cast<size_t>(s)], direction), fitHalf.labels,
                        classes,
                        meansOnly.size() > 0 ? oodSpaceFeatures(meansOnly.stages[static_cast<size_t>(s)], direction) : torch::Tensor(),
                        meansOnly.size() > 0 ? meansOnly.labels : torch::Tensor());
            const auto distances = oodSpaceDistances(candidate.space, oodSpaceFeatures(thresholdHalf.stages[static_cast<size_t>(s)], direction));
            // Each distance in units of its own 95 % value, so that the largest of them is one score.
            candidate.space.scale = std::max(classBalancedThreshold(distances, thresholdHalf.labels, kOodPassRate), 1e-12);
            candidate.threshold = distances / candidate.space.scale;
            for (const auto& [name, corrupted] : input.corruptions) {
                candidate.corruptions.push_back(
                    oodSpaceDistances(candidate.space, oodSpaceFeatures(corrupted.stages[static_cast<size_t>(s)], direction))
                    / candidate.space.scale);
            }
            candidates.push_back(std::move(candidate));
        }
    }
    return candidates;
}

// Greedy forward choice by the criterion; without corruptions, the last stage's two spaces.
std::vector<size_t> chooseSpaces(const std::vector<Candidate>& candidates, const OodFitInput& input, int64_t last,
                                 OodSelection& selection)
{
    std::vector<size_t> chosen;
    if (input.corruptions.empty()) {
        // No choice possible: the classifier's own features, both spaces (the caution before stages).
        for (size_t c = 0; c < candidates.size(); ++c) {
            if (candidates[c].space.stage == last) {
                chosen.push_back(c);
            }
        }
        if (chosen.empty()) {
            chosen.push_back(0);
        }
    } else {
        for (const auto& corruption : input.corruptions) {
            selection.corruptions.push_back(corruption.first);
        }
        double best = 0.0;
        while (chosen.size() < candidates.size()) {
            double stepBest = -1.0;
            size_t stepChoice = 0;
            for (size_t c = 0; c < candidates.size(); ++c) {
                if (std::find(chosen.begin(), chosen.end(), c) != chosen.end()) {
                    continue;
                }
                auto trial = chosen;
                trial.push_back(c);
                const double value = criterion(candidates, trial, input.corruptions.size());
                if (value > stepBest) {
                    stepBest = value;
                    stepChoice = c;
                }
            }
            if (!chosen.empty() && stepBest <= best + kMinSelectionGain) {
                break;
            }
            chosen.push_back(stepChoice);
            best = stepBest;
            selection.steps.push_back(candidates[stepChoice].space.name());
            selection.criterion.push_back(stepBest);
        }
    }
    return chosen;
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

OodFeatures OodFeatures::rows(const torch::Tensor& indices) const
{
    OodFeatures out;
    for (const auto& stage : stages) {
        out.stages.push_back(stage.index_select(1, indices));
    }
    out.logits = logits.index_select(1, indices);
    out.labels = labels.index_select(0, indices);
    return out;
}

OodModelShape oodModelShape(const ParticleModelImpl& model)
{
    return {model.particleCount(), model.numClasses(), model.stageFeatureDims()};
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
    std::vector<std::vector<torch::Tensor>> stages;
    std::vector<torch::Tensor> logits, labels;
    {
        torch::NoGradGuard noGrad;
        source->startEpoch(1);
        Batch batch;
        while (source->next(batch)) {
            const ParticleStageFeatures out = model->forwardWithStageFeatures(batch.images);
            stages.resize(out.stages.size());
            for (size_t s = 0; s < out.stages.size(); ++s) {
                stages[s].push_back(out.stages[s].to(torch::kFloat32).cpu());
            }
            logits.push_back(out.logits.to(torch::kFloat32).cpu());
            labels.push_back(batch.labels.cpu());
        }
    }
    model->train(wasTraining);
    OodFeatures features;
    if (logits.empty()) {
        return features;
    }
    for (const auto& parts : stages) {
        features.stages.push_back(torch::cat(parts, 1));
    }
    features.logits = torch::cat(logits, 1);
    features.labels = torch::cat(labels, 0);
    return features;
}

OodFit fitOod(const OodFitInput& input)
{
    const OodFeatures& data = input.unseen;
    const int64_t n = data.size();
    if (n < kMinOodImages) {
        throw InputError("an out-of-distribution fit needs at least " + std::to_string(kMinOodImages)
                         + " images the network did not train on; the " + input.heldOut.source + " hold "
                         + std::to_string(n));
    }
    OodFit fit;
    fit.heldOut = input.heldOut;
    fit.source = input.heldOut.source;
    fit.images = n;
    fit.checkpointEpoch = input.checkpointEpoch;
    fit.created = currentDateTimeUtc();
    fit.model.particles = data.logits.size(0);
    fit.model.classes = data.logits.size(2);
    for (const auto& stage : data.stages) {
        fit.model.stageDims.push_back(stage.size(2));
    }

    // Even rows fit the class statistics, odd rows set the scales, the choice and the thresholds.
    const auto fitHalf = data.rows(torch::arange(0, n, 2, torch::kInt64));
    const auto thresholdHalf = data.rows(torch::arange(1, n, 2, torch::kInt64));
    fit.energyThreshold = classBalancedThreshold(energyScores(thresholdHalf.logits), thresholdHalf.labels, kOodPassRate);

    const int64_t last = static_cast<int64_t>(data.stages.size()) - 1;
    std::vector<Candidate> candidates = fitCandidates(input, fitHalf, thresholdHalf);
    if (candidates.empty()) {
        fit.method = OodMethod::Energy;
        return fit;
    }

    std::vector<size_t> chosen = chooseSpaces(candidates, input, last, fit.selection);
    std::sort(chosen.begin(), chosen.end(), [&candidates](size_t a, size_t b) {
        const auto& x = candidates[a].space;
        const auto& y = candidates[b].space;
        return x.stage != y.stage ? x.stage < y.stage : x.direction > y.direction;
    });
    std::vector<const torch::Tensor*> parts;
    for (const size_t c : chosen) {
        fit.spaces.push_back(candidates[c].space);
        parts.push_back(&candidates[c].threshold);
    }
    fit.mahalanobisThreshold = classBalancedThreshold(combined(parts), thresholdHalf.labels, kOodPassRate);
    fit.method = kDefaultOodMethod;
    return fit;
}

OodFit fitOodOnImages(ParticleModel& model, const OodImages& images, const ImageFormat& format, const torch::Device& device,
                      const AugmentSpec& augment, const Normalization& normalization, int checkpointEpoch)
{
    OodFitInput input;
    input.heldOut = images.heldOut;
    input.checkpointEpoch = checkpointEpoch;
    const auto features = [&](const DataSplit& split) {
        return collectOodFeatures(model, split, format, device, augment, normalization);
    };
    input.unseen = features(images.unseen);
    if (images.meansOnly.size() > 0) {
        input.meansOnly = features(images.meansOnly);
    }
    if (!images.unseen.isStreamed() && images.unseen.size() >= kMinOodImages) {
        DataSplit sample = images.unseen;
        if (sample.size() > kMaxCorruptedImages) {
            sample = sample.select(torch::linspace(0, double(sample.size() - 1), kMaxCorruptedImages, torch::kFloat64)
                                       .round()
                                       .to(torch::kInt64));
        }
        for (auto& [name, corrupted] : oodCorruptions(sample, /*seed=*/0)) {
            input.corruptions.emplace_back(name, features(corrupted));
        }
    }
    return fitOod(input);
}

torch::Tensor energyScores(const torch::Tensor& logits)
{
    return -torch::logsumexp(logits.to(torch::kFloat64).mean(0), 1);
}

torch::Tensor mahalanobisScores(const OodFit& fit, const std::vector<torch::Tensor>& stages)
{
    if (!fit.hasMahalanobis()) {
        throw InputError("the out-of-distribution fit has no Mahalanobis statistics (no stage of at most "
                         + std::to_string(kMaxOodMahalanobisDim) + " features)");
    }
    torch::Tensor score;
    for (const OodSpace& space : fit.spaces) {
        const auto scaled =
            oodSpaceDistances(space, oodSpaceFeatures(stages.at(static_cast<size_t>(space.stage)), space.direction)) / space.scale;
        score = score.defined() ? torch::maximum(score, scaled) : scaled;
    }
    return score;
}

torch::Tensor oodScores(const OodFit& fit, OodMethod method, const OodFeatures& features)
{
    return method == OodMethod::Mahalanobis ? mahalanobisScores(fit, features.stages) : energyScores(features.logits);
}

} // namespace lbd

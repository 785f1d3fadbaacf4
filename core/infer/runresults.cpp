#include "core/infer/runresults.h"

#include "core/data/datapreparation.h"
#include "core/data/imagedecoder.h"
#include "core/data/longtail.h"
#include "core/eval/decisions.h"
#include "core/eval/degeneracy.h"
#include "core/eval/evaluator.h"
#include "core/eval/uncertainty.h"
#include "core/train/configjson.h"
#include "core/train/pythonexport.h"
#include "core/train/runfolder.h"
#include "core/train/runmanifest.h"
#include "core/util/error.h"
#include "core/util/tensorvector.h"

#include <torch/torch.h>

#include <filesystem>

namespace lbd {
namespace {

// Views of the cached vectors as tensors (no copy; evaluate() and computeUncertainty() only read).
torch::Tensor probabilityTensor(const RunResults& results)
{
    return torch::from_blob(const_cast<float*>(results.probabilities.data()),
                            {results.particles, results.images, results.classes}, torch::kFloat32);
}

torch::Tensor labelTensor(const RunResults& results)
{
    return torch::from_blob(const_cast<int64_t*>(results.labels.data()), {results.images}, torch::kInt64);
}

void checkLoaded(const RunResults& results)
{
    if (results.probabilities.size() != static_cast<size_t>(results.particles * results.images * results.classes)
        || results.labels.size() != static_cast<size_t>(results.images)) {
        throw InputError("run results of " + results.directory + ": probabilities and labels do not fit together");
    }
}

// The most images a run's cached split can hold, from its metadata: the test counts of run.json;
// its validation counts (recorded for a validation fraction or list), else, for a run written
// before they were, the held-out counts of split.json; for such a run's validation list (no count
// recorded anywhere) the tensor-file limit alone.
int64_t splitImageBound(const RunFolder& folder, const RunManifest& manifest, ResultSplit split)
{
    std::vector<int64_t> counts = manifest.testCounts;
    if (split == ResultSplit::Validation) {
        counts = !manifest.validationCounts.empty() ? manifest.validationCounts
                 : folder.exists(RunFolder::kSplit) ? loadLongTailSplit(folder.path(RunFolder::kSplit)).validationCounts
                                                    : std::vector<int64_t>{};
        if (counts.empty()) {
            return kMaxTensorFileBytes;
        }
    }
    int64_t images = 0;
    for (const int64_t count : counts) {
        images = std::min(images + std::clamp<int64_t>(count, 0, kMaxTensorFileBytes), kMaxTensorFileBytes); // no overflow
    }
    return images;
}

} // namespace

std::string resultSplitName(ResultSplit split)
{
    return split == ResultSplit::Test ? "test" : "validation";
}

RunClasses loadRunClasses(const std::string& directory)
{
    const RunFolder folder(directory);
    if (!folder.exists(RunFolder::kManifest)) {
        throw InputError(folder.path(RunFolder::kManifest) + ": not found (the run stopped before it read its data)");
    }
    const RunManifest manifest = readRunManifest(folder);
    if (manifest.trainCounts.size() != manifest.classNames.size()) {
        throw InputError(folder.path(RunFolder::kManifest) + ": " + std::to_string(manifest.classNames.size())
                         + " class names but " + std::to_string(manifest.trainCounts.size()) + " training counts");
    }
    return {manifest.classNames, manifest.trainCounts, manifest.testCounts};
}

RunResults loadRunResults(const std::string& directory, ResultSplit split)
{
    std::error_code ec;
    if (!std::filesystem::is_directory(directory, ec)) {
        throw InputError(directory + ": run folder not found");
    }
    const RunFolder folder(directory);
    if (!folder.exists(RunFolder::kConfig)) {
        throw InputError(notARunFolderMessage(directory, std::string(RunFolder::kConfig) + " is missing"));
    }
    if (!folder.exists(RunFolder::kTestProbabilities)) {
        throw InputError(folder.path(RunFolder::kTestProbabilities)
                         + ": not found (the cached test probabilities are written when a run finishes its last epoch)");
    }
    const bool hasValidation = folder.exists(RunFolder::kValidationProbabilities);
    if (split == ResultSplit::Validation && !hasValidation) {
        throw InputError(folder.path(RunFolder::kValidationProbabilities)
                         + ": not found: this run has no validation split (train with --val-fraction F or --val-list FILE)");
    }
    RunResults results;
    results.directory = directory;
    results.split = split;
    results.hasValidation = hasValidation;
    results.config = loadTrainConfig(folder.path(RunFolder::kConfig));
    const RunManifest manifest = readRunManifest(folder);
    results.classNames = manifest.classNames;
    results.trainCounts = manifest.trainCounts;
    results.testCounts = manifest.testCounts;
    results.decisions = openRunDecisions(results.config, results.classNames, folder.path(RunFolder::kConfig));

    const std::string probabilitiesPath =
        folder.path(split == ResultSplit::Test ? RunFolder::kTestProbabilities : RunFolder::kValidationProbabilities);
    const TestProbabilities cached = loadRunProbabilities(probabilitiesPath, results.config.model.particles,
                                                         splitImageBound(folder, manifest, split), results.classNames);
    results.particles = cached.probabilities.size(0);
    results.images = cached.probabilities.size(1);
    results.classes = cached.probabilities.size(2);
    if (results.classes != static_cast<int64_t>(results.classNames.size())
        || results.trainCounts.size() != results.classNames.size()) {
        throw InputError(probabilitiesPath + ": " + std::to_string(results.classes) + " classes, but "
                         + folder.path(RunFolder::kManifest) + " names " + std::to_string(results.classNames.size())
                         + " classes with " + std::to_string(results.trainCounts.size()) + " training counts");
    }
    if (results.particles < 1 || results.images < 1 || results.classes < 1) {
        throw InputError(probabilitiesPath + ": empty probabilities (" + std::to_string(results.particles) + " particles, "
                         + std::to_string(results.images) + " images, " + std::to_string(results.classes) + " classes)");
    }
    results.probabilities = toVector<float>(cached.probabilities);
    results.labels = toVector<int64_t>(cached.labels);
    for (size_t n = 0; n < results.labels.size(); ++n) {
        if (results.labels[n] < 0 || results.labels[n] >= results.classes) {
            throw InputError(probabilitiesPath + ": label " + std::to_string(results.labels[n]) + " of test image "
                             + std::to_string(n) + " is not a class index (0.." + std::to_string(results.classes - 1) + ")");
        }
    }
    const std::vector<int64_t>& recordedCounts = split == ResultSplit::Test ? results.testCounts : manifest.validationCounts;
    if (!recordedCounts.empty()) {
        // The cached labels must be this run's split: a file copied from another run would
        // silently evaluate someone else's model.
        std::vector<int64_t> perClass(static_cast<size_t>(results.classes), 0);
        for (const int64_t label : results.labels) {
            if (label >= 0 && label < results.classes) {
                ++perClass[static_cast<size_t>(label)];
            }
        }
        if (perClass != recordedCounts) {
            throw InputError(probabilitiesPath + ": does not belong to this run (its labels do not give the "
                             + resultSplitName(split) + " counts that " + folder.path(RunFolder::kManifest) + " records)");
        }
    }
    return results;
}

EvaluationReport evaluateRunResults(const RunResults& results, const UtilityMatrix& utility, DecisionRule rule,
                                    std::optional<double> deferUtility)
{
    checkLoaded(results);
    EvaluationReport report =
        evaluate(probabilityTensor(results), labelTensor(results), results.trainCounts, utility, rule, deferUtility);
    report.warnings = warningsWithClassNames(report, results.classNames); // lbd eval and the Decision lab name classes
    return report;
}

EvaluationReport evaluateRunResults(const RunResults& results)
{
    return evaluateRunResults(results, results.decisions.decisionUtility, results.decisions.rule,
                              results.decisions.deferUtility);
}

std::vector<double> decisionConfidences(const RunResults& results, const UtilityMatrix& utility, DecisionRule rule)
{
    checkLoaded(results);
    torch::NoGradGuard noGrad;
    return toVector<double>(decide(probabilityTensor(results), utility, rule).confidence);
}

std::vector<int64_t> decidedClasses(const RunResults& results, const UtilityMatrix& utility, DecisionRule rule)
{
    checkLoaded(results);
    torch::NoGradGuard noGrad;
    return toVector<int64_t>(decide(probabilityTensor(results), utility, rule).undeferred);
}

std::vector<ImageUncertainty> imageUncertainties(const RunResults& results)
{
    checkLoaded(results);
    torch::NoGradGuard noGrad;
    const UncertaintyBatch batch = computeUncertainty(probabilityTensor(results));
    // Whole columns to the host once: per-image item() calls cost ~50 us each at 10,000 images.
    const auto total = toVector<double>(batch.total);
    const auto aleatoric = toVector<double>(batch.aleatoric);
    const auto epistemic = toVector<double>(batch.epistemic);
    const auto vote = toVector<double>(batch.voteDisagreement);
    const auto top1 = toVector<int64_t>(batch.particleTop1);                  // [M, N]
    const auto top1Probability = toVector<double>(batch.particleTop1Probability); // [M, N]
    const auto m = static_cast<size_t>(results.particles);
    const auto n = static_cast<size_t>(results.images);
    std::vector<ImageUncertainty> out(n);
    for (size_t i = 0; i < n; ++i) {
        ImageUncertainty& u = out[i];
        u.total = total[i];
        u.aleatoric = aleatoric[i];
        u.epistemic = epistemic[i];
        u.voteDisagreement = vote[i];
        u.particleTop1.resize(m);
        u.particleTop1Probability.resize(m);
        for (size_t j = 0; j < m; ++j) {
            u.particleTop1[j] = top1[j * n + i];
            u.particleTop1Probability[j] = top1Probability[j * n + i];
        }
    }
    return out;
}

TestImages loadTestImages(const RunResults& results)
{
    checkLoaded(results);
    if (results.split != ResultSplit::Test) {
        throw InputError(results.directory + ": images are shown for the test split only");
    }
    const RunFolder folder(results.directory);
    const RunManifest manifest = readRunManifest(folder);
    const Dataset dataset = loadDataset(results.config.data);
    const std::string what = "the test split of " + dataset.name + " (from " + folder.path(RunFolder::kConfig) + ")";
    if (dataset.format.channels != manifest.imageFormat.channels || dataset.format.height != manifest.imageFormat.height
        || dataset.format.width != manifest.imageFormat.width) {
        throw InputError(what + " has " + std::to_string(dataset.format.channels) + "-channel "
                         + std::to_string(dataset.format.height) + "x" + std::to_string(dataset.format.width)
                         + " images, but the run was trained on " + std::to_string(manifest.imageFormat.channels)
                         + "-channel " + std::to_string(manifest.imageFormat.height) + "x"
                         + std::to_string(manifest.imageFormat.width) + " images");
    }
    TestImages images;
    images.count = dataset.test.size();
    images.channels = dataset.format.channels;
    images.height = dataset.format.height;
    images.width = dataset.format.width;
    images.labels = toVector<int64_t>(dataset.test.labels);
    if (images.count != results.images) {
        throw InputError(what + " has " + std::to_string(images.count) + " images, but "
                         + folder.path(RunFolder::kTestProbabilities) + " holds " + std::to_string(results.images)
                         + ": the data set changed since the run was trained");
    }
    for (size_t n = 0; n < images.labels.size(); ++n) {
        if (images.labels[n] != results.labels[n]) {
            throw InputError(what + ": test image " + std::to_string(n) + " has label " + std::to_string(images.labels[n])
                             + " but the cached probabilities say " + std::to_string(results.labels[n])
                             + ": the data set changed since the run was trained");
        }
    }
    if (dataset.test.isStreamed()) {
        images.files = dataset.test.files;
    } else {
        // [N, C, H, W] -> [N, H, W, C]: rows as QImage and most viewers expect them.
        images.pixels = toVector<uint8_t>(dataset.test.images.permute({0, 2, 3, 1}));
    }
    return images;
}

std::vector<uint8_t> testImagePixels(const TestImages& images, int64_t n)
{
    if (n < 0 || n >= images.count) {
        throw InputError("test image " + std::to_string(n) + " does not exist (there are " + std::to_string(images.count)
                         + ")");
    }
    const auto size = static_cast<size_t>(images.channels * images.height * images.width);
    if (!images.isStreamed()) {
        const auto begin = images.pixels.begin() + static_cast<std::ptrdiff_t>(size * static_cast<size_t>(n));
        return std::vector<uint8_t>(begin, begin + static_cast<std::ptrdiff_t>(size));
    }
    std::vector<uint8_t> planar(size);
    decodeImageFile(images.files[static_cast<size_t>(n)], {images.channels, images.height, images.width}, planar.data());
    std::vector<uint8_t> interleaved(size);
    const auto plane = static_cast<size_t>(images.height * images.width);
    const auto channels = static_cast<size_t>(images.channels);
    for (size_t c = 0; c < channels; ++c) {
        for (size_t p = 0; p < plane; ++p) {
            interleaved[p * channels + c] = planar[c * plane + p];
        }
    }
    return interleaved;
}

} // namespace lbd

#include "core/infer/runood.h"

#include "core/data/datapreparation.h"
#include "core/data/imagedecoder.h"
#include "core/eval/oodfitfile.h"
#include "core/eval/oodimages.h"
#include "core/infer/loadedrun.h"
#include "core/train/runfolder.h"
#include "core/util/device.h"
#include "core/util/error.h"
#include "core/util/machineinfo.h"

#include "datasets/common/imagefiles.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <filesystem>

namespace lbd {

namespace {

// The run's data as it was trained on (the saved split), for its validation, training or test images.
PreparedData runData(const LoadedRun& run)
{
    const RunFolder folder(run.directory);
    if (!folder.exists(RunFolder::kSplit)) {
        throw InputError(folder.path(RunFolder::kSplit) + ": not found (the run's split is needed to find its images)");
    }
    return prepareData(run.config.data, loadLongTailSplit(folder.path(RunFolder::kSplit)));
}

OodFeatures featuresOf(LoadedRun& run, const DataSplit& split, const torch::Device& device)
{
    return collectOodFeatures(run.model, split, run.manifest.imageFormat, device, run.config.augment,
                              run.manifest.normalization);
}

std::vector<std::string> imageFilesUnder(const std::string& directory)
{
    std::error_code ec;
    if (!std::filesystem::is_directory(directory, ec)) {
        throw InputError(directory + ": not a folder of images");
    }
    std::vector<std::string> files;
    for (auto it = std::filesystem::recursive_directory_iterator(directory, ec);
         !ec && it != std::filesystem::recursive_directory_iterator(); it.increment(ec)) {
        if (it->is_regular_file(ec) && hasImageExtension(it->path().string())) {
            files.push_back(it->path().string());
        }
    }
    if (ec) {
        throw InputError(directory + ": cannot be listed (" + ec.message() + ")");
    }
    if (files.empty()) {
        throw InputError(directory + ": holds no image files (PNG, JPEG, BMP, ...)");
    }
    std::sort(files.begin(), files.end());
    return files;
}

std::vector<OodMethod> methodsOf(const OodFit& fit)
{
    return fit.hasMahalanobis() ? std::vector<OodMethod>{OodMethod::Mahalanobis, OodMethod::Energy}
                              : std::vector<OodMethod>{OodMethod::Energy};
}

double thresholdOf(const OodFit& fit, OodMethod method)
{
    return method == OodMethod::Mahalanobis ? fit.mahalanobisThreshold : fit.energyThreshold;
}

} // namespace

OodFit fitRunOod(const std::string& runDirectory, const std::string& device)
{
    const torch::Device torchDevice = parseDevice(device);
    LoadedRun run = loadRun(runDirectory, torchDevice);
    const PreparedData data = runData(run);
    const OodFit fit = fitOodOnImages(run.model, chooseOodImages(data, run.config.data), run.manifest.imageFormat, torchDevice,
                                      run.config.augment, run.manifest.normalization, run.epoch);
    saveOodFit(fit, RunFolder(runDirectory).path(kOodFitFile));
    return fit;
}

nlohmann::json measureRunOod(const std::string& runDirectory, const OodMeasureOptions& options)
{
    const auto start = std::chrono::steady_clock::now();
    if (options.oodFolder.empty() && options.noiseImages <= 0) {
        throw InputError("nothing to measure against: give a folder of foreign images, a number of noise images, or both");
    }
    const torch::Device device = parseDevice(options.device);
    LoadedRun run = loadRun(runDirectory, device);
    const std::string fitPath = RunFolder(runDirectory).path(kOodFitFile);
    if (!std::filesystem::exists(fitPath)) {
        throw InputError(fitPath + ": not found; fit the run's caution first (lbd ood " + runDirectory + " --fit)");
    }
    const OodFit fit = loadOodFit(fitPath, oodModelShape(*run.model));
    // Decoded first: a bad folder fails before the test set is scored.
    std::vector<std::pair<std::string, DataSplit>> foreign;
    const ImageFormat& format = run.manifest.imageFormat;
    if (!options.oodFolder.empty()) {
        DataSplit split;
        split.images = decodeImageFiles(imageFilesUnder(options.oodFolder), format, 2);
        split.labels = torch::zeros({split.images.size(0)}, torch::kInt64);
        foreign.emplace_back("folder " + options.oodFolder, std::move(split));
    }
    if (options.noiseImages > 0) {
        auto generator = at::detail::createCPUGenerator(options.seed);
        DataSplit split;
        split.images = torch::randint(0, 256, {options.noiseImages, format.channels, format.height, format.width},
                                      generator, torch::kInt64)
                           .to(torch::kUInt8);
        split.labels = torch::zeros({options.noiseImages}, torch::kInt64);
        foreign.emplace_back("uniform noise", std::move(split));
    }

    const PreparedData data = runData(run);
    const OodFeatures inDistribution = featuresOf(run, data.dataset.test, device);
    const auto cautionRates = [&fit](const OodFeatures& features) {
        nlohmann::json rates;
        for (const OodMethod method : methodsOf(fit)) {
            rates[oodMethodName(method)] =
                (oodScores(fit, method, features) > thresholdOf(fit, method))
                    .to(torch::kFloat64)
                    .mean()
                    .item<double>();
        }
        return rates;
    };

    // Only what the fit holds: no null stands in for a score it does not have.
    nlohmann::json thresholds = {{"energy", fit.energyThreshold}};
    nlohmann::json spaces = nlohmann::json::array();
    if (fit.hasMahalanobis()) {
        thresholds["mahalanobis"] = fit.mahalanobisThreshold;
        for (const OodSpace& space : fit.spaces) {
            spaces.push_back(space.name());
        }
    }
    nlohmann::json sets = nlohmann::json::array();
    for (const auto& [name, split] : foreign) {
        const OodFeatures outside = featuresOf(run, split, device);
        nlohmann::json auroc;
        for (const OodMethod method : methodsOf(fit)) {
            // The probability that a foreign image scores higher than a test image (ties 1/2).
            auroc[oodMethodName(method)] = scoreAuroc(oodScores(fit, method, inDistribution), oodScores(fit, method, outside));
        }
        sets.push_back({{"name", name}, {"images", split.size()}, {"auroc", auroc}, {"caution_rate", cautionRates(outside)}});
    }
    return {{"run", runDirectory},
            {"method", oodMethodName(fit.method)},
            {"fit",
             {{"source", fit.source},
              {"images", fit.images},
              {"checkpoint_epoch", fit.checkpointEpoch},
              {"model_epoch", run.epoch},
              {"pass_rate", fit.passRate},
              {"threshold", thresholds},
              {"spaces", spaces},
              {"held_out_per_class", fit.heldOut.perClass},
              {"means_from_training", fit.heldOut.meansFromTraining}}},
            {"in_distribution",
             {{"name", "test split of " + data.dataset.name},
              {"images", data.dataset.test.size()},
              {"caution_rate", cautionRates(inDistribution)}}},
            {"out_of_distribution", sets},
            {"device", deviceDescription(device)},
            {"machine", cpuModelName()},
            {"date", currentDateTimeUtc()},
            {"seconds", std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count()}};
}

} // namespace lbd

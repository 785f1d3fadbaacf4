#include "core/train/runmanifest.h"

#include "core/train/configjson.h"
#include "core/train/runprovenance.h"
#include "core/util/buildinfo.h"
#include "core/util/error.h"
#include "core/util/machineinfo.h"

#include "core/util/jsonread.h"

#include <nlohmann/json.hpp>

#include <optional>

#include "core/model/modelspec.h"

namespace lbd {
namespace {

// A damaged or hand-edited run.json must be refused here, naming the file, before its numbers
// size a model or an allocation (an input size of 100000 once asked for 40 GB).
void checkManifest(const RunManifest& manifest, const std::string& path)
{
    const auto fail = [&](const std::string& what) { throw InputError(path + ": damaged run manifest: " + what); };
    const auto classes = static_cast<int64_t>(manifest.classNames.size());
    if (classes < 2 || classes > kMaxClasses) {
        fail("class_names lists " + std::to_string(classes) + " classes (2.." + std::to_string(kMaxClasses) + " expected)");
    }
    if (static_cast<int64_t>(manifest.trainCounts.size()) != classes || static_cast<int64_t>(manifest.testCounts.size()) != classes) {
        fail(std::to_string(classes) + " class names but " + std::to_string(manifest.trainCounts.size()) + " train counts and "
             + std::to_string(manifest.testCounts.size()) + " test counts");
    }
    const ImageFormat& f = manifest.imageFormat;
    if (f.channels < 1 || f.channels > 4 || f.height < 1 || f.width < 1 || f.height > kMaxInputSize || f.width > kMaxInputSize) {
        fail("image format " + std::to_string(f.channels) + "x" + std::to_string(f.height) + "x" + std::to_string(f.width)
             + " is outside 1..4 channels and 1.." + std::to_string(kMaxInputSize) + " pixels");
    }
    if (manifest.inputSize < 8 || manifest.inputSize > kMaxInputSize) {
        fail("input_size " + std::to_string(manifest.inputSize) + " is outside 8.." + std::to_string(kMaxInputSize));
    }
    if (static_cast<int64_t>(manifest.normalization.mean.size()) != f.channels
        || static_cast<int64_t>(manifest.normalization.std.size()) != f.channels) {
        fail("the normalisation does not have one mean and one std per channel");
    }
}

} // namespace

void writeRunManifest(const RunFolder& folder, const Dataset& dataset, const std::vector<int64_t>& trainCounts,
                      const std::vector<int64_t>& testCounts, const Normalization& normalization, int64_t inputSize,
                      const std::string& device)
{
    const BuildInfo info = buildInfo();
    // A resumed run rewrites its manifest (the device may differ) but keeps its creation time.
    std::string created = currentDateTimeUtc();
    if (folder.exists(RunFolder::kManifest)) {
        try {
            created = folder.readJson(RunFolder::kManifest).value("created", created);
        } catch (const std::exception&) {
            // A damaged manifest is replaced; the new time is the best we know.
        }
    }
    // The data named by the run's config.json (written before this): its fingerprint goes into
    // the provenance. A folder without one (a hand-made run) records the data as unknown.
    std::optional<TrainConfig> config;
    if (folder.exists(RunFolder::kConfig)) {
        try {
            config = trainConfigFromJson(folder.readJson(RunFolder::kConfig), folder.path(RunFolder::kConfig));
        } catch (const std::exception&) {
            config.reset();
        }
    }
    folder.writeJson(RunFolder::kManifest,
                     {{"dataset", dataset.name},
                      {"class_names", dataset.classNames},
                      {"train_counts", trainCounts},
                      {"test_counts", testCounts},
                      {"image", {{"channels", dataset.format.channels}, {"height", dataset.format.height}, {"width", dataset.format.width}}},
                      {"input_size", inputSize},
                      {"normalization", {{"mean", normalization.mean}, {"std", normalization.std}}},
                      {"device", device},
                      {"lbd_version", info.lbdVersion},
                      {"libtorch_version", info.torchVersion},
                      {"created", created},
                      {"provenance", currentProvenance(config ? &config->data : nullptr)}});
}

RunManifest readRunManifest(const RunFolder& folder)
{
    const nlohmann::json json = folder.readJson(RunFolder::kManifest);
    RunManifest manifest;
    try {
        manifest.classNames = json.at("class_names").get<std::vector<std::string>>();
        manifest.trainCounts = integerVector<int64_t>(json.at("train_counts"));
        manifest.testCounts = integerVector<int64_t>(json.at("test_counts"));
        manifest.imageFormat.channels = json.at("image").at("channels").get<int64_t>();
        manifest.imageFormat.height = json.at("image").at("height").get<int64_t>();
        manifest.imageFormat.width = json.at("image").at("width").get<int64_t>();
        manifest.inputSize = json.at("input_size").get<int64_t>();
        manifest.normalization.mean = json.at("normalization").at("mean").get<std::vector<float>>();
        manifest.normalization.std = json.at("normalization").at("std").get<std::vector<float>>();
        manifest.device = json.value("device", "");
        manifest.lbdVersion = json.value("lbd_version", "");
        manifest.torchVersion = json.value("libtorch_version", "");
        manifest.created = json.value("created", "");
    } catch (const nlohmann::json::exception& error) {
        throw InputError(folder.path(RunFolder::kManifest) + ": incomplete run manifest (" + error.what() + ")");
    }
    checkManifest(manifest, folder.path(RunFolder::kManifest));
    return manifest;
}

} // namespace lbd

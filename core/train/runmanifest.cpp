#include "core/train/runmanifest.h"

#include "core/util/buildinfo.h"
#include "core/util/error.h"
#include "core/util/machineinfo.h"

#include <nlohmann/json.hpp>

namespace lbd {

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
                      {"created", created}});
}

RunManifest readRunManifest(const RunFolder& folder)
{
    const nlohmann::json json = folder.readJson(RunFolder::kManifest);
    RunManifest manifest;
    try {
        manifest.classNames = json.at("class_names").get<std::vector<std::string>>();
        manifest.trainCounts = json.at("train_counts").get<std::vector<int64_t>>();
        manifest.testCounts = json.at("test_counts").get<std::vector<int64_t>>();
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
    return manifest;
}

} // namespace lbd

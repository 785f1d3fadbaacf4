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

// run.json's "data_report" and "data_check": what reading image files left out, ignored or
// doubted (datasets/common/datareport.h). Lists keep their first kListed names beside the counts.
constexpr size_t kListed = 100;

nlohmann::json firstOf(const std::vector<std::string>& names)
{
    return std::vector<std::string>(names.begin(), names.begin() + std::min(names.size(), kListed));
}

void addDataReport(nlohmann::json& manifest, const DataReport& report)
{
    nlohmann::json skipped = nlohmann::json::array();
    for (size_t i = 0; i < report.skipped.size() && i < kListed; ++i) {
        skipped.push_back({{"file", report.skipped[i].file}, {"reason", report.skipped[i].reason}});
    }
    nlohmann::json nested = nlohmann::json::array();
    for (const NestedFolder& folder : report.nested) {
        nested.push_back({{"folder", folder.folder}, {"class", folder.className}, {"images", folder.images}});
    }
    manifest["data_report"] = {{"skipped_count", report.skipped.size()},
                               {"skipped", skipped},
                               {"ignored_count", report.ignored.size()},
                               {"ignored", firstOf(report.ignored)},
                               {"not_images_count", report.notImages.size()},
                               {"not_images", firstOf(report.notImages)},
                               {"nested_folders", nested},
                               {"composited_on_background", report.composited},
                               {"alpha_background", report.background},
                               {"turned_upright", report.turned}};
    manifest["data_check"] = {{"checked", report.checked}, {"warnings", report.checkWarnings}};
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
    nlohmann::json manifest = {{"dataset", dataset.name},
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
                      {"provenance", currentProvenance(config ? &config->data : nullptr)}};
    if (dataset.name.rfind("folder:", 0) == 0 || dataset.name.rfind("list:", 0) == 0) {
        addDataReport(manifest, dataset.report);
    }
    folder.writeJson(RunFolder::kManifest, manifest);
}

RunManifest readRunManifest(const RunFolder& folder)
{
    const nlohmann::json json = folder.readJson(RunFolder::kManifest);
    const std::string source = folder.path(RunFolder::kManifest);
    // Typed, field by field: a damaged run.json names the field and what it holds.
    RunManifest manifest;
    manifest.classNames = requiredTextList(json, "class_names", source);
    manifest.trainCounts = requiredIntegerList(json, "train_counts", source);
    manifest.testCounts = requiredIntegerList(json, "test_counts", source);
    manifest.imageFormat.channels = requiredInteger(json, "image.channels", source);
    manifest.imageFormat.height = requiredInteger(json, "image.height", source);
    manifest.imageFormat.width = requiredInteger(json, "image.width", source);
    manifest.inputSize = requiredInteger(json, "input_size", source);
    for (const double value : requiredNumberList(json, "normalization.mean", source)) {
        manifest.normalization.mean.push_back(static_cast<float>(value));
    }
    for (const double value : requiredNumberList(json, "normalization.std", source)) {
        manifest.normalization.std.push_back(static_cast<float>(value));
    }
    manifest.device = textField(json, "device", source);
    manifest.lbdVersion = textField(json, "lbd_version", source);
    manifest.torchVersion = textField(json, "libtorch_version", source);
    manifest.created = textField(json, "created", source);
    checkManifest(manifest, folder.path(RunFolder::kManifest));
    return manifest;
}

} // namespace lbd

#include "core/train/runmanifest.h"

#include "core/train/configjson.h"
#include "core/train/runprovenance.h"
#include "core/util/buildinfo.h"
#include "core/util/error.h"
#include "core/util/machineinfo.h"
#include "core/util/numbertext.h"

#include "core/util/jsonread.h"

#include <nlohmann/json.hpp>

#include <optional>

#include "core/model/modelspec.h"

namespace lbd {
namespace {

// computeNormalization's floor on a channel's deviation (augmentation.cpp), as a float, as stored.
constexpr double kSmallestWrittenStd = static_cast<double>(1e-3f);

// What writeRunManifest can have written, in one place: a damaged or hand-edited run.json is
// refused here, naming the field, before its numbers size a model or an allocation (an input size
// of 100000 once asked for 40 GB) or a std of 0 turns every prediction into NaN.
void checkManifest(const RunManifest& manifest, const std::string& source)
{
    const auto fail = [&](const std::string& what) { throw InputError(source + ": field " + what); };
    const auto classes = static_cast<int64_t>(manifest.classNames.size());
    if (classes < 2 || classes > kMaxClasses) {
        fail("class_names lists " + std::to_string(classes) + " classes, outside 2.." + std::to_string(kMaxClasses));
    }
    const auto checkCounts = [&](const std::vector<int64_t>& counts, const char* key) {
        if (static_cast<int64_t>(counts.size()) != classes) {
            fail(std::string(key) + " has " + std::to_string(counts.size()) + " counts, not one per class of class_names ("
                 + std::to_string(classes) + ")");
        }
        for (size_t c = 0; c < counts.size(); ++c) {
            if (counts[c] < 0) {
                fail(std::string(key) + "[" + std::to_string(c) + "] = " + std::to_string(counts[c])
                     + " is negative (a number of images)");
            }
        }
    };
    checkCounts(manifest.trainCounts, "train_counts");
    checkCounts(manifest.testCounts, "test_counts");
    if (!manifest.validationCounts.empty()) {
        checkCounts(manifest.validationCounts, "validation_counts");
    }
    const ImageFormat& f = manifest.imageFormat;
    if (f.channels != 1 && f.channels != 3) {
        fail("image.channels = " + std::to_string(f.channels) + " is not 1 or 3 (grey or colour, what the readers give)");
    }
    const std::string sides = "1.." + std::to_string(kMaxInputSize);
    if (f.height < 1 || f.height > kMaxInputSize) {
        throwOutOfRange(source, "image.height", std::to_string(f.height), sides);
    }
    if (f.width < 1 || f.width > kMaxInputSize) {
        throwOutOfRange(source, "image.width", std::to_string(f.width), sides);
    }
    if (manifest.inputSize < 8 || manifest.inputSize > kMaxInputSize) {
        throwOutOfRange(source, "input_size", std::to_string(manifest.inputSize), "8.." + std::to_string(kMaxInputSize),
                        "augment.output_size's range");
    }
    // computeNormalization: means of pixels in [0, 1], deviations clamped to at least 1e-3 (and at
    // most 0.5, that of pixels half 0 and half 1).
    const auto checkPerChannel = [&](const std::vector<float>& values, const char* key, double low, double high) {
        if (static_cast<int64_t>(values.size()) != f.channels) {
            fail(std::string(key) + " has " + std::to_string(values.size()) + " values, not one per image channel ("
                 + std::to_string(f.channels) + ")");
        }
        for (size_t c = 0; c < values.size(); ++c) {
            if (!(values[c] >= low && values[c] <= high)) { // NaN fails too
                throwOutOfRange(source, std::string(key) + "[" + std::to_string(c) + "]", numberText(values[c], 9),
                                numberText(low, 3) + ".." + numberText(high, 3), "pixel units");
            }
        }
    };
    checkPerChannel(manifest.normalization.mean, "normalization.mean", 0.0, 1.0);
    checkPerChannel(manifest.normalization.std, "normalization.std", kSmallestWrittenStd, 0.5);
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
    if (dataset.validation.size() > 0) {
        // Held out (val_fraction) or the data set's own (val_list, which split.json does not
        // count): what bounds val_probabilities.pt's size when it is read back.
        manifest["validation_counts"] = countPerClass(dataset.validation.labels, dataset.classCount());
    }
    if (dataset.cautionHeldOut.size() > 0) {
        // Held out of training for the caution (data.caution_holdout; split.json has their rows).
        manifest["caution_counts"] = countPerClass(dataset.cautionHeldOut.labels, dataset.classCount());
    }
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
    if (json.contains("validation_counts")) { // absent: no validation split, or a run from before they were recorded
        manifest.validationCounts = requiredIntegerList(json, "validation_counts", source);
    }
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
    checkManifest(manifest, source);
    return manifest;
}

} // namespace lbd

#include "core/train/rundiff.h"

#include "core/eval/reportjson.h"
#include "core/train/configjson.h"
#include "core/train/runfolder.h"
#include "core/train/runprovenance.h"
#include "core/train/runsummary.h"
#include "core/util/error.h"
#include "core/util/jsonread.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <exception>
#include <filesystem>
#include <optional>
#include <set>

namespace lbd {
namespace {

const char* kAbsent = "(absent)";

std::string valueText(const nlohmann::json& value)
{
    return value.is_string() ? value.get<std::string>() : value.dump();
}

// A leaf's text as shown and compared: long values (a stored 2000 x 2000 matrix, a long name)
// shortened to their start, their length and a hash of the whole, so that the rows of two 48 MB
// configs cost kilobytes while two values that differ anywhere still differ.
std::string shownText(std::string text)
{
    constexpr size_t kShown = 120;
    if (text.size() <= kShown) {
        return text;
    }
    uint64_t hash = 0xcbf29ce484222325ULL; // FNV-1a 64
    for (const char c : text) {
        hash = (hash ^ static_cast<unsigned char>(c)) * 0x100000001b3ULL;
    }
    char tail[80];
    std::snprintf(tail, sizeof tail, "... (%zu characters, fnv1a64 %016llx)", text.size(), static_cast<unsigned long long>(hash));
    text.resize(kShown - 40);
    return text + tail;
}

// Objects become "section.key" rows; arrays stay one value (a matrix is one setting, not a row
// per element: 4 million rows of a 2000 x 2000 matrix took lbd diff to 1 GB).
void flattenInto(const nlohmann::json& value, const std::string& key, FlatValues& out)
{
    if (value.is_object() && !value.empty()) {
        for (const auto& [name, item] : value.items()) {
            flattenInto(item, key.empty() ? name : key + "." + name, out);
        }
        return;
    }
    out[key] = shownText(valueText(value));
}

FlatValues flatten(const nlohmann::json& json)
{
    FlatValues out;
    flattenInto(json, "", out);
    return out;
}

std::string number(double value)
{
    char text[40];
    std::snprintf(text, sizeof text, "%.6g", value);
    return text;
}

std::vector<RunDifference> compare(const FlatValues& first, const FlatValues& second)
{
    std::vector<RunDifference> out;
    for (const std::string& key : differingKeys({first, second})) {
        const auto a = first.find(key);
        const auto b = second.find(key);
        out.push_back({key, a == first.end() ? kAbsent : a->second, b == second.end() ? kAbsent : b->second});
    }
    return out;
}

} // namespace

FlatValues readRunConfigValuesChecked(const std::string& runDirectory)
{
    const RunFolder folder(runDirectory);
    if (!folder.exists(RunFolder::kConfig)) {
        return {};
    }
    // The reader of lbd eval and lbd train, with their limits and refusals (issue 37: a config
    // over the value limit read as empty here), then the settings as that reader understood them.
    return flatten(toJson(loadTrainConfig(folder.path(RunFolder::kConfig))));
}

FlatValues readRunConfigValues(const std::string& runDirectory)
{
    try {
        return readRunConfigValuesChecked(runDirectory);
    } catch (const std::exception&) {
        return {};
    }
}

FlatValues readRunEnvironment(const std::string& runDirectory)
{
    try {
        return readRunEnvironmentChecked(runDirectory);
    } catch (const std::exception&) {
        return {};
    }
}

FlatValues readRunEnvironmentChecked(const std::string& runDirectory)
{
    const RunFolder folder(runDirectory);
    if (!folder.exists(RunFolder::kManifest)) {
        return {};
    }
    const nlohmann::json manifest = folder.readJson(RunFolder::kManifest);
    requireObject(manifest, folder.path(RunFolder::kManifest));
    FlatValues out;
    const nlohmann::json provenance = manifest.value("provenance", nlohmann::json::object());
    for (const std::string& key : provenanceKeys()) {
        out[key] = provenance.is_object() && provenance.contains(key) ? shownText(valueText(provenance.at(key))) : "unknown";
    }
    // Runs made before provenance was recorded still say which version and device.
    if (out["lbd_version"] == "unknown" && manifest.contains("lbd_version")) {
        out["lbd_version"] = shownText(valueText(manifest.at("lbd_version")));
    }
    if (out["libtorch"] == "unknown" && manifest.contains("libtorch_version")) {
        out["libtorch"] = shownText(valueText(manifest.at("libtorch_version")));
    }
    out["device"] = manifest.contains("device") ? shownText(valueText(manifest.at("device"))) : "unknown";
    return out;
}

FlatValues readRunMetrics(const std::string& runDirectory)
{
    const RunSummary summary = readRunSummary(runDirectory);
    FlatValues out;
    out["state"] = summary.state;
    out["epochs_done"] = std::to_string(summary.epochsDone);
    const std::pair<const char*, std::optional<double>> metrics[] = {
        {"accuracy", summary.accuracy},         {"head_accuracy", summary.headAccuracy},
        {"medium_accuracy", summary.mediumAccuracy}, {"tail_accuracy", summary.tailAccuracy},
        {"fhr_points_mean", summary.fhrPointsMean}, {"fhr_curve_mean", summary.fhrCurveMean},
        {"aurc", summary.aurc},                 {"ece", summary.ece},
        {"mean_utility", summary.meanUtility},  {"train_seconds", summary.trainSeconds}};
    for (const auto& [key, value] : metrics) {
        if (value) {
            out[key] = number(*value);
        }
    }
    return out;
}

std::vector<std::string> differingKeys(const std::vector<FlatValues>& runs)
{
    if (runs.size() < 2) {
        return {};
    }
    std::set<std::string> keys;
    for (const FlatValues& run : runs) {
        for (const auto& entry : run) {
            keys.insert(entry.first);
        }
    }
    std::vector<std::string> out;
    for (const std::string& key : keys) {
        const auto first = runs.front().find(key);
        for (const FlatValues& run : runs) {
            const auto it = run.find(key);
            const bool same = (it == run.end()) == (first == runs.front().end()) && (it == run.end() || it->second == first->second);
            if (!same) {
                out.push_back(key);
                break;
            }
        }
    }
    return out;
}

RunDifferences diffRuns(const std::string& firstRun, const std::string& secondRun)
{
    for (const std::string& run : {firstRun, secondRun}) {
        const RunFolder folder(run);
        if (!std::filesystem::is_directory(run)) {
            throw InputError(run + ": no such run folder");
        }
        if (!folder.exists(RunFolder::kConfig) && !folder.exists(RunFolder::kManifest)) {
            throw InputError(notARunFolderMessage(run, "neither config.json nor run.json is there"));
        }
        // A report that is there but cannot be read is an error naming the file and field, not
        // metrics shown as absent (issue 30: nothing silently replaced).
        if (folder.exists(RunFolder::kReport)) {
            reportFromFile(folder.readJson(RunFolder::kReport), folder.path(RunFolder::kReport));
        }
    }
    RunDifferences out;
    out.config = compare(readRunConfigValuesChecked(firstRun), readRunConfigValuesChecked(secondRun));
    out.environment = compare(readRunEnvironmentChecked(firstRun), readRunEnvironmentChecked(secondRun));
    out.metrics = compare(readRunMetrics(firstRun), readRunMetrics(secondRun));
    return out;
}

} // namespace lbd

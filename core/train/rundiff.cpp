#include "core/train/rundiff.h"

#include "core/eval/reportjson.h"
#include "core/train/runfolder.h"
#include "core/train/runprovenance.h"
#include "core/train/runsummary.h"
#include "core/util/error.h"

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

FlatValues flatten(const nlohmann::json& json)
{
    FlatValues out;
    // flatten() names each leaf by its JSON pointer, "/optimizer/learning_rate"; dots read better.
    const nlohmann::json flat = json.flatten();
    for (const auto& [pointer, value] : flat.items()) {
        std::string key = pointer.substr(pointer.empty() ? 0 : 1);
        for (char& c : key) {
            c = c == '/' ? '.' : c;
        }
        out[key] = valueText(value);
    }
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

FlatValues readRunConfigValues(const std::string& runDirectory)
{
    try {
        return flatten(RunFolder(runDirectory).readJson(RunFolder::kConfig));
    } catch (const std::exception&) {
        return {};
    }
}

FlatValues readRunEnvironment(const std::string& runDirectory)
{
    nlohmann::json manifest;
    try {
        manifest = RunFolder(runDirectory).readJson(RunFolder::kManifest);
    } catch (const std::exception&) {
        return {};
    }
    FlatValues out;
    const nlohmann::json provenance = manifest.value("provenance", nlohmann::json::object());
    for (const std::string& key : provenanceKeys()) {
        out[key] = provenance.is_object() && provenance.contains(key) ? valueText(provenance.at(key)) : "unknown";
    }
    // Runs made before provenance was recorded still say which version and device.
    if (out["lbd_version"] == "unknown" && manifest.contains("lbd_version")) {
        out["lbd_version"] = valueText(manifest.at("lbd_version"));
    }
    if (out["libtorch"] == "unknown" && manifest.contains("libtorch_version")) {
        out["libtorch"] = valueText(manifest.at("libtorch_version"));
    }
    out["device"] = manifest.contains("device") ? valueText(manifest.at("device")) : "unknown";
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
    out.config = compare(readRunConfigValues(firstRun), readRunConfigValues(secondRun));
    out.environment = compare(readRunEnvironment(firstRun), readRunEnvironment(secondRun));
    out.metrics = compare(readRunMetrics(firstRun), readRunMetrics(secondRun));
    return out;
}

} // namespace lbd

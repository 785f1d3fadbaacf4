#include "core/train/runsummary.h"

#include "core/eval/degeneracy.h"
#include "core/eval/reportjson.h"
#include "core/train/configjson.h"
#include "core/train/epochmetricsjson.h"
#include "core/train/runfolder.h"
#include "core/train/runlock.h"
#include "core/util/error.h"

#include "core/util/jsonread.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <filesystem>

namespace lbd {
namespace {

namespace fs = std::filesystem;

const char* const kRunFiles[] = {RunFolder::kConfig,     RunFolder::kSplit,  RunFolder::kManifest,
                                 RunFolder::kStatus,     RunFolder::kMetrics, RunFolder::kCheckpoint,
                                 RunFolder::kReport,     RunFolder::kTestProbabilities, RunFolder::kWeights};

bool folderIsEmpty(const std::string& directory)
{
    std::error_code ec;
    return fs::is_empty(directory, ec) && !ec;
}

// A config.json that the current parser refuses (an older or newer version, a hand edit) still
// names the run: take what a plain JSON read gives.
void readRawConfig(const RunFolder& folder, RunSummary& summary)
{
    try {
        const nlohmann::json json = folder.readJson(RunFolder::kConfig);
        if (!json.is_object()) {
            return;
        }
        summary.name = json.value("name", std::string());
        if (json.contains("model") && json["model"].is_object()) {
            summary.model = json["model"].value("arch", std::string());
            summary.particles = integerOr(json["model"], "particles", 0);
        }
        if (json.contains("train") && json["train"].is_object()) {
            summary.epochs = integerOr(json["train"], "epochs", 0);
        }
    } catch (const std::exception&) {
        // the problem is already recorded
    }
}

void readConfig(const RunFolder& folder, RunSummary& summary)
{
    if (!folder.exists(RunFolder::kConfig)) {
        summary.problems.push_back(folder.path(RunFolder::kConfig) + ": missing (not a complete run folder)");
        return;
    }
    try {
        const TrainConfig config = loadTrainConfig(folder.path(RunFolder::kConfig));
        summary.name = config.name;
        summary.model = config.model.arch;
        summary.particles = config.model.particles;
        summary.epochs = config.train.epochs;
        summary.dataset = config.data.dataset;
        summary.device = config.train.device;
        summary.trainingUtility = config.objective.utility.describe();
        summary.trainingUtilityForm = config.objective.utilityTerm ? utilityFormName(config.objective.utilityForm) : "";
        summary.decisionUtility = config.decision.utility.describe();
        summary.decisionRule = decisionRuleName(config.decision.rule);
        summary.protocol = protocolName(config.protocol);
        summary.deferUtility = config.decision.deferUtility;
    } catch (const std::exception& error) {
        summary.problems.push_back(error.what());
        readRawConfig(folder, summary);
    }
}

void readStatus(const RunFolder& folder, RunSummary& summary)
{
    if (!folder.exists(RunFolder::kStatus)) {
        return; // "created": training has not started writing yet
    }
    try {
        // Older folders lack checkpoint_epoch: a checkpoint per epoch (the default then); a resume
        // reads the checkpoint's own epoch in any case.
        const RunStatus status = readRunStatus(folder);
        if (status.state.empty()) {
            throw InputError(folder.path(RunFolder::kStatus) + ": field state is missing");
        }
        summary.state = status.state;
        summary.epochsDone = status.epochsDone;
        summary.checkpointEpoch = status.checkpointEpoch;
        if (status.epochs > 0) {
            summary.epochs = status.epochs;
        }
        summary.statusMessage = status.message;
        summary.updated = status.updated;
    } catch (const InputError& error) {
        summary.problems.push_back(error.what());
    } catch (const nlohmann::json::exception& error) {
        summary.problems.push_back(folder.path(RunFolder::kStatus) + ": incomplete status (" + error.what() + ")");
    }
}

void readManifest(const RunFolder& folder, RunSummary& summary)
{
    if (!folder.exists(RunFolder::kManifest)) {
        // The trainer writes run.json before its first status; a status without it is damage.
        if (folder.exists(RunFolder::kStatus)) {
            summary.problems.push_back(folder.path(RunFolder::kManifest) + ": missing");
        }
        return;
    }
    try {
        const nlohmann::json json = folder.readJson(RunFolder::kManifest);
        if (!json.is_object()) {
            throw InputError(folder.path(RunFolder::kManifest) + ": not a run manifest (expected a JSON object)");
        }
        summary.dataset = json.value("dataset", summary.dataset);
        summary.device = json.value("device", summary.device);
        summary.created = json.value("created", std::string());
        summary.classCount = static_cast<int>(json.at("class_names").size());
    } catch (const InputError& error) {
        summary.problems.push_back(error.what());
    } catch (const nlohmann::json::exception& error) {
        summary.problems.push_back(folder.path(RunFolder::kManifest) + ": incomplete run manifest (" + error.what() + ")");
    }
}

// run.json's class names, or none when it is missing or damaged (readManifest names the damage).
std::vector<std::string> manifestClassNames(const RunFolder& folder)
{
    std::vector<std::string> names;
    try {
        const nlohmann::json json = folder.exists(RunFolder::kManifest) ? folder.readJson(RunFolder::kManifest) : nlohmann::json();
        if (json.is_object() && json.contains("class_names") && json["class_names"].is_array()) {
            for (const auto& name : json["class_names"]) {
                names.push_back(name.is_string() ? name.get<std::string>() : std::string());
            }
        }
    } catch (const std::exception&) {
        names.clear();
    }
    return names;
}

void readReport(const RunFolder& folder, RunSummary& summary)
{
    summary.hasReport = folder.exists(RunFolder::kReport);
    if (!summary.hasReport) {
        if (summary.state == "finished") {
            summary.problems.push_back(folder.path(RunFolder::kReport) + ": missing although the run finished");
        }
        return;
    }
    try {
        const nlohmann::json json = folder.readJson(RunFolder::kReport);
        const EvaluationReport report = reportFromFile(json, folder.path(RunFolder::kReport));
        summary.accuracy = report.overall.accuracy;
        if (report.regionsThirds.regions.size() == 3) {
            // A region without test images has no accuracy (not 0 %, which would read as a failure).
            const auto accuracyOf = [&](size_t region) -> std::optional<double> {
                const auto& counts = report.regionsThirds.regions[region].counts;
                return counts.total > 0 ? std::optional<double>(counts.accuracy) : std::nullopt;
            };
            summary.headAccuracy = accuracyOf(0);
            summary.mediumAccuracy = accuracyOf(1);
            summary.tailAccuracy = accuracyOf(2);
        }
        if (!report.fhrPoints.empty()) {
            summary.fhrPointsMean = report.fhrPointsMean;
            summary.fhrCurveMean = report.fhrCurveMean;
        }
        if (report.riskCoverage.count > 0) {
            summary.aurc = report.riskCoverage.aurc;
        }
        summary.warnings = warningsWithClassNames(report, manifestClassNames(folder)); // the Runs page names classes
        summary.ece = report.calibration.ece;
        summary.meanUtility = report.meanUtility;
        if (summary.classCount == 0) {
            summary.classCount = static_cast<int>(report.classCount);
        }
        if (json.contains("train_seconds") && json["train_seconds"].is_number()) {
            summary.trainSeconds = json["train_seconds"].get<double>();
        }
        if (json.contains("decision_rule") && json["decision_rule"].is_string()) {
            summary.decisionRule = decisionRuleName(parseDecisionRule(json["decision_rule"].get<std::string>()));
        }
    } catch (const InputError& error) {
        summary.problems.push_back(error.what());
    } catch (const nlohmann::json::exception& error) {
        summary.problems.push_back(folder.path(RunFolder::kReport) + ": incomplete report (" + error.what() + ")");
    }
}

// status.json says "running" but no process holds the run's lock: the trainer ended without
// writing its last status (kill -9, power loss, a disk that filled up). Say what the files show.
void reconcileStaleStatus(const std::string& directory, RunSummary& summary)
{
    if (summary.state != "running" || RunLock::holder(directory)) {
        return;
    }
    if (summary.hasReport && summary.epochs > 0 && summary.epochsDone >= summary.epochs) {
        summary.state = "finished";
        summary.statusMessage = "status.json was not updated after the results were written (the trainer ended "
                                "abruptly); the results are complete";
        return;
    }
    summary.state = "interrupted";
    summary.statusMessage = "status.json says running, but no process is training this run (it ended abruptly: "
                            "killed, or the disk filled up)"
        + (summary.checkpointEpoch > 0 ? "; --resume continues after epoch " + std::to_string(summary.checkpointEpoch)
                                       : std::string("; there is no checkpoint to continue from"));
}

} // namespace

RunSummary readRunSummary(const std::string& directory)
{
    RunSummary summary;
    summary.directory = directory;
    summary.folderName = fs::path(directory).filename().string();
    if (summary.folderName.empty()) {
        summary.folderName = fs::path(directory).parent_path().filename().string();
    }
    std::error_code ec;
    if (!fs::is_directory(directory, ec)) {
        summary.problems.push_back(directory + ": run folder not found");
        return summary;
    }
    if (folderIsEmpty(directory)) {
        return summary; // just created
    }
    const RunFolder folder(directory);
    readConfig(folder, summary);
    readStatus(folder, summary);
    readManifest(folder, summary);
    readReport(folder, summary);
    summary.hasCheckpoint = folder.exists(RunFolder::kCheckpoint);
    reconcileStaleStatus(directory, summary);
    if (summary.name.empty()) {
        summary.name = summary.folderName;
    }
    return summary;
}

std::vector<std::string> findRunFolders(const std::string& runsRoot)
{
    std::vector<std::string> folders;
    std::error_code ec;
    if (!fs::is_directory(runsRoot, ec)) {
        return folders;
    }
    for (fs::directory_iterator it(runsRoot, fs::directory_options::skip_permission_denied, ec), end; !ec && it != end;
         it.increment(ec)) {
        std::error_code entryError;
        if (!it->is_directory(entryError)) {
            continue;
        }
        const std::string directory = it->path().string();
        bool isRun = folderIsEmpty(directory);
        for (const char* file : kRunFiles) {
            isRun = isRun || fs::exists(it->path() / file, entryError);
        }
        if (isRun) {
            folders.push_back(directory);
        }
    }
    std::sort(folders.begin(), folders.end());
    return folders;
}

std::vector<EpochMetrics> readRunHistory(const std::string& directory)
{
    const RunFolder folder(directory);
    std::vector<EpochMetrics> epochs;
    const std::vector<nlohmann::json> lines = folder.readJsonLines(RunFolder::kMetrics);
    epochs.reserve(lines.size());
    for (size_t i = 0; i < lines.size(); ++i) {
        try {
            epochs.push_back(epochMetricsFromJson(lines[i]));
        } catch (const nlohmann::json::exception& error) {
            throw InputError(folder.path(RunFolder::kMetrics) + ": epoch record " + std::to_string(i + 1)
                             + " is incomplete (" + error.what() + ")");
        }
    }
    return epochs;
}

} // namespace lbd

#include "core/train/runfolder.h"

#include "core/train/trainconfig.h"
#include "core/util/jsonread.h"
#include "core/util/jsonfile.h"

#include "core/util/atomicfile.h"
#include "core/util/error.h"
#include "core/util/machineinfo.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <ctime>
#include <filesystem>
#include <sstream>

namespace lbd {

const char* RunFolder::kConfig = "config.json";
const char* RunFolder::kSplit = "split.json";
const char* RunFolder::kManifest = "run.json";
const char* RunFolder::kStatus = "status.json";
const char* RunFolder::kMetrics = "metrics.jsonl";
const char* RunFolder::kCheckpoint = "checkpoint.pt";
const char* RunFolder::kReport = "report.json";
const char* RunFolder::kTestProbabilities = "test_probabilities.pt";
const char* RunFolder::kValidationProbabilities = "val_probabilities.pt";
const char* RunFolder::kWeights = "weights.pt";

RunFolder::RunFolder(std::string directory) : m_directory(std::move(directory)) {}

void RunFolder::create() const
{
    std::error_code ec;
    std::filesystem::create_directories(m_directory, ec);
    if (ec || !std::filesystem::is_directory(m_directory)) {
        throw InputError(m_directory + ": cannot create run folder (" + ec.message() + ")");
    }
}

std::string RunFolder::path(const std::string& file) const
{
    return (std::filesystem::path(m_directory) / file).string();
}

bool RunFolder::exists(const std::string& file) const
{
    std::error_code ec;
    return std::filesystem::exists(path(file), ec);
}

void RunFolder::writeJson(const std::string& file, const nlohmann::json& json) const
{
    writeFileAtomically(path(file), json.dump(2) + "\n");
}

nlohmann::json RunFolder::readJson(const std::string& file) const
{
    return readJsonFile(path(file));
}

void RunFolder::writeJsonLines(const std::string& file, const std::vector<nlohmann::json>& lines) const
{
    std::string text;
    for (const auto& line : lines) {
        text += line.dump();
        text += '\n';
    }
    writeFileAtomically(path(file), text);
}

std::vector<nlohmann::json> RunFolder::readJsonLines(const std::string& file) const
{
    std::vector<nlohmann::json> lines;
    if (!exists(file)) {
        return lines;
    }
    std::istringstream in(readTextFile(path(file)));
    std::string line;
    int number = 0;
    while (std::getline(in, line)) {
        ++number;
        if (line.empty()) {
            continue;
        }
        lines.push_back(parseJsonText(line, path(file) + ":" + std::to_string(number)));
    }
    return lines;
}

void RunFolder::writeStatus(const std::string& state, int epochsDone, int epochs, const std::string& message,
                            int checkpointEpoch) const
{
    writeJson(kStatus, {{"state", state},
                        {"epochs_done", epochsDone},
                        {"checkpoint_epoch", checkpointEpoch},
                        {"epochs", epochs},
                        {"message", message},
                        {"updated", currentDateTimeUtc()}});
}

std::string newRunDirectory(const std::string& runsRoot, const std::string& name)
{
    const std::time_t now = std::time(nullptr);
    std::tm local{};
    localtime_r(&now, &local);
    char stamp[32];
    std::strftime(stamp, sizeof stamp, "%Y%m%d-%H%M%S", &local);
    std::string safe;
    for (const char c : name) {
        safe += (std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_' || c == '.') ? c : '-';
    }
    const std::filesystem::path base = std::filesystem::path(runsRoot) / (safe.empty() ? "run" : safe);
    std::string candidate = base.string() + "-" + stamp;
    std::error_code ec;
    for (int suffix = 2; std::filesystem::exists(candidate, ec); ++suffix) {
        candidate = base.string() + "-" + stamp + "-" + std::to_string(suffix);
    }
    return candidate;
}

namespace {

// What writeStatus can have written (trainer.cpp, redecidedrun.cpp), in one place: a status.json
// edited or damaged outside that range is refused naming the field, before a resume or a runs
// table trusts its counts (epochs_done 900 of 200 read as "finished, nothing to do").
void checkRunStatus(const RunStatus& status, const std::string& source)
{
    static const char* const kStates[] = {"running", "finished", "stopped", "failed"};
    if (status.state.empty()) {
        throw InputError(source + ": field state is missing");
    }
    if (std::find(std::begin(kStates), std::end(kStates), status.state) == std::end(kStates)) {
        throw InputError(source + ": field state = '" + status.state.substr(0, 40)
                         + "' is not one a run writes (running, finished, stopped, failed)");
    }
    if (status.epochs < 0 || status.epochs > kMaxEpochs) {
        throwOutOfRange(source, "epochs", std::to_string(status.epochs), "0.." + std::to_string(kMaxEpochs),
                        "train.epochs' limit");
    }
    if (status.epochsDone < 0 || status.epochsDone > status.epochs) {
        throwOutOfRange(source, "epochs_done", std::to_string(status.epochsDone), "0.." + std::to_string(status.epochs),
                        "its field epochs, the run's train.epochs");
    }
    if (status.checkpointEpoch < 0 || status.checkpointEpoch > status.epochsDone) {
        throwOutOfRange(source, "checkpoint_epoch", std::to_string(status.checkpointEpoch),
                        "0.." + std::to_string(status.epochsDone), "its field epochs_done");
    }
}

} // namespace

RunStatus readRunStatus(const RunFolder& folder)
{
    const std::string source = folder.path(RunFolder::kStatus);
    const nlohmann::json json = folder.readJson(RunFolder::kStatus);
    RunStatus status;
    status.state = textField(json, "state", source);
    status.epochsDone = static_cast<int>(integerField(json, "epochs_done", source, 0));
    status.epochs = static_cast<int>(integerField(json, "epochs", source, 0));
    status.checkpointEpoch = static_cast<int>(integerField(json, "checkpoint_epoch", source, status.epochsDone));
    status.message = textField(json, "message", source);
    status.updated = textField(json, "updated", source);
    checkRunStatus(status, source);
    return status;
}

std::string notARunFolderMessage(const std::string& directory, const std::string& why)
{
    namespace fs = std::filesystem;
    const std::string plain = directory + ": not a run folder (" + why + ")";
    const RunFolder folder(directory);
    if (!folder.exists(RunFolder::kReport)) {
        return plain;
    }
    try {
        const nlohmann::json report = readJsonFile(folder.path(RunFolder::kReport));
        if (!report.is_object() || !report.contains("decided_from") || !report["decided_from"].is_string()) {
            return plain;
        }
        // A study's runs/<cell>/seed-N: the source is named relative to the study folder.
        fs::path row = fs::path(directory).lexically_normal();
        if (row.filename().empty()) {
            row = row.parent_path();
        }
        const fs::path source = (row.parent_path().parent_path().parent_path() / report["decided_from"].get<std::string>())
                                    .lexically_normal();
        const std::string utility = report.value("utility", std::string("?"));
        const std::string rule = report.value("rule", std::string("?"));
        return directory + ": a decision-only study row, not a run (nothing was trained here): it re-decided " + source.string()
               + " with utility " + utility + " and rule " + rule + "; the same numbers: lbd eval " + source.string()
               + " --utility " + utility + " --rule " + rule;
    } catch (const std::exception&) {
        return plain; // an unreadable report says nothing about what the folder is
    }
}

} // namespace lbd

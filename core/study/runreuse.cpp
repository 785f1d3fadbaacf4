#include "core/study/runreuse.h"

#include "core/eval/reportjson.h"

#include "core/study/studysummary.h"
#include "datasets/catalogue.h"
#include "core/train/configjson.h"
#include "core/train/runfolder.h"
#include "core/util/atomicfile.h"
#include "core/util/error.h"
#include "core/util/jsonfile.h"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <unistd.h>

namespace lbd {
namespace fs = std::filesystem;
using json = nlohmann::json;

namespace {

const char* kReuseFile = "reused.json";

} // namespace

std::string runReuseKey(const json& runConfig)
{
    // Through the one parser and back: defaults spelled out, a baseline applied, key order fixed,
    // so two spellings of the same config give the same key.
    json normal = toJson(trainConfigFromJson(runConfig, "run config"));
    normal.erase("name"); // a study names its runs after the study and the cell: a label, not a setting
    normal.erase("description");
    if (normal.contains("train") && normal["train"].is_object()) {
        normal["train"].erase("device");
        normal["train"].erase("threads");
    }
    // A standard data set (IDX, CIFAR: files the catalogue names, read as stored) is the same data
    // wherever its folder lies: the GPU machines keep Fashion-MNIST in one place, this one in
    // /usr/share/datasets. Its folder is where the run read it, not a setting. An image folder or a
    // list file is the user's own content: its path stays in the key.
    json& data = normal["data"];
    if (data.is_object() && data.contains("dataset") && data["dataset"].is_string()) {
        const DatasetEntry& entry = datasetEntry(data["dataset"].get<std::string>());
        const DatasetSettings& reads = entry.settings;
        if (!entry.files.empty() && reads.directory && !reads.listFiles && !reads.imageFormat && !reads.synthetic) {
            data.erase("data_dir");
        }
    }
    // The linear ratio is its own reference: its weights are the same under either ratio scale
    // (discrepancyratio.h), so the recipe trained under one is the recipe under the other.
    json& objective = normal["objective"];
    if (objective.is_object() && objective.value("discrepancy", "") == "linear") {
        objective["ratio_scale"] = "published";
    }
    return normal.dump();
}

ReusableRuns::ReusableRuns(const std::vector<std::string>& folders)
{
    for (const std::string& folder : folders) {
        std::error_code ec;
        if (!fs::is_directory(folder, ec)) {
            throw InputError("--reuse-from " + folder + ": not a folder");
        }
        indexRun(folder);
        for (auto it = fs::recursive_directory_iterator(folder, fs::directory_options::skip_permission_denied, ec);
             !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
            if (!it->is_directory(ec) || it->is_symlink(ec)) {
                if (it->is_symlink(ec)) {
                    it.disable_recursion_pending(); // no loops through links
                }
                continue;
            }
            if (it.depth() + 1 >= kMaxDepth) {
                it.disable_recursion_pending();
            }
            indexRun(it->path().string());
        }
    }
}

void ReusableRuns::indexRun(const std::string& runDirectory)
{
    const RunFolder folder(runDirectory);
    if (!folder.exists(RunFolder::kConfig) || inspectStudyRun(runDirectory).state != StudyRunState::Finished) {
        return;
    }
    try {
        // A finished run whose report cannot be read would be copied in and counted as nothing:
        // it is passed over, and said so, so that the study trains it again.
        const std::string reportPath = folder.path(RunFolder::kReport);
        reportFromFile(readJsonFile(reportPath), reportPath);
    } catch (const std::exception& error) {
        m_passedOver.push_back(runDirectory + ": not reused (" + error.what() + ")");
        return;
    }
    try {
        // The first one found wins: the same config and seed trained twice is the same run.
        m_byKey.emplace(runReuseKey(readJsonFile(folder.path(RunFolder::kConfig))), runDirectory);
    } catch (const InputError&) {
        // A config this version cannot read (another version's, or damaged) matches nothing.
    }
}

std::optional<std::string> ReusableRuns::find(const json& runConfig) const
{
    if (m_byKey.empty()) {
        return std::nullopt;
    }
    const auto found = m_byKey.find(runReuseKey(runConfig));
    if (found == m_byKey.end()) {
        return std::nullopt;
    }
    return found->second;
}

void copyRunFolder(const std::string& source, const std::string& target)
{
    std::error_code ec;
    const fs::path to(target);
    if (fs::exists(to, ec) && !(fs::is_directory(to, ec) && fs::is_empty(to, ec))) {
        throw RunError(target + ": already holds files; a run is copied only into an empty place");
    }
    fs::create_directories(to.parent_path(), ec);
    const fs::path temporary = to.parent_path() / (to.filename().string() + ".copy-" + std::to_string(::getpid()));
    fs::remove_all(temporary, ec);
    fs::copy(source, temporary, fs::copy_options::recursive, ec);
    if (ec) {
        const std::string reason = ec.message();
        fs::remove_all(temporary, ec);
        throw RunError("copying " + source + " to " + target + ": " + reason);
    }
    fs::remove(to, ec); // the empty folder, if any
    fs::rename(temporary, to, ec);
    if (ec) {
        const std::string reason = ec.message();
        fs::remove_all(temporary, ec);
        throw RunError("copying " + source + " to " + target + ": " + reason);
    }
}

std::map<std::string, std::string> readStudyReuse(const std::string& studyDirectory)
{
    const fs::path path = fs::path(studyDirectory) / kReuseFile;
    std::error_code ec;
    if (!fs::exists(path, ec)) {
        return {};
    }
    const json file = readJsonFile(path.string());
    if (!file.is_object()) {
        throw InputError(path.string() + ": not a JSON object");
    }
    std::map<std::string, std::string> reused;
    for (const auto& item : file.items()) {
        if (item.value().is_string()) {
            reused[item.key()] = item.value().get<std::string>();
        }
    }
    return reused;
}

void recordStudyReuse(const std::string& studyDirectory, const std::string& run, const std::string& source)
{
    auto reused = readStudyReuse(studyDirectory);
    std::error_code ec;
    const fs::path absolute = fs::absolute(source, ec);
    reused[run] = ec ? source : absolute.lexically_normal().string();
    writeFileAtomically((fs::path(studyDirectory) / kReuseFile).string(), json(reused).dump(2) + "\n");
}

} // namespace lbd

#include "core/study/studyfolder.h"
#include "core/util/jsonfile.h"

#include "core/util/atomicfile.h"
#include "core/util/error.h"
#include "core/util/machineinfo.h"

#include <filesystem>
#include <string>

#include <unistd.h>

namespace lbd {
namespace fs = std::filesystem;
using json = nlohmann::json;

namespace {

const char* kStudyFile = "study.json";
const char* kOptionsFile = "study_options.json";
const char* kFailuresFile = "failures.json";


} // namespace

bool isStudyFolder(const std::string& directory)
{
    std::error_code ec;
    return fs::is_regular_file(fs::path(directory) / kStudyFile, ec) && fs::is_regular_file(fs::path(directory) / kOptionsFile, ec);
}

std::string studySpecPath(const std::string& directory)
{
    return (fs::path(directory) / kStudyFile).string();
}

ResolvedStudy openStudyFolder(const std::string& directory)
{
    const fs::path folder(directory);
    const StudySpec spec = loadStudySpec(studySpecPath(directory));
    StudyOptions options;
    try {
        options = studyOptionsFromJson(readJsonFile((folder / kOptionsFile).string()), "options");
    } catch (const InputError& error) {
        throw InputError((folder / kOptionsFile).string() + ": " + error.what());
    }
    return resolveStudy(spec, options);
}

void prepareStudyFolder(const ResolvedStudy& study, const std::string& directory)
{
    const fs::path folder(directory);
    if (isStudyFolder(directory)) {
        const ResolvedStudy existing = openStudyFolder(directory);
        bool same = existing.cells.size() == study.cells.size() && existing.seeds == study.seeds;
        for (size_t i = 0; same && i < study.cells.size(); ++i) {
            same = existing.cells[i].id == study.cells[i].id && existing.cells[i].config == study.cells[i].config
                && existing.cells[i].decideFrom == study.cells[i].decideFrom && existing.cells[i].decision == study.cells[i].decision;
        }
        if (!same) {
            throw InputError(directory + " holds another study or other settings of it ('" + existing.spec.name + "', "
                             + std::to_string(existing.cells.size()) + " cells, " + std::to_string(existing.seeds.size())
                             + " seeds); continue it with `lbd study " + directory + "` or choose another --out");
        }
        return;
    }
    std::error_code ec;
    if (fs::exists(folder, ec) && !fs::is_directory(folder, ec)) {
        throw InputError(directory + ": not a folder");
    }
    if (fs::is_directory(folder, ec) && !fs::is_empty(folder, ec)) {
        if (isStudyFolder(directory)) {
            prepareStudyFolder(study, directory); // made by another process since the check above
            return;
        }
        throw InputError(directory + ": a folder that is not empty and holds no study (choose another --out)");
    }
    // Several processes (the shards of a job array) may start one study at once: the folder
    // appears whole, study.json and its options together, by renaming a finished sibling into
    // place, so none of them sees it half made; one that loses the race continues the winner's.
    const fs::path target = folder.filename().empty() ? folder.parent_path() : folder;
    if (!target.parent_path().empty()) {
        fs::create_directories(target.parent_path(), ec);
        if (ec) {
            throw InputError(fileErrorMessage(target.parent_path().string(), ec.value()));
        }
    }
    const fs::path staging = target.parent_path() / ("." + target.filename().string() + ".new-" + hostName() + "-" + std::to_string(::getpid()));
    fs::remove_all(staging, ec);
    fs::create_directories(staging, ec);
    if (ec) {
        throw InputError(fileErrorMessage(staging.string(), ec.value()));
    }
    writeFileAtomically((staging / kStudyFile).string(), toJson(study.spec).dump(2) + "\n");
    writeFileAtomically((staging / kOptionsFile).string(), toJson(study.options).dump(2) + "\n");
    fs::rename(staging, target, ec); // replaces an empty folder, never a filled one
    if (ec) {
        const int error = ec.value();
        fs::remove_all(staging, ec);
        if (isStudyFolder(directory)) {
            prepareStudyFolder(study, directory); // another process made it first: the same study?
            return;
        }
        throw InputError(fileErrorMessage(directory, error));
    }
}

std::map<std::string, std::string> readStudyFailures(const std::string& directory)
{
    const fs::path path = fs::path(directory) / kFailuresFile;
    std::error_code ec;
    if (!fs::exists(path, ec)) {
        return {};
    }
    std::map<std::string, std::string> failures;
    const json file = readJsonFile(path.string());
    if (!file.is_object()) {
        throw InputError(path.string() + ": not a JSON object");
    }
    for (const auto& item : file.items()) {
        failures[item.key()] = item.value().is_string() ? item.value().get<std::string>() : item.value().dump();
    }
    return failures;
}

void recordStudyFailure(const std::string& directory, const std::string& run, const std::optional<std::string>& message)
{
    auto failures = readStudyFailures(directory);
    if (message) {
        failures[run] = *message;
    } else if (failures.erase(run) == 0) {
        return;
    }
    writeFileAtomically((fs::path(directory) / kFailuresFile).string(), json(failures).dump(2) + "\n");
}

std::string defaultStudyDirectory(const std::string& runsRoot, const ResolvedStudy& study)
{
    return (fs::path(runsRoot) / "studies" / (study.spec.name + (study.options.quick ? "-quick" : ""))).string();
}

} // namespace lbd

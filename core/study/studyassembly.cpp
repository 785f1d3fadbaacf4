#include "core/study/studyassembly.h"

#include "core/study/decisioncell.h"
#include "core/study/runreuse.h"
#include "core/study/studyfolder.h"
#include "core/study/studysummary.h"
#include "core/util/error.h"

#include <nlohmann/json.hpp>

#include <filesystem>
#include <map>

namespace lbd {
namespace fs = std::filesystem;

namespace {

// What makes two decision-only runs the same: the run they re-decide (its config and seed) and
// the decision.
std::string decisionKey(const ResolvedStudy& study, int run)
{
    const int source = decisionSourceRun(study, run);
    const StudyDecision& decision = study.cells.at(study.runs.at(run).cell).decision;
    return runReuseKey(runConfigJson(study, study.runs.at(source))) + "\n" + decision.utility + "\n" + decision.rule;
}

void indexDecisionRuns(const std::string& studyFolder, std::map<std::string, std::string>& index)
{
    try {
        const ResolvedStudy study = openStudyFolder(studyFolder);
        for (int r = 0; r < static_cast<int>(study.runs.size()); ++r) {
            const std::string directory = (fs::path(studyFolder) / study.runs[r].directory).string();
            if (study.cells[study.runs[r].cell].decisionOnly() && inspectStudyRun(directory).state == StudyRunState::Finished) {
                index.emplace(decisionKey(study, r), directory); // the first one found wins, as for trained runs
            }
        }
    } catch (const InputError&) {
        // A study folder this version cannot read matches nothing.
    }
}

// Decision-only runs of every study folder at most ReusableRuns::kMaxDepth folders below `folders`.
std::map<std::string, std::string> decisionRuns(const std::vector<std::string>& folders)
{
    std::map<std::string, std::string> index;
    for (const std::string& folder : folders) {
        std::error_code ec;
        if (isStudyFolder(folder)) {
            indexDecisionRuns(folder, index);
        }
        for (auto it = fs::recursive_directory_iterator(folder, fs::directory_options::skip_permission_denied, ec);
             !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
            if (!it->is_directory(ec) || it->is_symlink(ec)) {
                if (it->is_symlink(ec)) {
                    it.disable_recursion_pending();
                }
                continue;
            }
            if (it.depth() + 1 >= ReusableRuns::kMaxDepth) {
                it.disable_recursion_pending();
            }
            if (isStudyFolder(it->path().string())) {
                indexDecisionRuns(it->path().string(), index);
            }
        }
    }
    return index;
}

} // namespace

StudyAssembly assembleStudyFromRuns(const ResolvedStudy& study, const std::string& directory,
                                    const std::vector<std::string>& folders)
{
    const ReusableRuns trained(folders); // InputError for a folder that is not there
    const std::map<std::string, std::string> decided = decisionRuns(folders);
    prepareStudyFolder(study, directory);
    StudyAssembly assembly;
    for (int r = 0; r < static_cast<int>(study.runs.size()); ++r) {
        const StudyRunRef& run = study.runs[r];
        const std::string target = (fs::path(directory) / run.directory).string();
        if (inspectStudyRun(target).state == StudyRunState::Finished) {
            ++assembly.present;
            continue;
        }
        std::error_code ec;
        const bool placeFree = !fs::exists(target, ec) || (fs::is_directory(target, ec) && fs::is_empty(target, ec));
        std::optional<std::string> source;
        const bool decisionOnly = study.cells[run.cell].decisionOnly();
        if (decisionOnly) {
            if (const auto found = decided.find(decisionKey(study, r)); found != decided.end()) {
                source = found->second;
            }
        } else {
            source = trained.find(runConfigJson(study, run));
        }
        if (!source || !placeFree) {
            assembly.missing.push_back(run.directory);
            continue;
        }
        copyRunFolder(*source, target);
        recordStudyReuse(directory, run.directory, *source);
        ++(decisionOnly ? assembly.decisionCopied : assembly.copied);
    }
    return assembly;
}

std::string describeAssembly(const StudyAssembly& assembly)
{
    std::string text = std::to_string(assembly.copied + assembly.decisionCopied) + " runs copied ("
        + std::to_string(assembly.decisionCopied) + " decision-only), " + std::to_string(assembly.present)
        + " there before, " + std::to_string(assembly.missing.size()) + " missing";
    for (size_t i = 0; i < assembly.missing.size(); ++i) {
        text += (i == 0 ? ": " : ", ") + assembly.missing[i];
    }
    return text;
}

} // namespace lbd

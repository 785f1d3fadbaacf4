#include "core/infer/runstate.h"

#include <filesystem>

namespace lbd {

namespace {

std::string epochOf(const RunSummary& s) { return std::to_string(s.epochsDone) + "/" + std::to_string(s.epochs); }

bool finished(const RunSummary& s) { return s.state == "finished" && s.hasCheckpoint && !s.damaged(); }

std::string nameOf(const std::string& directory) { return std::filesystem::path(directory).filename().string(); }

} // namespace

std::string runStateText(const RunSummary& s)
{
    if (s.state == "finished") {
        return "finished (" + std::to_string(s.epochsDone) + (s.epochsDone == 1 ? " epoch)" : " epochs)");
    }
    if (s.state == "stopped") {
        return "stopped at epoch " + epochOf(s);
    }
    if (s.state == "failed") {
        return "failed at epoch " + epochOf(s);
    }
    if (s.state == "running") {
        return "training: epoch " + epochOf(s);
    }
    if (s.state == "interrupted") {
        return "interrupted at epoch " + epochOf(s);
    }
    return "not trained yet";
}

std::optional<RunChoice> chooseRunForImages(const std::string& preferred, const std::string& runsRoot)
{
    std::optional<RunSummary> last;
    if (!preferred.empty() && std::filesystem::is_directory(preferred)) {
        last = readRunSummary(preferred);
        if (finished(*last)) {
            return RunChoice{preferred, "the last run opened, " + runStateText(*last)};
        }
    }
    std::optional<RunSummary> newest;
    for (const std::string& directory : findRunFolders(runsRoot)) {
        RunSummary summary = readRunSummary(directory);
        if (finished(summary)
            && (!newest || summary.updated > newest->updated
                || (summary.updated == newest->updated && summary.folderName > newest->folderName))) {
            newest = std::move(summary);
        }
    }
    if (newest) {
        std::string reason = "the last finished run (" + runStateText(*newest) + ")";
        if (last) {
            reason += "; the last run opened, " + nameOf(preferred) + ", is " + runStateText(*last);
        }
        return RunChoice{newest->directory, reason};
    }
    if (last && last->hasCheckpoint) {
        return RunChoice{preferred, "no finished run in " + runsRoot + ": the last run opened, which is "
                                        + runStateText(*last)};
    }
    return std::nullopt;
}

} // namespace lbd

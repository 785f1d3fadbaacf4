#pragma once
// A study's folder on disk:
//   study.json           the study as run (the spec, levels spelled out)
//   study_options.json   its scale and the user's overrides (--quick, --preset, --set, --seeds)
//   runs/<cell>/seed-<n>/ one ordinary run folder per cell and seed
//   failures.json        why runs failed that left no status of their own (bad input at set-up)
//   results/             summary.json, table.md, table.csv, table.tex (written after each pass)
// Re-running a study in its folder skips finished runs and resumes stopped ones; a folder that
// holds another study (other cells or configs) is refused rather than mixed. Torch-free.
#include "core/study/studyspec.h"

#include <map>
#include <optional>
#include <string>

namespace lbd {

bool isStudyFolder(const std::string& directory);
// Creates the folder and writes study.json + study_options.json, or, when it already holds a
// study, checks that it is this one (same cells, same configs, same seeds). InputError otherwise.
void prepareStudyFolder(const ResolvedStudy& study, const std::string& directory);
// The study a folder holds, resolved again from its own files (InputError naming the file).
ResolvedStudy openStudyFolder(const std::string& directory);
// The folder's study.json (a study file as any other: it can be run elsewhere).
std::string studySpecPath(const std::string& directory);
// failures.json: run folder (relative) -> message. A run that later finishes drops its entry.
std::map<std::string, std::string> readStudyFailures(const std::string& directory);
void recordStudyFailure(const std::string& directory, const std::string& run, const std::optional<std::string>& message);

// "<runs root>/studies/<name>" (+ "-quick" for the quick scale).
std::string defaultStudyDirectory(const std::string& runsRoot, const ResolvedStudy& study);

} // namespace lbd

#pragma once
// A study's folder on disk:
//   study.json           the study as run (the spec, levels spelled out)
//   study_options.json   its scale and the user's overrides (--quick, --preset, --set, --seeds)
//   runs/<cell>/seed-<n>/ one ordinary run folder per cell and seed
//   results/             summary.json, table.md, table.csv, table.tex (written after each pass)
// Re-running a study in its folder skips finished runs and resumes stopped ones; a folder that
// holds another study (other cells or configs) is refused rather than mixed. Torch-free.
#include "core/study/studyspec.h"

#include <string>

namespace lbd {

bool isStudyFolder(const std::string& directory);
// Creates the folder and writes study.json + study_options.json, or, when it already holds a
// study, checks that it is this one (same cells, same configs, same seeds). InputError otherwise.
void prepareStudyFolder(const ResolvedStudy& study, const std::string& directory);
// The study a folder holds, resolved again from its own files (InputError naming the file).
ResolvedStudy openStudyFolder(const std::string& directory);
// "<runs root>/studies/<name>" (+ "-quick" for the quick scale).
std::string defaultStudyDirectory(const std::string& runsRoot, const ResolvedStudy& study);

} // namespace lbd

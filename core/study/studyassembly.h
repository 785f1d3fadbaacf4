#pragma once
// A study folder put together from runs that finished elsewhere, training nothing:
// `lbd study NAME --out DIR --reuse-from A --reuse-from B --summarize`. Runs trained on a GPU
// machine come back as small files (config, status, report); the paper's studies overlap, so one
// union of runs fills several studies. Each run of the study whose config and seed match a
// finished run under the folders (runreuse.h) is copied in, and so is each decision-only run
// (decisioncell.h) whose source run and decision match a decision-only run of a study folder
// under them (it cannot be re-decided here: the test probabilities did not travel). What matches
// nothing stays missing; results/ is then written from what is there. Torch-free.
#include "core/study/studyspec.h"

#include <string>
#include <vector>

namespace lbd {

struct StudyAssembly {
    int present = 0;         // finished in the folder before
    int copied = 0;          // trained runs copied in now
    int decisionCopied = 0;  // decision-only runs copied in now
    std::vector<std::string> missing; // "runs/ce/seed-1": no match anywhere
};

// Creates the study folder if needed (prepareStudyFolder: an existing one must hold this study).
// InputError for a folder in `folders` that does not exist; RunError when a copy fails.
StudyAssembly assembleStudyFromRuns(const ResolvedStudy& study, const std::string& directory,
                                    const std::vector<std::string>& folders);

// "12 runs copied (2 decision-only), 3 there before, 6 missing: runs/cb/seed-0, ..."
std::string describeAssembly(const StudyAssembly& assembly);

} // namespace lbd

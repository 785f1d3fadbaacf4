#pragma once
// The run folder of a decision-only cell (decisioncell.h): a finished run's cached test
// probabilities re-decided with another utility, exactly as `lbd eval RUN --utility U --rule R`
// does (evaluateRunResults on loadRunResults), with tau of "prior:tune" chosen on the run's
// validation split (tunePriorTau, as `lbd eval --tune prior-tau`), never on the test set.
//   report.json  {"evaluation": ..., "decided_from": "runs/ce/seed-0", "utility": "prior:0.75",
//                 "rule": "expected", "tuning": {...} (prior:tune only), "note": "re-decided from ..."}
//                (no train_seconds: nothing was trained)
//   status.json  finished, with the note as its message (written last: a reader sees a whole folder)
// Torch-free interface.
#include "core/study/studyspec.h"

#include <string>

namespace lbd {

struct RedecidedRun {
    std::string utility;  // the utility decided with: "prior:0.75" when tuned
    double accuracy = 0;  // test accuracy under it
    std::string note;     // "re-decided from runs/ce/seed-0, utility prior:0.75 (tau = 0.75 tuned on validation), rule expected"
};

// `source`: the finished run folder; `sourceName`: how the note names it (the study-relative
// folder); `target`: the decision-only run folder (created). InputError naming the source's file
// when it cannot be read (a copied run without test_probabilities.pt; no validation split to tune
// on), RunError when the target cannot be written.
RedecidedRun redecideRun(const std::string& source, const std::string& sourceName, const std::string& target,
                         const StudyDecision& decision);

} // namespace lbd

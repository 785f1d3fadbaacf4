#pragma once
// The utility matrices and decision settings of a run folder, as its config.json records them:
// one place that opens them for `lbd eval`, `lbd predict`, the Decision lab and Classify. Run
// folders written before matrices were stored by value may name a file that has since changed or
// gone: such a run still opens, with one-hot in its place and a note that says so.
#include "core/eval/decisionrule.h"
#include "core/lbd/utilitymatrix.h"
#include "core/train/trainconfig.h"

#include <optional>
#include <string>
#include <vector>

namespace lbd {

struct RunDecisions {
    UtilityMatrix trainingUtility;
    UtilityMatrix decisionUtility;
    DecisionRule rule = kDefaultDecisionRule;
    std::optional<double> deferUtility;
    std::string trainingDescription; // "tail:1", "matrix from tail2.csv", ...
    std::string decisionDescription;
    std::vector<std::string> notes;  // a matrix that could not be opened, and what stands in for it
};

// `configPath` names config.json in the notes.
RunDecisions openRunDecisions(const TrainConfig& config, const std::vector<std::string>& classNames,
                              const std::string& configPath);

} // namespace lbd

#pragma once
// Flags for evaluations whose numbers would mislead if shown without comment (the brief: "a
// number the app shows must never mislead"). The evaluator attaches them to every report, and
// the CLI, the Decision lab and the Runs table show them; a flagged run is never highlighted as
// the best.
#include "core/eval/evaluationreport.h"

#include <string>
#include <vector>

namespace lbd {

// A decided class share at least this large ...
inline constexpr double kPiledDecisionShare = 0.8;
// ... going to the ceil(C / 5) most decided classes, while they hold at most half as large a
// share of the true labels, is "decisions piled into a few classes".
inline constexpr double kPiledTrueShareFactor = 0.5;
// Overall accuracy at or below this multiple of chance (1/C) is "near chance".
inline constexpr double kNearChanceFactor = 1.5;

// Checks a filled report (its confusion matrix, regions and overall accuracy): a non-empty
// head / med / tail region with no correct decision, accuracy near chance, and decisions piled
// into a few classes. Each message states the threshold it used.
std::vector<std::string> degeneracyWarnings(const EvaluationReport& report);

} // namespace lbd

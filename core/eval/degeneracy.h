#pragma once
// Flags for evaluations whose numbers would mislead if shown without comment (the brief: "a
// number the app shows must never mislead"). The evaluator attaches them to every report, and
// the CLI, the status bar, the Training, Confusion, Decision lab and Runs pages show them; a
// flagged run is never highlighted as the best. Classes are found by index here; the texts name
// them by the run's class names wherever the caller has them (warningsWithClassNames is the one
// formatting every screen and the CLI share).
#include "core/eval/evaluationreport.h"

#include <cstdint>
#include <optional>
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

// Decisions piled into a few classes: the ceil(C / 5) most decided classes take `decidedShare` of
// the test images' decisions while holding `trueShare` of their labels. `classes`: those of them
// that any image is decided as, most decided first (ties: lower index first).
struct PiledDecisions {
    std::vector<int64_t> classes;
    double decidedShare = 0.0;
    double trueShare = 0.0;
};

// The piled-decisions finding of a filled report, or nothing when its decisions are not piled.
std::optional<PiledDecisions> piledDecisions(const EvaluationReport& report);

// "cat, dog": the classes by name where `classNames` covers them, else "index 6, 0" (a report
// read without its run's classes).
std::string classListText(const std::vector<int64_t>& classes, const std::vector<std::string>& classNames);

// Checks a filled report (its confusion matrix, regions and overall accuracy): a non-empty
// head / med / tail region with no correct decision, accuracy near chance, and decisions piled
// into a few classes. Each message states the threshold it used; piled classes are named by
// `classNames` when given (head to tail, as the report's class indices), by index otherwise.
std::vector<std::string> degeneracyWarnings(const EvaluationReport& report,
                                            const std::vector<std::string>& classNames = {});

// The report's warnings as every screen and the CLI show them: those the degeneracy check wrote
// by class index (a report.json written before names were carried, or by evaluate(), which has
// no names) are written again with `classNames`; the others (eq7 with negative utilities) stay.
std::vector<std::string> warningsWithClassNames(const EvaluationReport& report,
                                                const std::vector<std::string>& classNames);

// One line for a status bar: the piled-decisions finding when there is one ("85.3 % of the
// decisions go to 2 classes (cat, dog)"), else the first warning; empty for a healthy report.
std::string degeneracyHeadline(const EvaluationReport& report, const std::vector<std::string>& classNames);

} // namespace lbd

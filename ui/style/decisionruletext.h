#pragma once
// How the pages name a decision rule in legends, tables and status lines.
#include <QString>

#include "core/eval/decisionrule.h"
#include "core/train/trainconfig.h"

namespace lbd::ui {

QString decisionRuleTitle(lbd::DecisionRule rule);

// "protocol paper-standard, decided by mean-logit" / "decided by expected utility (Bayes) with
// tail:2": what produced a run's numbers, for the run header (lbd-math.md section 8).
QString runDecisionText(const lbd::TrainConfig& config);

} // namespace lbd::ui

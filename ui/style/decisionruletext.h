#pragma once
// How the pages name a decision rule in legends, tables and status lines.
#include <QString>

#include <optional>

#include "core/eval/decisionrule.h"
#include "core/train/trainconfig.h"

namespace lbd::ui {

QString decisionRuleTitle(lbd::DecisionRule rule);

// "protocol paper-standard, decided by mean-logit" / "decided by expected utility (Bayes) with
// tail:2": what produced a run's numbers (lbd-math.md section 8). `named` is the protocol the
// settings were loaded with (a preset's): settings changed away from it are an app run, and the
// text says "protocol app, not paper-standard (why), ...". The ONE text of the protocol: the
// experiment panel's protocol line, its warning and the status bar read it from here.
QString runDecisionText(const lbd::TrainConfig& config, std::optional<lbd::Protocol> named = std::nullopt);

} // namespace lbd::ui

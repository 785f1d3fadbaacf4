#pragma once
// How the pages name a decision rule in legends, tables and status lines.
#include <QString>

#include "core/eval/decisionrule.h"

namespace lbd::ui {

QString decisionRuleTitle(lbd::DecisionRule rule);

} // namespace lbd::ui

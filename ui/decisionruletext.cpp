#include "ui/decisionruletext.h"

#include <QObject>

namespace lbd::ui {

QString decisionRuleTitle(lbd::DecisionRule rule)
{
    switch (rule) {
    case lbd::DecisionRule::Argmax: return QObject::tr("argmax");
    case lbd::DecisionRule::Lbd: return QObject::tr("LBD rule");
    case lbd::DecisionRule::ExpectedUtility: return QObject::tr("expected utility");
    }
    return {};
}

} // namespace lbd::ui

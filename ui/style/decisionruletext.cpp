#include "ui/style/decisionruletext.h"

#include <QObject>

namespace lbd::ui {

QString decisionRuleTitle(lbd::DecisionRule rule)
{
    return QString::fromStdString(lbd::decisionRuleInfo(rule).title);
}

} // namespace lbd::ui

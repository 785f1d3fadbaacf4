#include "ui/style/decisionruletext.h"

#include <QObject>

namespace lbd::ui {

QString decisionRuleTitle(lbd::DecisionRule rule)
{
    return QString::fromStdString(lbd::decisionRuleInfo(rule).title);
}

QString runDecisionText(const lbd::TrainConfig& config, std::optional<lbd::Protocol> named)
{
    const QString rule = decisionRuleTitle(config.decision.rule);
    if (config.protocol != lbd::Protocol::App) {
        return QObject::tr("protocol %1, decided by %2")
            .arg(QString::fromStdString(lbd::protocolName(config.protocol)), rule);
    }
    QString demoted;
    if (named && *named != lbd::Protocol::App) {
        lbd::TrainConfig asNamed = config;
        asNamed.protocol = *named;
        if (const auto why = lbd::protocolContradiction(asNamed)) {
            demoted = QObject::tr("protocol app, not %1 (%2), ")
                          .arg(QString::fromStdString(lbd::protocolName(*named)), QString::fromStdString(*why));
        }
    }
    const lbd::DecisionRuleInfo& info = lbd::decisionRuleInfo(config.decision.rule);
    return demoted
        + (info.usesUtility ? QObject::tr("decided by %1 with %2").arg(rule, QString::fromStdString(config.decision.utility.describe()))
                            : QObject::tr("decided by %1").arg(rule));
}

} // namespace lbd::ui

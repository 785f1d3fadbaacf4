#include "ui/decisionlab/labtext.h"

#include <QObject>
#include <QStringList>

namespace lbd::ui::labtext {

QString dash() { return QStringLiteral("\u2013"); }

QString percent(double rate) { return QStringLiteral("%1 %").arg(100.0 * rate, 0, 'f', 1); }

QString percent(const lbd::GroupAccuracy& group) { return group.total > 0 ? percent(group.accuracy) : dash(); }

QString signedNumber(double value, int decimals)
{
    const QString text = QString::number(value, 'f', decimals);
    return value > 0 && text.toDouble() != 0.0 ? QLatin1Char('+') + text : text;
}

QString points(double labRate, double baselineRate)
{
    return QObject::tr("%1 pts").arg(signedNumber(100.0 * (labRate - baselineRate), 1));
}

QString points(const lbd::GroupAccuracy& lab, const lbd::GroupAccuracy& baseline)
{
    return lab.total > 0 && baseline.total > 0 ? points(lab.accuracy, baseline.accuracy) : dash();
}

QString relative(double lab, double baseline)
{
    if (baseline <= 0.0) {
        return {};
    }
    return QObject::tr("%1 % relative").arg(signedNumber(100.0 * (lab - baseline) / baseline, 0));
}

QString change(double lab, double baseline)
{
    const QString rel = relative(lab, baseline);
    return rel.isEmpty() ? points(lab, baseline) : points(lab, baseline) + QStringLiteral(" (") + rel + QLatin1Char(')');
}

QString htmlLines(const std::vector<std::string>& lines)
{
    QStringList out;
    for (const std::string& line : lines) {
        out << QString::fromStdString(line).toHtmlEscaped();
    }
    return out.join(QStringLiteral("<br>"));
}

} // namespace lbd::ui::labtext

#include "ui/decisionlab/labtext.h"

#include "ui/style/decisionruletext.h"

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


QString warningsText(const lbd::EvaluationReport& lab)
{
    return lab.warnings.empty() ? QString()
                                : QObject::tr("Warning: these decisions are degenerate, not an improvement.<br>%1")
                                      .arg(htmlLines(lab.warnings));
}

QString headlineText(const lbd::EvaluationReport& lab, const lbd::EvaluationReport& base, const QString& evaluatedDescription)
{
    const auto region = [](const lbd::EvaluationReport& r, lbd::Region which) {
        return r.regionsThirds.regions[static_cast<size_t>(which)].counts;
    };
    const QString who = QObject::tr("<b>%1 with the %2 matrix vs one-hot argmax (test split):</b>")
                            .arg(decisionRuleTitle(lab.rule), evaluatedDescription.toHtmlEscaped());
    if (!lab.warnings.empty()) {
        return QObject::tr("%1 accuracy %2 (%3 vs %4). The FHR change is not shown as a gain: see the warning above.")
            .arg(who, points(lab.overall.accuracy, base.overall.accuracy), percent(lab.overall), percent(base.overall));
    }
    return QObject::tr("%1 FHR curve mean %2, FHR 3-point mean %3, accuracy %4, tail accuracy %5, mean utility %6 "
                       "(%7 vs %8).")
        .arg(who, change(lab.fhrCurveMean, base.fhrCurveMean), change(lab.fhrPointsMean, base.fhrPointsMean),
             points(lab.overall.accuracy, base.overall.accuracy),
             points(region(lab, lbd::Region::Tail), region(base, lbd::Region::Tail)),
             signedNumber(lab.meanUtility - base.meanUtility, 4))
        .arg(lab.meanUtility, 0, 'f', 4)
        .arg(base.meanUtility, 0, 'f', 4);
}

QString deferText(const lbd::EvaluationReport& lab)
{
    if (!lab.defer) {
        const bool can = lbd::decisionRuleInfo(lab.rule).supportsDefer;
        return can ? QObject::tr("<b>Defer option off.</b> Turn on \"Defer below r\" to refer the least confident images "
                                 "to a person and see the coverage and selective accuracy here (test split).")
                   : QObject::tr("<b>No defer option</b> for the %1 rule (it does not score with expected utility).")
                         .arg(QString::fromStdString(lbd::decisionRuleName(lab.rule)));
    }
    const lbd::DeferReport& d = *lab.defer;
    QStringList regions;
    for (const lbd::RegionAccuracy& region : d.selectiveRegions.regions) {
        regions << QObject::tr("%1 %2").arg(QString::fromStdString(region.name), percent(region.counts));
    }
    return QObject::tr("<b>Defer below r = %1</b> (test split): %2 of %3 images decided, <b>coverage %4</b>, %5 deferred. "
                       "<b>Selective accuracy %6</b> (among the decided; all images: %7).<br>By region, among the "
                       "decided: %8.")
        .arg(d.deferUtility, 0, 'g', 4)
        .arg(d.decided)
        .arg(d.decided + d.deferred)
        .arg(percent(d.coverage))
        .arg(d.deferred)
        .arg(percent(d.selective), percent(lab.overall), regions.join(QStringLiteral(", ")));
}

QString calibrationNoteText(const lbd::EvaluationReport& lab)
{
    return QObject::tr("Calibrated probabilities, softmax(log pbar / T) with T = %1 fitted on the validation split. Test "
                       "split before \u2192 after: ECE %2 \u2192 %3, NLL %4 \u2192 %5.")
        .arg(*lab.temperature, 0, 'f', 3)
        .arg(lab.uncalibrated->ece, 0, 'f', 4)
        .arg(lab.calibration.ece, 0, 'f', 4)
        .arg(lab.uncalibrated->nll, 0, 'f', 4)
        .arg(lab.nll, 0, 'f', 4);
}

} // namespace lbd::ui::labtext

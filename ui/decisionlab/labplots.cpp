#include "ui/decisionlab/labplots.h"

#include "ui/style/regioncolors.h"
#include "ui/widgets/throttledplot.h"

#include <QObject>

#include <algorithm>

namespace lbd::ui {
namespace {

const QColor kBaselineColor(110, 110, 110);
const QColor kLabColor(0xd5, 0x5e, 0x00);

QVector<double> percentOf(const std::vector<double>& rates)
{
    QVector<double> out;
    out.reserve(static_cast<qsizetype>(rates.size()));
    for (const double rate : rates) {
        out << 100.0 * rate;
    }
    return out;
}

} // namespace

void setUpRiskCoverageAxes(ThrottledPlot* plot)
{
    plot->xAxis->setLabel(QObject::tr("coverage (% of test images decided, most confident first)"));
    plot->yAxis->setLabel(QObject::tr("selective risk (% errors)"));
    plot->setFixedRange(plot->xAxis, 0, 101);
    plot->setFixedValueRange(0, 101);
    plot->placeLegendBelow();
}

void plotFhrComparison(ThrottledPlot* p, const lbd::EvaluationReport& baseline, const lbd::EvaluationReport& lab)
{
    p->clearGraphs();
    const auto addCurve = [p](const lbd::EvaluationReport& report, const QString& name, const QPen& pen) {
        QVector<double> x, y;
        for (const lbd::FhrSplit& split : report.fhrCurve) {
            x << double(split.headClasses) / double(report.classCount);
            y << 100.0 * split.rate;
        }
        QCPGraph* graph = p->addGraph();
        graph->setData(x, y, true);
        graph->setPen(pen);
        graph->setName(name);
        if (report.fhrCurve.size() == 1) {
            graph->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, 6));
        }
    };
    const auto addPoints = [p](const lbd::EvaluationReport& report, const QString& name, const QBrush& brush) {
        QVector<double> x, y;
        for (const lbd::FhrPoint& point : report.fhrPoints) {
            if (point.split.tailImages > 0) { // an empty split has no rate to mark
                x << double(point.split.headClasses) / double(report.classCount);
                y << 100.0 * point.split.rate;
            }
        }
        QCPGraph* graph = p->addGraph();
        graph->setData(x, y, true);
        graph->setLineStyle(QCPGraph::lsNone);
        graph->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDiamond, QPen(Qt::black, 1.5), brush, 11));
        graph->setName(name);
    };
    // Short legend names (the plot is a third of a page wide); the headline names the rule and matrix.
    addCurve(baseline, QObject::tr("argmax, curve mean %1 %").arg(100.0 * baseline.fhrCurveMean, 0, 'f', 1),
             QPen(kBaselineColor, 2, Qt::DashLine));
    addCurve(lab, QObject::tr("chosen, curve mean %1 %").arg(100.0 * lab.fhrCurveMean, 0, 'f', 1), QPen(kLabColor, 2.5));
    addPoints(baseline, QObject::tr("25/50/75 % pts, argmax"), QBrush(Qt::white));
    addPoints(lab, QObject::tr("25/50/75 % pts, chosen"), QBrush(Qt::yellow));
    p->requestReplot();
}

void plotRegionComparison(ThrottledPlot* p, const lbd::EvaluationReport& baseline, const lbd::EvaluationReport& lab,
                          const QString& labName)
{
    p->clearPlottables();
    auto* group = new QCPBarsGroup(p);
    QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
    ticker->addTick(1, QObject::tr("all\n(%1 images)").arg(lab.overall.total));
    for (const lbd::RegionAccuracy& region : lab.regionsThirds.regions) {
        ticker->addTick(2 + static_cast<int>(region.region),
                        region.counts.total > 0
                            ? QObject::tr("%1\n(%2 images)").arg(QString::fromStdString(region.name)).arg(region.counts.total)
                            : QObject::tr("%1\n(no images: \u2013)").arg(QString::fromStdString(region.name)));
    }
    p->xAxis->setTicker(ticker);
    const auto addBars = [&](const lbd::EvaluationReport& report, const QString& name, const QColor& color) {
        auto* bars = new QCPBars(p->xAxis, p->yAxis);
        bars->setName(name);
        bars->setPen(QPen(color.darker(130)));
        bars->setBrush(color);
        bars->setWidth(0.35);
        bars->setBarsGroup(group);
        bars->addData(1, 100.0 * report.overall.accuracy);
        for (const lbd::RegionAccuracy& region : report.regionsThirds.regions) {
            if (region.counts.total > 0) { // no bar (not a 0 % bar) for an empty region
                bars->addData(2 + static_cast<int>(region.region), 100.0 * region.counts.accuracy);
            }
        }
    };
    addBars(baseline, QObject::tr("one-hot argmax"), kBaselineColor);
    addBars(lab, labName, kLabColor);
    p->requestReplot();
}

void plotRiskCoverage(ThrottledPlot* p, const lbd::EvaluationReport& baseline, const lbd::EvaluationReport& lab)
{
    p->clearGraphs();
    const auto addCurve = [p](const lbd::RiskCoverageCurve& curve, const QString& name, const QPen& pen) {
        QCPGraph* graph = p->addGraph();
        graph->setData(percentOf(curve.coverage), percentOf(curve.risk), true);
        graph->setPen(pen);
        graph->setName(curve.count > 0 ? QObject::tr("%1: AURC %2").arg(name).arg(curve.aurc, 0, 'f', 3)
                                       : QObject::tr("%1: no images").arg(name));
    };
    addCurve(lab.riskCoverage, QObject::tr("chosen, all"), QPen(kLabColor, 2.5));
    addCurve(lab.riskCoverageTail, QObject::tr("chosen, tail"), QPen(regionColor(lbd::Region::Tail).darker(120), 2, Qt::DotLine));
    addCurve(baseline.riskCoverage, QObject::tr("argmax, all"), QPen(kBaselineColor, 2, Qt::DashLine));
    // The risk axis spans the curves (selective risk at full coverage is the error rate, often
    // far below 100 %), so the curves' shape stays readable.
    double top = 5.0;
    for (const lbd::RiskCoverageCurve* curve : {&lab.riskCoverage, &lab.riskCoverageTail, &baseline.riskCoverage}) {
        for (const double risk : curve->risk) {
            top = std::max(top, 100.0 * risk);
        }
    }
    p->setFixedValueRange(0, std::min(101.0, 1.1 * top));
    p->yAxis->setRange(0, std::min(101.0, 1.1 * top));
    if (lab.defer) {
        QCPGraph* point = p->addGraph();
        const lbd::DeferReport& d = *lab.defer;
        const double risk = d.decided > 0 ? 100.0 * (1.0 - d.selective.accuracy) : 0.0;
        point->setData(QVector<double>{100.0 * d.coverage}, QVector<double>{risk}, true);
        point->setLineStyle(QCPGraph::lsNone);
        point->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, QPen(Qt::black, 1.5), QBrush(Qt::yellow), 11));
        point->setName(QObject::tr("defer at r = %1").arg(d.deferUtility, 0, 'g', 4));
    }
    p->requestReplot();
}

} // namespace lbd::ui

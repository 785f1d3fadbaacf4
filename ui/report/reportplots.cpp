#include "ui/report/reportplots.h"

#include "ui/runs/comparisonmetrics.h"
#include "ui/style/regioncolors.h"

#include <qcustomplot.h>

namespace lbd::ui {
namespace {

constexpr int kWidth = 900;
constexpr int kHeight = 480;

void setUp(QCustomPlot& plot, const QString& title, const QString& x, const QString& y)
{
    plot.resize(kWidth, kHeight);
    plot.setBackground(Qt::white);
    plot.plotLayout()->insertRow(0);
    plot.plotLayout()->addElement(0, 0, new QCPTextElement(&plot, title, QFont(plot.font().family(), 12, QFont::Bold)));
    plot.xAxis->setLabel(x);
    plot.yAxis->setLabel(y);
    plot.legend->setVisible(true);
    // Under the plot, in a row, so it never covers a curve.
    auto* row = new QCPLayoutGrid;
    plot.plotLayout()->addElement(2, 0, row);
    plot.axisRect()->insetLayout()->take(plot.legend);
    row->addElement(0, 0, plot.legend);
    plot.legend->setFillOrder(QCPLegend::foColumnsFirst);
    plot.legend->setWrap(4);
    plot.legend->setBorderPen(Qt::NoPen);
    row->setMargins(QMargins(0, 0, 0, 0));
    plot.plotLayout()->setRowStretchFactor(2, 0.001);
}

void integerTicks(QCustomPlot& plot)
{
    auto ticker = QSharedPointer<QCPAxisTickerFixed>::create();
    ticker->setTickStep(1.0);
    ticker->setScaleStrategy(QCPAxisTickerFixed::ssMultiples); // 1, 2, ... or 10, 20, ... for long runs
    plot.xAxis->setTicker(ticker);
}

QCPGraph* addLine(QCustomPlot& plot, const QString& name, const QColor& color, const MetricCurve& curve)
{
    QCPGraph* graph = plot.addGraph();
    graph->setName(name);
    graph->setPen(QPen(color, 2));
    graph->setData(curve.epochs, curve.values, true);
    if (curve.epochs.size() <= 30) {
        graph->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, color, 5));
    }
    return graph;
}

QImage render(QCustomPlot& plot)
{
    plot.rescaleAxes();
    for (QCPAxis* axis : {plot.xAxis, plot.yAxis}) {
        const QCPRange range = axis->range();
        const double pad = range.size() > 0 ? 0.05 * range.size() : 0.5;
        axis->setRange(range.lower - pad, range.upper + pad);
    }
    plot.replot();
    return plot.toPixmap(kWidth, kHeight, 2.0).toImage();
}

} // namespace

QList<ReportPlot> reportPlots(const std::vector<nlohmann::json>& metricsLines, const nlohmann::json& report)
{
    QList<ReportPlot> plots;
    const MetricCurves curves = metricCurves(metricsLines);
    if (curves.count("accuracy")) {
        QCustomPlot plot;
        const QString title = QObject::tr("Test accuracy at every evaluation");
        setUp(plot, title, QObject::tr("epoch"), QObject::tr("accuracy (%)"));
        addLine(plot, QObject::tr("all classes"), Qt::black, curves.at("accuracy"));
        const struct { const char* key; lbd::Region region; const char* name; } regions[] = {
            {"head", lbd::Region::Head, "head"}, {"med", lbd::Region::Medium, "med"}, {"tail", lbd::Region::Tail, "tail"}};
        for (const auto& region : regions) {
            if (curves.count(region.key)) {
                addLine(plot, QString::fromLatin1(region.name), regionColor(region.region), curves.at(region.key));
            }
        }
        integerTicks(plot);
        plots.append({QStringLiteral("accuracy.png"), title, render(plot)});
    }
    if (curves.count("loss")) {
        QCustomPlot plot;
        const QString title = QObject::tr("Training objective");
        setUp(plot, title, QObject::tr("epoch"), QObject::tr("loss (nats per image, epoch mean)"));
        addLine(plot, QObject::tr("total L"), Qt::black, curves.at("loss"));
        if (curves.count("weighted_ce")) {
            addLine(plot, QObject::tr("weighted CE"), regionColor(lbd::Region::Head), curves.at("weighted_ce"));
        }
        integerTicks(plot);
        plots.append({QStringLiteral("objective.png"), title, render(plot)});
    }
    const auto classes = report.find("evaluation");
    const nlohmann::json* curve = nullptr;
    if (classes != report.end() && classes->contains("fhr") && (*classes)["fhr"].contains("curve")) {
        curve = &(*classes)["fhr"]["curve"];
    }
    const int classCount = classes != report.end() && classes->contains("classes") && (*classes)["classes"].is_number_integer()
                               ? (*classes)["classes"].get<int>()
                               : 0;
    if (curve && curve->is_array() && !curve->empty() && classCount > 0) {
        MetricCurve fhr;
        for (const nlohmann::json& point : *curve) {
            if (point.contains("head_classes") && point.contains("rate") && point["rate"].is_number()) {
                fhr.epochs << point["head_classes"].get<double>() / classCount;
                fhr.values << 100.0 * point["rate"].get<double>();
            }
        }
        QCustomPlot plot;
        const QString title = QObject::tr("False Head Rate of the final report");
        setUp(plot, title, QObject::tr("head fraction k/C (head = classes before k)"), QObject::tr("FHR (% of tail images)"));
        addLine(plot, QObject::tr("run's decision rule"), regionColor(lbd::Region::Tail), fhr);
        plots.append({QStringLiteral("fhr.png"), title, render(plot)});
    }
    return plots;
}

} // namespace lbd::ui

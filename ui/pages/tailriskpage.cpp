#include "ui/pages/tailriskpage.h"
#include "ui/style/decisionruletext.h"
#include "ui/widgets/fhraxes.h"
#include "ui/widgets/plottitle.h"

#include "ui/style/regioncolors.h"
#include "ui/widgets/throttledplot.h"

#include <QComboBox>
#include <QGridLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QStringList>

namespace lbd::ui {
namespace {

const QColor kArgmaxColor(110, 110, 110);
const QColor kRuleColor(0xd5, 0x5e, 0x00);

// FHR(k) at head fraction k / C, in percent.
void setCurve(QCPGraph* graph, const lbd::EvaluationReport& report)
{
    QVector<double> x, y;
    for (const lbd::FhrSplit& split : report.fhrCurve) {
        x << double(split.headClasses) / double(report.classCount);
        y << 100.0 * split.rate;
    }
    graph->setData(x, y, true);
}

void setPaperPoints(QCPGraph* graph, const lbd::EvaluationReport& report)
{
    QVector<double> x, y;
    for (const lbd::FhrPoint& point : report.fhrPoints) {
        x << double(point.split.headClasses) / double(report.classCount);
        y << 100.0 * point.split.rate;
    }
    graph->setData(x, y, true);
}

// "paper points: head = first 3, 5, 8 of 10 classes (latest)": the markers' x is k/C of these heads.
QString paperPointsLegend(const lbd::EvaluationReport& report)
{
    QStringList heads;
    for (const lbd::FhrPoint& point : report.fhrPoints) {
        heads << QString::number(point.split.headClasses);
    }
    return QObject::tr("paper points: head = first %1 of %2 classes (latest)")
        .arg(heads.join(QStringLiteral(", ")))
        .arg(report.classCount);
}

} // namespace

TailRiskPage::TailRiskPage(QWidget* parent) : QWidget(parent)
{
    m_curvePlot = new ThrottledPlot(this);
    m_curvePlot->setObjectName(QStringLiteral("fhrCurvePlot"));
    addPlotTitle(m_curvePlot, tr("False Head Rate at every evaluation"));
    setUpFhrAxes(m_curvePlot);

    m_comparePlot = new ThrottledPlot(this);
    m_comparePlot->setObjectName(QStringLiteral("fhrComparePlot"));
    addPlotTitle(m_comparePlot, tr("Latest evaluation: argmax vs the run's decision"));
    m_comparePlot->xAxis->setLabel(tr("head fraction k/C"));
    m_comparePlot->yAxis->setLabel(tr("FHR (%)"));
    m_comparePlot->setFixedValueRange(0, 100);
    m_comparePlot->setFixedRange(m_comparePlot->xAxis, 0, 1);
    m_compareNote = new QCPItemText(m_comparePlot);
    m_compareNote->position->setType(QCPItemPosition::ptAxisRectRatio);
    m_compareNote->position->setCoords(0.5, 0.5);
    m_compareNote->setText(tr("No evaluation yet"));
    m_compareNote->setColor(QColor(120, 120, 120));

    m_regionPlot = new ThrottledPlot(this);
    m_regionPlot->setObjectName(QStringLiteral("regionAccuracyPlot"));
    addPlotTitle(m_regionPlot, tr("Region accuracy, latest evaluation"));
    m_regionPlot->yAxis->setLabel(tr("accuracy (%)"));
    m_regionPlot->setFixedValueRange(0, 105);
    m_regionPlot->setFixedRange(m_regionPlot->xAxis, 0.4, 3.6);
    m_regionPlot->setInteractions({});
    m_regionPlot->placeLegendBelow(); // inside, it covered the tail bars on a small window

    m_scheme = new QComboBox(this);
    m_scheme->setObjectName(QStringLiteral("regionScheme"));
    m_scheme->addItem(tr("Regions: thirds by class index (the paper)"));
    m_scheme->addItem(tr("Regions: by training count (many > 100, medium 20-100, few < 20)"));
    m_scheme->setToolTip(tr("How classes are grouped into head / medium / tail (lbd-math.md section 2)."));
    connect(m_scheme, &QComboBox::currentIndexChanged, this, [this] { rebuildRegionBars(); });

    m_summary = new QLabel(tr("Train a run to see how often tail images are decided as head classes."), this);
    m_summary->setObjectName(QStringLiteral("tailRiskSummary"));
    m_summary->setWordWrap(true);
    m_summary->setTextFormat(Qt::RichText);

    auto* bottom = new QWidget(this);
    auto* bottomLayout = new QVBoxLayout(bottom);
    bottomLayout->setContentsMargins(0, 0, 0, 0);
    bottomLayout->addWidget(m_scheme);
    bottomLayout->addWidget(m_regionPlot, 1);

    auto* grid = new QGridLayout(this);
    grid->addWidget(m_curvePlot, 0, 0);
    grid->addWidget(m_comparePlot, 0, 1);
    grid->addWidget(bottom, 1, 0);
    grid->addWidget(m_summary, 1, 1, Qt::AlignTop);
    grid->setRowStretch(0, 3);
    grid->setRowStretch(1, 2);
}

void TailRiskPage::beginRun(const RunContext&)
{
    m_reports.clear();
    m_comparison.reset();
    rebuildCurves();
    rebuildComparison();
    rebuildRegionBars();
}

void TailRiskPage::addEpoch(const lbd::EpochMetrics& metrics)
{
    if (!metrics.evaluation) {
        return;
    }
    m_reports.push_back({metrics.epoch, *metrics.evaluation});
    m_comparison = metrics.argmaxEvaluation; // a comparison belongs to one evaluation
    rebuildCurves();
    rebuildComparison();
    rebuildRegionBars();
}

void TailRiskPage::addComparisonReport(const lbd::EvaluationReport& report)
{
    m_comparison = report;
    rebuildComparison();
    rebuildRegionBars();
}

std::optional<lbd::EvaluationReport> TailRiskPage::argmaxReport() const
{
    if (m_comparison && m_comparison->rule == lbd::DecisionRule::Argmax) {
        return m_comparison;
    }
    if (!m_reports.empty() && m_reports.back().report.rule == lbd::DecisionRule::Argmax) {
        return m_reports.back().report;
    }
    return std::nullopt;
}

void TailRiskPage::rebuildCurves()
{
    ThrottledPlot* p = m_curvePlot;
    p->clearGraphs();
    const int n = static_cast<int>(m_reports.size());
    // Older evaluations fade; the latest is drawn bold and named in the legend with its epoch.
    for (int i = 0; i < n; ++i) {
        const bool latest = i == n - 1;
        QCPGraph* graph = p->addGraph();
        setCurve(graph, m_reports[i].report);
        const double t = n > 1 ? double(i) / double(n - 1) : 1.0;
        QColor color = kRuleColor;
        color.setAlphaF(0.2 + 0.8 * t);
        graph->setPen(QPen(color, latest ? 2.5 : 1.2));
        graph->setName(tr("epoch %1").arg(m_reports[i].epoch));
        if (!latest && n > 4 && i != 0) {
            graph->removeFromLegend();
        }
    }
    if (n > 0) {
        QCPGraph* points = p->addGraph();
        setPaperPoints(points, m_reports.back().report);
        points->setLineStyle(QCPGraph::lsNone);
        points->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDiamond, QPen(Qt::black, 1.5), QBrush(Qt::yellow), 11));
        points->setName(paperPointsLegend(m_reports.back().report));
    }
    p->requestReplot();
}

void TailRiskPage::rebuildComparison()
{
    ThrottledPlot* p = m_comparePlot;
    p->clearGraphs();
    if (m_reports.empty()) {
        m_compareNote->setText(tr("No evaluation yet"));
        m_compareNote->setVisible(true);
        m_summary->setText(tr("Train a run to see how often tail images are decided as head classes."));
        m_comparePlot->requestReplot();
        return;
    }
    const lbd::EvaluationReport& latest = m_reports.back().report;
    const std::optional<lbd::EvaluationReport> argmax = argmaxReport();
    if (argmax && latest.rule != lbd::DecisionRule::Argmax) {
        QCPGraph* a = p->addGraph();
        setCurve(a, *argmax);
        a->setPen(QPen(kArgmaxColor, 2, Qt::DashLine));
        a->setName(tr("argmax"));
    }
    QCPGraph* rule = p->addGraph();
    setCurve(rule, latest);
    rule->setPen(QPen(latest.rule == lbd::DecisionRule::Argmax ? kArgmaxColor : kRuleColor, 2.5));
    rule->setName(decisionRuleTitle(latest.rule));
    QCPGraph* points = p->addGraph();
    setPaperPoints(points, latest);
    points->setLineStyle(QCPGraph::lsNone);
    points->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDiamond, QPen(Qt::black, 1.5), QBrush(Qt::yellow), 11));
    points->removeFromLegend();

    const bool haveBoth = argmax.has_value() || latest.rule == lbd::DecisionRule::Argmax;
    m_compareNote->setVisible(!haveBoth);
    m_compareNote->setText(tr("argmax curve: computed from the run's cached\ntest probabilities once the run has finished"));
    m_compareNote->position->setCoords(0.5, 0.15);
    p->requestReplot();

    QString rows;
    for (const lbd::FhrPoint& point : latest.fhrPoints) {
        QString argmaxCell = QStringLiteral("-");
        if (argmax) {
            for (const lbd::FhrPoint& other : argmax->fhrPoints) {
                if (other.ratio == point.ratio) {
                    argmaxCell = QString::number(100.0 * other.split.rate, 'f', 1) + QLatin1Char('%');
                }
            }
        }
        rows += QStringLiteral("<tr><td>%1</td><td align=right>%2</td><td align=right>%3%</td><td align=right>%4 / %5</td></tr>")
                    .arg(fhrPointName(point.split.headClasses, latest.classCount, point.ratio).toHtmlEscaped())
                    .arg(argmaxCell)
                    .arg(100.0 * point.split.rate, 0, 'f', 1)
                    .arg(point.split.falseHeads)
                    .arg(point.split.tailImages);
    }
    m_summary->setText(
        tr("<p><b>Epoch %1, decision rule: %2.</b> Overall accuracy %3%, mean utility %4.</p>"
           "<table cellspacing=6><tr><th>paper point</th><th>FHR argmax</th><th>FHR %2</th><th>false heads / tail images</th></tr>%5</table>"
           "<p style='color:gray'>FHR(k) = share of test images of classes &ge; k decided as a class &lt; k. "
           "Paper points (the yellow markers, at k/C of their heads): %6. A lower curve means fewer tail images lost to the head.</p>")
            .arg(m_reports.back().epoch)
            .arg(decisionRuleTitle(latest.rule))
            .arg(100.0 * latest.overall.accuracy, 0, 'f', 2)
            .arg(latest.meanUtility, 0, 'f', 4)
            .arg(rows)
            .arg(QString::fromStdString(latest.fhrConvention).toHtmlEscaped()));
}

void TailRiskPage::rebuildRegionBars()
{
    ThrottledPlot* p = m_regionPlot;
    p->clearPlottables();
    auto* group = new QCPBarsGroup(p);
    QSharedPointer<QCPAxisTickerText> ticker(new QCPAxisTickerText);
    p->xAxis->setTicker(ticker);
    if (m_reports.empty()) {
        p->requestReplot();
        return;
    }
    const bool byCount = m_scheme->currentIndex() == 1;
    const auto regionsOf = [byCount](const lbd::EvaluationReport& r) -> const lbd::RegionAccuracies& {
        return byCount ? r.regionsCounts : r.regionsThirds;
    };
    const lbd::EvaluationReport& latest = m_reports.back().report;
    for (const auto& region : regionsOf(latest).regions) {
        ticker->addTick(1 + static_cast<int>(region.region),
                        QStringLiteral("%1\n(%2 images)").arg(QString::fromStdString(region.name)).arg(region.counts.total));
    }
    const auto addBars = [&](const lbd::EvaluationReport& report, const QString& name, const QColor& color) {
        auto* bars = new QCPBars(p->xAxis, p->yAxis);
        bars->setName(name);
        bars->setPen(QPen(color.darker(130)));
        bars->setBrush(color);
        bars->setWidth(0.35);
        bars->setBarsGroup(group);
        for (const auto& region : regionsOf(report).regions) {
            bars->addData(1 + static_cast<int>(region.region), 100.0 * region.counts.accuracy);
        }
    };
    const std::optional<lbd::EvaluationReport> argmax = argmaxReport();
    if (argmax && latest.rule != lbd::DecisionRule::Argmax) {
        addBars(*argmax, tr("argmax"), kArgmaxColor);
    }
    addBars(latest, decisionRuleTitle(latest.rule), kRuleColor);
    p->requestReplot();
}

} // namespace lbd::ui

#include "ui/pages/confusionpage.h"

#include "core/infer/runresults.h"

#include "core/data/regions.h"
#include "ui/runs/rundegeneracy.h"
#include "ui/style/decisionruletext.h"
#include "ui/widgets/classaccuracyplot.h"
#include "ui/widgets/confusionchart.h"
#include "ui/widgets/degeneracybanner.h"
#include "ui/widgets/emptystate.h"
#include "ui/widgets/plottitle.h"
#include "ui/widgets/throttledplot.h"

#include <QCheckBox>
#include <QComboBox>
#include <QHBoxLayout>
#include <QLabel>
#include <QSplitter>
#include <QStackedWidget>
#include <QVBoxLayout>

namespace lbd::ui {

ConfusionPage::ConfusionPage(QWidget* parent) : QWidget(parent)
{
    setObjectName(QStringLiteral("confusionPage"));

    auto* header = new QLabel(tr("Which classes the run confuses: rows are the true class, columns the class its rule "
                                 "decided. Click a cell to see those images in the Gallery."),
                              this);
    header->setObjectName(QStringLiteral("confusionHeader"));
    header->setWordWrap(true);

    m_values = new QComboBox(this);
    m_values->setObjectName(QStringLiteral("confusionValues"));
    m_values->addItem(tr("row-normalised (% of the true class)"), true);
    m_values->addItem(tr("counts (test images)"), false);
    m_values->setToolTip(tr("Row-normalised: each row sums to 100%, so a tail class with few test images reads like a "
                            "head class. Counts: the number of test images in each cell."));
    m_logColour = new QCheckBox(tr("Log colour"), this);
    m_logColour->setObjectName(QStringLiteral("confusionLogColour"));
    m_logColour->setToolTip(tr("Colour by the logarithm of the value, so rare confusions show next to the diagonal; "
                               "empty cells stay blank."));
    m_summary = new QLabel(this);
    m_summary->setObjectName(QStringLiteral("confusionSummary"));
    m_summary->setWordWrap(true);
    m_degeneracy = new DegeneracyBanner(QStringLiteral("confusionDegeneracy"), this);

    auto* controls = new QHBoxLayout;
    controls->addWidget(new QLabel(tr("Values:"), this));
    controls->addWidget(m_values);
    controls->addWidget(m_logColour);
    controls->addSpacing(12);
    controls->addWidget(m_summary, 1);

    m_matrixPlot = new ThrottledPlot(this);
    m_matrixPlot->setObjectName(QStringLiteral("confusionMatrixPlot"));
    addPlotTitle(m_matrixPlot, tr("Confusion matrix, latest evaluation"));
    m_chart = new ConfusionChart(m_matrixPlot);
    m_matrixPlot->setMinimumSize(320, 300);

    m_classPlot = new ThrottledPlot(this);
    m_classPlot->setObjectName(QStringLiteral("classAccuracyPlot"));
    addPlotTitle(m_classPlot, tr("Accuracy by training count"));
    setUpClassAccuracyPlot(m_classPlot);
    m_classPlot->setMinimumSize(240, 240);

    connect(m_values, &QComboBox::currentIndexChanged, this, [this] { m_chart->setRowNormalised(m_values->currentData().toBool()); });
    connect(m_logColour, &QCheckBox::toggled, m_chart, &ConfusionChart::setLogColour);
    connect(m_chart, &ConfusionChart::cellClicked, this, [this](int t, int d) { emit cellActivated(t, d); });

    auto* splitter = new QSplitter(Qt::Horizontal, this);
    splitter->addWidget(m_matrixPlot);
    splitter->addWidget(m_classPlot);
    splitter->setStretchFactor(0, 3);
    splitter->setStretchFactor(1, 2);
    splitter->setChildrenCollapsible(false);

    auto* content = new QWidget(this);
    auto* contentLayout = new QVBoxLayout(content);
    contentLayout->setContentsMargins(0, 0, 0, 0);
    contentLayout->addLayout(controls);
    contentLayout->addWidget(m_degeneracy);
    contentLayout->addWidget(splitter, 1);

    QLabel* empty = makeEmptyStateLabel(QStringLiteral("confusionEmptyState"),
                                        tr("<h3>No evaluation yet</h3><p>Train a run or open one (File &gt; Open run...). The "
                                           "confusion matrix appears with the run's first evaluation.</p>"),
                                        this);

    m_stack = new QStackedWidget(this);
    m_stack->addWidget(empty);
    m_stack->addWidget(content);

    auto* layout = new QVBoxLayout(this);
    layout->addWidget(header);
    layout->addWidget(m_stack, 1);
}

void ConfusionPage::beginRun(const RunContext& context)
{
    m_context = context;
    m_report.reset();
    m_epoch = 0;
    m_chart->clear();
    m_classPlot->clearGraphs();
    m_classPlot->requestReplot();
    m_summary->clear();
    m_degeneracy->showHtml({});
    m_stack->setCurrentIndex(0);
}

void ConfusionPage::addEpoch(const lbd::EpochMetrics& metrics)
{
    if (!metrics.evaluation) {
        return;
    }
    m_report = *metrics.evaluation;
    m_epoch = metrics.epoch;
    redraw();
}

QString ConfusionPage::degeneracyText() const { return m_degeneracy->isHidden() ? QString() : m_degeneracy->text(); }

void ConfusionPage::redraw()
{
    if (!m_report) {
        return;
    }
    const lbd::EvaluationReport& report = *m_report;
    const auto fits = [&report](auto size) { return static_cast<int64_t>(size) == report.classCount; };
    if ((!fits(m_context.classNames.size()) || !fits(m_context.trainCounts.size())) && !m_context.runDirectory.isEmpty()) {
        // A run started before the panel had read its folder: the run's run.json (written once the
        // engine read the data, before the first epoch) names its classes and counts.
        try {
            const lbd::RunClasses recorded = lbd::loadRunClasses(m_context.runDirectory.toStdString());
            if (fits(recorded.classNames.size())) {
                m_context.classNames.clear();
                for (const std::string& name : recorded.classNames) {
                    m_context.classNames << QString::fromStdString(name);
                }
                m_context.trainCounts = recorded.trainCounts;
            }
        } catch (const std::exception&) {
            // Not written (yet): the class indices stand in.
        }
    }
    // The report's class count wins: the panel's class names may describe another data set.
    std::vector<int64_t> trainCounts = m_context.trainCounts;
    if (int64_t(trainCounts.size()) != report.classCount) {
        trainCounts.assign(size_t(report.classCount), 1); // thirds by index need only the count
    }
    const std::vector<lbd::Region> regions = lbd::classRegions(trainCounts, lbd::RegionScheme::ThirdsByIndex);
    ConfusionChartData data;
    data.confusion = report.confusion;
    data.regions = regions;
    if (m_context.classNames.size() == report.classCount) {
        data.classNames = m_context.classNames;
    }
    m_chart->setData(std::move(data));
    if (int64_t(m_context.trainCounts.size()) == report.classCount) {
        drawClassAccuracy(m_classPlot, report.perClass, m_context.trainCounts, regions);
    }
    m_summary->setText(tr("Epoch %1, %2: %3 of %4 test images decided right (%5%).")
                           .arg(m_epoch)
                           .arg(decisionRuleTitle(report.rule))
                           .arg(report.overall.correct)
                           .arg(report.overall.total)
                           .arg(100.0 * report.overall.accuracy, 0, 'f', 1));
    const RunDegeneracy degeneracy = degeneracyOf(report, reportClassNames(m_context, report.classCount));
    m_degeneracy->showHtml(degeneracy.degenerate() ? degeneracyBannerHtml(degeneracy, m_epoch, {}) : QString());
    m_stack->setCurrentIndex(1);
}

} // namespace lbd::ui

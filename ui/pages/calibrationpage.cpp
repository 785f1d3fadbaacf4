#include "ui/pages/calibrationpage.h"
#include "ui/widgets/plottitle.h"

#include "core/eval/temperature.h"
#include "core/infer/runresults.h"
#include "core/infer/runtuning.h"

#include "ui/style/regioncolors.h"
#include "ui/widgets/throttledplot.h"

#include <QComboBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QVBoxLayout>

#include <algorithm>

namespace lbd::ui {
namespace {

QString formatAuroc(const std::optional<double>& value)
{
    return value ? QString::number(*value, 'f', 4) : QObject::tr("undefined (all right or all wrong)");
}

// Brier, classwise / adaptive ECE and the ECE interval of every image, and before / after rows
// for a temperature-scaled report.
QString extraScores(const lbd::EvaluationReport& report)
{
    QString rows;
    if (report.calibrationMetrics) {
        const lbd::CalibrationMetrics& m = *report.calibrationMetrics;
        rows += QObject::tr("<tr><td><b>ECE</b> 95% interval</td><td>[%1, %2]</td></tr>"
                            "<tr><td><b>Brier</b></td><td>%3</td></tr>"
                            "<tr><td><b>classwise ECE</b></td><td>%4</td></tr>"
                            "<tr><td><b>adaptive ECE</b></td><td>%5</td></tr>")
                    .arg(m.eceLow, 0, 'f', 4)
                    .arg(m.eceHigh, 0, 'f', 4)
                    .arg(m.brier, 0, 'f', 4)
                    .arg(m.classwiseEce, 0, 'f', 4)
                    .arg(m.adaptiveEce, 0, 'f', 4);
        rows += QObject::tr("<tr><td colspan=2 style='color:gray'>interval: %1 bootstrap resamples (seed %2); Brier = mean "
                            "&sum;<sub>k</sub> (pbar<sub>k</sub> &minus; [y = k])&sup2;; classwise: the mean over classes "
                            "of the ECE of pbar<sub>k</sub>; adaptive: 15 equal-mass bins</td></tr>")
                    .arg(m.bootstrapResamples)
                    .arg(m.bootstrapSeed);
    }
    if (report.temperature && report.uncalibrated) {
        const lbd::UncalibratedSummary& u = *report.uncalibrated;
        rows += QObject::tr("<tr><td colspan=2><hr>Temperature scaling, T = %1 (fitted on validation; calibrated pbar = "
                            "softmax(log pbar / T)). Before &rarr; after:</td></tr>"
                            "<tr><td>NLL</td><td>%2 &rarr; %3</td></tr>"
                            "<tr><td>ECE</td><td>%4 &rarr; %5</td></tr>"
                            "<tr><td>MCE</td><td>%6 &rarr; %7</td></tr>")
                    .arg(*report.temperature, 0, 'f', 4)
                    .arg(u.nll, 0, 'f', 4)
                    .arg(report.nll, 0, 'f', 4)
                    .arg(u.ece, 0, 'f', 4)
                    .arg(report.calibration.ece, 0, 'f', 4)
                    .arg(u.mce, 0, 'f', 4)
                    .arg(report.calibration.mce, 0, 'f', 4);
        if (u.metrics && report.calibrationMetrics) {
            rows += QObject::tr("<tr><td>Brier</td><td>%1 &rarr; %2</td></tr>"
                                "<tr><td>adaptive ECE</td><td>%3 &rarr; %4</td></tr>")
                        .arg(u.metrics->brier, 0, 'f', 4)
                        .arg(report.calibrationMetrics->brier, 0, 'f', 4)
                        .arg(u.metrics->adaptiveEce, 0, 'f', 4)
                        .arg(report.calibrationMetrics->adaptiveEce, 0, 'f', 4);
        }
    }
    return rows;
}

} // namespace

CalibrationPage::CalibrationPage(QWidget* parent) : QWidget(parent)
{
    m_reliability = new ThrottledPlot(this);
    m_reliability->setObjectName(QStringLiteral("reliabilityPlot"));
    addPlotTitle(m_reliability, tr("Reliability diagram"));
    m_reliability->xAxis->setLabel(tr("confidence = pbar of the decided class (15 equal-width bins)"));
    m_reliability->yAxis->setLabel(tr("accuracy in the bin"));
    m_reliability->setFixedRange(m_reliability->xAxis, 0, 1);
    m_reliability->setFixedValueRange(0, 1.02);
    m_reliability->axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignTop | Qt::AlignLeft);

    m_counts = new ThrottledPlot(this);
    m_counts->setObjectName(QStringLiteral("binCountPlot"));
    m_counts->xAxis->setLabel(tr("confidence"));
    m_counts->yAxis->setLabel(tr("test images"));
    m_counts->setFixedRange(m_counts->xAxis, 0, 1);
    m_counts->legend->setVisible(false);
    m_counts->setMinimumHeight(150);

    m_group = new QComboBox(this);
    m_group->setObjectName(QStringLiteral("calibrationGroup"));
    m_group->addItems({tr("All test images"), tr("Head classes"), tr("Medium classes"), tr("Tail classes")});
    m_group->setToolTip(tr("Regions group images by the region of their true class (thirds by class index)."));
    m_evaluation = new QComboBox(this);
    m_evaluation->setObjectName(QStringLiteral("calibrationEvaluation"));
    m_evaluation->setToolTip(tr("Which evaluation of the run to show; new evaluations are selected as they arrive."));
    m_definition = new QComboBox(this);
    m_definition->setObjectName(QStringLiteral("calibrationDefinition"));
    m_definition->addItem(tr("Ours: pbar of the decision, 15 bins"));
    m_definition->addItem(tr("Published code: 1 - entropy, 10 bins"));
    m_definition->setItemData(0, QString::fromUtf8(lbd::kOurCalibrationDefinition), Qt::ToolTipRole);
    m_definition->setItemData(1, QString::fromUtf8(lbd::kPublishedMetricsDefinition), Qt::ToolTipRole);
    m_definition->setToolTip(tr("Which definition of confidence, ECE and AUROC to show. The paper's Table 4 uses the "
                                "published code's; compare with it only under that definition."));
    m_definitionNote = new QLabel(this);
    m_definitionNote->setObjectName(QStringLiteral("calibrationDefinitionNote"));
    m_definitionNote->setWordWrap(true);
    m_definitionNote->setStyleSheet(QStringLiteral("color: gray;"));
    connect(m_definition, &QComboBox::currentIndexChanged, this, [this] { refresh(); });
    connect(m_group, &QComboBox::currentIndexChanged, this, [this] { refresh(); });
    connect(m_evaluation, &QComboBox::currentIndexChanged, this, [this] { refresh(); });

    m_scores = new QLabel(this);
    m_scores->setObjectName(QStringLiteral("calibrationScores"));
    m_scores->setTextFormat(Qt::RichText);
    m_scores->setWordWrap(true);
    m_scores->setAlignment(Qt::AlignTop | Qt::AlignLeft);

    auto* side = new QWidget(this);
    auto* form = new QFormLayout(side);
    form->addRow(tr("Definition"), m_definition);
    form->addRow(m_definitionNote);
    form->addRow(tr("Show"), m_group);
    form->addRow(tr("Evaluation"), m_evaluation);
    form->addRow(m_scores);
    side->setMaximumWidth(420);

    auto* plots = new QVBoxLayout;
    plots->addWidget(m_reliability, 3);
    plots->addWidget(m_counts, 1);
    auto* layout = new QHBoxLayout(this);
    layout->addLayout(plots, 1);
    layout->addWidget(side);
    refresh();
}

void CalibrationPage::beginRun(const RunContext& context)
{
    m_calibratedRequest.cancel();
    m_reports.clear();
    m_evaluation->clear();
    refresh();
    if (context.runDirectory.isEmpty()) {
        return;
    }
    // A finished run with a temperature: its final test evaluation, calibrated, as one more
    // entry. Off the GUI thread (the cached probabilities can be large); a run without
    // temperature.json, or not finished yet, simply has no such entry.
    const std::string directory = context.runDirectory.toStdString();
    m_calibratedRequest.start(
        [directory]() -> std::shared_ptr<const std::pair<int, lbd::EvaluationReport>> {
            const auto fit = lbd::loadTemperature(directory);
            if (!fit) {
                return nullptr;
            }
            const lbd::RunResults results = lbd::loadRunResults(directory);
            // The confidence here is pbar of the decision: argmax unless the run decides by
            // expected utility (mean-logit and eq7 decide from each particle).
            const lbd::DecisionRule rule =
                results.decisions.rule == lbd::DecisionRule::Expected ? lbd::DecisionRule::Expected : lbd::DecisionRule::Argmax;
            return std::make_shared<const std::pair<int, lbd::EvaluationReport>>(
                results.config.train.epochs,
                lbd::evaluateCalibrated(results, fit->temperature, results.decisions.decisionUtility, rule));
        },
        [this](std::shared_ptr<const std::pair<int, lbd::EvaluationReport>> calibrated) {
            if (!calibrated) {
                return;
            }
            m_reports.push_back(*calibrated);
            const QSignalBlocker blocker(m_evaluation);
            m_evaluation->addItem(tr("final test, calibrated (T = %1)").arg(*calibrated->second.temperature, 0, 'f', 3));
            refresh();
        },
        [](const QString&) {
            // A damaged temperature or results file: the training-time evaluations still show;
            // `lbd eval --calibrate` names the problem.
        });
}

QString CalibrationPage::scoresText() const
{
    return m_scores->text();
}

void CalibrationPage::addEpoch(const lbd::EpochMetrics& metrics)
{
    if (!metrics.evaluation) {
        return;
    }
    m_reports.emplace_back(metrics.epoch, *metrics.evaluation);
    const QSignalBlocker blocker(m_evaluation);
    m_evaluation->addItem(tr("epoch %1").arg(metrics.epoch));
    m_evaluation->setCurrentIndex(m_evaluation->count() - 1);
    refresh();
}

CalibrationPage::ReliabilitySeries CalibrationPage::addReliabilitySeries(const QColor& color)
{
    ReliabilitySeries series;
    series.accuracy = new QCPBars(m_reliability->xAxis, m_reliability->yAxis);
    series.accuracy->setName(tr("accuracy per bin"));
    QColor fill = color;
    fill.setAlpha(170);
    series.accuracy->setBrush(fill);
    series.accuracy->setPen(QPen(color.darker(140)));
    series.confidence = m_reliability->addGraph();
    series.confidence->setName(tr("mean confidence per bin"));
    series.confidence->setLineStyle(QCPGraph::lsNone);
    series.confidence->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, QPen(Qt::black), QBrush(Qt::white), 6));
    series.counts = new QCPBars(m_counts->xAxis, m_counts->yAxis);
    series.counts->setBrush(QColor(120, 120, 120, 160));
    series.counts->setPen(QPen(QColor(80, 80, 80)));
    return series;
}

void CalibrationPage::refresh()
{
    ThrottledPlot* p = m_reliability;
    p->clearPlottables();
    for (QCPAbstractItem* item : m_gapItems) {
        p->removeItem(item);
    }
    m_gapItems.clear();
    m_counts->clearPlottables();

    QCPGraph* diagonal = p->addGraph();
    diagonal->setData(QVector<double>{0, 1}, QVector<double>{0, 1});
    diagonal->setPen(QPen(QColor(90, 90, 90), 1.5, Qt::DashLine));
    diagonal->setName(tr("perfect calibration"));

    const int index = m_evaluation->currentIndex();
    if (index < 0 || index >= static_cast<int>(m_reports.size())) {
        m_scores->setText(tr("<p>No evaluation yet. The run evaluates on the test set every "
                             "<i>eval every</i> epochs and at the end.</p>"));
        p->requestReplot();
        m_counts->requestReplot();
        return;
    }
    const lbd::EvaluationReport& report = m_reports[index].second;
    const bool published = m_definition->currentIndex() == 1;
    // One sentence on how the two definitions differ, so that neither number is read as the other.
    m_definitionNote->setText(published ? tr("The published code's metric: confidence = 1 - entropy of softmax(mean "
                                             "logits), for the mean-logit decision; 10 bins; images whose confidence "
                                             "is below 0 sit in no bin but count in N.")
                                        : tr("Ours: confidence = the ensemble's probability pbar of the decided class; 15 "
                                             "bins; N = the binned images."));
    m_group->setEnabled(!published);
    if (published) {
        refreshPublished(report, m_reports[index].first);
        return;
    }
    p->xAxis->setLabel(tr("confidence = pbar of the decided class (15 equal-width bins)"));
    const int group = m_group->currentIndex();
    const lbd::CalibrationReport* calibration = &report.calibration;
    QColor color = overallColor();
    if (group > 0) {
        for (const auto& region : report.regionCalibration) {
            if (static_cast<int>(region.region) == group - 1) {
                calibration = &region.calibration;
                color = regionColor(region.region);
            }
        }
    }

    const ReliabilitySeries series = addReliabilitySeries(color);
    QCPBars* accuracy = series.accuracy;
    QCPGraph* confidence = series.confidence;
    QCPBars* counts = series.counts;

    double width = 1.0 / 15.0;
    bool gapInLegend = false;
    for (const lbd::CalibrationBin& bin : calibration->bins) {
        width = bin.upper - bin.lower;
        const double centre = 0.5 * (bin.lower + bin.upper);
        counts->addData(centre, double(bin.count));
        if (bin.count == 0) {
            continue;
        }
        accuracy->addData(centre, bin.accuracy);
        confidence->addData(centre, bin.meanConfidence);
        // The gap |confidence - accuracy| as a hatched red box on the bar: above it when the
        // ensemble is over-confident, inside it when under-confident.
        auto* gap = new QCPItemRect(p);
        gap->topLeft->setCoords(bin.lower + 0.1 * width, std::max(bin.accuracy, bin.meanConfidence));
        gap->bottomRight->setCoords(bin.upper - 0.1 * width, std::min(bin.accuracy, bin.meanConfidence));
        gap->setPen(QPen(QColor(0xd5, 0x5e, 0x00), 1));
        gap->setBrush(QBrush(QColor(0xd5, 0x5e, 0x00, 150), Qt::BDiagPattern));
        m_gapItems.push_back(gap);
        gapInLegend = true;
    }
    accuracy->setWidth(width * 0.9);
    counts->setWidth(width * 0.9);
    if (gapInLegend) {
        // Items have no legend entry: a stand-in graph with the gap's look names it.
        QCPGraph* legendGap = p->addGraph();
        legendGap->setName(tr("gap |confidence - accuracy|"));
        legendGap->setPen(QPen(QColor(0xd5, 0x5e, 0x00), 6));
    }

    const QString groupName = m_group->currentText().toLower();
    m_scores->setText(
        tr("<h3>Epoch %1 &mdash; %2</h3>"
           "<table cellspacing=4>"
           "<tr><td><b>ECE</b></td><td>%3</td></tr>"
           "<tr><td><b>MCE</b></td><td>%4</td></tr>"
           "<tr><td>images binned</td><td>%5</td></tr>"
           "<tr><td colspan=2><hr>All test images:</td></tr>"
           "<tr><td><b>AUROC</b> (confidence)</td><td>%6</td></tr>"
           "<tr><td><b>AUROC</b> (&minus;entropy)</td><td>%7</td></tr>"
           "<tr><td><b>NLL</b></td><td>%8 nats</td></tr>"
           "<tr><td>accuracy</td><td>%9%</td></tr>%10</table>"
           "<p style='color:gray'>ECE = &sum;<sub>b</sub> (n<sub>b</sub>/N) |acc<sub>b</sub> &minus; conf<sub>b</sub>|; "
           "MCE = the largest gap of a non-empty bin. AUROC: how well the score separates right from wrong "
           "decisions (0.5 = chance).</p>")
            .arg(m_reports[index].first)
            .arg(groupName)
            .arg(calibration->ece, 0, 'f', 4)
            .arg(calibration->mce, 0, 'f', 4)
            .arg(calibration->count)
            .arg(formatAuroc(report.aurocConfidence))
            .arg(formatAuroc(report.aurocNegativeEntropy))
            .arg(report.nll, 0, 'f', 4)
            .arg(100.0 * report.overall.accuracy, 0, 'f', 2)
            .arg(extraScores(report)));
    p->requestReplot();
    m_counts->requestReplot();
}

void CalibrationPage::showDefinition(int index)
{
    m_definition->setCurrentIndex(index);
}

void CalibrationPage::refreshPublished(const lbd::EvaluationReport& report, int epoch)
{
    ThrottledPlot* p = m_reliability;
    p->xAxis->setLabel(tr("confidence 1 - H(q), q = softmax(mean logits) (10 bins)"));
    if (!report.published) {
        m_scores->setText(tr("<p>This evaluation was written before the published code's metrics were recorded. "
                             "Re-evaluate the run (lbd eval RUN_DIR) to see them.</p>"));
        p->requestReplot();
        m_counts->requestReplot();
        return;
    }
    const lbd::PublishedMetrics& metrics = *report.published;
    const ReliabilitySeries series = addReliabilitySeries(overallColor());
    QCPBars* accuracy = series.accuracy;
    QCPGraph* confidence = series.confidence;
    QCPBars* counts = series.counts;
    for (const lbd::CalibrationBin& bin : metrics.bins) {
        const double centre = 0.5 * (bin.lower + bin.upper);
        counts->addData(centre, double(bin.count));
        if (bin.count > 0) {
            accuracy->addData(centre, bin.accuracy);
            confidence->addData(centre, bin.meanConfidence);
        }
    }
    accuracy->setWidth(0.09);
    counts->setWidth(0.09);
    m_scores->setText(
        tr("<h3>Epoch %1 &mdash; published code's metrics</h3>"
           "<table cellspacing=4>"
           "<tr><td><b>ECE</b> (published)</td><td>%2</td></tr>"
           "<tr><td><b>AUROC</b> (published)</td><td>%3</td></tr>"
           "<tr><td>accuracy (mean-logit)</td><td>%4%</td></tr>"
           "<tr><td>images in no bin</td><td>%5 of %6</td></tr>"
           "<tr><td colspan=2><hr>Ours, for comparison:</td></tr>"
           "<tr><td>ECE (ours)</td><td>%7</td></tr>"
           "<tr><td>AUROC (ours)</td><td>%8</td></tr></table>"
           "<p style='color:gray'>ECE = &sum;<sub>b</sub> n<sub>b</sub> |acc<sub>b</sub> &minus; conf<sub>b</sub>| / N "
           "with N = every test image. The paper's Table 4 reports this definition.</p>")
            .arg(epoch)
            .arg(metrics.ece, 0, 'f', 4)
            .arg(formatAuroc(metrics.auroc))
            .arg(100.0 * metrics.accuracy, 0, 'f', 2)
            .arg(metrics.unbinned)
            .arg(report.imageCount)
            .arg(report.calibration.ece, 0, 'f', 4)
            .arg(formatAuroc(report.aurocConfidence)));
    p->requestReplot();
    m_counts->requestReplot();
}

} // namespace lbd::ui

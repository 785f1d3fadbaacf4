#include "ui/pages/trainingpage.h"

#include "ui/runs/rundegeneracy.h"
#include "ui/style/regioncolors.h"
#include "ui/widgets/degeneracybanner.h"
#include "ui/widgets/smoothedseries.h"
#include "ui/widgets/throttledplot.h"

#include <QCheckBox>
#include <QFontMetrics>
#include <QHBoxLayout>
#include <QSlider>

#include <QGridLayout>
#include <QLabel>
#include <QPlainTextEdit>
#include <QTime>

#include <algorithm>
#include <cmath>
#include <utility>

namespace lbd::ui {
namespace {

QCPGraph* addLine(QCustomPlot* plot, const QString& name, const QColor& color, Qt::PenStyle style = Qt::SolidLine,
                  double width = 2.0, QCPAxis* valueAxis = nullptr)
{
    QCPGraph* graph = plot->addGraph(plot->xAxis, valueAxis ? valueAxis : plot->yAxis);
    graph->setName(name);
    QPen pen(color, width, style);
    graph->setPen(pen);
    return graph;
}

void markEvaluations(QCPGraph* graph)
{
    graph->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssCircle, 5));
}

} // namespace

TrainingPage::TrainingPage(QWidget* parent) : QWidget(parent)
{
    m_lossPlot = new ThrottledPlot(this);
    m_lossPlot->setObjectName(QStringLiteral("lossPlot"));
    m_accuracyPlot = new ThrottledPlot(this);
    m_accuracyPlot->setObjectName(QStringLiteral("accuracyPlot"));
    m_lrPlot = new ThrottledPlot(this);
    m_lrPlot->setObjectName(QStringLiteral("learningRatePlot"));
    m_log = new QPlainTextEdit(this);
    m_log->setObjectName(QStringLiteral("engineLog"));
    m_log->setReadOnly(true);
    m_log->setMaximumBlockCount(2000);
    m_log->setPlaceholderText(tr("Messages from the engine appear here while a run trains."));
    m_degeneracy = new DegeneracyBanner(QStringLiteral("trainingDegeneracy"), this);

    buildLossPlot();
    buildAccuracyPlot();
    buildLearningRatePlot();

    auto* logBox = new QWidget(this);
    auto* logLayout = new QVBoxLayout(logBox);
    logLayout->setContentsMargins(0, 0, 0, 0);
    logLayout->addWidget(new QLabel(tr("<b>Engine messages</b>"), logBox));
    logLayout->addWidget(m_log);

    // Every curve but the learning rate (an exact schedule) and the repulsion's weight is smoothed.
    for (QCPGraph* graph : {m_batchLoss, m_total, m_weightedCe, m_utility, m_repulsive, m_trainAccuracy, m_testAll,
                            m_testRegion[0], m_testRegion[1], m_testRegion[2]}) {
        m_series.insert(graph, std::make_shared<SmoothedSeries>(graph));
    }

    auto* grid = new QGridLayout(this);
    grid->addWidget(buildControls(), 0, 0, 1, 2);
    grid->addWidget(m_degeneracy, 1, 0, 1, 2);
    grid->addWidget(m_lossPlot, 2, 0);
    grid->addWidget(m_accuracyPlot, 2, 1);
    grid->addWidget(m_lrPlot, 3, 0);
    grid->addWidget(logBox, 3, 1);
    grid->setRowStretch(2, 3);
    grid->setRowStretch(3, 2);
    grid->setColumnStretch(0, 1);
    grid->setColumnStretch(1, 1);
}

QWidget* TrainingPage::buildControls()
{
    auto* box = new QWidget(this);
    m_smoothing = new QSlider(Qt::Horizontal, box);
    m_smoothing->setObjectName(QStringLiteral("smoothingSlider"));
    m_smoothing->setRange(0, 99);
    m_smoothing->setMaximumWidth(220);
    m_smoothing->setToolTip(tr("Exponential moving average of every loss and accuracy curve, as TensorBoard smooths: "
                               "s = m / (1 - w^n), m = w m + (1 - w) value. 0 = raw values; the raw batch loss stays "
                               "faint behind its smoothed curve."));
    m_smoothingValue = new QLabel(box);
    m_smoothingValue->setObjectName(QStringLiteral("smoothingValue"));
    m_smoothingValue->setMinimumWidth(m_smoothingValue->fontMetrics().horizontalAdvance(QStringLiteral("0.00 ")));
    m_logY = new QCheckBox(tr("Log y (loss, learning rate)"), box);
    m_logY->setObjectName(QStringLiteral("logYBox"));
    m_logY->setToolTip(tr("A logarithmic value axis for the objective and learning-rate plots; values at or below 0 "
                          "are not drawn on it."));
    connect(m_smoothing, &QSlider::valueChanged, this, [this] { applySmoothing(); });
    connect(m_logY, &QCheckBox::toggled, this, &TrainingPage::setLogY);
    auto* row = new QHBoxLayout(box);
    row->setContentsMargins(0, 0, 0, 0);
    row->addWidget(new QLabel(tr("Smoothing:"), box));
    row->addWidget(m_smoothing);
    row->addWidget(m_smoothingValue);
    row->addSpacing(16);
    row->addWidget(m_logY);
    row->addStretch(1);
    m_smoothingValue->setText(QStringLiteral("0.00"));
    return box;
}

void TrainingPage::setSmoothing(double weight) { m_smoothing->setValue(int(std::lround(100.0 * weight))); }

double TrainingPage::smoothing() const { return m_smoothing->value() / 100.0; }

void TrainingPage::applySmoothing()
{
    const double weight = smoothing();
    m_smoothingValue->setText(QString::number(weight, 'f', 2));
    for (const auto& series : std::as_const(m_series)) {
        series->setWeight(weight);
    }
    m_batchLossRaw->setVisible(weight > 0);
    m_lossPlot->requestReplot();
    m_accuracyPlot->requestReplot();
}

void TrainingPage::setLogY(bool on)
{
    if (m_logY->isChecked() != on) {
        m_logY->setChecked(on); // comes back here through toggled
        return;
    }
    for (ThrottledPlot* plot : {m_lossPlot, m_lrPlot}) {
        plot->yAxis->setScaleType(on ? QCPAxis::stLogarithmic : QCPAxis::stLinear);
        plot->yAxis->setTicker(on ? QSharedPointer<QCPAxisTicker>(new QCPAxisTickerLog)
                                  : QSharedPointer<QCPAxisTicker>(new QCPAxisTicker));
        plot->fitToData();
        plot->requestReplot();
    }
}

void TrainingPage::addPoint(QCPGraph* graph, double x, double y)
{
    if (const auto series = m_series.value(graph)) {
        series->add(x, y);
    } else {
        graph->addData(x, y);
    }
}

void TrainingPage::buildLossPlot()
{
    QCustomPlot* p = m_lossPlot;
    p->plotLayout()->insertRow(0);
    p->plotLayout()->addElement(0, 0, new QCPTextElement(p, tr("Training objective"), QFont(font().family(), 11, QFont::Bold)));
    p->xAxis->setLabel(tr("epoch"));
    p->yAxis->setLabel(tr("loss (nats per image)"));
    p->yAxis2->setVisible(true);
    p->yAxis2->setLabel(tr("annealing a(e) = exp(-e/tau)"));
    m_lossPlot->setFixedRange(p->yAxis2, 0, 1.05);
    m_batchLossRaw = addLine(p, tr("batch loss, raw"), QColor(150, 150, 150, 70), Qt::SolidLine, 1.0);
    m_batchLossRaw->removeFromLegend();
    m_batchLossRaw->setVisible(false); // shown behind the smoothed curve once smoothing is on
    m_batchLoss = addLine(p, tr("batch loss"), QColor(150, 150, 150), Qt::SolidLine, 1.0);
    m_total = addLine(p, tr("total L (epoch mean)"), overallColor());
    m_weightedCe = addLine(p, tr("weighted CE"), regionColor(lbd::Region::Head));
    m_utility = addLine(p, tr("utility term UT (before 1/alpha)"), QColor(0x6a, 0x3d, 0x9a));
    m_repulsive = addLine(p, tr("repulsive R"), QColor(0x1a, 0x98, 0x50));
    m_anneal = addLine(p, tr("a(e), right axis"), QColor(0x1a, 0x98, 0x50), Qt::DashLine, 1.5, p->yAxis2);
    m_lossPlot->placeLegendBelow();
    for (QCPGraph* g : {m_total, m_weightedCe, m_utility, m_repulsive}) {
        g->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, 4));
    }
    // The DRW line spans the plot's height whatever the loss range: x in epochs, y in fractions
    // of the axis rectangle.
    const QColor drwColor(0x6a, 0x3d, 0x9a);
    m_drwLine = new QCPItemLine(p);
    m_drwLine->setObjectName(QStringLiteral("drwMarker"));
    m_drwLine->setPen(QPen(drwColor, 1.5, Qt::DashDotLine));
    m_drwText = new QCPItemText(p);
    m_drwText->setColor(drwColor);
    m_drwText->setPositionAlignment(Qt::AlignLeft | Qt::AlignTop);
    m_drwText->setPadding(QMargins(4, 2, 4, 2));
    m_drwText->setBrush(QBrush(QColor(255, 255, 255, 210))); // readable over the curves it crosses
    for (QCPItemPosition* position : {m_drwLine->start, m_drwLine->end, m_drwText->position}) {
        position->setTypeX(QCPItemPosition::ptPlotCoords);
        position->setTypeY(QCPItemPosition::ptAxisRectRatio);
    }
    m_drwLine->start->setCoords(0, 0);
    m_drwLine->end->setCoords(0, 1);
    m_drwText->position->setCoords(0, 0.02);
    m_drwLine->setVisible(false);
    m_drwText->setVisible(false);
    // The x range grows with the run and the plot with the window: the label's side is chosen
    // again before every replot.
    connect(p, &QCustomPlot::beforeReplot, this, &TrainingPage::placeDrwLabel);
}

// The label beside the line on the side with room for it, so that it is never cut off at the
// plot's edge nor runs into the right axis and its label (the marker often stands late in the
// run: drw_epoch 160 of 200); just "DRW" where neither side has room for the whole label.
void TrainingPage::placeDrwLabel()
{
    if (!m_drwText->visible()) {
        return;
    }
    const QRect area = m_lossPlot->axisRect()->rect();
    const double x = m_lossPlot->xAxis->coordToPixel(m_drwLine->start->coords().x());
    const QMargins padding = m_drwText->padding();
    const int width = QFontMetrics(m_drwText->font()).horizontalAdvance(m_drwLabel) + padding.left() + padding.right();
    const double roomRight = area.right() - x;
    const double roomLeft = x - area.left();
    m_drwText->setText(std::max(roomLeft, roomRight) >= width ? m_drwLabel : QStringLiteral("DRW"));
    m_drwText->setPositionAlignment((roomRight >= width || roomRight >= roomLeft ? Qt::AlignLeft : Qt::AlignRight)
                                    | Qt::AlignTop);
}

QRectF TrainingPage::drwLabelRect() const
{
    if (!m_drwText->visible()) {
        return {};
    }
    return QRectF(m_drwText->topLeft->pixelPosition(), m_drwText->bottomRight->pixelPosition());
}

QRect TrainingPage::lossPlotArea() const
{
    return m_lossPlot->axisRect()->rect();
}

void TrainingPage::placeDrwMarker(const lbd::TrainConfig& config)
{
    // Re-weighting (and the utility term) starts with epoch drw_epoch + 1 (LbdObjective::setEpoch):
    // on the batch axis, where epoch e spans (e - 1, e], that is x = drw_epoch. With drw_epoch 0
    // the weights are on from the first batch and there is no change to mark.
    const int drw = config.objective.drwEpoch;
    const bool shown = drw > 0 && drw < config.train.epochs;
    m_drwLine->setVisible(shown);
    m_drwText->setVisible(shown);
    if (shown) {
        m_drwLine->start->setCoords(drw, 0);
        m_drwLine->end->setCoords(drw, 1);
        m_drwText->position->setCoords(drw, 0.02);
        m_drwLabel = tr("DRW from epoch %1").arg(drw + 1); // the class weights apply from that epoch on
        m_drwText->setText(m_drwLabel);
        placeDrwLabel();
    } else {
        m_drwLabel.clear();
    }
}

double TrainingPage::drwMarkerPosition() const
{
    return m_drwLine->visible() ? m_drwLine->start->coords().x() : -1.0;
}

QString TrainingPage::drwMarkerLabel() const { return m_drwText->visible() ? m_drwLabel : QString(); }

void TrainingPage::buildAccuracyPlot()
{
    QCustomPlot* p = m_accuracyPlot;
    p->plotLayout()->insertRow(0);
    p->plotLayout()->addElement(0, 0, new QCPTextElement(p, tr("Accuracy"), QFont(font().family(), 11, QFont::Bold)));
    p->xAxis->setLabel(tr("epoch"));
    p->yAxis->setLabel(tr("accuracy (%)"));
    m_accuracyPlot->setFixedValueRange(0, 100);
    p->axisRect()->insetLayout()->setInsetAlignment(0, Qt::AlignBottom | Qt::AlignRight);
    m_trainAccuracy = addLine(p, tr("train (augmented batches)"), QColor(120, 120, 120), Qt::DashLine, 1.5);
    m_testAll = addLine(p, tr("test, all classes"), overallColor(), Qt::SolidLine, 2.5);
    const QString names[3] = {tr("test, head"), tr("test, med"), tr("test, tail")};
    for (int r = 0; r < 3; ++r) {
        m_testRegion[r] = addLine(p, names[r], regionColor(static_cast<lbd::Region>(r)));
        markEvaluations(m_testRegion[r]);
    }
    markEvaluations(m_testAll);
    m_accuracyPlot->placeLegendBelow();
}

void TrainingPage::buildLearningRatePlot()
{
    QCustomPlot* p = m_lrPlot;
    p->plotLayout()->insertRow(0);
    p->plotLayout()->addElement(0, 0, new QCPTextElement(p, tr("Learning rate"), QFont(font().family(), 11, QFont::Bold)));
    p->xAxis->setLabel(tr("epoch"));
    p->yAxis->setLabel(tr("learning rate"));
    m_lrBatch = addLine(p, tr("SGD learning rate"), QColor(0x8c, 0x56, 0x4b));
    p->legend->setVisible(false);
}

void TrainingPage::beginRun(const RunContext& context)
{
    for (ThrottledPlot* plot : {m_lossPlot, m_accuracyPlot, m_lrPlot}) {
        for (int i = 0; i < plot->graphCount(); ++i) {
            plot->graph(i)->data()->clear();
        }
        plot->requestReplot();
    }
    for (const auto& series : std::as_const(m_series)) {
        series->clear();
    }
    placeDrwMarker(context.config);
    m_context = context;
    m_learningRateByBatch = false;
    m_degeneracy->showHtml({});
    m_log->clear();
    if (!context.runDirectory.isEmpty()) {
        appendMessage(tr("Run folder: %1").arg(context.runDirectory));
    }
}

void TrainingPage::addBatch(const lbd::BatchProgress& progress)
{
    if (progress.batches <= 0) {
        return;
    }
    const double x = progress.epoch - 1 + double(progress.batch) / double(progress.batches);
    m_learningRateByBatch = true;
    m_batchLossRaw->addData(x, progress.loss);
    addPoint(m_batchLoss, x, progress.loss);
    m_lrBatch->addData(x, progress.learningRate);
    m_lossPlot->requestReplot();
    m_lrPlot->requestReplot();
}

void TrainingPage::addEpoch(const lbd::EpochMetrics& metrics)
{
    const double x = metrics.epoch;
    const auto& o = metrics.objective;
    addPoint(m_total, x, o.total);
    addPoint(m_weightedCe, x, o.weightedCe);
    if (o.utilityWeight > 0 || o.utility != 0) {
        addPoint(m_utility, x, o.utility);
    }
    if (o.annealWeight > 0 || o.repulsive != 0) {
        addPoint(m_repulsive, x, o.repulsive);
        m_anneal->addData(x, o.annealWeight);
    }
    addPoint(m_trainAccuracy, x, 100.0 * metrics.trainAccuracy);
    // Epochs replayed from metrics.jsonl (a run reopened or continued) carry no batches: their
    // learning rate is drawn per epoch; a run trained here draws it per batch.
    if (!m_learningRateByBatch) {
        m_lrBatch->addData(x, metrics.learningRate);
    }
    if (metrics.evaluation) {
        const lbd::EvaluationReport& report = *metrics.evaluation;
        showDegeneracy(report, metrics.epoch);
        addPoint(m_testAll, x, 100.0 * report.overall.accuracy);
        for (const auto& region : report.regionsThirds.regions) {
            const int r = static_cast<int>(region.region);
            if (r >= 0 && r < 3 && region.counts.total > 0) {
                addPoint(m_testRegion[r], x, 100.0 * region.counts.accuracy);
            }
        }
        m_accuracyPlot->requestReplot();
    } else {
        m_accuracyPlot->requestReplot();
    }
    m_lossPlot->requestReplot();
    m_lrPlot->requestReplot();
}

void TrainingPage::showDegeneracy(const lbd::EvaluationReport& report, int epoch)
{
    const RunDegeneracy degeneracy = degeneracyOf(report, reportClassNames(m_context, report.classCount));
    m_degeneracy->showHtml(degeneracy.degenerate()
                               ? degeneracyBannerHtml(degeneracy, epoch, dataCheckWarnings(m_context.runDirectory))
                               : QString());
}

QString TrainingPage::degeneracyText() const { return m_degeneracy->isHidden() ? QString() : m_degeneracy->text(); }

void TrainingPage::appendMessage(const QString& text)
{
    m_log->appendPlainText(QTime::currentTime().toString(QStringLiteral("HH:mm:ss  ")) + text);
}

void TrainingPage::appendLogLine(const QString& line)
{
    m_log->appendPlainText(line);
}

int TrainingPage::pointCount() const
{
    int points = 0;
    for (ThrottledPlot* plot : {m_lossPlot, m_accuracyPlot, m_lrPlot}) {
        for (int i = 0; i < plot->graphCount(); ++i) {
            points += plot->graph(i)->dataCount();
        }
    }
    return points;
}

} // namespace lbd::ui

#pragma once
// The Training page: live loss (and its parts, with the repulsion's annealing weight), test
// accuracy overall / head / med / tail at each evaluation, the learning rate, and the engine's
// messages. Plots replot at most every ~40 ms however fast epochs arrive. A smoothing slider
// (TensorBoard's debiased moving average; the raw batch loss stays faint behind its curve) and a
// log y axis for the loss and learning rate. A labelled vertical line on the loss plot marks where
// deferred re-weighting (DRW) starts, the usual cause of a jump in the loss. A banner above the
// plots says when the latest evaluation is degenerate, naming the classes (ui/runs/rundegeneracy.h).
#include <QHash>
#include <QWidget>

#include <memory>

#include "ui/pages/runview.h"

class QCheckBox;
class QCPGraph;
class QCPItemLine;
class QCPItemText;
class QLabel;
class QSlider;
class QPlainTextEdit;

namespace lbd::ui {

class DegeneracyBanner;
class SmoothedSeries;
class ThrottledPlot;

class TrainingPage final : public QWidget, public RunView {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(TrainingPage)

public:
    explicit TrainingPage(QWidget* parent = nullptr);

    void beginRun(const RunContext& context) override;
    void addBatch(const lbd::BatchProgress& progress) override;
    void addEpoch(const lbd::EpochMetrics& metrics) override;
    void appendMessage(const QString& text);
    // A line of a run's log.txt, which carries its own date and time.
    void appendLogLine(const QString& line);

    ThrottledPlot* lossPlot() const { return m_lossPlot; }
    ThrottledPlot* accuracyPlot() const { return m_accuracyPlot; }
    ThrottledPlot* learningRatePlot() const { return m_lrPlot; }
    QSlider* smoothingSlider() const { return m_smoothing; }
    QCheckBox* logYBox() const { return m_logY; }
    // Smoothing weight in [0, 0.99] (the slider holds hundredths).
    void setSmoothing(double weight);
    double smoothing() const;
    void setLogY(bool on);
    // Data points over all graphs of all plots (tests check that plots gain points).
    int pointCount() const;
    // Where the DRW marker stands on the loss plot's epoch axis (objective.drw_epoch: the
    // weights change after that epoch), and its label; -1 and empty when the run has none.
    double drwMarkerPosition() const;
    QString drwMarkerLabel() const;
    // Where the marker's label is drawn and the loss plot's axis rectangle, in the plot's pixels
    // (the label must lie inside it: tests); an empty rectangle when the run has no marker.
    QRectF drwLabelRect() const;
    QRect lossPlotArea() const;
    // The banner shown when the latest evaluation is degenerate (HTML; empty when hidden).
    QString degeneracyText() const;

private:
    QWidget* buildControls();
    void addPoint(QCPGraph* graph, double x, double y);
    void applySmoothing();
    void buildLossPlot();
    void buildAccuracyPlot();
    void buildLearningRatePlot();
    void placeDrwMarker(const lbd::TrainConfig& config);
    void placeDrwLabel();
    void showDegeneracy(const lbd::EvaluationReport& report, int epoch);

    ThrottledPlot* m_lossPlot = nullptr;
    ThrottledPlot* m_accuracyPlot = nullptr;
    ThrottledPlot* m_lrPlot = nullptr;
    QPlainTextEdit* m_log = nullptr;
    QSlider* m_smoothing = nullptr;
    QLabel* m_smoothingValue = nullptr;
    QCheckBox* m_logY = nullptr;
    DegeneracyBanner* m_degeneracy = nullptr;
    RunContext m_context;
    bool m_learningRateByBatch = false; // batches of this run have drawn the learning rate
    QHash<QCPGraph*, std::shared_ptr<SmoothedSeries>> m_series; // the smoothed graphs

    QCPGraph* m_batchLoss = nullptr;
    QCPGraph* m_batchLossRaw = nullptr; // faint, behind the smoothed batch loss
    QCPGraph* m_total = nullptr;
    QCPGraph* m_weightedCe = nullptr;
    QCPGraph* m_utility = nullptr;
    QCPGraph* m_repulsive = nullptr;
    QCPGraph* m_anneal = nullptr;

    QCPGraph* m_trainAccuracy = nullptr;
    QCPGraph* m_testAll = nullptr;
    QCPGraph* m_testRegion[3] = {nullptr, nullptr, nullptr};

    QCPGraph* m_lrBatch = nullptr;
    QCPItemLine* m_drwLine = nullptr;
    QCPItemText* m_drwText = nullptr;
    QString m_drwLabel; // "DRW from epoch 161"; the plot may show only "DRW" where it is narrow
};

} // namespace lbd::ui

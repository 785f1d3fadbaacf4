#pragma once
// The Training page: live loss (and its parts, with the repulsion's annealing weight), test
// accuracy overall / head / med / tail at each evaluation, the learning rate, and the engine's
// messages. Plots replot at most every ~40 ms however fast epochs arrive.
#include <QWidget>

#include "ui/pages/runview.h"

class QCPGraph;
class QPlainTextEdit;

namespace lbd::ui {

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
    // Data points over all graphs of all plots (tests check that plots gain points).
    int pointCount() const;

private:
    void buildLossPlot();
    void buildAccuracyPlot();
    void buildLearningRatePlot();

    ThrottledPlot* m_lossPlot = nullptr;
    ThrottledPlot* m_accuracyPlot = nullptr;
    ThrottledPlot* m_lrPlot = nullptr;
    QPlainTextEdit* m_log = nullptr;

    QCPGraph* m_batchLoss = nullptr;
    QCPGraph* m_total = nullptr;
    QCPGraph* m_weightedCe = nullptr;
    QCPGraph* m_utility = nullptr;
    QCPGraph* m_repulsive = nullptr;
    QCPGraph* m_anneal = nullptr;

    QCPGraph* m_trainAccuracy = nullptr;
    QCPGraph* m_testAll = nullptr;
    QCPGraph* m_testRegion[3] = {nullptr, nullptr, nullptr};

    QCPGraph* m_lrBatch = nullptr;
};

} // namespace lbd::ui

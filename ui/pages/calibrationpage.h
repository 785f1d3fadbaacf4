#pragma once
// The Calibration page: the reliability diagram of the ensemble's confidence max pbar
// (15 equal-width bins: accuracy per bin, the gap to the bin's mean confidence, the diagonal),
// the number of test images per bin, and ECE / MCE / AUROC / NLL; overall or per region, for
// any evaluation of the run (the latest by default). A toggle shows the published code's
// definitions instead (10 bins of 1 - H(softmax(mean logits)), every image in the denominator),
// the ones the paper's Table 4 reports (lbd-math.md section 6). Beside ECE / MCE: Brier, classwise
// and adaptive ECE and the ECE's bootstrap interval. When the run folder has a temperature
// (temperature.json, fitted on validation by `lbd eval --calibrate` or the Decision lab), the
// Evaluation box also offers the final test evaluation with calibrated pbar = softmax(log pbar / T),
// whose scores show before / after.
#include <QWidget>

#include <memory>
#include <vector>

#include "ui/background/latestrequest.h"
#include "ui/pages/runview.h"

class QComboBox;
class QLabel;
class QCPAbstractItem;
class QCPBars;
class QCPGraph;
class QColor;

namespace lbd::ui {

class ThrottledPlot;

class CalibrationPage final : public QWidget, public RunView {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(CalibrationPage)

public:
    explicit CalibrationPage(QWidget* parent = nullptr);

    void beginRun(const RunContext& context) override;
    void addEpoch(const lbd::EpochMetrics& metrics) override;

    int evaluationCount() const { return static_cast<int>(m_reports.size()); }
    bool isBusy() const { return m_calibratedRequest.isRunning(); }
    QString scoresText() const;
    ThrottledPlot* reliabilityPlot() const { return m_reliability; }

    // 0: ours (lbd-math.md section 6), 1: the published code's.
    void showDefinition(int index);

private:
    // The reliability diagram's bars and points and the counts' bars, for one set of bins.
    struct ReliabilitySeries {
        QCPBars* accuracy = nullptr;
        QCPGraph* confidence = nullptr;
        QCPBars* counts = nullptr;
    };
    ReliabilitySeries addReliabilitySeries(const QColor& color);
    void refresh();
    void refreshPublished(const lbd::EvaluationReport& report, int epoch);

    ThrottledPlot* m_reliability = nullptr;
    ThrottledPlot* m_counts = nullptr;
    QComboBox* m_group = nullptr;
    QComboBox* m_evaluation = nullptr;
    QComboBox* m_definition = nullptr; // ours / the published code's
    QLabel* m_definitionNote = nullptr;
    QLabel* m_scores = nullptr;
    std::vector<QCPAbstractItem*> m_gapItems;
    std::vector<std::pair<int, lbd::EvaluationReport>> m_reports;
    // The final test evaluation with the run's temperature, once computed off the GUI thread.
    LatestRequest<std::shared_ptr<const std::pair<int, lbd::EvaluationReport>>> m_calibratedRequest;
};

} // namespace lbd::ui

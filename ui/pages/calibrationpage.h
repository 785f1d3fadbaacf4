#pragma once
// The Calibration page: the reliability diagram of the ensemble's confidence max pbar
// (15 equal-width bins: accuracy per bin, the gap to the bin's mean confidence, the diagonal),
// the number of test images per bin, and ECE / MCE / AUROC / NLL; overall or per region, for
// any evaluation of the run (the latest by default).
#include <QWidget>

#include <vector>

#include "ui/pages/runview.h"

class QComboBox;
class QLabel;
class QCPAbstractItem;

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
    ThrottledPlot* reliabilityPlot() const { return m_reliability; }

private:
    void refresh();

    ThrottledPlot* m_reliability = nullptr;
    ThrottledPlot* m_counts = nullptr;
    QComboBox* m_group = nullptr;
    QComboBox* m_evaluation = nullptr;
    QLabel* m_scores = nullptr;
    std::vector<QCPAbstractItem*> m_gapItems;
    std::vector<std::pair<int, lbd::EvaluationReport>> m_reports;
};

} // namespace lbd::ui

#pragma once
// The Tail risk page: the False Head Rate curve FHR(k) against the head fraction k/C at every
// evaluation, the paper's three points (25/50/75%, the published code's convention) marked,
// plain argmax next to the run's utility decision for the latest evaluation, and region accuracy
// bars for both. The argmax report comes with each evaluation (EpochMetrics::argmaxEvaluation), or
// later through addComparisonReport; for a run whose rule is argmax it is the run's own report.
#include <QWidget>

#include <optional>
#include <vector>

#include "ui/pages/runview.h"

class QComboBox;
class QLabel;
class QCPBars;
class QCPBarsGroup;
class QCPItemText;

namespace lbd::ui {

class ThrottledPlot;

class TailRiskPage final : public QWidget, public RunView {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(TailRiskPage)

public:
    explicit TailRiskPage(QWidget* parent = nullptr);

    void beginRun(const RunContext& context) override;
    void addEpoch(const lbd::EpochMetrics& metrics) override;
    void addComparisonReport(const lbd::EvaluationReport& report) override;

    int evaluationCount() const { return static_cast<int>(m_reports.size()); }
    ThrottledPlot* curvePlot() const { return m_curvePlot; }

private:
    struct Evaluation {
        int epoch = 0;
        lbd::EvaluationReport report;
    };
    void rebuildCurves();
    void rebuildComparison();
    void rebuildRegionBars();
    std::optional<lbd::EvaluationReport> argmaxReport() const;

    ThrottledPlot* m_curvePlot = nullptr;
    ThrottledPlot* m_comparePlot = nullptr;
    ThrottledPlot* m_regionPlot = nullptr;
    QComboBox* m_scheme = nullptr;
    QLabel* m_summary = nullptr;
    QCPItemText* m_compareNote = nullptr;

    std::vector<Evaluation> m_reports;
    std::optional<lbd::EvaluationReport> m_comparison;
};

} // namespace lbd::ui

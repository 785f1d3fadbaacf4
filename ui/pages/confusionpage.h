#pragma once
// The Confusion page: the latest evaluation's confusion matrix (true class x decided class under
// the run's rule), row-normalised or in counts, linear or log colour, with head / med / tail
// bands on both axes; and each class's test accuracy against its training count (log x),
// coloured by region. A click on a cell asks the main window to open the Gallery on exactly
// those images (cellActivated); this page knows nothing about the Gallery.
#include <QWidget>

#include <optional>

#include "ui/pages/runview.h"

class QCheckBox;
class QComboBox;
class QLabel;
class QStackedWidget;

namespace lbd::ui {

class ConfusionChart;
class DegeneracyBanner;
class ThrottledPlot;

class ConfusionPage final : public QWidget, public RunView {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ConfusionPage)

public:
    explicit ConfusionPage(QWidget* parent = nullptr);

    void beginRun(const RunContext& context) override;
    void addEpoch(const lbd::EpochMetrics& metrics) override;

    bool hasEvaluation() const { return m_report.has_value(); }
    ConfusionChart* chart() const { return m_chart; }
    ThrottledPlot* matrixPlot() const { return m_matrixPlot; }
    ThrottledPlot* classAccuracyPlot() const { return m_classPlot; }
    QComboBox* valuesBox() const { return m_values; }
    QCheckBox* logColourBox() const { return m_logColour; }
    // The banner shown when the evaluation drawn is degenerate (HTML; empty when hidden).
    QString degeneracyText() const;

signals:
    // The user clicked the cell of images of true class `trueClass` decided as `decidedClass`.
    void cellActivated(qint64 trueClass, qint64 decidedClass);

private:
    void redraw();

    QStackedWidget* m_stack = nullptr;
    QLabel* m_summary = nullptr;
    QComboBox* m_values = nullptr;
    QCheckBox* m_logColour = nullptr;
    ThrottledPlot* m_matrixPlot = nullptr;
    ThrottledPlot* m_classPlot = nullptr;
    ConfusionChart* m_chart = nullptr;
    DegeneracyBanner* m_degeneracy = nullptr;

    RunContext m_context;
    std::optional<lbd::EvaluationReport> m_report;
    int m_epoch = 0;
};

} // namespace lbd::ui

#pragma once
// The comparison of two or more runs: one figure of three panels (test accuracy and tail
// accuracy at every evaluation epoch, the training objective at every epoch), one line per run
// in the same colour across panels with the run names as legend, and a table with the runs side
// by side (metrics as rows: both utilities, both FHR means, AURC, the report's warnings; the best
// value of a ranked metric in bold, never for a run whose report is flagged degenerate), then one
// row per config.json key whose value differs between the runs (configdiff.h). The
// figure saves as PNG or PDF for a report.
#include <QString>
#include <QVector>
#include <QWidget>

#include <vector>

#include "core/train/runsummary.h"
#include "ui/runs/configdiff.h"

class QCPAxisRect;
class QCPTextElement;
class QTableWidget;

namespace lbd::ui {

class ThrottledPlot;

// One run's curves, read from its metrics.jsonl; loadComparedRun touches no widget, so it runs
// on a worker thread.
struct ComparedRun {
    lbd::RunSummary summary;
    QString label;                // legend and column title, unique among the compared runs
    QVector<double> evalEpochs;   // epochs with a test evaluation
    QVector<double> accuracy;     // overall test accuracy there, %
    QVector<double> tailAccuracy; // tail-third accuracy there, %
    // Validation accuracy there, % (NaN where the epoch has no validation evaluation): what "best
    // epoch" is chosen by when the run has a validation split, so the test set is not used to pick.
    QVector<double> validationAccuracy;
    QVector<double> epochs;       // every finished epoch
    QVector<double> loss;         // the training objective L, mean over the epoch
    QString error;                // why there are no curves (metrics.jsonl damaged)
    FlatConfig config;            // config.json flattened, for the rows of keys that differ
};
ComparedRun loadComparedRun(const QString& directory);

// "92.10 % (epoch 160, by validation)": the test accuracy at the epoch of the best validation
// accuracy; "... (epoch 160, test-selected)" without validation evaluations (optimistic: the test
// set chose the epoch); "–" without evaluations.
QString bestEpochText(const ComparedRun& run);

class RunComparisonView final : public QWidget {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(RunComparisonView)

public:
    explicit RunComparisonView(QWidget* parent = nullptr);

    // Replaces what is shown; labels are made unique here (the run's name, or its folder when
    // two runs share a name).
    void setRuns(std::vector<ComparedRun> runs);
    void clear();

    const std::vector<ComparedRun>& runs() const { return m_runs; }
    ThrottledPlot* plot() const { return m_plot; }
    QTableWidget* table() const { return m_table; }
    QCPAxisRect* accuracyRect() const { return m_rects[0]; }
    QCPAxisRect* tailRect() const { return m_rects[1]; }
    QCPAxisRect* lossRect() const { return m_rects[2]; }

    // The figure at a fixed report size; false with *error set when nothing is compared or the
    // file cannot be written.
    bool savePng(const QString& path, QString* error);
    bool savePdf(const QString& path, QString* error);

    static constexpr int kExportWidth = 1600;
    static constexpr int kExportHeight = 560;

private:
    void rebuildPlot();
    void rebuildTable();

    ThrottledPlot* m_plot = nullptr;
    QCPTextElement* m_title = nullptr;
    QCPAxisRect* m_rects[3] = {nullptr, nullptr, nullptr};
    QTableWidget* m_table = nullptr;
    std::vector<ComparedRun> m_runs;
};

} // namespace lbd::ui

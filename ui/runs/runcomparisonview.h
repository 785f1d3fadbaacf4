#pragma once
// The comparison of two or more runs: one figure of three panels, each showing any metric the
// runs recorded (comparisonmetrics.h: accuracy overall and by region, FHR, ECE, AURC, NLL,
// AUROC, validation accuracy, the objective...; by default test accuracy, tail accuracy and the
// training objective), one line per run in the same colour across panels with the run names as
// legend; runs that differ only in their seed (core/study/rungroups.h) are one line, their mean,
// with a ± 1 sample std band (unless "Seeds as one curve" is off); and a table with the runs side
// by side (metrics as rows: both utilities, both FHR means, AURC, the report's warnings; the best
// value of a ranked metric in bold, never for a run whose report is flagged degenerate), then one
// row per config.json key and per provenance key (run.json: build, command line, machine, data
// fingerprint) whose value differs between the runs (configdiff.h; `lbd diff` prints the same). The
// figure saves as PNG or PDF for a report.
#include <QString>
#include <QVector>
#include <QWidget>

#include <vector>

#include "core/study/rungroups.h"
#include "core/train/runsummary.h"
#include "ui/runs/comparisonmetrics.h"
#include "ui/runs/configdiff.h"

class QCheckBox;
class QComboBox;
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
    FlatConfig environment;       // run.json's provenance (build, command line, machine, data), likewise
    MetricCurves curves;          // every metric metrics.jsonl recorded, against the epoch
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
    QCPAxisRect* panelRect(int panel) const { return m_rects[panel]; }

    static constexpr int kPanels = 3;
    // The metric a panel shows (a comparisonMetrics() key); false for a key none of the runs has.
    bool setPanelMetric(int panel, const std::string& key);
    std::string panelMetric(int panel) const { return m_panelMetrics[panel]; }
    QComboBox* metricPicker(int panel) const { return m_pickers[panel]; }
    // Runs that differ only in their seed as one mean ± std curve (on by default).
    void setGroupSeeds(bool on);
    QCheckBox* groupSeedsBox() const { return m_groupSeeds; }
    // The legend name of a seed group's curve ("tiny: mean of seeds 0, 1, 2").
    static QString groupLabel(const QString& name, const std::vector<int64_t>& seeds);

    // The figure at a fixed report size; false with *error set when nothing is compared or the
    // file cannot be written.
    bool savePng(const QString& path, QString* error);
    bool savePdf(const QString& path, QString* error);

    static constexpr int kExportWidth = 1600;
    static constexpr int kExportHeight = 560;

private:
    void rebuildPlot();
    void rebuildTable();
    void fillPickers();
    // One curve (a run, or a seed group's mean with its band) on every panel, in `color`.
    void addCurve(const std::vector<size_t>& members, const QString& name, const QColor& color, int index);

    ThrottledPlot* m_plot = nullptr;
    QCPTextElement* m_title = nullptr;
    QCPAxisRect* m_rects[kPanels] = {nullptr, nullptr, nullptr};
    QCPTextElement* m_panelTitles[kPanels] = {nullptr, nullptr, nullptr};
    QComboBox* m_pickers[kPanels] = {nullptr, nullptr, nullptr};
    std::string m_panelMetrics[kPanels] = {"accuracy", "tail", "loss"};
    QCheckBox* m_groupSeeds = nullptr;
    QTableWidget* m_table = nullptr;
    std::vector<ComparedRun> m_runs;
    std::vector<lbd::RunGroup> m_groups; // of m_runs by seed
    std::vector<int> m_runColor;         // each run's curve colour index (its group's)
};

} // namespace lbd::ui

#pragma once
// The runs page's table: one row per run folder (a RunSummary read by core), with the run's key
// metrics as columns: both utilities (training + form, decision + rule + defer), a warning mark
// for runs whose report is flagged degenerate (tooltip: the warnings), both FHR means under their
// own names, AURC. Display text is formatted for people (percent, local dates, "–" for an empty
// region); SortRole holds the raw value so that a QSortFilterProxyModel sorts numbers and dates
// correctly. Damaged folders are rows too, with the problem in their own column.
#include <QAbstractTableModel>
#include <QString>
#include <QStringList>

#include <vector>

#include "core/data/regions.h"
#include "core/train/runsummary.h"

#include <optional>

namespace lbd::ui {

class RunTableModel final : public QAbstractTableModel {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(RunTableModel)

public:
    enum Column {
        Name,
        Status,
        Dataset,
        Model,
        Particles,
        Epochs,
        Device,
        Created,
        TrainingUtility,
        Decision,
        Warnings,
        Accuracy,
        HeadAccuracy,
        MediumAccuracy,
        TailAccuracy,
        FhrPointsMean,
        FhrCurveMean,
        Aurc,
        Ece,
        Folder,
        Problems,
        ColumnCount
    };
    static constexpr int SortRole = Qt::UserRole;
    static constexpr int DirectoryRole = Qt::UserRole + 1;

    explicit RunTableModel(QObject* parent = nullptr);

    void setRuns(std::vector<lbd::RunSummary> runs);
    const std::vector<lbd::RunSummary>& runs() const { return m_runs; }
    const lbd::RunSummary& run(int row) const { return m_runs.at(static_cast<size_t>(row)); }
    int rowOf(const QString& directory) const; // -1 when not listed
    // The run the main window shows now, drawn in bold.
    void setShownRun(const QString& directory);

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    // "finished", "failed: <message>", "damaged (finished)", ...
    static QString statusText(const lbd::RunSummary& run);
    // The problems with the run folder's own path removed ("run.json: not valid JSON (...)").
    static QStringList problemTexts(const lbd::RunSummary& run);
    // "tail:1 (bounded)", "onehot (no utility term)".
    static QString trainingText(const lbd::RunSummary& run);
    // "onehot, expected", "tail:2, eq7, defer r = 0.5".
    static QString decisionText(const lbd::RunSummary& run);
    // The region accuracy, or nothing when the region of the run's classes is empty (C < 3 leaves
    // head and med without classes): RunSummary gives 0 for those, which must not read "0 %".
    static std::optional<double> regionAccuracy(const lbd::RunSummary& run, lbd::Region region);

private:
    std::vector<lbd::RunSummary> m_runs;
    QString m_shownRun;
};

// A CSV of runs (one row per run; fractions in [0, 1], empty cells for missing values), quoted by
// RFC 4180: fields holding a comma, quote or line break are quoted, quotes doubled.
QString runsToCsv(const std::vector<lbd::RunSummary>& runs);
QString csvField(const QString& text);

} // namespace lbd::ui

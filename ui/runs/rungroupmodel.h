#pragma once
// The Runs page's "group seeds" table: runs whose configs differ only in their seeds (and name)
// are one row, with mean ± sample std over the group's finished runs per metric. The numbers are
// summarizeSample's and formatMeanStd's, the ones a study's table prints for the same runs.
#include <QAbstractTableModel>
#include <QStringList>

#include <vector>

#include "core/study/rungroups.h"
#include "core/study/studysummary.h"
#include "core/train/runsummary.h"

namespace lbd::ui {

class RunGroupModel final : public QAbstractTableModel {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(RunGroupModel)

public:
    enum Column { Name, Runs, Seeds, Accuracy, Head, Medium, Tail, FhrPoints, FhrCurve, Aurc, Ece, ColumnCount };
    static constexpr int SortRole = Qt::UserRole;
    static constexpr int MembersRole = Qt::UserRole + 1; // QStringList of run directories

    explicit RunGroupModel(QObject* parent = nullptr);

    // Groups the runs (reads each run's config.json: small files, a few ms per hundred runs).
    void setRuns(const std::vector<lbd::RunSummary>& runs);
    const std::vector<lbd::RunGroup>& groups() const { return m_groups; }
    // The group's sample of a metric column over its finished runs (raw fractions).
    lbd::SampleSummary sample(int row, int column) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

private:
    QVariant text(int row, int column) const;
    int finished(int row) const;

    std::vector<lbd::RunSummary> m_runs;
    std::vector<lbd::RunGroup> m_groups;
};

} // namespace lbd::ui

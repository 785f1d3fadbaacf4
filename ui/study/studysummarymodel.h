#pragma once
// The Studies page's aggregated table: one row per cell, "n finished / planned" and, per metric,
// "mean ± std" over seeds exactly as core's formatMeanStd writes it into table.md (the ± is the
// sample standard deviation; the tooltip adds the 95 % Student-t interval and the values).
#include <QAbstractTableModel>
#include <QString>

#include "core/study/studysummary.h"

namespace lbd::ui {

class StudySummaryModel final : public QAbstractTableModel {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(StudySummaryModel)

public:
    enum FixedColumn { Cell, Runs, FirstMetric };

    explicit StudySummaryModel(QObject* parent = nullptr);

    void setSummary(lbd::StudySummary summary);
    const lbd::StudySummary& summary() const { return m_summary; }
    // The metric key shown in `column` (empty for Cell and Runs).
    std::string metricKey(int column) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    // "M=1, seed 2: failed: ..." lines of every cell, for the list under the table.
    QStringList problems() const;

private:
    QString sampleToolTip(const lbd::SampleSummary& sample, const lbd::StudyMetric& metric) const;

    lbd::StudySummary m_summary;
};

} // namespace lbd::ui

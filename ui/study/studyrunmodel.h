#pragma once
// The Studies page's live grid: one row per run of the study (cell, seed, state, epoch/epochs,
// ETA, message), filled from the run folders when a study is shown and updated from the runner's
// StudyProgress values. Rows are tinted by state with the Okabe-Ito colour-blind-safe palette,
// and the state is always written out too, so colour is never the only cue.
#include <QAbstractTableModel>
#include <QColor>
#include <QString>

#include <vector>

#include "core/study/studyrunner.h"

namespace lbd::ui {

class StudyRunModel final : public QAbstractTableModel {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(StudyRunModel)

public:
    enum Column { Cell, Seed, State, Epoch, Eta, Message, ColumnCount };
    static constexpr int DirectoryRole = Qt::UserRole + 1;
    static constexpr int StateRole = Qt::UserRole + 2;

    explicit StudyRunModel(QObject* parent = nullptr);

    // Lists the study's runs with what their folders say now (inspectStudyRun).
    void setStudy(const lbd::ResolvedStudy& study, const QString& directory);
    void clear();
    void applyProgress(const lbd::StudyProgress& progress);

    lbd::StudyRunState state(int row) const;
    // The run folder that opens on every page: a decision-only run's (core/study/decisioncell.h)
    // holds only a report, so it opens the trained run it re-decides.
    QString runDirectory(int row) const;
    int count(lbd::StudyRunState state) const;

    int rowCount(const QModelIndex& parent = {}) const override;
    int columnCount(const QModelIndex& parent = {}) const override;
    QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
    QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

    static QColor stateColor(lbd::StudyRunState state);
    static QString stateText(lbd::StudyRunState state);

private:
    struct Row {
        QString cell;
        qint64 seed = 0;
        QString directory;
        QString openDirectory; // runDirectory(): the source run's for a decision-only run
        lbd::StudyProgress progress;
    };
    QVariant displayText(const Row& row, int column) const;

    std::vector<Row> m_rows;
};

} // namespace lbd::ui

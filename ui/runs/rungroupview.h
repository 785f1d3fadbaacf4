#pragma once
// The Runs page's grouped view: the runs folder's runs grouped by seed (RunGroupModel) in a
// sortable table. Grouping reads every run's config.json, so it is done only while the view is
// shown; double-clicking a group hands its runs back to the page (to select them in the run list).
#include <QStringList>
#include <QWidget>

#include <vector>

#include "core/train/runsummary.h"

class QSortFilterProxyModel;
class QTableView;

namespace lbd::ui {

class RunGroupModel;

class RunGroupView final : public QWidget {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(RunGroupView)

public:
    explicit RunGroupView(QWidget* parent = nullptr);

    void setRuns(const std::vector<lbd::RunSummary>& runs);
    RunGroupModel* model() const { return m_model; }
    QTableView* table() const { return m_table; }

signals:
    void groupActivated(const QStringList& directories);

protected:
    void showEvent(QShowEvent* event) override;

private:
    void regroup();

    RunGroupModel* m_model = nullptr;
    QSortFilterProxyModel* m_proxy = nullptr;
    QTableView* m_table = nullptr;
    std::vector<lbd::RunSummary> m_runs;
    bool m_stale = true;
};

} // namespace lbd::ui

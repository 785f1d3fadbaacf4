#include "ui/runs/rungroupview.h"

#include "ui/runs/rungroupmodel.h"

#include <QHeaderView>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QVBoxLayout>

namespace lbd::ui {

RunGroupView::RunGroupView(QWidget* parent) : QWidget(parent)
{
    m_model = new RunGroupModel(this);
    m_proxy = new QSortFilterProxyModel(this);
    m_proxy->setSourceModel(m_model);
    m_proxy->setSortRole(RunGroupModel::SortRole);
    m_table = new QTableView(this);
    m_table->setObjectName(QStringLiteral("runGroupsTable"));
    m_table->setModel(m_proxy);
    m_table->setSortingEnabled(true);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setAlternatingRowColors(true);
    m_table->verticalHeader()->hide();
    m_table->horizontalHeader()->setStretchLastSection(true);
    m_table->setToolTip(tr("Runs that differ only in their seed, one row per group: mean ± sample std over the "
                           "group's finished runs (the numbers a study's table prints). Double-click a group to "
                           "select its runs in the run list."));
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(m_table);
    connect(m_table, &QTableView::doubleClicked, this, [this](const QModelIndex& index) {
        if (index.isValid()) {
            emit groupActivated(m_proxy->data(index, RunGroupModel::MembersRole).toStringList());
        }
    });
}

void RunGroupView::setRuns(const std::vector<lbd::RunSummary>& runs)
{
    m_runs = runs;
    m_stale = true;
    if (isVisible()) {
        regroup();
    }
}

void RunGroupView::showEvent(QShowEvent* event)
{
    QWidget::showEvent(event);
    if (m_stale) {
        regroup();
    }
}

void RunGroupView::regroup()
{
    m_stale = false;
    const bool first = m_model->rowCount() == 0;
    m_model->setRuns(m_runs);
    if (first) {
        m_table->resizeColumnsToContents();
    }
}

} // namespace lbd::ui

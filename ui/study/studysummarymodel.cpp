#include "ui/study/studysummarymodel.h"

#include <QStringList>

#include <cmath>

namespace lbd::ui {
namespace {

QString number(double value, const lbd::StudyMetric& metric)
{
    return std::isfinite(value) ? QString::number(value * metric.scale, 'f', metric.decimals) : QStringLiteral("?");
}

QString unitSuffix(const lbd::StudyMetric& metric)
{
    return metric.unit.empty() ? QString() : QStringLiteral(" (%1)").arg(QString::fromStdString(metric.unit));
}

} // namespace

StudySummaryModel::StudySummaryModel(QObject* parent) : QAbstractTableModel(parent) {}

void StudySummaryModel::setSummary(lbd::StudySummary summary)
{
    beginResetModel();
    m_summary = std::move(summary);
    endResetModel();
}

std::string StudySummaryModel::metricKey(int column) const
{
    const int i = column - FirstMetric;
    return i >= 0 && i < static_cast<int>(m_summary.metricKeys.size()) ? m_summary.metricKeys[static_cast<size_t>(i)]
                                                                      : std::string();
}

int StudySummaryModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_summary.cells.size());
}

int StudySummaryModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() || m_summary.cells.empty() ? 0 : FirstMetric + static_cast<int>(m_summary.metricKeys.size());
}

QString StudySummaryModel::sampleToolTip(const lbd::SampleSummary& sample, const lbd::StudyMetric& metric) const
{
    if (sample.n == 0) {
        return tr("No finished run of this cell has this metric yet.");
    }
    QStringList values;
    for (double value : sample.values) {
        values << number(value, metric);
    }
    QString text = tr("%1%2: mean %3 over %n seed(s): %4.", nullptr, sample.n)
                       .arg(QString::fromStdString(metric.title), unitSuffix(metric), number(sample.mean, metric),
                            values.join(QStringLiteral(", ")));
    if (sample.n >= 2) {
        text += tr("\n± %1 is the sample standard deviation (n − 1); 95 % interval of the mean (Student-t, %2 "
                   "degrees of freedom): [%3, %4].")
                    .arg(number(sample.std, metric))
                    .arg(sample.n - 1)
                    .arg(number(sample.low, metric), number(sample.high, metric));
    } else {
        text += tr("\nOne seed: no spread can be estimated (no ± shown).");
    }
    return text + QLatin1Char('\n') + QString::fromStdString(metric.help);
}

QVariant StudySummaryModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount()) {
        return {};
    }
    const lbd::CellSummary& cell = m_summary.cells[static_cast<size_t>(index.row())];
    if (index.column() == Cell) {
        // A decision-only row (core/study/decisioncell.h) is marked as table.md marks it.
        const QString label = QString::fromStdString(cell.label) + (cell.decidedFrom.empty() ? QString() : QStringLiteral(" †"));
        if (role == Qt::ToolTipRole && !cell.decidedFrom.empty()) {
            return tr("%1\nDecision only: nothing trained; the finished runs of %2 re-decided with %3.")
                .arg(label, QString::fromStdString(cell.decidedFrom), QString::fromStdString(cell.decision));
        }
        return role == Qt::DisplayRole || role == Qt::ToolTipRole ? QVariant(label) : QVariant();
    }
    if (index.column() == Runs) {
        if (role == Qt::DisplayRole) {
            return QStringLiteral("%1/%2").arg(cell.finished).arg(cell.runs);
        }
        return role == Qt::ToolTipRole ? QVariant(tr("Runs finished / planned (one per seed).")) : QVariant();
    }
    const std::string key = metricKey(index.column());
    const lbd::StudyMetric& metric = lbd::studyMetric(key);
    const auto found = cell.metrics.find(key);
    const lbd::SampleSummary sample = found != cell.metrics.end() ? found->second : lbd::SampleSummary{};
    switch (role) {
    case Qt::DisplayRole: return QString::fromStdString(lbd::formatMeanStd(sample, metric));
    case Qt::ToolTipRole: return sampleToolTip(sample, metric);
    case Qt::TextAlignmentRole: return int(Qt::AlignRight | Qt::AlignVCenter);
    }
    return {};
}

QVariant StudySummaryModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal) {
        return {};
    }
    if (section == Cell) {
        const QString name = m_summary.factorNames.size() == 1 ? QString::fromStdString(m_summary.factorNames[0])
                                                               : tr("Cell");
        return role == Qt::DisplayRole   ? QVariant(name)
               : role == Qt::ToolTipRole ? QVariant(tr("One row per cell: one combination of the factors' levels."))
                                         : QVariant();
    }
    if (section == Runs) {
        return role == Qt::DisplayRole ? QVariant(tr("n"))
               : role == Qt::ToolTipRole
                   ? QVariant(tr("Runs finished / planned: the mean and std are over the finished runs' seeds."))
                   : QVariant();
    }
    const std::string key = metricKey(section);
    if (key.empty()) {
        return {};
    }
    const lbd::StudyMetric& metric = lbd::studyMetric(key);
    if (role == Qt::DisplayRole) {
        return QString::fromStdString(metric.title) + unitSuffix(metric);
    }
    if (role == Qt::ToolTipRole) {
        return tr("%1\nmean ± sample std over seeds (%2).")
            .arg(QString::fromStdString(metric.help),
                 metric.higherIsBetter ? tr("higher is better") : tr("lower is better"));
    }
    return {};
}

QStringList StudySummaryModel::problems() const
{
    QStringList lines;
    for (const lbd::CellSummary& cell : m_summary.cells) {
        for (const std::string& problem : cell.problems) {
            lines << QStringLiteral("%1, %2").arg(QString::fromStdString(cell.label), QString::fromStdString(problem));
        }
    }
    return lines;
}

} // namespace lbd::ui

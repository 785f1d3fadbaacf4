#include "ui/runs/rungroupmodel.h"

#include <QDir>

#include <array>
#include <cmath>
#include <limits>
#include <optional>

namespace lbd::ui {
namespace {

// Every metric column as a StudyMetric (fractions shown as per cent), so formatMeanStd prints
// it exactly as a study table does.
const lbd::StudyMetric& columnMetric(int column)
{
    static const std::array<lbd::StudyMetric, RunGroupModel::ColumnCount> metrics = [] {
        std::array<lbd::StudyMetric, RunGroupModel::ColumnCount> m{};
        m[RunGroupModel::Accuracy] = lbd::studyMetric("accuracy");
        m[RunGroupModel::Head] = lbd::studyMetric("head");
        m[RunGroupModel::Medium] = lbd::studyMetric("med");
        m[RunGroupModel::Tail] = lbd::studyMetric("tail");
        m[RunGroupModel::FhrPoints] = {"fhr_points", "FHR 3-pt mean", "%", 100, 2, false,
                                       "False Head Rate averaged over the paper's three splits (tail 25 / 50 / 75 %)."};
        m[RunGroupModel::FhrCurve] = lbd::studyMetric("fhr_curve");
        m[RunGroupModel::Aurc] = lbd::studyMetric("aurc");
        m[RunGroupModel::Ece] = lbd::studyMetric("ece");
        return m;
    }();
    return metrics[static_cast<size_t>(column)];
}

std::optional<double> runValue(const lbd::RunSummary& run, int column)
{
    switch (column) {
    case RunGroupModel::Accuracy: return run.accuracy;
    case RunGroupModel::Head: return run.headAccuracy;
    case RunGroupModel::Medium: return run.mediumAccuracy;
    case RunGroupModel::Tail: return run.tailAccuracy;
    case RunGroupModel::FhrPoints: return run.fhrPointsMean;
    case RunGroupModel::FhrCurve: return run.fhrCurveMean;
    case RunGroupModel::Aurc: return run.aurc;
    case RunGroupModel::Ece: return run.ece;
    }
    return std::nullopt;
}

bool isFinished(const lbd::RunSummary& run)
{
    return run.state == "finished" && run.hasReport && !run.damaged();
}

} // namespace

RunGroupModel::RunGroupModel(QObject* parent) : QAbstractTableModel(parent) {}

void RunGroupModel::setRuns(const std::vector<lbd::RunSummary>& runs)
{
    beginResetModel();
    m_runs = runs;
    m_groups = lbd::groupRunsBySeed(m_runs);
    endResetModel();
}

lbd::SampleSummary RunGroupModel::sample(int row, int column) const
{
    std::vector<double> values;
    for (size_t member : m_groups.at(static_cast<size_t>(row)).members) {
        const lbd::RunSummary& run = m_runs[member];
        if (const auto value = runValue(run, column); isFinished(run) && value) {
            values.push_back(*value);
        }
    }
    return lbd::summarizeSample(values);
}

int RunGroupModel::finished(int row) const
{
    int n = 0;
    for (size_t member : m_groups.at(static_cast<size_t>(row)).members) {
        n += isFinished(m_runs[member]) ? 1 : 0;
    }
    return n;
}

int RunGroupModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_groups.size());
}

int RunGroupModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant RunGroupModel::text(int row, int column) const
{
    const lbd::RunGroup& group = m_groups[static_cast<size_t>(row)];
    switch (column) {
    case Name: return QString::fromStdString(group.name);
    case Runs: return QStringLiteral("%1/%2").arg(finished(row)).arg(group.members.size());
    case Seeds: {
        QStringList seeds;
        for (int64_t seed : group.seeds) {
            seeds << QString::number(seed);
        }
        return seeds.join(QStringLiteral(", "));
    }
    }
    return QString::fromStdString(lbd::formatMeanStd(sample(row, column), columnMetric(column)));
}

QVariant RunGroupModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount()) {
        return {};
    }
    const int row = index.row();
    const int column = index.column();
    switch (role) {
    case Qt::DisplayRole: return text(row, column);
    case SortRole:
        if (column >= Accuracy) {
            const lbd::SampleSummary s = sample(row, column);
            return s.n > 0 ? s.mean : -std::numeric_limits<double>::infinity();
        }
        return column == Runs ? QVariant(finished(row)) : text(row, column);
    case MembersRole: {
        QStringList directories;
        for (size_t member : m_groups[static_cast<size_t>(row)].members) {
            directories << QString::fromStdString(m_runs[member].directory);
        }
        return directories;
    }
    case Qt::ToolTipRole:
        if (column >= Accuracy) {
            const lbd::SampleSummary s = sample(row, column);
            return s.n >= 2 ? tr("Mean ± sample std (n − 1) over %1 finished runs; 95 % Student-t interval of the mean: "
                                 "[%2, %3] %.")
                                  .arg(s.n)
                                  .arg(s.low * 100, 0, 'f', 2)
                                  .arg(s.high * 100, 0, 'f', 2)
                            : tr("%n finished run(s): no spread can be estimated.", nullptr, s.n);
        }
        return tr("Double-click to list this group's runs, selected, in the run table (to compare or open them).");
    case Qt::TextAlignmentRole:
        return column >= Accuracy ? QVariant(int(Qt::AlignRight | Qt::AlignVCenter)) : QVariant();
    }
    return {};
}

QVariant RunGroupModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || section < 0 || section >= ColumnCount) {
        return {};
    }
    if (section >= Accuracy) {
        const lbd::StudyMetric& metric = columnMetric(section);
        return role == Qt::DisplayRole
                   ? QVariant(QString::fromStdString(metric.title) + QStringLiteral(" (%)"))
               : role == Qt::ToolTipRole ? QVariant(tr("%1\nmean ± sample std over the group's finished runs.")
                                                        .arg(QString::fromStdString(metric.help)))
                                         : QVariant();
    }
    static const char* titles[] = {"Name", "n", "Seeds"};
    static const char* tips[] = {"The first run's name: the group is every run whose config differs from it only in "
                                 "train.seed, data.seed and name.",
                                 "Runs finished / in the group: the means are over the finished runs.",
                                 "The train.seed of each run of the group."};
    return role == Qt::DisplayRole ? QVariant(tr(titles[section]))
           : role == Qt::ToolTipRole ? QVariant(tr(tips[section]))
                                     : QVariant();
}

} // namespace lbd::ui

#include "ui/study/studyrunmodel.h"

#include "core/study/decisioncell.h"

#include <QDir>

#include <cmath>

namespace lbd::ui {
namespace {

QString etaText(double seconds)
{
    if (!(seconds > 0) || !std::isfinite(seconds)) {
        return QStringLiteral("\u2013");
    }
    const qint64 s = std::llround(seconds);
    return s >= 3600 ? QStringLiteral("%1 h %2 min").arg(s / 3600).arg((s % 3600) / 60, 2, 10, QLatin1Char('0'))
           : s >= 60 ? QStringLiteral("%1 min %2 s").arg(s / 60).arg(s % 60, 2, 10, QLatin1Char('0'))
                     : QStringLiteral("%1 s").arg(s);
}

} // namespace

StudyRunModel::StudyRunModel(QObject* parent) : QAbstractTableModel(parent) {}

void StudyRunModel::setStudy(const lbd::ResolvedStudy& study, const QString& directory)
{
    beginResetModel();
    m_rows.clear();
    const QDir root(directory);
    for (size_t i = 0; i < study.runs.size(); ++i) {
        const lbd::StudyRunRef& ref = study.runs[i];
        Row row;
        row.cell = QString::fromStdString(study.cells[static_cast<size_t>(ref.cell)].label);
        row.seed = ref.seed;
        row.directory = QDir::cleanPath(root.filePath(QString::fromStdString(ref.directory)));
        const int source = lbd::decisionSourceRun(study, static_cast<int>(i));
        row.openDirectory = source < 0 ? row.directory
                                       : QDir::cleanPath(root.filePath(QString::fromStdString(study.runs[size_t(source)].directory)));
        const lbd::StudyRunStatus status = lbd::inspectStudyRun(row.directory.toStdString());
        row.progress.run = static_cast<int>(i);
        row.progress.state = status.state;
        row.progress.epoch = status.epochsDone;
        row.progress.epochs = status.epochs;
        row.progress.message = status.message;
        m_rows.push_back(std::move(row));
    }
    endResetModel();
}

void StudyRunModel::clear()
{
    beginResetModel();
    m_rows.clear();
    endResetModel();
}

void StudyRunModel::applyProgress(const lbd::StudyProgress& progress)
{
    if (progress.run < 0 || progress.run >= rowCount()) {
        return; // a pass of a study no longer shown
    }
    Row& row = m_rows[static_cast<size_t>(progress.run)];
    lbd::StudyProgress next = progress;
    if (next.message.empty() && next.state == row.progress.state) {
        next.message = row.progress.message; // batch updates carry no message: keep the last one
    }
    if (next.epochs == 0) {
        next.epochs = row.progress.epochs;
    }
    row.progress = next;
    emit dataChanged(index(progress.run, 0), index(progress.run, ColumnCount - 1));
}

lbd::StudyRunState StudyRunModel::state(int row) const
{
    return m_rows.at(static_cast<size_t>(row)).progress.state;
}

QString StudyRunModel::runDirectory(int row) const
{
    return m_rows.at(static_cast<size_t>(row)).openDirectory;
}

int StudyRunModel::count(lbd::StudyRunState state) const
{
    int n = 0;
    for (const Row& row : m_rows) {
        n += row.progress.state == state ? 1 : 0;
    }
    return n;
}

int StudyRunModel::rowCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : static_cast<int>(m_rows.size());
}

int StudyRunModel::columnCount(const QModelIndex& parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QColor StudyRunModel::stateColor(lbd::StudyRunState state)
{
    // Okabe-Ito hues, lightened so that black text stays readable on them.
    switch (state) {
    case lbd::StudyRunState::Pending: return {};
    case lbd::StudyRunState::Running: return QColor(0xfc, 0xe4, 0xb0);  // orange
    case lbd::StudyRunState::Stopped: return QColor(0xf0, 0xd0, 0xe2);  // reddish purple
    case lbd::StudyRunState::Failed: return QColor(0xf4, 0xbf, 0x99);   // vermillion
    case lbd::StudyRunState::Finished: return QColor(0xb3, 0xd5, 0xee); // blue
    }
    return {};
}

QString StudyRunModel::stateText(lbd::StudyRunState state)
{
    switch (state) {
    case lbd::StudyRunState::Pending: return tr("pending");
    case lbd::StudyRunState::Running: return tr("\u25b6 running");
    case lbd::StudyRunState::Stopped: return tr("\u25a0 stopped");
    case lbd::StudyRunState::Failed: return tr("\u2717 failed");
    case lbd::StudyRunState::Finished: return tr("\u2713 finished");
    }
    return {};
}

QVariant StudyRunModel::displayText(const Row& row, int column) const
{
    const lbd::StudyProgress& p = row.progress;
    switch (column) {
    case Cell: return row.cell;
    case Seed: return row.seed;
    case State: return stateText(p.state);
    case Epoch: return p.epochs > 0 ? QStringLiteral("%1 / %2").arg(p.epoch).arg(p.epochs) : QStringLiteral("\u2013");
    case Eta: return p.state == lbd::StudyRunState::Running ? etaText(p.etaSeconds) : QStringLiteral("\u2013");
    case Message: return QString::fromStdString(p.message);
    }
    return {};
}

QVariant StudyRunModel::data(const QModelIndex& index, int role) const
{
    if (!index.isValid() || index.row() >= rowCount()) {
        return {};
    }
    const Row& row = m_rows[static_cast<size_t>(index.row())];
    switch (role) {
    case Qt::DisplayRole: return displayText(row, index.column());
    case Qt::ToolTipRole:
        return index.column() == Message && !row.progress.message.empty()
                   ? QString::fromStdString(row.progress.message)
                   : tr("%1, seed %2: %3. Double-click a finished or stopped run to open it on every page.\n%4")
                         .arg(row.cell)
                         .arg(row.seed)
                         .arg(stateText(row.progress.state), QDir::toNativeSeparators(row.directory));
    case Qt::BackgroundRole: {
        const QColor color = stateColor(row.progress.state);
        return color.isValid() ? QVariant(color) : QVariant();
    }
    case Qt::ForegroundRole:
        return stateColor(row.progress.state).isValid() ? QVariant(QColor(Qt::black)) : QVariant();
    case DirectoryRole: return row.directory;
    case StateRole: return static_cast<int>(row.progress.state);
    }
    return {};
}

QVariant StudyRunModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal) {
        return {};
    }
    static const char* titles[] = {"Cell", "Seed", "State", "Epoch", "ETA", "Message"};
    static const char* tips[] = {
        "The study's cell: one combination of the factors' levels (one row of the paper's table).",
        "The seed of this repeat: it sets data.seed (the long-tailed draw) and train.seed (initialisation, batch order).",
        "pending, running, stopped (by Stop; Continue resumes it from its checkpoint), failed (the reason is in "
        "Message), finished.",
        "Epochs completed / planned.",
        "Estimated time left for this run (from its current speed).",
        "Why a run failed, or its final test accuracy."};
    if (section < 0 || section >= ColumnCount) {
        return {};
    }
    if (role == Qt::DisplayRole) {
        return tr(titles[section]);
    }
    return role == Qt::ToolTipRole ? QVariant(tr(tips[section])) : QVariant();
}

} // namespace lbd::ui

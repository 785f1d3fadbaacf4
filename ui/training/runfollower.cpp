#include "ui/training/runfollower.h"

#include "core/train/epochmetricsjson.h"
#include "core/train/runfolder.h"
#include "core/train/runlock.h"
#include "core/train/runlog.h"
#include "core/util/jsonfile.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>

namespace lbd::ui {
namespace {

QString fileIn(const QString& directory, const char* name)
{
    return QDir(directory).filePath(QString::fromLatin1(name));
}

// The complete lines of `path` after byte `offset`; `offset` moves past them. A file that
// shrank was rewritten (a resume trims metrics.jsonl to its checkpoint): read it from the start.
QList<QByteArray> newLines(const QString& path, qint64& offset)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        return {};
    }
    if (file.size() < offset) {
        offset = 0;
    }
    file.seek(offset);
    const QByteArray text = file.readAll();
    const qsizetype end = text.lastIndexOf('\n');
    if (end < 0) {
        return {}; // no complete line yet: a writer may be half-way through one
    }
    offset += end + 1;
    return text.left(end).split('\n');
}

// status.json's state and message; empty when it cannot be read (being replaced, not there yet).
std::pair<QString, QString> readStatus(const QString& directory)
{
    try {
        const nlohmann::json status = lbd::readJsonFile(fileIn(directory, lbd::RunFolder::kStatus).toStdString());
        return {QString::fromStdString(status.value("state", std::string())),
                QString::fromStdString(status.value("message", std::string()))};
    } catch (const std::exception&) {
        return {};
    }
}

} // namespace

RunFollower::RunFollower(QObject* parent) : QObject(parent)
{
    m_poll.setInterval(1000);
    connect(&m_poll, &QTimer::timeout, this, &RunFollower::poll);
    connect(&m_watcher, &QFileSystemWatcher::fileChanged, this, &RunFollower::poll);
    connect(&m_watcher, &QFileSystemWatcher::directoryChanged, this, &RunFollower::poll);
}

bool RunFollower::isTrainedElsewhere(const QString& directory)
{
    return readStatus(directory).first == QLatin1String("running")
           && lbd::RunLock::holder(directory.toStdString()).has_value();
}

void RunFollower::follow(const QString& directory, int shownEpoch)
{
    stop();
    m_directory = directory;
    m_lastEpoch = shownEpoch;
    m_metricsOffset = 0;
    m_logOffset = QFileInfo(fileIn(directory, lbd::RunLog::kFile)).size();
    watchFiles();
    m_poll.start();
}

void RunFollower::stop()
{
    m_poll.stop();
    if (!m_watcher.files().isEmpty()) {
        m_watcher.removePaths(m_watcher.files());
    }
    if (!m_watcher.directories().isEmpty()) {
        m_watcher.removePaths(m_watcher.directories());
    }
    m_directory.clear();
}

void RunFollower::watchFiles()
{
    // A file replaced by rename drops out of the watcher: add whatever exists again each time.
    QStringList paths{m_directory};
    for (const char* name : {lbd::RunFolder::kMetrics, lbd::RunFolder::kStatus, lbd::RunLog::kFile}) {
        const QString path = fileIn(m_directory, name);
        if (QFileInfo::exists(path) && !m_watcher.files().contains(path)) {
            paths << path;
        }
    }
    if (m_watcher.directories().contains(m_directory)) {
        paths.removeFirst();
    }
    if (!paths.isEmpty()) {
        m_watcher.addPaths(paths);
    }
}

void RunFollower::poll()
{
    if (m_directory.isEmpty()) {
        return;
    }
    readNewEpochs();
    readNewLogLines();
    watchFiles();
    const auto [state, message] = readStatus(m_directory);
    QString endState;
    if (!state.isEmpty() && state != QLatin1String("running") && state != QLatin1String("created")) {
        endState = state;
    } else if (state == QLatin1String("running") && !lbd::RunLock::holder(m_directory.toStdString())) {
        // Re-read: the trainer may have written its last status between the two reads.
        const auto again = readStatus(m_directory);
        endState = again.first == QLatin1String("running") ? QStringLiteral("interrupted") : again.first;
    }
    if (!endState.isEmpty()) {
        readNewEpochs(); // the last epoch lands before the final status
        const QString directory = m_directory;
        stop();
        emit ended(directory, endState, readStatus(directory).second);
    }
}

void RunFollower::readNewEpochs()
{
    const QString path = fileIn(m_directory, lbd::RunFolder::kMetrics);
    for (const QByteArray& line : newLines(path, m_metricsOffset)) {
        if (line.trimmed().isEmpty()) {
            continue;
        }
        try {
            const lbd::EpochMetrics metrics = lbd::epochMetricsFromJson(lbd::parseJsonText(line.toStdString(), path.toStdString()));
            if (metrics.epoch > m_lastEpoch) {
                m_lastEpoch = metrics.epoch;
                emit epochRecorded(metrics);
            }
        } catch (const std::exception& error) {
            emit messageLogged(tr("%1: a line could not be read: %2").arg(path, QString::fromUtf8(error.what())));
        }
    }
}

void RunFollower::readNewLogLines()
{
    for (const QByteArray& line : newLines(fileIn(m_directory, lbd::RunLog::kFile), m_logOffset)) {
        emit messageLogged(QString::fromUtf8(line));
    }
}

} // namespace lbd::ui

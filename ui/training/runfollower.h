#pragma once
// Follows a run folder that another process trains (a headless `lbd train` on a server whose
// folder is synced or mounted here, another LBD Studio): the new lines of metrics.jsonl and
// log.txt and status.json's state, until the run is no longer running or no process holds its
// lock any more (core/train/runlock.h). A QFileSystemWatcher makes it prompt; a timer polls as
// well, because watchers lose files replaced by rename (the trainer writes metrics.jsonl and
// status.json atomically) and do not work on every network file system.
#include <QFileSystemWatcher>
#include <QObject>
#include <QString>
#include <QTimer>

#include "core/train/epochmetrics.h"

namespace lbd::ui {

class RunFollower final : public QObject {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(RunFollower)

public:
    explicit RunFollower(QObject* parent = nullptr);

    // status.json says "running" and another process holds the run's lock.
    static bool isTrainedElsewhere(const QString& directory);

    // Follows `directory`; epochs up to `shownEpoch` are already shown. log.txt is followed from
    // its current end (what it holds already is read by whoever opened the run).
    void follow(const QString& directory, int shownEpoch);
    void stop();
    bool isFollowing() const { return !m_directory.isEmpty(); }
    QString directory() const { return m_directory; }
    void setPollInterval(int milliseconds) { m_poll.setInterval(milliseconds); }
    // Reads what is new now (the watcher and the timer call it too): the owner of the training
    // process calls it when that process has exited, for the last epochs and the final state.
    void poll();

signals:
    void epochRecorded(const lbd::EpochMetrics& metrics);
    void messageLogged(const QString& line);
    // The run left "running": finished, stopped, failed, or "interrupted" (its process ended
    // without saying so). Following has stopped when this is emitted.
    void ended(const QString& directory, const QString& state, const QString& message);

private:
    void readNewEpochs();
    void readNewLogLines();
    void watchFiles();

    QFileSystemWatcher m_watcher;
    QTimer m_poll;
    QString m_directory;
    int m_lastEpoch = 0;
    qint64 m_metricsOffset = 0;
    qint64 m_logOffset = 0;
};

} // namespace lbd::ui

#pragma once
// One data-parallel run trained by `lbd train` in child processes: the launcher
// (`lbd train --config FILE --out RUN --gpus N`, or `--processes N` when the config trains on the
// CPU) starts one rank per GPU and rank 0 writes the run folder, which a RunFollower reads live.
// Owns the launcher process, the config file it reads and the follower. Stop sends SIGINT to the
// launcher, which passes it on to every rank: they stop after the same batch, rank 0 keeps its
// checkpoint and the launcher exits with 130. Destroying a running LaunchedRun stops it and waits.
#include <QByteArray>
#include <QObject>
#include <QProcess>
#include <QString>
#include <QStringList>

#include <memory>

#include "core/train/epochmetrics.h"
#include "core/train/trainconfig.h"
#include "ui/training/runfollower.h"
#include "ui/training/trainingoutcome.h"

class QTemporaryDir;

namespace lbd::ui {

class LaunchedRun final : public QObject {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(LaunchedRun)

public:
    explicit LaunchedRun(QObject* parent = nullptr);
    ~LaunchedRun() override;

    // Starts the launcher for `ranks` processes; a launcher that cannot start ends the run with
    // failed() (emitted from the event loop, never from inside start()).
    void start(const lbd::TrainConfig& config, const QString& runDirectory, int ranks);
    void stop();
    bool isRunning() const { return m_process.state() != QProcess::NotRunning; }
    qint64 processId() const { return m_process.processId(); }
    // "lbd train --gpus 2" (or --processes 2): how messages name the launcher.
    QString commandText() const { return m_commandText; }

signals:
    void epochRecorded(const lbd::EpochMetrics& metrics);
    void logLine(const QString& line);
    void message(const QString& text);
    // The launcher exited 0 (finished) or 130 (stopped): the run folder is complete.
    void finished(const lbd::ui::TrainingOutcome& outcome);
    // It could not start, or exited otherwise: the message names the status and its stderr's end.
    void failed(const QString& error);

private:
    void failLater(const QString& error);
    void onProcessFinished(int exitCode, QProcess::ExitStatus exitStatus);
    TrainingOutcome outcome(bool stopped) const;
    QString stderrTail() const;

    QProcess m_process;
    RunFollower m_follower;
    std::unique_ptr<QTemporaryDir> m_configDir; // the config the ranks read at their start
    QString m_runDirectory;
    QString m_commandText;
    QByteArray m_stderr; // the end of what the launcher and the ranks wrote to stderr
    bool m_stopRequested = false;
    bool m_ended = false;
};

} // namespace lbd::ui

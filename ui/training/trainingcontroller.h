#pragma once
// Owns the training thread and the worker living on it, or, for a data-parallel run, the `lbd
// train` launcher whose ranks train it (launchedrun.h): the window starts, stops and hears both
// the same way. Start / pause / resume / stop are called from the GUI thread; the flags are set
// directly (not through queued slots) so that Stop takes effect within one batch even while the
// worker thread is busy. Destroying the controller stops a running run and waits for it.
#include <QObject>
#include <QPointer>
#include <QString>
#include <QThread>

#include <memory>

#include "core/train/epochmetrics.h"
#include "core/train/trainconfig.h"
#include "core/train/trainingcontrol.h"
#include "ui/training/trainingoutcome.h"

namespace lbd::ui {

class LaunchedRun;
class TrainingWorker;

class TrainingController final : public QObject {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(TrainingController)

public:
    enum class State { Idle, Running, Paused, Stopping };
    Q_ENUM(State)

    explicit TrainingController(QObject* parent = nullptr);
    ~TrainingController() override;

    // Returns false (and starts nothing) while a run is still active. `ranks` > 1: data-parallel,
    // `lbd train --gpus ranks` in child processes (--processes when the config's device is the CPU).
    bool start(const lbd::TrainConfig& config, const QString& runDirectory, bool resume = false, int ranks = 1);
    void pause();
    void resume();
    void stop();

    State state() const { return m_state; }
    bool isActive() const { return m_state != State::Idle; }
    // The processes of the active (or last) run: 1 in this app's training thread, N launched.
    int ranks() const { return m_ranks; }
    // A launched run has no pause: its ranks could only be paused together through a collective.
    bool canPause() const { return isActive() && m_ranks == 1; }
    LaunchedRun* launchedRun() const; // the data-parallel run's launcher while it is active
    QString runDirectory() const { return m_runDirectory; }

signals:
    void stateChanged(lbd::ui::TrainingController::State state);
    void started(const QString& runDirectory);
    void batchProgress(const lbd::BatchProgress& progress);
    void epochFinished(const lbd::EpochMetrics& metrics);
    void message(const QString& text);
    void logLine(const QString& line); // a line of the launched run's log.txt (timestamped already)
    void finished(const lbd::ui::TrainingOutcome& outcome);
    void failed(const QString& error);

private:
    bool startLaunched(const lbd::TrainConfig& config, const QString& runDirectory);
    void setState(State state);
    void onWorkerFinished(const lbd::ui::TrainingOutcome& outcome);
    void onWorkerFailed(const QString& error);

    QThread m_thread;
    QPointer<TrainingWorker> m_worker;
    QPointer<LaunchedRun> m_launched;
    std::shared_ptr<lbd::TrainingControl> m_control;
    QString m_runDirectory;
    State m_state = State::Idle;
    int m_ranks = 1;
};

} // namespace lbd::ui

#pragma once
// Owns the training thread and the worker living on it. Start / pause / resume / stop are called
// from the GUI thread; the flags are set directly (not through queued slots) so that Stop takes
// effect within one batch even while the worker thread is busy. Destroying the controller stops a
// running run and waits for the thread.
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

class TrainingWorker;

class TrainingController final : public QObject {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(TrainingController)

public:
    enum class State { Idle, Running, Paused, Stopping };
    Q_ENUM(State)

    explicit TrainingController(QObject* parent = nullptr);
    ~TrainingController() override;

    // Returns false (and starts nothing) while a run is still active.
    bool start(const lbd::TrainConfig& config, const QString& runDirectory, bool resume = false);
    void pause();
    void resume();
    void stop();

    State state() const { return m_state; }
    bool isActive() const { return m_state != State::Idle; }
    QString runDirectory() const { return m_runDirectory; }

signals:
    void stateChanged(lbd::ui::TrainingController::State state);
    void started(const QString& runDirectory);
    void batchProgress(const lbd::BatchProgress& progress);
    void epochFinished(const lbd::EpochMetrics& metrics);
    void message(const QString& text);
    void finished(const lbd::ui::TrainingOutcome& outcome);
    void failed(const QString& error);

private:
    void setState(State state);
    void onWorkerFinished(const lbd::ui::TrainingOutcome& outcome);
    void onWorkerFailed(const QString& error);

    QThread m_thread;
    QPointer<TrainingWorker> m_worker;
    std::shared_ptr<lbd::TrainingControl> m_control;
    QString m_runDirectory;
    State m_state = State::Idle;
};

} // namespace lbd::ui

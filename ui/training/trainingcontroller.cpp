#include "ui/training/trainingcontroller.h"

#include "ui/training/launchedrun.h"
#include "ui/training/trainingworker.h"

#include <algorithm>

namespace lbd::ui {

TrainingController::TrainingController(QObject* parent) : QObject(parent)
{
    m_thread.setObjectName(QStringLiteral("lbd-training"));
    m_thread.start();
}

TrainingController::~TrainingController()
{
    delete m_launched; // stops its launcher and waits for every rank
    if (m_control) {
        m_control->pauseRequested = false;
        m_control->stopRequested = true;
    }
    // The worker's run() returns within one batch; then the event loop sees quit().
    m_thread.quit();
    m_thread.wait();
    delete m_worker; // normally deleted already through deleteLater
}

bool TrainingController::start(const lbd::TrainConfig& config, const QString& runDirectory, bool resume, int ranks)
{
    if (isActive()) {
        return false;
    }
    m_runDirectory = runDirectory;
    m_ranks = std::max(1, ranks);
    if (m_ranks > 1) {
        return startLaunched(config, runDirectory);
    }
    m_control = std::make_shared<lbd::TrainingControl>();
    auto* worker = new TrainingWorker(config, runDirectory, resume, m_control);
    worker->moveToThread(&m_thread);
    m_worker = worker;

    connect(worker, &TrainingWorker::batchProgress, this, &TrainingController::batchProgress);
    connect(worker, &TrainingWorker::epochFinished, this, &TrainingController::epochFinished);
    connect(worker, &TrainingWorker::message, this, &TrainingController::message);
    connect(worker, &TrainingWorker::finished, this, &TrainingController::onWorkerFinished);
    connect(worker, &TrainingWorker::failed, this, &TrainingController::onWorkerFailed);
    // One worker per run: it deletes itself on its own thread once the run has ended.
    connect(worker, &TrainingWorker::finished, worker, &QObject::deleteLater);
    connect(worker, &TrainingWorker::failed, worker, &QObject::deleteLater);
    connect(&m_thread, &QThread::finished, worker, &QObject::deleteLater);

    setState(State::Running);
    emit started(runDirectory);
    QMetaObject::invokeMethod(worker, &TrainingWorker::run, Qt::QueuedConnection);
    return true;
}

bool TrainingController::startLaunched(const lbd::TrainConfig& config, const QString& runDirectory)
{
    // One launcher per run, deleted once it has ended (from the event loop: it emits the end).
    auto* run = new LaunchedRun(this);
    m_launched = run;
    connect(run, &LaunchedRun::epochRecorded, this, &TrainingController::epochFinished);
    connect(run, &LaunchedRun::logLine, this, &TrainingController::logLine);
    connect(run, &LaunchedRun::message, this, &TrainingController::message);
    connect(run, &LaunchedRun::finished, this, &TrainingController::onWorkerFinished);
    connect(run, &LaunchedRun::failed, this, &TrainingController::onWorkerFailed);
    connect(run, &LaunchedRun::finished, run, &QObject::deleteLater);
    connect(run, &LaunchedRun::failed, run, &QObject::deleteLater);
    setState(State::Running);
    emit started(runDirectory);
    run->start(config, runDirectory, m_ranks);
    return true;
}

LaunchedRun* TrainingController::launchedRun() const { return m_launched.data(); }

void TrainingController::pause()
{
    if (m_state == State::Running && m_control && m_ranks == 1) {
        m_control->pauseRequested = true;
        setState(State::Paused);
    }
}

void TrainingController::resume()
{
    if (m_state == State::Paused && m_control) {
        m_control->pauseRequested = false;
        setState(State::Running);
    }
}

void TrainingController::stop()
{
    if (m_state == State::Running && m_launched) {
        m_launched->stop();
        setState(State::Stopping);
        return;
    }
    if ((m_state == State::Running || m_state == State::Paused) && m_control) {
        m_control->stopRequested = true;
        m_control->pauseRequested = false;
        setState(State::Stopping);
    }
}

void TrainingController::setState(State state)
{
    if (m_state != state) {
        m_state = state;
        emit stateChanged(state);
    }
}

void TrainingController::onWorkerFinished(const TrainingOutcome& outcome)
{
    setState(State::Idle);
    emit finished(outcome);
}

void TrainingController::onWorkerFailed(const QString& error)
{
    setState(State::Idle);
    emit failed(error);
}

} // namespace lbd::ui

#include "ui/study/studycontroller.h"

#include "ui/study/studyworker.h"

namespace lbd::ui {

StudyController::StudyController(QObject* parent) : QObject(parent)
{
    m_thread.setObjectName(QStringLiteral("lbd-study"));
    m_thread.start();
}

StudyController::~StudyController()
{
    if (m_control) {
        m_control->stopRequested = true;
    }
    // The runner's runs return within one batch; then the event loop sees quit().
    m_thread.quit();
    m_thread.wait();
    delete m_worker; // normally deleted already through deleteLater
}

bool StudyController::start(const lbd::ResolvedStudy& study, const QString& directory,
                            const lbd::StudyRunnerOptions& options)
{
    if (m_active) {
        return false;
    }
    m_control = std::make_shared<lbd::TrainingControl>();
    auto* worker = new StudyWorker(study, directory, options, m_control);
    worker->moveToThread(&m_thread);
    m_worker = worker;

    connect(worker, &StudyWorker::progress, this, &StudyController::progress);
    connect(worker, &StudyWorker::message, this, &StudyController::message);
    connect(worker, &StudyWorker::finished, this, [this](const lbd::StudyOutcome& outcome) {
        setActive(false);
        emit finished(outcome);
    });
    connect(worker, &StudyWorker::failed, this, [this](const QString& error) {
        setActive(false);
        emit failed(error);
    });
    // One worker per pass: it deletes itself on its own thread once the pass has ended.
    connect(worker, &StudyWorker::finished, worker, &QObject::deleteLater);
    connect(worker, &StudyWorker::failed, worker, &QObject::deleteLater);
    connect(&m_thread, &QThread::finished, worker, &QObject::deleteLater);

    setActive(true);
    QMetaObject::invokeMethod(worker, &StudyWorker::run, Qt::QueuedConnection);
    return true;
}

void StudyController::stop()
{
    if (m_active && m_control) {
        m_control->pauseRequested = false;
        m_control->stopRequested = true;
        emit activeChanged(true); // the buttons show "stopping"
    }
}

void StudyController::setActive(bool active)
{
    if (m_active != active) {
        m_active = active;
        emit activeChanged(active);
    }
}

} // namespace lbd::ui

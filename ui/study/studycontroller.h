#pragma once
// Owns the study's thread and the worker living on it (the TrainingController pattern). Stop sets
// the shared flag directly from the GUI thread, so every run of the pass stops within one batch
// and no new run starts. Destroying the controller stops a running pass and waits for it.
#include <QObject>
#include <QPointer>
#include <QString>
#include <QThread>

#include <memory>

#include "core/study/studyrunner.h"
#include "core/train/trainingcontrol.h"
#include "ui/study/studymetatypes.h"

namespace lbd::ui {

class StudyWorker;

class StudyController final : public QObject {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(StudyController)

public:
    explicit StudyController(QObject* parent = nullptr);
    ~StudyController() override;

    // Returns false (and starts nothing) while a pass is still active.
    bool start(const lbd::ResolvedStudy& study, const QString& directory, const lbd::StudyRunnerOptions& options);
    void stop();
    bool isActive() const { return m_active; }
    bool isStopping() const { return m_active && m_control && m_control->stopRequested; }

signals:
    void activeChanged(bool active);
    void progress(const lbd::StudyProgress& progress);
    void message(const QString& text);
    void finished(const lbd::StudyOutcome& outcome);
    void failed(const QString& error);

private:
    void setActive(bool active);

    QThread m_thread;
    QPointer<StudyWorker> m_worker;
    std::shared_ptr<lbd::TrainingControl> m_control;
    bool m_active = false;
};

} // namespace lbd::ui

#pragma once
// Runs one lbd::StudyRunner pass on the thread it was moved to and turns its callbacks (which
// come from the runner's own training threads) into queued signals carrying value types. Shares
// only the TrainingControl flags with the GUI thread.
#include <QObject>
#include <QString>

#include <memory>

#include "core/study/studyrunner.h"
#include "core/train/trainingcontrol.h"
#include "ui/study/studymetatypes.h"

namespace lbd::ui {

class StudyWorker final : public QObject {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(StudyWorker)

public:
    StudyWorker(lbd::ResolvedStudy study, QString directory, lbd::StudyRunnerOptions options,
                std::shared_ptr<lbd::TrainingControl> control);

    // Blocks this worker's thread until the pass ends; emits exactly one of finished / failed.
    void run();

signals:
    void progress(const lbd::StudyProgress& progress);
    void message(const QString& text);
    void finished(const lbd::StudyOutcome& outcome);
    void failed(const QString& error);

private:
    lbd::ResolvedStudy m_study;
    QString m_directory;
    lbd::StudyRunnerOptions m_options;
    std::shared_ptr<lbd::TrainingControl> m_control;
};

} // namespace lbd::ui

#pragma once
// Runs one lbd::Trainer on the thread it was moved to and turns the trainer's callbacks into
// queued signals. Owns nothing the GUI thread touches except the shared TrainingControl flags.
#include <QObject>
#include <QString>

#include <memory>

#include "core/train/epochmetrics.h"
#include "core/train/trainconfig.h"
#include "core/train/trainingcontrol.h"
#include "ui/training/trainingoutcome.h"

namespace lbd::ui {

class TrainingWorker final : public QObject {
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(TrainingWorker)

public:
    TrainingWorker(lbd::TrainConfig config, QString runDirectory, bool resume,
                   std::shared_ptr<lbd::TrainingControl> control);

    // Blocks this worker's thread until the run ends; emits exactly one of finished / failed.
    void run();

signals:
    void batchProgress(const lbd::BatchProgress& progress);
    void epochFinished(const lbd::EpochMetrics& metrics);
    void message(const QString& text);
    void finished(const lbd::ui::TrainingOutcome& outcome);
    void failed(const QString& error);

private:
    lbd::TrainConfig m_config;
    QString m_runDirectory;
    bool m_resume = false;
    std::shared_ptr<lbd::TrainingControl> m_control;
};

} // namespace lbd::ui

#include "ui/training/trainingworker.h"

#include "core/train/trainer.h"
#include "core/util/error.h"

#include <chrono>
#include <exception>

#ifdef __linux__
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

namespace lbd::ui {
namespace {

// c10::Error messages carry a C++ backtrace after the first line; a dialog wants the message.
QString shortMessage(const char* what)
{
    QString text = QString::fromUtf8(what).trimmed();
    const int backtrace = text.indexOf(QLatin1String("\nException raised from"));
    if (backtrace > 0) {
        text.truncate(backtrace);
    }
    if (text.size() > 2000) {
        text = text.left(2000) + QStringLiteral(" ...");
    }
    return text;
}

// The engine's stop message tells a command-line user what `lbd train --resume` will do; in the
// app a checkpoint is continued with Runs > Continue training, and a run stopped before its first
// checkpoint cannot be continued there (RunSummary::resumable) but trained again with Start.
QString inAppWording(const std::string& engineText)
{
    QString text = QString::fromStdString(engineText);
    if (text.startsWith(QLatin1String("stopped during epoch"))) {
        text.replace(QLatin1String("--resume continues from it"), QObject::tr("Runs > Continue training continues from it"));
        text.replace(QLatin1String("--resume starts it again from epoch 1"),
                     QObject::tr("it cannot be continued; Start trains it again from epoch 1"));
    }
    return text;
}

} // namespace

TrainingWorker::TrainingWorker(lbd::TrainConfig config, QString runDirectory, bool resume,
                               std::shared_ptr<lbd::TrainingControl> control)
    : m_config(std::move(config)), m_runDirectory(std::move(runDirectory)), m_resume(resume),
      m_control(std::move(control))
{
}

void TrainingWorker::run()
{
#ifdef __linux__
    // Training saturates every core (LibTorch's intra-op threads, which this thread spawns and
    // which inherit its nice value). Without this the GUI thread waits for a time slice behind
    // them: event-loop stalls of 0.3-5 s were measured on 2 cores. Niced, the GUI thread wins
    // the CPU whenever it wakes, and training still gets every cycle the GUI does not use.
    setpriority(PRIO_PROCESS, static_cast<id_t>(syscall(SYS_gettid)), 10);
#endif
    using Clock = std::chrono::steady_clock;
    // Batch updates are thinned to ~20 per second: the progress bar cannot show more, and a
    // flood of queued events is what would make the GUI lag behind a fast GPU.
    auto lastBatchSignal = Clock::time_point{};
    lbd::TrainingCallbacks callbacks;
    callbacks.onBatch = [&](const lbd::BatchProgress& progress) {
        const auto now = Clock::now();
        if (progress.batch < progress.batches && now - lastBatchSignal < std::chrono::milliseconds(50)) {
            return;
        }
        lastBatchSignal = now;
        emit batchProgress(progress);
    };
    callbacks.onEpoch = [this](const lbd::EpochMetrics& metrics) { emit epochFinished(metrics); };
    callbacks.onMessage = [this](const std::string& text) { emit message(inAppWording(text)); };

    QString error;
    try {
        lbd::Trainer trainer(m_config, m_runDirectory.toStdString(), m_resume);
        const lbd::TrainingResult result = trainer.run(callbacks, m_control.get());
        TrainingOutcome outcome;
        outcome.runDirectory = QString::fromStdString(result.runDirectory);
        outcome.epochsCompleted = result.epochsCompleted;
        outcome.checkpointEpoch = result.checkpointEpoch;
        outcome.stopped = result.stopped;
        outcome.finalReport = result.finalReport;
        emit finished(outcome);
        return;
    } catch (const lbd::InputError& e) {
        error = tr("The run could not start: %1").arg(shortMessage(e.what()));
    } catch (const lbd::RunError& e) {
        error = tr("The run failed: %1").arg(shortMessage(e.what()));
    } catch (const std::bad_alloc&) {
        error = tr("The run failed: out of memory.");
    } catch (const std::exception& e) {
        // c10::Error (including CUDA out of memory) derives from std::exception.
        error = tr("The engine reported an error: %1").arg(shortMessage(e.what()));
    } catch (...) {
        error = tr("The engine failed with an unknown error.");
    }
    emit failed(error);
}

} // namespace lbd::ui

#include "ui/study/studyworker.h"

#include "core/util/error.h"

#include <chrono>
#include <exception>
#include <map>

#ifdef __linux__
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>
#endif

namespace lbd::ui {
namespace {

using Clock = std::chrono::steady_clock;

// Batch updates of every run are thinned to ~5 per second per run: the grid cannot show more,
// and a flood of queued events would make the GUI lag behind several runs on a GPU.
class ProgressThinner {
public:
    bool shouldSend(const lbd::StudyProgress& progress)
    {
        Last& last = m_last[progress.run];
        const auto now = Clock::now();
        const bool changed = progress.state != last.state || progress.epoch != last.epoch;
        if (!changed && now - last.time < std::chrono::milliseconds(200)) {
            return false;
        }
        last = {progress.state, progress.epoch, now};
        return true;
    }

private:
    struct Last {
        lbd::StudyRunState state = lbd::StudyRunState::Pending;
        int epoch = -1;
        Clock::time_point time{};
    };
    std::map<int, Last> m_last;
};

} // namespace

StudyWorker::StudyWorker(lbd::ResolvedStudy study, QString directory, lbd::StudyRunnerOptions options,
                         std::shared_ptr<lbd::TrainingControl> control)
    : m_study(std::move(study)), m_directory(std::move(directory)), m_options(std::move(options)),
      m_control(std::move(control))
{
}

void StudyWorker::run()
{
#ifdef __linux__
    // As TrainingWorker: the runs' threads inherit this nice value, so the GUI thread keeps its
    // time slices on a machine whose cores the study saturates.
    setpriority(PRIO_PROCESS, static_cast<id_t>(syscall(SYS_gettid)), 10);
#endif
    ProgressThinner thinner; // the runner calls back one call at a time: no lock needed
    lbd::StudyCallbacks callbacks;
    callbacks.onProgress = [this, &thinner](const lbd::StudyProgress& progress) {
        if (thinner.shouldSend(progress)) {
            emit this->progress(progress);
        }
    };
    callbacks.onMessage = [this](const std::string& text) { emit message(QString::fromStdString(text)); };
    QString error;
    try {
        const std::string directory = m_directory.toStdString();
        lbd::StudyRunner runner(m_study, directory, m_options);
        emit finished(runner.run(callbacks, m_control.get()));
        return;
    } catch (const lbd::InputError& e) {
        error = tr("The study could not start: %1").arg(QString::fromUtf8(e.what()));
    } catch (const std::bad_alloc&) {
        error = tr("The study failed: out of memory.");
    } catch (const std::exception& e) {
        error = tr("The study failed: %1").arg(QString::fromUtf8(e.what()).left(2000));
    } catch (...) {
        error = tr("The study failed with an unknown error.");
    }
    emit failed(error);
}

} // namespace lbd::ui

#include "core/study/studyrunner.h"

#include "core/study/decisioncell.h"
#include "core/study/fusedgroups.h"
#include "core/study/redecidedrun.h"
#include "core/study/runreuse.h"
#include "core/study/studyfolder.h"
#include "core/train/configjson.h"
#include "core/train/runfolder.h"
#include "core/train/runlock.h"
#include "core/train/trainer.h"
#include "core/util/device.h"
#include "core/util/error.h"

#include <c10/util/Exception.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <mutex>
#include <thread>

#include <unistd.h>

namespace lbd {
namespace {

using json = nlohmann::json;
using Clock = std::chrono::steady_clock;

// "all-gpus" (or "cuda:all") is every visible GPU; otherwise a comma-separated list.
std::vector<std::string> expandDevices(const std::vector<std::string>& devices)
{
    std::vector<std::string> out;
    for (const std::string& device : devices) {
        if (device == "all-gpus" || device == "cuda:all") {
            const auto count = static_cast<int>(torch::cuda::device_count());
            if (count == 0) {
                throw InputError("--device " + device + ": no CUDA device is visible");
            }
            for (int i = 0; i < count; ++i) {
                out.push_back("cuda:" + std::to_string(i));
            }
        } else {
            parseDevice(device); // InputError for a malformed or absent device
            out.push_back(device);
        }
    }
    return out;
}

bool hasResumableState(const RunFolder& folder)
{
    return folder.exists(RunFolder::kCheckpoint) || (folder.exists(RunFolder::kConfig) && folder.exists(RunFolder::kSplit));
}

} // namespace

StudyRunner::StudyRunner(ResolvedStudy study, std::string directory, StudyRunnerOptions options)
    : m_study(std::move(study)), m_directory(std::move(directory)), m_options(std::move(options))
{
    if (m_options.parallel < 1 || m_options.parallel > 64) {
        throw InputError("--parallel must be 1 to 64 (got " + std::to_string(m_options.parallel) + ")");
    }
    if (m_options.fuse < 0 || m_options.fuse > 64) {
        throw InputError("--fuse must be auto or 1 to 64 (got " + std::to_string(m_options.fuse) + ")");
    }
    if (m_options.threadsPerRun < 0) {
        throw InputError("threads per run must be 0 (automatic) or more");
    }
    if (m_options.shard.count < 1 || m_options.shard.index < 0 || m_options.shard.index >= m_options.shard.count) {
        throw InputError("shard " + m_options.shard.text() + ": expected 1 <= I <= N");
    }
    m_options.devices = expandDevices(m_options.devices);
    for (const std::string& folder : m_options.reuseFrom) {
        std::error_code ec;
        if (!std::filesystem::is_directory(folder, ec)) {
            throw InputError("--reuse-from " + folder + ": not a folder");
        }
    }
}

namespace {

// One pass over a study: what to train, the workers that train it, and the outcome. The callbacks
// and the outcome are touched under one mutex, so the caller sees one call at a time.
class StudyPass {
public:
    StudyPass(const ResolvedStudy& study, const std::string& directory, const StudyRunnerOptions& options,
              const StudyCallbacks& callbacks, TrainingControl* control)
        : m_study(study), m_directory(directory), m_options(options), m_callbacks(callbacks), m_control(control)
    {
    }

    StudyOutcome run()
    {
        const auto start = Clock::now();
        if (!m_options.reuseFrom.empty()) {
            m_reusable = ReusableRuns(m_options.reuseFrom);
            const std::lock_guard<std::mutex> lock(m_mutex);
            say("found " + std::to_string(m_reusable.size()) + " finished runs to reuse");
            for (const std::string& skipped : m_reusable.passedOver()) {
                say(skipped);
            }
        }
        selectRuns();
        planUnits();
        m_workers = std::min<int>(m_options.parallel, static_cast<int>(m_units.size()));
        if (m_workers <= 1) {
            work(0); // on the calling thread: a single run behaves exactly as `lbd train`
        } else {
            std::vector<std::thread> threads;
            for (int w = 0; w < m_workers; ++w) {
                threads.emplace_back([this, w] { work(w); });
            }
            for (std::thread& thread : threads) {
                thread.join();
            }
        }
        decideRuns();
        m_outcome.stopRequested = stopRequested();
        m_outcome.seconds = std::chrono::duration<double>(Clock::now() - start).count();
        m_outcome.summary = summarizeStudy(m_study, m_directory);
        writeStudyResults(m_outcome.summary, m_directory);
        return m_outcome;
    }

private:
    std::string runDirectory(int index) const
    {
        return (std::filesystem::path(m_directory) / m_study.runs[index].directory).string();
    }
    bool stopRequested() const { return m_control && m_control->stopRequested.load(); }

    // Called with m_mutex held.
    void report(const StudyProgress& progress) const
    {
        if (m_callbacks.onProgress) {
            m_callbacks.onProgress(progress);
        }
    }
    void say(const std::string& text) const
    {
        if (m_callbacks.onMessage) {
            m_callbacks.onMessage(text);
        }
    }

    // A pending run that was trained elsewhere with the same config and seed is copied into place.
    bool reuse(int index, StudyRunStatus& status)
    {
        const std::optional<std::string> source = m_reusable.find(runConfigJson(m_study, m_study.runs[index]));
        if (!source) {
            return false;
        }
        const std::string& run = m_study.runs[index].directory;
        try {
            copyRunFolder(*source, runDirectory(index));
            recordStudyReuse(m_directory, run, *source);
        } catch (const std::exception& error) {
            const std::lock_guard<std::mutex> lock(m_mutex);
            say(run + ": not reused (" + error.what() + "); it trains");
            return false;
        }
        status = inspectStudyRun(runDirectory(index));
        const std::lock_guard<std::mutex> lock(m_mutex);
        say(run + ": reused " + *source + (status.modelFilesMissing ? " (its report; its model files were not in that folder)" : ""));
        ++m_outcome.reused;
        return true;
    }

    // Pending and stopped runs (and failed ones when asked) of this process's shard, in study order.
    void selectRuns()
    {
        const auto failures = readStudyFailures(m_directory);
        for (int i = 0; i < static_cast<int>(m_study.runs.size()); ++i) {
            const int source = decisionSourceRun(m_study, i);
            if (!m_options.shard.owns(source >= 0 ? source : i)) {
                continue; // another shard's: it may be pending, running or done there
            }
            ++m_outcome.inShard;
            if (source >= 0) {
                selectDecision(i);
                continue;
            }
            StudyRunStatus status = inspectStudyRun(runDirectory(i));
            const auto failure = failures.find(m_study.runs[i].directory);
            if (status.state == StudyRunState::Pending && failure == failures.end()) {
                reuse(i, status);
            } else if (status.state == StudyRunState::Pending) {
                status.state = StudyRunState::Failed; // refused at set-up: the same input fails again
                status.message = failure->second;
            }
            StudyProgress progress;
            progress.run = i;
            progress.state = status.state;
            progress.epoch = status.epochsDone;
            progress.epochs = status.epochs;
            progress.message = status.message;
            const std::lock_guard<std::mutex> lock(m_mutex);
            report(progress);
            switch (status.state) {
            case StudyRunState::Finished: ++m_outcome.finished; break;
            case StudyRunState::Running:
                // Another process trains it now: waited for in its turn (heldByAnotherProcess) and
                // counted as that process leaves it.
                m_todo.push_back(i);
                break;
            case StudyRunState::Failed:
                if (!m_options.retryFailed) {
                    ++m_outcome.failed;
                    break;
                }
                [[fallthrough]];
            default: m_todo.push_back(i);
            }
        }
    }

    // A source run trained again (removed and retrained, --retry-failed) since its decision-only
    // run was made: that run describes a model that no longer exists.
    bool decidedBeforeSource(int index) const
    {
        const int source = decisionSourceRun(m_study, index);
        std::error_code ec1, ec2;
        const auto decided = std::filesystem::last_write_time(RunFolder(runDirectory(index)).path(RunFolder::kReport), ec1);
        const auto trained = std::filesystem::last_write_time(RunFolder(runDirectory(source)).path(RunFolder::kReport), ec2);
        return !ec1 && !ec2 && decided < trained;
    }

    // A decision-only run is re-decided after this pass's training (decideRuns), unless done.
    void selectDecision(int index)
    {
        const StudyRunStatus status = inspectStudyRun(runDirectory(index));
        StudyProgress progress;
        progress.run = index;
        const bool done = status.state == StudyRunState::Finished && !decidedBeforeSource(index);
        progress.state = done ? StudyRunState::Finished : StudyRunState::Pending;
        progress.message = status.message;
        const std::lock_guard<std::mutex> lock(m_mutex);
        report(progress);
        if (progress.state == StudyRunState::Finished) {
            ++m_outcome.finished;
        } else {
            m_decide.push_back(index);
        }
    }

    // Re-decides the decision-only runs whose source run has finished: a second's work each, no
    // training, so it runs on the calling thread after the workers.
    void decideRuns()
    {
        for (const int index : m_decide) {
            const int source = decisionSourceRun(m_study, index);
            const std::string& sourceName = m_study.runs[source].directory;
            const StudyRunStatus sourceStatus = inspectStudyRun(runDirectory(source));
            StudyProgress progress;
            progress.run = index;
            const std::lock_guard<std::mutex> lock(m_mutex);
            if (stopRequested() || sourceStatus.state != StudyRunState::Finished) {
                const bool failed = sourceStatus.state == StudyRunState::Failed;
                progress.state = failed ? StudyRunState::Failed : StudyRunState::Pending;
                progress.message = "not decided: " + sourceName + (failed ? " failed" : " has not finished");
                ++(failed ? m_outcome.failed : m_outcome.stopped);
                say(m_study.runs[index].directory + ": " + progress.message);
                report(progress);
                continue;
            }
            try {
                const RedecidedRun done = redecideRun(runDirectory(source), sourceName, runDirectory(index),
                                                      m_study.cells[m_study.runs[index].cell].decision);
                char text[64];
                std::snprintf(text, sizeof text, ": accuracy %.2f %%", done.accuracy * 100);
                progress.state = StudyRunState::Finished;
                progress.message = done.note + text;
                ++m_outcome.finished;
                ++m_outcome.decidedNow;
                recordStudyFailure(m_directory, m_study.runs[index].directory, std::nullopt);
            } catch (const std::exception& error) {
                progress.state = StudyRunState::Failed;
                progress.message = std::string("not decided from ") + sourceName + ": " + error.what();
                ++m_outcome.failed;
                try {
                    recordStudyFailure(m_directory, m_study.runs[index].directory, progress.message);
                } catch (const std::exception& record) {
                    say(std::string("could not record the failure: ") + record.what());
                }
            }
            say(m_study.runs[index].directory + ": " + progress.message);
            report(progress);
        }
    }

    // --fuse: the runs to train as groups, each trained as one fused model (fusedgroups.h); without
    // it, or for a run that fuses with none, a group of one, trained as ever.
    void planUnits()
    {
        const int fuse = m_options.fuse > 0 ? m_options.fuse
                                            : automaticFuseCount(m_options.devices.empty() ? std::string("auto") : m_options.devices.front());
        const FusedGroupPlan plan = planFusedGroups(
            m_todo, [this](int index) { return trainConfigFromJson(runConfigJson(m_study, m_study.runs[index]), "study run"); }, fuse);
        m_units = plan.groups;
        const std::lock_guard<std::mutex> lock(m_mutex);
        for (const std::string& note : plan.notes) {
            say(note);
        }
        if (fuse > 1) {
            say("--fuse " + std::to_string(fuse) + ": " + std::to_string(m_todo.size()) + " runs to train as "
                + std::to_string(m_units.size()) + " fused groups");
        }
    }

    void work(int worker)
    {
        for (size_t u = m_next++; u < m_units.size(); u = m_next++) {
            trainFusedGroup(m_units[u], [this, worker](int index, FusedMember* fused) { workOn(worker, index, fused); });
        }
    }

    void workOn(int worker, int index, FusedMember* fused)
    {
        if (stopRequested()) {
            const std::lock_guard<std::mutex> lock(m_mutex);
            ++m_outcome.stopped;
            return;
        }
        trainRun(worker, index, fused);
    }

    // The run's config: the cell's, with this worker's device and share of the CPU cores.
    json runConfig(int worker, const StudyRunRef& ref, StudyProgress& progress) const
    {
        json config = runConfigJson(m_study, ref);
        if (!m_options.devices.empty()) {
            progress.device = m_options.devices[worker % m_options.devices.size()];
            config["train"]["device"] = progress.device;
        }
        const int cores = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
        if (m_options.threadsPerRun > 0) {
            config["train"]["threads"] = m_options.threadsPerRun;
        } else if (m_workers > 1) {
            config["train"]["threads"] = std::max(1, cores / m_workers);
        }
        return config;
    }

    // Another process (a second `lbd study` on this folder, or a host of a shared folder) may
    // have taken this run since it was planned. Waits while that process holds the run, then
    // returns how it left it; nothing when the run is this process's to train.
    std::optional<StudyProgress> heldByAnotherProcess(int index)
    {
        const std::string directory = runDirectory(index);
        std::optional<long> holder = RunLock::holder(directory);
        std::optional<long> trainer = holder;
        if (holder && *holder != static_cast<long>(::getpid())) {
            const std::lock_guard<std::mutex> lock(m_mutex);
            say(m_study.runs[index].directory + ": being trained by process " + std::to_string(*holder) + "; waiting for it");
        }
        while (holder && *holder != static_cast<long>(::getpid()) && !stopRequested()) {
            std::this_thread::sleep_for(std::chrono::seconds(1));
            holder = RunLock::holder(directory);
        }
        const StudyRunStatus status = inspectStudyRun(directory);
        if (status.state != StudyRunState::Finished && !(trainer && status.state == StudyRunState::Failed)) {
            return std::nullopt; // pending, or stopped where the other process left it: train (or resume) it here
        }
        StudyProgress progress;
        progress.run = index;
        progress.state = status.state;
        progress.epoch = status.epochsDone;
        progress.epochs = status.epochs;
        progress.message = (trainer ? "trained by process " + std::to_string(*trainer) : std::string("trained by another process"))
            + (status.message.empty() ? "" : ": " + status.message);
        return progress;
    }

    void trainRun(int worker, int index, FusedMember* fused = nullptr)
    {
        const StudyRunRef& ref = m_study.runs[index];
        const RunFolder folder(runDirectory(index));
        StudyProgress progress;
        progress.run = index;
        double images = 0;
        for (int attempt = 0; attempt < 3; ++attempt) {
            if (const auto elsewhere = heldByAnotherProcess(index)) {
                finishRun(ref, *elsewhere, 0.0, true);
                return;
            }
            if (!trainHere(worker, index, progress, images, fused)) {
                break;
            }
            // The other process took the lock between the check and this trainer: wait for it.
        }
        finishRun(ref, progress, images, false);
    }

    // Trains the run; true when another process holds its lock (the trainer could not take it).
    bool trainHere(int worker, int index, StudyProgress& progress, double& images, FusedMember* fused)
    {
        const StudyRunRef& ref = m_study.runs[index];
        const RunFolder folder(runDirectory(index));
        try {
            const TrainConfig config = trainConfigFromJson(runConfig(worker, ref, progress),
                                                           "study cell " + m_study.cells[ref.cell].label);
            const bool resume = hasResumableState(folder);
            if (resume && folder.exists(RunFolder::kConfig)) {
                // The run continues with its own config; only where it trains follows this call.
                TrainConfig saved = loadTrainConfig(folder.path(RunFolder::kConfig));
                saved.train.device = config.train.device;
                saved.train.threads = config.train.threads;
                folder.writeJson(RunFolder::kConfig, toJson(saved));
            }
            Trainer trainer(config, folder.directory(), resume);
            progress.state = StudyRunState::Running;
            {
                const std::lock_guard<std::mutex> lock(m_mutex);
                report(progress);
            }
            TrainingCallbacks callbacks = trainingCallbacks(ref, progress, images);
            callbacks.fused = fused; // --fuse: this run's steps are its group's (fusedgroups.h)
            const TrainingResult result = trainer.run(callbacks, m_control);
            progress.state = result.stopped ? StudyRunState::Stopped : StudyRunState::Finished;
            if (result.finalReport) {
                char text[64];
                std::snprintf(text, sizeof text, "accuracy %.2f %%", result.finalReport->overall.accuracy * 100);
                progress.message = text;
            }
        } catch (const InputError& error) {
            const std::optional<long> holder = RunLock::holder(folder.directory());
            if (holder && *holder != static_cast<long>(::getpid())) {
                return true;
            }
            progress.state = StudyRunState::Failed;
            progress.message = std::string("bad input: ") + error.what();
        } catch (const RunError& error) {
            progress.state = StudyRunState::Failed;
            progress.message = error.what();
        } catch (const c10::Error& error) {
            progress.state = StudyRunState::Failed;
            progress.message = std::string("LibTorch error: ") + error.what_without_backtrace();
        } catch (const std::exception& error) {
            progress.state = StudyRunState::Failed;
            progress.message = error.what();
        }
        return false;
    }

    TrainingCallbacks trainingCallbacks(const StudyRunRef& ref, StudyProgress& progress, double& images)
    {
        TrainingCallbacks callbacks;
        callbacks.onBatch = [this, &progress](const BatchProgress& batch) {
            progress.state = StudyRunState::Running;
            progress.epoch = batch.epoch - 1;
            progress.epochs = batch.epochs;
            progress.imagesPerSecond = batch.imagesPerSecond;
            progress.etaSeconds = batch.etaSeconds;
            const std::lock_guard<std::mutex> lock(m_mutex);
            report(progress);
        };
        callbacks.onEpoch = [this, &progress, &images](const EpochMetrics& metrics) {
            images += metrics.imagesPerSecond * metrics.epochSeconds;
            progress.epoch = metrics.epoch;
            progress.epochs = metrics.epochs;
            const std::lock_guard<std::mutex> lock(m_mutex);
            report(progress);
        };
        callbacks.onMessage = [this, &ref](const std::string& text) {
            if (text.rfind("warning: ", 0) == 0) {
                const std::lock_guard<std::mutex> lock(m_mutex);
                say(ref.directory + ": " + text);
            }
        };
        return callbacks;
    }

    // `elsewhere`: another process trained the run; its status.json holds its outcome, and it is
    // counted as finished or failed as that process left it, never as this process's failure.
    void finishRun(const StudyRunRef& ref, const StudyProgress& progress, double images, bool elsewhere)
    {
        const std::lock_guard<std::mutex> lock(m_mutex);
        if (elsewhere) {
            say(ref.directory + ": " + progress.message);
            if (progress.state == StudyRunState::Finished) {
                ++m_outcome.finished;
                ++m_outcome.trainedElsewhere;
            } else {
                ++m_outcome.failed;
            }
            report(progress);
            return;
        }
        try {
            // A failure at set-up leaves no status.json: the study keeps the reason.
            if (progress.state == StudyRunState::Failed) {
                recordStudyFailure(m_directory, ref.directory, progress.message);
            } else if (progress.state == StudyRunState::Finished) {
                recordStudyFailure(m_directory, ref.directory, std::nullopt);
            }
        } catch (const std::exception& error) {
            say(std::string("could not record the failure: ") + error.what());
        }
        m_outcome.trainedImages += images;
        switch (progress.state) {
        case StudyRunState::Finished:
            ++m_outcome.finished;
            ++m_outcome.trainedNow;
            break;
        case StudyRunState::Failed: ++m_outcome.failed; break;
        default: ++m_outcome.stopped;
        }
        report(progress);
    }

    const ResolvedStudy& m_study;
    const std::string& m_directory;
    const StudyRunnerOptions& m_options;
    const StudyCallbacks& m_callbacks;
    TrainingControl* m_control;
    mutable std::mutex m_mutex;
    ReusableRuns m_reusable;
    std::vector<int> m_todo;
    std::vector<std::vector<int>> m_units; // m_todo in fused groups (one run each without --fuse)
    std::vector<int> m_decide; // decision-only runs of this shard not yet re-decided
    std::atomic<size_t> m_next{0};
    int m_workers = 1;
    StudyOutcome m_outcome;
};

} // namespace

StudyOutcome StudyRunner::run(const StudyCallbacks& callbacks, TrainingControl* control)
{
    prepareStudyFolder(m_study, m_directory);
    return StudyPass(m_study, m_directory, m_options, callbacks, control).run();
}

} // namespace lbd

#include "core/study/studyrunner.h"

#include "core/study/studyfolder.h"
#include "core/train/configjson.h"
#include "core/train/runfolder.h"
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
    if (m_options.threadsPerRun < 0) {
        throw InputError("threads per run must be 0 (automatic) or more");
    }
    m_options.devices = expandDevices(m_options.devices);
}

StudyOutcome StudyRunner::run(const StudyCallbacks& callbacks, TrainingControl* control)
{
    prepareStudyFolder(m_study, m_directory);
    const auto start = Clock::now();
    std::mutex reportMutex; // callbacks and the outcome, one thread at a time
    StudyOutcome outcome;
    const auto report = [&](const StudyProgress& progress) {
        if (callbacks.onProgress) {
            callbacks.onProgress(progress);
        }
    };
    const auto say = [&](const std::string& text) {
        if (callbacks.onMessage) {
            callbacks.onMessage(text);
        }
    };

    // What to train: pending and stopped runs (and failed ones when asked), in study order.
    std::vector<int> todo;
    const auto failures = readStudyFailures(m_directory);
    for (int i = 0; i < static_cast<int>(m_study.runs.size()); ++i) {
        const std::string directory = (std::filesystem::path(m_directory) / m_study.runs[i].directory).string();
        StudyRunStatus status = inspectStudyRun(directory);
        if (const auto failure = failures.find(m_study.runs[i].directory);
            status.state == StudyRunState::Pending && failure != failures.end()) {
            status.state = StudyRunState::Failed; // refused at set-up: the same input fails again
            status.message = failure->second;
        }
        StudyProgress progress;
        progress.run = i;
        progress.state = status.state;
        progress.epoch = status.epochsDone;
        progress.epochs = status.epochs;
        progress.message = status.message;
        const std::lock_guard<std::mutex> lock(reportMutex);
        report(progress);
        switch (status.state) {
        case StudyRunState::Finished: ++outcome.finished; break;
        case StudyRunState::Running:
            ++outcome.stopped;
            say(m_study.runs[i].directory + ": being trained by another process; skipped");
            break;
        case StudyRunState::Failed:
            if (!m_options.retryFailed) {
                ++outcome.failed;
                break;
            }
            [[fallthrough]];
        default: todo.push_back(i);
        }
    }

    const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
    const int workers = std::min<int>(m_options.parallel, static_cast<int>(todo.size()));
    std::atomic<size_t> next{0};
    const auto stopRequested = [&] { return control && control->stopRequested.load(); };

    const auto trainOne = [&](int worker, int index) {
        const StudyRunRef& ref = m_study.runs[index];
        const std::string directory = (std::filesystem::path(m_directory) / ref.directory).string();
        const RunFolder folder(directory);
        StudyProgress progress;
        progress.run = index;
        json configJson = runConfigJson(m_study, ref);
        if (!m_options.devices.empty()) {
            progress.device = m_options.devices[worker % m_options.devices.size()];
            configJson["train"]["device"] = progress.device;
        }
        const int threads = m_options.threadsPerRun > 0 ? m_options.threadsPerRun
                                                        : std::max(1, static_cast<int>(cores) / std::max(1, workers));
        if (workers > 1 || m_options.threadsPerRun > 0) {
            configJson["train"]["threads"] = threads;
        }
        const bool resume = hasResumableState(folder);
        double images = 0;
        try {
            TrainConfig config = trainConfigFromJson(configJson, "study cell " + m_study.cells[ref.cell].label);
            if (resume && folder.exists(RunFolder::kConfig)) {
                // The run continues with its own config; only where it trains follows this call.
                TrainConfig saved = loadTrainConfig(folder.path(RunFolder::kConfig));
                saved.train.device = config.train.device;
                saved.train.threads = config.train.threads;
                folder.writeJson(RunFolder::kConfig, toJson(saved));
            }
            Trainer trainer(config, directory, resume);
            TrainingCallbacks trainCallbacks;
            trainCallbacks.onBatch = [&](const BatchProgress& batch) {
                progress.state = StudyRunState::Running;
                progress.epoch = batch.epoch - 1;
                progress.epochs = batch.epochs;
                progress.imagesPerSecond = batch.imagesPerSecond;
                progress.etaSeconds = batch.etaSeconds;
                const std::lock_guard<std::mutex> lock(reportMutex);
                report(progress);
            };
            trainCallbacks.onEpoch = [&](const EpochMetrics& metrics) {
                images += metrics.imagesPerSecond * metrics.epochSeconds;
                progress.state = StudyRunState::Running;
                progress.epoch = metrics.epoch;
                progress.epochs = metrics.epochs;
                const std::lock_guard<std::mutex> lock(reportMutex);
                report(progress);
            };
            trainCallbacks.onMessage = [&](const std::string& text) {
                if (text.rfind("warning: ", 0) == 0) {
                    const std::lock_guard<std::mutex> lock(reportMutex);
                    say(ref.directory + ": " + text);
                }
            };
            progress.state = StudyRunState::Running;
            {
                const std::lock_guard<std::mutex> lock(reportMutex);
                report(progress);
            }
            const TrainingResult result = trainer.run(trainCallbacks, control);
            progress.state = result.stopped ? StudyRunState::Stopped : StudyRunState::Finished;
            if (result.finalReport) {
                char text[64];
                std::snprintf(text, sizeof text, "accuracy %.2f %%", result.finalReport->overall.accuracy * 100);
                progress.message = text;
            }
        } catch (const InputError& error) {
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
        const std::lock_guard<std::mutex> lock(reportMutex);
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
        outcome.trainedImages += images;
        switch (progress.state) {
        case StudyRunState::Finished:
            ++outcome.finished;
            ++outcome.trainedNow;
            break;
        case StudyRunState::Failed: ++outcome.failed; break;
        default: ++outcome.stopped;
        }
        report(progress);
    };

    const auto work = [&](int worker) {
        for (size_t i = next++; i < todo.size(); i = next++) {
            if (stopRequested()) {
                const std::lock_guard<std::mutex> lock(reportMutex);
                ++outcome.stopped;
                continue;
            }
            trainOne(worker, todo[i]);
        }
    };
    if (workers <= 1) {
        work(0); // on the calling thread: a single run behaves exactly as `lbd train`
    } else {
        std::vector<std::thread> threads;
        for (int w = 0; w < workers; ++w) {
            threads.emplace_back(work, w);
        }
        for (std::thread& thread : threads) {
            thread.join();
        }
    }
    outcome.stopRequested = stopRequested();
    outcome.seconds = std::chrono::duration<double>(Clock::now() - start).count();
    outcome.summary = summarizeStudy(m_study, m_directory);
    writeStudyResults(outcome.summary, m_directory);
    return outcome;
}

} // namespace lbd

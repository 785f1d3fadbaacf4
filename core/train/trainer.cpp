#include "core/train/trainer.h"

#include "core/compat/capturegate.h"
#include "core/train/configjson.h"
#include "core/train/runfolder.h"
#include "core/train/runlog.h"
#include "core/train/trainingsession.h"
#include "core/util/error.h"

#include <c10/util/Exception.h>

#include "core/util/jsonread.h"

#include <nlohmann/json.hpp>

namespace lbd {

struct Trainer::State {
    TrainConfig config;
    RunFolder folder;
    bool resume = false;
    DistributedSpec distributed;

    State(TrainConfig c, std::string directory, bool r) : config(std::move(c)), folder(std::move(directory)), resume(r) {}
};

Trainer::Trainer(TrainConfig config, std::string runDirectory, bool resume)
    : m_state(std::make_unique<State>(std::move(config), std::move(runDirectory), resume))
{
    if (resume) {
        // A run stopped before its first checkpoint still has its config and split: it starts
        // again from epoch 1 on the same split (the same images, the same seeds).
        const RunFolder& folder = m_state->folder;
        if (!folder.exists(RunFolder::kCheckpoint) && !(folder.exists(RunFolder::kConfig) && folder.exists(RunFolder::kSplit))) {
            throw InputError(folder.path(RunFolder::kCheckpoint) + ": no checkpoint to resume from");
        }
        m_state->config = loadTrainConfig(m_state->folder.path(RunFolder::kConfig));
    }
    m_state->config.validate();
    // A new run's folder is made by the session once the data and the model are known to be
    // usable: a refused run leaves nothing behind.
}

Trainer::~Trainer() = default;

void Trainer::setDistributed(const DistributedSpec& distributed)
{
    if (distributed.rank > 0 && m_state->resume) {
        throw InputError("rank " + std::to_string(distributed.rank) + " does not resume: only rank 0 reads the checkpoint");
    }
    m_state->distributed = distributed;
}

namespace {

std::string describeCudaError(const std::string& message)
{
    if (message.find("out of memory") != std::string::npos) {
        // PyTorch's text goes on about allocator settings; keep what was asked for and what was
        // free ("Tried to allocate 10.25 GiB. GPU 0 has a total capacity of ... is free.").
        std::string detail = message.substr(0, message.find('\n'));
        const auto tried = detail.find("Tried to allocate");
        const auto freeEnd = detail.find(" is free.", tried == std::string::npos ? 0 : tried);
        if (tried != std::string::npos && freeEnd != std::string::npos) {
            detail = detail.substr(tried, freeEnd + 8 - tried);
        }
        return "the GPU ran out of memory (" + detail
            + "); lower train.batch_size or the particle count, or train on the CPU";
    }
    std::string line = message.substr(0, message.find('\n'));
    if (message.find("stream is capturing") != std::string::npos || message.find("during capture") != std::string::npos) {
        // Another thread's CUDA call met a CUDA graph being recorded (issue 33; the capture gate,
        // core/compat/capturegate.h, exists to prevent it): nothing is wrong with the run itself.
        line += " (CUDA work met a CUDA graph capture in progress; `lbd study --retry-failed` or `lbd train --resume` "
                "continues from the last checkpoint)";
    }
    return line;
}

// Marks the run failed with `message`, as far as the disk allows: when status.json itself cannot
// be written (a full disk), the message says so and readers see a "running" status that no
// process holds (runsummary.h reports it as interrupted).
std::string recordFailure(const RunFolder& folder, const TrainingResult& result, int epochs, const std::string& message)
{
    RunLog(folder.directory()).append("failed: " + message);
    try {
        folder.writeStatus("failed", result.epochsCompleted, epochs, message, result.checkpointEpoch);
        return message;
    } catch (const std::exception& error) {
        return message + " (and the status could not be recorded: " + error.what() + ")";
    }
}

// The caller's callbacks with every message also appended to the run's log.txt.
TrainingCallbacks withRunLog(const TrainingCallbacks& callbacks, RunLog& log)
{
    TrainingCallbacks logged = callbacks;
    logged.onMessage = [&log, forward = callbacks.onMessage](const std::string& text) {
        log.append(text);
        if (forward) {
            forward(text);
        }
    };
    return logged;
}

} // namespace

TrainingResult Trainer::run(const TrainingCallbacks& userCallbacks, TrainingControl* control)
{
    TrainConfig& config = m_state->config;
    const RunFolder& folder = m_state->folder;
    const int epochs = config.train.epochs;
    const auto tell = [&](const std::string& text) {
        if (userCallbacks.onMessage) {
            userCallbacks.onMessage(text);
        }
    };

    // Resuming a run that already trained every epoch and wrote its results has nothing to do:
    // say so and leave the folder exactly as it is (no rewritten manifest, metrics or report).
    if (m_state->resume && folder.exists(RunFolder::kStatus)) {
        const RunStatus status = readRunStatus(folder); // typed: a damaged status.json names its field
        const bool withValidation = config.data.longTail.validationFraction > 0 || !config.data.validationList.empty();
        if (status.state == "finished" && status.epochsDone >= epochs && hasAllFinalFiles(folder, withValidation)) {
            tell("nothing to do: the run already finished all " + std::to_string(epochs) + " epochs"); // not logged: the folder stays as it was
            TrainingResult done;
            done.runDirectory = folder.directory();
            done.epochsCompleted = status.epochsDone;
            done.alreadyFinished = true;
            return done;
        }
    }

    // Everything this thread does on the device from here on (set-up, steps, evaluation, the final
    // files) happens while it holds the process's capture gate shared; it lets another run's
    // CUDA graph capture through only at its safe points (core/compat/capturegate.h).
    const compat::SharedCudaHold cudaHold;
    RunLog log(folder.directory());
    const TrainingCallbacks callbacks = withRunLog(userCallbacks, log);
    const auto message = [&](const std::string& text) { callbacks.onMessage(text); };
    TrainingSession session(config, folder, m_state->resume, callbacks, control, m_state->distributed);
    session.setUp(); // holds the run's lock from here on (runlock.h)
    TrainingResult result;
    result.runDirectory = folder.directory();
    result.epochsCompleted = session.firstEpoch() - 1;
    result.checkpointEpoch = session.lastCheckpointEpoch(); // a resumed run starts from its checkpoint
    folder.writeStatus("running", result.epochsCompleted, epochs, {}, result.checkpointEpoch);
    struct LoopFlag { // cleared on every way out of the loop
        TrainingControl* control;
        explicit LoopFlag(TrainingControl* c) : control(c) { if (control) control->inEpochLoop = true; }
        ~LoopFlag() { if (control) control->inEpochLoop = false; }
    } loopFlag(control);
    std::string stopMessage; // kept in status.json, so the Runs page and `lbd runs` can say why
    try {
        for (int epoch = session.firstEpoch(); epoch <= epochs; ++epoch) {
            EpochMetrics metrics;
            if (!session.train(epoch, metrics)) {
                result.stopped = true;
                stopMessage = session.stoppedMessage(epoch);
                message(stopMessage);
                break;
            }
            session.evaluate(metrics);
            session.checkDivergence(metrics); // before the checkpoint: a diverged epoch must not replace a good one
            session.record(metrics);
            result.epochsCompleted = epoch;
            result.checkpointEpoch = session.lastCheckpointEpoch();
            folder.writeStatus("running", epoch, epochs, {}, result.checkpointEpoch);
            if (callbacks.onEpoch) {
                callbacks.onEpoch(metrics);
            }
        }
        if (session.firstEpoch() > epochs) {
            result.finalReport = session.completeFinalFiles(); // killed between the last checkpoint and the results
        } else if (!result.stopped) {
            result.finalReport = session.finalReport();
        }
    } catch (const RunError& error) {
        throw RunError(recordFailure(folder, result, epochs, error.what()));
    } catch (const c10::Error& error) {
        throw RunError(recordFailure(folder, result, epochs,
                                     describeCudaError(error.what_without_backtrace()) + "; the last good checkpoint is kept"));
    } catch (const InputError& error) {
        throw InputError(recordFailure(folder, result, epochs, error.what()));
    } catch (const std::exception& error) {
        throw RunError(recordFailure(folder, result, epochs, error.what()));
    }
    folder.writeStatus(result.stopped ? "stopped" : "finished", result.epochsCompleted, epochs, stopMessage, result.checkpointEpoch);
    message(session.graphStatus() == "off" ? std::string("done") : "CUDA graph: " + session.graphStatus());
    return result;
}

} // namespace lbd

#pragma once
// Trains an LBD particle ensemble: data -> batches -> fused particle model -> objective -> SGD,
// evaluating on the test set every K epochs and keeping the run folder complete and consistent
// (config, split, metrics.jsonl, atomic checkpoints, report, cached test probabilities, Python
// weights). Runs on the calling thread; the GUI calls it from a worker thread.
#include <functional>
#include <memory>
#include <string>

#include "core/dist/distributedspec.h"
#include "core/train/epochmetrics.h"
#include "core/train/trainconfig.h"
#include "core/train/trainingcontrol.h"

namespace lbd {

class FusedMember;

struct TrainingCallbacks {
    std::function<void(const BatchProgress&)> onBatch;     // every few batches
    std::function<void(const EpochMetrics&)> onEpoch;      // after every epoch
    std::function<void(const std::string&)> onMessage;     // "loading data", "resumed at epoch 12", ...
    // Not a callback but the caller's other hook into the run: the fused group whose model trains
    // this run's steps with other runs' (`lbd study --fuse`, core/train/fusedrungroup.h); the
    // caller makes the run leave the group when run() returns or throws.
    FusedMember* fused = nullptr;
};

struct TrainingResult {
    std::string runDirectory;
    int epochsCompleted = 0;
    int checkpointEpoch = 0;              // epoch of the newest checkpoint on disk; 0: none yet
    bool stopped = false;                 // stopped by request before the last epoch
    bool alreadyFinished = false;         // resumed a finished run: nothing was trained or written
    std::optional<EvaluationReport> finalReport; // absent when stopped before any evaluation
};

class Trainer {
public:
    // `runDirectory` is created if needed. With `resume`, the run continues from the last
    // checkpoint in `runDirectory` (whose config.json then wins over `config`).
    Trainer(TrainConfig config, std::string runDirectory, bool resume = false);
    ~Trainer();
    Trainer(const Trainer&) = delete;
    Trainer& operator=(const Trainer&) = delete;

    // This process as one rank of a data-parallel run (trainingsession.h): rank 0 owns the run
    // folder; the other ranks are given a scratch folder and are never resumed (they start from
    // rank 0's state).
    void setDistributed(const DistributedSpec& distributed);

    // Throws InputError for bad config/data, RunError for failures while running (non-finite
    // loss, out of memory): the last good checkpoint stays readable in either case.
    TrainingResult run(const TrainingCallbacks& callbacks, TrainingControl* control = nullptr);

private:
    struct State;
    std::unique_ptr<State> m_state;
};

} // namespace lbd

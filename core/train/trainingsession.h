#pragma once
// One training run in named stages, driven by Trainer::run: set-up (data, model, optimiser,
// objective, batches; the checkpoint when resuming), then per epoch train -> evaluate -> check
// for divergence -> record (metrics line, checkpoint, and after the last epoch the final files:
// cached probabilities, weights for Python, report). Each stage is a member function short enough
// to read at once; the state they share lives here and nowhere else.
#include "core/dist/distributedspec.h"
#include "core/train/trainer.h"

#include <memory>
#include <optional>
#include <string>

namespace lbd {

class RunFolder;

class TrainingSession {
public:
    // With `distributed` enabled this process is one rank of a data-parallel run: it trains its
    // share of every batch, gradients are averaged over the ranks, and only rank 0 evaluates and
    // writes checkpoints and results (the other ranks' folder is a scratch one).
    TrainingSession(TrainConfig& config, const RunFolder& folder, bool resume, const TrainingCallbacks& callbacks,
                    TrainingControl* control, const DistributedSpec& distributed = {});
    ~TrainingSession();
    TrainingSession(const TrainingSession&) = delete;
    TrainingSession& operator=(const TrainingSession&) = delete;

    // Stage 1. Throws InputError for bad config or data (nothing is written before the checks).
    void setUp();
    int firstEpoch() const; // 1, or the epoch after the resumed checkpoint
    int lastCheckpointEpoch() const;

    // Stage 2: one epoch of minibatches. False when a stop was requested during it (nothing of
    // the unfinished epoch is recorded). Throws RunError for a non-finite loss.
    bool train(int epoch, EpochMetrics& metrics);
    // Stage 3: the test (and validation) evaluation, every eval_every epochs and after the last.
    void evaluate(EpochMetrics& metrics);
    // Stage 4: the divergence monitor; throws RunError naming the likely cause, after writing the
    // epoch's metrics line as evidence (its checkpoint is not written).
    void checkDivergence(const EpochMetrics& metrics);
    // Stage 5: metrics.jsonl, the checkpoint when due, and after the last epoch the final files.
    void record(const EpochMetrics& metrics);
    // A run resumed from the checkpoint of its last epoch whose final files were not all
    // written (killed in between): evaluate the restored model and write them.
    std::optional<EvaluationReport> completeFinalFiles();

    // The message the trainer shows when a stop was requested during `epoch`.
    std::string stoppedMessage(int epoch) const;
    std::string graphStatus() const;
    std::optional<EvaluationReport> finalReport() const;

private:
    struct State;
    std::unique_ptr<State> m_state;
};

// The final files of a finished run, which --resume writes when any is missing.
bool hasAllFinalFiles(const RunFolder& folder, bool withValidation);

} // namespace lbd

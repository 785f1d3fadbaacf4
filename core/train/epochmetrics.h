#pragma once
// What the trainer reports while it runs: value types that cross threads (the GUI's worker
// thread turns them into signals) and go to metrics.jsonl. No torch here.
#include <cstdint>
#include <optional>
#include <string>

#include "core/eval/evaluationreport.h"
#include "core/lbd/objectivevalues.h"

namespace lbd {

struct BatchProgress {
    int epoch = 0;          // 1-based
    int epochs = 0;
    int64_t batch = 0;      // 1-based within the epoch
    int64_t batches = 0;
    double loss = 0;        // of this batch (read every few batches, not every one, on CUDA)
    double learningRate = 0;
    double imagesPerSecond = 0; // over this epoch so far
    double etaSeconds = 0;      // for the whole run
};

struct EpochMetrics {
    int epoch = 0;
    int epochs = 0;
    ObjectiveValues objective;   // means over the epoch's batches: total, weighted CE, utility, repulsive, a(e)
    double learningRate = 0;
    double trainAccuracy = 0;    // of the ensemble average on the (augmented) training batches
    double imagesPerSecond = 0;
    double epochSeconds = 0;
    double elapsedSeconds = 0;   // since the run (or the resumed run) started
    // Streamed images: what bounded the epoch, "input" (the loop waited for decoded batches) or
    // "device" (core/data/inputtimings.h); empty for data held on the device.
    std::string boundBy;
    std::optional<EvaluationReport> evaluation;       // every eval_every epochs and at the end, run's rule + utility
    std::optional<EvaluationReport> argmaxEvaluation; // the same probabilities decided by plain argmax
    // The run's rule + utility on the validation split, when the run has one (val_fraction /
    // val_list): what tuning and "best epoch" read instead of the test set.
    std::optional<EvaluationReport> validationEvaluation;
};

} // namespace lbd

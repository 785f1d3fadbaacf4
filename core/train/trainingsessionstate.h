#pragma once
// TrainingSession's state, shared by its translation units (trainingsession.cpp: set-up, epochs,
// evaluation; trainingsessionfinal.cpp: the run's final files). Private to core/train.
#include "core/train/trainingsession.h"

#include "core/compat/torchcompat.h"
#include "core/data/batchsource.h"
#include "core/data/datapreparation.h"
#include "core/dist/communicator.h"
#include "core/eval/evaluationreport.h"
#include "core/lbd/objective.h"
#include "core/lbd/utilitymatrix.h"
#include "core/model/particlemodel.h"
#include "core/train/divergencemonitor.h"
#include "core/train/flatsgd.h"
#include "core/train/particleprobabilities.h"
#include "core/train/runfolder.h"
#include "core/train/runlock.h"
#include "core/train/trainstep.h"

#include <nlohmann/json.hpp>

#include <chrono>
#include <memory>
#include <optional>
#include <vector>

namespace lbd {

using Clock = std::chrono::steady_clock;

// A checkpoint at least this often (at the end of an epoch) whatever train.checkpoint_every says:
// a slow run (a ResNet on a CPU takes many minutes per epoch) stopped early must leave
// something to continue from. Fast GPU runs never reach it.
constexpr std::chrono::minutes kCheckpointAtLeastEvery{5};

struct TrainingSession::State {
    TrainConfig& config;
    const RunFolder& folder;
    bool resume = false;
    const TrainingCallbacks& callbacks;
    TrainingControl* control = nullptr;
    DistributedSpec distributed;
    std::unique_ptr<Communicator> communicator; // data-parallel runs only

    torch::Device device{torch::kCPU};
    torch::ScalarType autocast = torch::kFloat32;
    PreparedData data;
    ModelSpec modelSpec;
    UtilityMatrix decisionUtility;
    Normalization normalization;
    ParticleModel model{nullptr};
    std::unique_ptr<FlatSgd> optimizer;
    std::unique_ptr<LbdObjective> objective;
    std::unique_ptr<DivergenceMonitor> divergence;
    std::unique_ptr<BatchSource> trainBatches;
    std::unique_ptr<BatchSource> testBatches;      // data-parallel: this rank's share of every batch
    std::unique_ptr<BatchSource> validationBatches;
    BatchOptions evalOptions;
    std::unique_ptr<compat::ScopedSideStream> sideStream;
    std::unique_ptr<TrainStep> step;
    std::optional<RunLock> lock; // held while this session may write the folder

    std::vector<nlohmann::json> history;
    int firstEpoch = 1;
    int checkpointEpoch = 0;
    bool countedEpoch = false; // the first epoch's image count has been logged
    Clock::time_point runStart = Clock::now();
    Clock::time_point lastCheckpoint = Clock::now();
    // The last epoch's probabilities, kept for the final files.
    SplitProbabilities finalTest;
    SplitProbabilities finalValidation;
    std::optional<EvaluationReport> finalReport;

    State(TrainConfig& c, const RunFolder& f, bool r, const TrainingCallbacks& cb, TrainingControl* ctl,
          const DistributedSpec& d)
        : config(c), folder(f), resume(r), callbacks(cb), control(ctl), distributed(d)
    {
    }
    // Rank 0 of a data-parallel run, or a single process: evaluates and writes the results.
    bool primary() const { return !communicator || communicator->rank() == 0; }

    void message(const std::string& text) const
    {
        if (callbacks.onMessage) {
            callbacks.onMessage(text);
        }
    }
    bool stopRequested() const { return control && control->stopRequested.load(); }
    bool finalEpoch(int epoch) const { return epoch == config.train.epochs; }

    void prepareDevice();
    void loadData();
    void buildModelAndObjective();
    void loadInitialModelWeights(); // model.init_from
    void openOrStartFolder();
    void buildBatchesAndStep();
    void synchronizeRanks();
    bool stopAgreed() const;
    EvaluationReport decide(const SplitProbabilities& probabilities, DecisionRule rule) const;
    // The split's probabilities: computed here, or (data-parallel) each rank's share gathered.
    SplitProbabilities probabilitiesOf(BatchSource& source, int64_t splitSize);
    void writeFinalFiles(const EpochMetrics& metrics);
};

} // namespace lbd

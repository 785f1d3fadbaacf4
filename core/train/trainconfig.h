#pragma once
// Everything a run needs, as one value type: written to the run folder as config.json, edited
// by the GUI's experiment panel, read from presets and `lbd train` flags. No torch here.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/data/augmentspec.h"
#include "core/data/dataspec.h"
#include "core/eval/decisionrule.h"
#include "core/lbd/objectivespec.h"
#include "core/lbd/utilitysetting.h"
#include "core/model/modelspec.h"
#include "core/train/protocol.h"

namespace lbd {

struct OptimizerSpec {
    double learningRate = 0.1;
    double momentum = 0.9;
    bool nesterov = true;
    double weightDecay = 5e-4;         // lambda
    int warmupEpochs = 5;              // linear warm-up from lr/warmup to lr
    std::vector<int> decayEpochs = {160, 180};       // after these epochs ...
    std::vector<double> decayFactors = {0.01, 0.0001}; // ... lr is multiplied by these
};

// Mixed precision on CUDA (ignored on the CPU): fp16 autocast with loss scaling on the device (the
// fastest on tensor-core GPUs, speed.md), bf16 autocast, or plain fp32.
enum class Precision { Fp16, Bf16, Fp32 };
std::string precisionName(Precision precision);        // "fp16", "bf16", "fp32"
Precision parsePrecision(const std::string& text);     // throws InputError naming the text

// Upper limits that keep a typo from starting a run of years (lbd train --epochs 99999999999).
inline constexpr int kMaxEpochs = 100000;

struct TrainSettings {
    int epochs = 200;
    int64_t batchSize = 128;
    int evalEvery = 10;        // evaluate on the test set every K epochs (and at the end)
    int checkpointEvery = 1;   // epochs between atomic checkpoints
    std::string device = "auto";
    Precision precision = Precision::Fp16;
    bool channelsLast = true;  // on CUDA
    bool cudaGraph = true;     // capture the training step in a CUDA graph (CUDA only)
    bool syncBatchNorm = false; // data-parallel: batch norm statistics over every rank's images
    uint64_t seed = 0;         // model initialisation, batch order and augmentation
    int threads = 0;           // CPU threads, 0 = all cores
};

// How the run's evaluations decide (lbd-math.md section 5): a utility matrix of its own, which
// training never sees (objective.utility is the training one), a rule and an optional defer
// utility. Re-deciding later with other values needs no retraining.
struct DecisionSpec {
    UtilitySetting utility;
    DecisionRule rule = kDefaultDecisionRule;
    std::optional<double> deferUtility; // r: defer when the best expected utility is below it
};

struct TrainConfig {
    std::string name = "fashion-mnist-lt";
    std::string description; // shown by the presets menu and `lbd train --list-presets`
    // Which named protocol (lbd-math.md section 8) the settings below follow. validate() refuses
    // a config whose training utility or decision rule contradicts it (protocol.h).
    Protocol protocol = Protocol::App;
    DataSpec data;
    AugmentSpec augment;
    ModelSpec model;
    ObjectiveSpec objective;
    OptimizerSpec optimizer;
    TrainSettings train;
    DecisionSpec decision;

    // Throws InputError naming the key ("train.epochs must be at least 1").
    void validate() const;
};

// Why the settings contradict config.protocol (lbd-math.md section 8): "protocol paper-standard
// trains with the one-hot utility, but objective.utility is tail:1"; nothing when they agree (App
// agrees with everything). validate() throws it.
std::optional<std::string> protocolContradiction(const TrainConfig& config);

// Sets config.protocol and what it fixes: the training utility (and the utility term) and the
// decision rule. Other settings stay.
void applyProtocol(TrainConfig& config, Protocol protocol);

// The objective a run trains with: config.objective with the resolved training matrix and the
// LDAM margin scale taken from the model's cosine scale (margins are s * m_y in the logits' own
// units; the published code hard-codes s = 30).
ObjectiveSpec trainingObjective(const TrainConfig& config, const UtilityMatrix& trainingUtility);

// The model a run trains (and a reopened run rebuilds): config.model completed by the data
// (input channels, class count) and the augmentation's output size.
ModelSpec runModelSpec(const TrainConfig& config, int64_t inputChannels, int64_t classCount);

} // namespace lbd

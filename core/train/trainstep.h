#pragma once
// One optimisation step of the particle ensemble (forward, objective, backward, SGD), with the
// epoch's running sums kept on the device so that nothing waits for the GPU between batches.
// On CUDA the whole step can be captured once in a CUDA graph and replayed for every batch of
// the same shape: the learning rate and the epoch-dependent objective weights live in device
// tensors, so the graph stays valid across epochs.
#include <torch/torch.h>

#include <functional>
#include <memory>
#include <string>

#include "core/lbd/objective.h"
#include "core/lbd/objectivevalues.h"
#include "core/model/particlemodel.h"
#include "core/train/flatsgd.h"
#include "core/train/trainconfig.h"

namespace lbd {

class Communicator;
class FusedMember;
class GradientReducer;

// The autocast type of a precision on a device: kHalf / kBFloat16 on CUDA, kFloat32 on the CPU
// (which trains in fp32 whatever the setting).
torch::ScalarType autocastTypeFor(Precision precision, const torch::Device& device);

struct TrainStepOptions {
    // Autocast the model's forward pass to this type (CUDA only): kBFloat16, or kHalf with
    // dynamic loss scaling kept on the device; kFloat32 = no autocast.
    torch::ScalarType autocast = torch::kFloat32;
    bool cudaGraph = false;  // capture and replay (CUDA only)
    bool separateParticles = false; // run the particles one after another (speed comparison only)
    bool channelsLast = false;      // feed NHWC images (CUDA; the optimiser lays out the weights)
    // Data-parallel training: each rank's gradients are averaged over the ranks before the step
    // (every rank then takes the same step), and the epoch's sums cover every rank's images.
    // The global batch's label counts are all-reduced before each forward pass, so that each rank
    // normalises its share of the objective by the global batch (objective.h GlobalBatch): the
    // averaged gradient is one process's gradient on the global batch (with syncBatchNorm also
    // through batch norm; without it, each share's batch norm sees its own statistics).
    Communicator* communicator = nullptr;
    // With a communicator: batch norm over the global batch (core/dist/syncbatchnorm.h) instead of
    // each rank's share.
    bool syncBatchNorm = false;
    // With a communicator: the gradients are all-reduced in buckets of about this many bytes, each
    // started during the backward pass as soon as its gradients are complete (gradientreducer.h);
    // 0: one all-reduce of the whole buffer after the backward pass.
    int64_t gradientBucketBytes = 25 << 20;
    // Told when the CUDA graph's capture fails (the step then runs eagerly): for the run's log.
    std::function<void(const std::string&)> onGraphMessage;
    // A run trained in a fused group (`lbd study --fuse`, core/train/fusedrungroup.h): the group
    // computes the model's forward and backward pass with the other runs'; the objective, loss
    // scaling, optimiser step and sums stay this step's. Eager only (no CUDA graph).
    FusedMember* fusedMember = nullptr;
};

class TrainStep {
public:
    TrainStep(ParticleModel model, LbdObjective& objective, FlatSgd& optimizer, const torch::Device& device,
              TrainStepOptions options);
    ~TrainStep();

    // One batch. fixedShape: the batch has the epoch plan's fixed shape (Batch::fixedShape), the
    // only shape captured and replayed in the CUDA graph; any other batch (an epoch's remainder)
    // is trained eagerly, so that no image is dropped for the graph's sake.
    void run(const torch::Tensor& images, const torch::Tensor& labels, bool fixedShape = true);

    void resetEpochSums();
    // Data-parallel: the epoch's sums over every rank (call once at the end of an epoch, on every
    // rank); epochMeans and epochTrainAccuracy then describe the whole epoch.
    void reduceEpochSums();
    int64_t stepsThisEpoch() const { return m_steps; }
    int64_t epochImages() const { return m_images; } // after reduceEpochSums: every rank's
    int64_t epochGraphImages() const { return m_graphImages; } // of epochImages, trained by graph replays
    ObjectiveValues epochMeans() const; // waits for the device
    double epochTrainAccuracy() const;  // waits for the device
    double lastLoss() const;            // waits for the device; non-finite if the step diverged
    bool usingCudaGraph() const;
    int64_t skippedSteps() const; // fp16 steps skipped for non-finite gradients; waits for the device
    std::string graphStatus() const { return m_graphStatus; }
    // Data-parallel with gradient buckets: the reducer (bucket count, overlap); else nullptr.
    const GradientReducer* gradientReducer() const { return m_reducer.get(); }

    // The fp16 loss scaler (scale, growth tracker, skipped steps) as a CPU float tensor [3], for
    // checkpoints; restoring it lets a resumed run go on with the scale it had reached instead
    // of starting again at 2^16 and skipping steps to find it. Waits for the device.
    torch::Tensor lossScalerState() const;
    void restoreLossScalerState(const torch::Tensor& state); // throws InputError if malformed

private:
    void eagerStep(const torch::Tensor& images, const torch::Tensor& labels);
    void averageGradientsOverRanks();
    void backward(const torch::Tensor& loss);

    ParticleModel m_model;
    LbdObjective& m_objective;
    FlatSgd& m_optimizer;
    torch::Device m_device;
    TrainStepOptions m_options;
    std::unique_ptr<GradientReducer> m_reducer; // data-parallel with buckets only

    torch::Tensor m_sums;    // [6]: total, weighted CE, utility, utility weight, repulsive, a(e)
    torch::Tensor m_correct; // int64 scalar
    torch::Tensor m_lastLoss;
    // fp16 loss scaling (as torch.amp.GradScaler: start 2^16, halve on overflow, double after
    // 2000 good steps), all on the device so the step stays one CUDA graph.
    torch::Tensor m_lossScale;    // float [1]
    torch::Tensor m_growthTracker; // int32 [1]
    torch::Tensor m_foundInf;     // float [1]: this step overflowed
    torch::Tensor m_skippedSteps; // float [1]
    torch::Tensor m_globalCounts; // data-parallel: float [C], the global batch's label counts
    int64_t m_images = 0;
    int64_t m_graphImages = 0;
    int64_t m_steps = 0;
    int64_t m_eagerStepsDone = 0;

    struct Graph;
    std::unique_ptr<Graph> m_graph; // CUDA builds only
    std::string m_graphStatus = "off";
};

} // namespace lbd

#pragma once
// One optimisation step of the particle ensemble (forward, objective, backward, SGD), with the
// epoch's running sums kept on the device so that nothing waits for the GPU between batches.
// On CUDA the whole step can be captured once in a CUDA graph and replayed for every batch of
// the same shape: the learning rate and the epoch-dependent objective weights live in device
// tensors, so the graph stays valid across epochs.
#include <torch/torch.h>

#include <memory>

#include "core/lbd/objective.h"
#include "core/lbd/objectivevalues.h"
#include "core/model/particlemodel.h"
#include "core/train/flatsgd.h"

namespace lbd {

struct TrainStepOptions {
    bool bf16 = false;       // autocast the model's forward pass (CUDA only)
    bool cudaGraph = false;  // capture and replay (CUDA only)
    bool separateParticles = false; // run the particles one after another (speed comparison only)
    bool channelsLast = false;      // feed NHWC images (CUDA; the optimiser lays out the weights)
};

class TrainStep {
public:
    TrainStep(ParticleModel model, LbdObjective& objective, FlatSgd& optimizer, const torch::Device& device,
              TrainStepOptions options);
    ~TrainStep();

    void run(const torch::Tensor& images, const torch::Tensor& labels);

    void resetEpochSums();
    int64_t stepsThisEpoch() const { return m_steps; }
    ObjectiveValues epochMeans() const; // waits for the device
    double epochTrainAccuracy() const;  // waits for the device
    double lastLoss() const;            // waits for the device; non-finite if the step diverged
    bool usingCudaGraph() const;
    std::string graphStatus() const { return m_graphStatus; }

private:
    void eagerStep(const torch::Tensor& images, const torch::Tensor& labels);

    ParticleModel m_model;
    LbdObjective& m_objective;
    FlatSgd& m_optimizer;
    torch::Device m_device;
    TrainStepOptions m_options;

    torch::Tensor m_sums;    // [6]: total, weighted CE, utility, utility weight, repulsive, a(e)
    torch::Tensor m_correct; // int64 scalar
    torch::Tensor m_lastLoss;
    int64_t m_images = 0;
    int64_t m_steps = 0;
    int64_t m_eagerStepsDone = 0;

    struct Graph;
    std::unique_ptr<Graph> m_graph; // CUDA builds only
    std::string m_graphStatus = "off";
};

} // namespace lbd

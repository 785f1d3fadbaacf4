#pragma once
// What a run's training step sees of the fused group it trains in (`lbd study --fuse`,
// core/train/fusedrungroup.h): the run keeps its own step (objective, loss scaling, optimiser,
// sums) and hands the group only the model's forward pass and the backward pass through it.
#include "core/model/particlemodel.h"

#include <torch/torch.h>

namespace lbd {

class FlatSgd;

class FusedMember {
public:
    virtual ~FusedMember() = default;

    // The run's model and optimiser, once both exist (its session's set-up, a resumed run's
    // checkpoint already loaded). Its batch-norm statistics become slices of the fused model's.
    virtual void join(ParticleModel model, FlatSgd& optimizer) = 0;
    // The run's logits [M, B, C] of its `images`, computed with every member's batch at once: a
    // leaf that the run's loss is differentiated to. Waits for the other members.
    virtual torch::Tensor forward(const torch::Tensor& images) = 0;
    // After the run's loss.backward(): waits for the other members, then the fused backward pass
    // adds what flowed through the logits to the run's parameter gradients (the optimiser's flat
    // buffer), beside what its loss gave them directly (the repulsive term's classifier weights).
    virtual void backward() = 0;
};

} // namespace lbd

#pragma once
// Runs a particle model over a whole split (evaluation mode, no augmentation) and returns each
// particle's softmax probabilities: the input of every metric and decision.
#include <torch/torch.h>

#include "core/data/batchsource.h"
#include "core/model/particlemodel.h"

namespace lbd {

struct SplitProbabilities {
    torch::Tensor probabilities; // float [M, N, C] on the CPU, in the split's order
    torch::Tensor labels;        // int64 [N] on the CPU
};

// `source` must not shuffle. Restores the model's training mode afterwards.
SplitProbabilities particleProbabilities(ParticleModel& model, BatchSource& source, torch::ScalarType autocast = torch::kFloat32);

} // namespace lbd

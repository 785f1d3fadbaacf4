#pragma once
// Data-parallel evaluation: every rank computes its particles' probabilities for its share of
// every evaluation batch, and the shares are put back together in the split's order, so that
// the ranks divide the evaluation's work instead of rank 0 doing all of it.
#include "core/data/batchsource.h"
#include "core/model/particlemodel.h"
#include "core/train/particleprobabilities.h"

#include <torch/torch.h>

namespace lbd {

class Communicator;

// `shard` must not shuffle and must be built with `options` (the same batch size, this rank's
// shardIndex / shardCount); `splitSize` is the split's image count. Every rank calls it with the
// same model weights (and batch-norm statistics) and gets the whole split's probabilities
// [M, splitSize, C] and labels, in the split's order, on the CPU. The collective runs on
// `device` (NCCL needs CUDA tensors).
SplitProbabilities gatherShardedProbabilities(ParticleModel& model, BatchSource& shard, const BatchOptions& options,
                                              int64_t splitSize, Communicator& communicator, torch::ScalarType autocast,
                                              const torch::Device& device);

} // namespace lbd

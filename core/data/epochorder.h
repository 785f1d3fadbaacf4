#pragma once
// The per-epoch order and augmentation stream shared by both batchers.
#include <torch/torch.h>

#include "core/data/batchsource.h"
#include "core/util/random.h"

namespace lbd {

// int64 [n] on the CPU: a seeded permutation, or 0..n-1 without shuffling.
torch::Tensor epochOrder(int64_t size, const BatchOptions& options, int64_t epoch);

Rng epochRng(const BatchOptions& options, int64_t epoch);

int64_t batchCount(int64_t size, const BatchOptions& options);

} // namespace lbd

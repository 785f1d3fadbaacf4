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

// Rank `options.shardIndex` of `options.shardCount`'s rows of a batch of `batchSize` images: a
// contiguous slice, the sizes differing by at most one (rank r takes rows [r*n/N, (r+1)*n/N)).
struct ShardRange {
    int64_t offset = 0;
    int64_t count = 0;
};
ShardRange shardOfBatch(int64_t batchSize, const BatchOptions& options);

} // namespace lbd

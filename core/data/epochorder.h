#pragma once
// The per-epoch order, augmentation stream and batch plan shared by both batchers (and by the
// sharded evaluation, which must find each rank's rows where the batchers put them).
#include <torch/torch.h>

#include <string>
#include <vector>

#include "core/data/batchsource.h"
#include "core/util/random.h"

namespace lbd {

// int64 [n] on the CPU: a seeded permutation, or 0..n-1 without shuffling.
torch::Tensor epochOrder(int64_t size, const BatchOptions& options, int64_t epoch);

Rng epochRng(const BatchOptions& options, int64_t epoch);

// One batch of an epoch: rows [start, start + count) of the epoch's order, over every rank.
// `fixedShape`: it has exactly options.batchSize images, the shape a captured CUDA graph of the
// training step replays; any other batch (the remainder) is trained eagerly, outside the graph.
struct PlannedBatch {
    int64_t start = 0;
    int64_t count = 0;
    bool fixedShape = true;
};

// The batches of an epoch of `size` images, the same in every epoch and on every rank: full
// batches of options.batchSize, then the remainder as a smaller last batch, so that every image
// is seen once an epoch (the published loaders' drop_last = False). With
// options.mergeSmallRemainder (training), a remainder that would leave some rank fewer than 2
// images (batch norm cannot take statistics over one) joins the batch before it instead.
// options.dropLast leaves the remainder out (benchmarks, which time one shape); plannedDropped
// says how many images that leaves out. InputError when training cannot give every rank 2 images.
std::vector<PlannedBatch> planEpochBatches(int64_t size, const BatchOptions& options);
int64_t plannedDropped(int64_t size, const std::vector<PlannedBatch>& plan);

int64_t batchCount(int64_t size, const BatchOptions& options); // planEpochBatches(...).size()

// Rank `options.shardIndex` of `options.shardCount`'s rows of a batch of `batchSize` images: a
// contiguous slice, the sizes differing by at most one (rank r takes rows [r*n/N, (r+1)*n/N)).
struct ShardRange {
    int64_t offset = 0;
    int64_t count = 0;
};
ShardRange shardOfBatch(int64_t batchSize, const BatchOptions& options);

// "each epoch: 116 batch(es) of 128 and a last one of 38 (trained eagerly, outside the CUDA
// graph), every one of the 14886 training images": how an epoch's images are batched, for the log.
std::string describeEpochPlan(int64_t images, const std::vector<PlannedBatch>& plan, bool cudaGraph);

} // namespace lbd

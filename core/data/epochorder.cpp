#include "core/data/epochorder.h"

#include <string>

#include "core/util/error.h"

#include <algorithm>
#include <numeric>

namespace lbd {

torch::Tensor epochOrder(int64_t size, const BatchOptions& options, int64_t epoch)
{
    std::vector<int64_t> order(static_cast<size_t>(size));
    std::iota(order.begin(), order.end(), 0);
    if (options.shuffle) {
        Rng rng(options.seed, 0x5b0ff1e000000000ULL + static_cast<uint64_t>(epoch));
        rng.shuffle(order);
    }
    return torch::tensor(order, torch::kInt64);
}

Rng epochRng(const BatchOptions& options, int64_t epoch)
{
    return Rng(options.seed, 0xa06e000000000000ULL + static_cast<uint64_t>(epoch));
}

std::vector<PlannedBatch> planEpochBatches(int64_t size, const BatchOptions& options)
{
    if (options.batchSize < 1) {
        throw InputError("batch size " + std::to_string(options.batchSize) + ": must be at least 1");
    }
    const int64_t batch = options.batchSize;
    const int64_t ranks = std::max(1, options.shardCount);
    // Training: every rank's share of every batch holds at least 2 images (shares differ by at
    // most one, so a batch of 2N images is the smallest that does).
    const int64_t smallest = options.mergeSmallRemainder ? 2 * ranks : 1;
    if (options.mergeSmallRemainder && size > 0 && size < smallest) {
        throw InputError("a training set of " + std::to_string(size) + " image(s) cannot give each of the "
                         + std::to_string(ranks) + " rank(s) 2 images a batch (batch norm needs 2)");
    }
    std::vector<PlannedBatch> plan;
    const int64_t full = size / batch;
    for (int64_t b = 0; b < full; ++b) {
        plan.push_back({b * batch, batch, true});
    }
    const int64_t remainder = size - full * batch;
    if (remainder == 0 || (options.dropLast && full > 0)) {
        return plan;
    }
    if (remainder < smallest && !plan.empty()) {
        plan.back().count += remainder; // the last full batch takes the few images left
        plan.back().fixedShape = false;
    } else {
        plan.push_back({full * batch, remainder, false});
    }
    return plan;
}

int64_t plannedDropped(int64_t size, const std::vector<PlannedBatch>& plan)
{
    int64_t planned = 0;
    for (const PlannedBatch& batch : plan) {
        planned += batch.count;
    }
    return size - planned;
}

int64_t batchCount(int64_t size, const BatchOptions& options)
{
    return static_cast<int64_t>(planEpochBatches(size, options).size());
}

ShardRange shardOfBatch(int64_t batchSize, const BatchOptions& options)
{
    const int64_t ranks = std::max(1, options.shardCount);
    const int64_t rank = std::clamp<int64_t>(options.shardIndex, 0, ranks - 1);
    const int64_t begin = batchSize * rank / ranks;
    const int64_t end = batchSize * (rank + 1) / ranks;
    return {begin, end - begin};
}

// The run's log says how an epoch's images are batched, the last batch's treatment included.
std::string describeEpochPlan(int64_t images, const std::vector<PlannedBatch>& plan, bool cudaGraph)
{
    int64_t full = 0;
    for (const PlannedBatch& batch : plan) {
        full += batch.fixedShape ? 1 : 0;
    }
    std::string text = "each epoch: " + std::to_string(full) + " batch(es) of " + std::to_string(plan.empty() ? 0 : plan.front().count);
    if (!plan.empty() && !plan.back().fixedShape) {
        text += (full > 0 ? " and a last one of " : " - a single batch of ") + std::to_string(plan.back().count);
        if (cudaGraph) {
            text += " (trained eagerly, outside the CUDA graph)";
        }
    }
    const int64_t dropped = plannedDropped(images, plan);
    return text + (dropped == 0 ? ", every one of the " + std::to_string(images) + " training images"
                                : "; " + std::to_string(dropped) + " of the " + std::to_string(images)
                                      + " training images left out of every epoch");
}


} // namespace lbd

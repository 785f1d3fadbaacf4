#include "core/dist/shardedevaluation.h"

#include "core/data/epochorder.h"
#include "core/dist/communicator.h"
#include "core/util/error.h"

#include <algorithm>

namespace lbd {

SplitProbabilities gatherShardedProbabilities(ParticleModel& model, BatchSource& shard, const BatchOptions& options,
                                              int64_t splitSize, Communicator& communicator, torch::ScalarType autocast,
                                              const torch::Device& device)
{
    const SplitProbabilities mine = particleProbabilities(model, shard, autocast);
    const int64_t particles = mine.probabilities.size(0), classes = mine.probabilities.size(2);
    // Every rank writes its rows into a zero tensor of the whole split; the sum over ranks is
    // then the split, each row written by exactly one rank.
    auto probabilities = torch::zeros({particles, splitSize, classes}, torch::kFloat32);
    auto labels = torch::zeros({splitSize}, torch::kInt64);
    int64_t taken = 0;
    // The batches as the batcher formed them (epochorder.h), so each rank's rows land where they came from.
    for (const PlannedBatch& batch : planEpochBatches(splitSize, options)) {
        const int64_t start = batch.start;
        const ShardRange range = shardOfBatch(batch.count, options);
        if (range.count == 0) {
            continue;
        }
        if (taken + range.count > mine.labels.size(0)) {
            throw RunError("sharded evaluation: this rank computed " + std::to_string(mine.labels.size(0))
                           + " images, fewer than its shares of the split");
        }
        probabilities.narrow(1, start + range.offset, range.count).copy_(mine.probabilities.narrow(1, taken, range.count));
        labels.narrow(0, start + range.offset, range.count).copy_(mine.labels.narrow(0, taken, range.count));
        taken += range.count;
    }
    if (taken != mine.labels.size(0)) {
        throw RunError("sharded evaluation: this rank computed " + std::to_string(mine.labels.size(0)) + " images, its shares hold "
                       + std::to_string(taken));
    }
    auto onDevice = probabilities.to(device);
    auto labelsOnDevice = labels.to(device);
    communicator.allReduceSum(onDevice);
    communicator.allReduceSum(labelsOnDevice);
    return {onDevice.cpu(), labelsOnDevice.cpu()};
}

} // namespace lbd

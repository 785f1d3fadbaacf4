#include "core/data/epochorder.h"

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

int64_t batchCount(int64_t size, const BatchOptions& options)
{
    if (options.dropLast && size >= options.batchSize) {
        return size / options.batchSize;
    }
    if (options.dropSingleImageBatch && size > 1 && size % options.batchSize == 1) {
        return size / options.batchSize;
    }
    return (size + options.batchSize - 1) / options.batchSize;
}

ShardRange shardOfBatch(int64_t batchSize, const BatchOptions& options)
{
    const int64_t ranks = std::max(1, options.shardCount);
    const int64_t rank = std::clamp<int64_t>(options.shardIndex, 0, ranks - 1);
    const int64_t begin = batchSize * rank / ranks;
    const int64_t end = batchSize * (rank + 1) / ranks;
    return {begin, end - begin};
}

} // namespace lbd

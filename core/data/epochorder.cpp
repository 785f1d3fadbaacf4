#include "core/data/epochorder.h"

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

} // namespace lbd

#pragma once
// Prepares the next batch on a second CUDA stream while the current stream trains on this one,
// so that the per-batch gather and augmentation (dozens of small kernels) overlap the training
// step instead of running between steps. The batches, their order and their augmentation are
// exactly those of the wrapped source; on the CPU it is a plain pass-through.
#include <memory>

#include "core/data/batchsource.h"

namespace lbd {

std::unique_ptr<BatchSource> makePrefetchingBatchSource(std::unique_ptr<BatchSource> inner, const torch::Device& device);

} // namespace lbd

#include "core/data/devicebatcher.h"

namespace lbd {

DeviceBatcher::DeviceBatcher(const DataSplit& split, const torch::Device& device, const AugmentSpec& augment,
                             const Normalization& normalization, const BatchOptions& options)
    : m_images(split.images.to(device)),
      m_labels(split.labels.to(device)),
      m_device(device),
      m_augment(augment),
      m_normalization(normalization),
      m_options(options),
      m_size(split.size()),
      m_plan(planEpochBatches(m_size, options))
{
    startEpoch(1);
}

void DeviceBatcher::startEpoch(int64_t epoch)
{
    m_order = epochOrder(m_size, m_options, epoch).to(m_device);
    m_rng = epochRng(m_options, epoch);
    m_nextBatch = 0;
}

int64_t DeviceBatcher::batchesPerEpoch() const
{
    return static_cast<int64_t>(m_plan.size());
}

bool DeviceBatcher::next(Batch& batch)
{
    if (m_nextBatch >= batchesPerEpoch()) {
        return false;
    }
    const PlannedBatch& planned = m_plan[static_cast<size_t>(m_nextBatch)];
    const int64_t start = planned.start;
    const int64_t count = planned.count;
    const ShardRange shard = shardOfBatch(count, m_options);
    const auto rows = m_order.narrow(0, start + shard.offset, shard.count);
    const auto images = m_images.index_select(0, rows);
    const bool augment = m_options.augment && m_augment.enabled;
    // Drawn for the whole batch, then this shard's rows: the same draws as one process.
    const auto params = augment ? drawAugmentParams(count, m_augment, m_rng).narrow(0, shard.offset, shard.count)
                                : torch::Tensor();
    batch.images = augment ? augmentBatch(images, params, m_augment, m_normalization)
                           : preprocessBatch(images, m_augment.outputSize, m_normalization);
    batch.labels = m_labels.index_select(0, rows);
    batch.globalSize = count;
    batch.fixedShape = planned.fixedShape;
    batch.index = m_nextBatch++;
    return true;
}

} // namespace lbd

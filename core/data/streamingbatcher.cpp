#include "core/data/streamingbatcher.h"

#include "core/data/imagedecoder.h"

namespace lbd {

StreamingBatcher::StreamingBatcher(const DataSplit& split, const ImageFormat& format, const torch::Device& device,
                                   const AugmentSpec& augment, const Normalization& normalization,
                                   const BatchOptions& options, int threads, int prefetchBatches)
    : m_files(split.files),
      m_labels(split.labels),
      m_format(format),
      m_device(device),
      m_augment(augment),
      m_normalization(normalization),
      m_options(options),
      m_threads(threads > 0 ? threads : std::max(1, static_cast<int>(std::thread::hardware_concurrency()))),
      m_prefetch(std::max(1, prefetchBatches)),
      m_plan(planEpochBatches(static_cast<int64_t>(split.files.size()), options))
{
    startEpoch(1);
}

StreamingBatcher::~StreamingBatcher()
{
    stopWorkers();
}

void StreamingBatcher::stopWorkers()
{
    {
        std::lock_guard<std::mutex> lock(m_mutex);
        m_stopping = true;
    }
    m_changed.notify_all();
    for (auto& worker : m_workers) {
        worker.join();
    }
    m_workers.clear();
}

void StreamingBatcher::startEpoch(int64_t epoch)
{
    stopWorkers();
    const auto order = epochOrder(size(), m_options, epoch);
    m_order.assign(order.data_ptr<int64_t>(), order.data_ptr<int64_t>() + order.numel());
    m_rng = epochRng(m_options, epoch);
    m_nextBatch = 0;
    m_nextToDecode = 0;
    m_ready.clear();
    m_failed.clear();
    m_stopping = false;
    for (int t = 0; t < m_threads; ++t) {
        m_workers.emplace_back([this] { workerLoop(); });
    }
}

int64_t StreamingBatcher::batchesPerEpoch() const
{
    return static_cast<int64_t>(m_plan.size());
}

void StreamingBatcher::workerLoop()
{
    const int64_t batches = batchesPerEpoch();
    for (;;) {
        int64_t batchIndex = 0;
        {
            std::unique_lock<std::mutex> lock(m_mutex);
            // Decode at most m_prefetch batches ahead of the consumer.
            m_changed.wait(lock, [&] { return m_stopping || m_nextToDecode < std::min(batches, m_nextBatch + m_prefetch); });
            if (m_stopping) {
                return;
            }
            batchIndex = m_nextToDecode++;
        }
        const PlannedBatch& planned = m_plan[static_cast<size_t>(batchIndex)];
        const int64_t start = planned.start;
        const ShardRange shard = shardOfBatch(planned.count, m_options);
        std::vector<std::string> paths;
        for (int64_t i = shard.offset; i < shard.offset + shard.count; ++i) {
            paths.push_back(m_files[static_cast<size_t>(m_order[static_cast<size_t>(start + i)])]);
        }
        torch::Tensor images;
        std::exception_ptr error;
        try {
            images = decodeImageFiles(paths, m_format, 1);
        } catch (...) {
            error = std::current_exception();
        }
        {
            std::lock_guard<std::mutex> lock(m_mutex);
            if (error) {
                m_failed[batchIndex] = error;
            } else {
                m_ready[batchIndex] = images;
            }
        }
        m_changed.notify_all();
    }
}

bool StreamingBatcher::next(Batch& batch)
{
    if (m_nextBatch >= batchesPerEpoch()) {
        return false;
    }
    torch::Tensor images;
    {
        std::unique_lock<std::mutex> lock(m_mutex);
        m_changed.wait(lock, [&] { return m_ready.count(m_nextBatch) != 0 || m_failed.count(m_nextBatch) != 0; });
        if (const auto failed = m_failed.find(m_nextBatch); failed != m_failed.end()) {
            std::rethrow_exception(failed->second);
        }
        images = m_ready[m_nextBatch];
        m_ready.erase(m_nextBatch);
    }
    const PlannedBatch& planned = m_plan[static_cast<size_t>(m_nextBatch)];
    const int64_t start = planned.start;
    const int64_t count = planned.count;
    const ShardRange shard = shardOfBatch(count, m_options);
    std::vector<int64_t> rows(m_order.begin() + start + shard.offset, m_order.begin() + start + shard.offset + shard.count);
    const auto rowTensor = torch::tensor(rows, torch::kInt64);
    const auto deviceImages = images.to(m_device);
    const bool augment = m_options.augment && m_augment.enabled;
    // Drawn for the whole batch, then this shard's rows: the same draws as one process.
    const auto params = augment ? drawAugmentParams(count, m_augment, m_rng).narrow(0, shard.offset, shard.count)
                                : torch::Tensor();
    batch.images = augment ? augmentBatch(deviceImages, params, m_augment, m_normalization)
                           : preprocessBatch(deviceImages, m_augment.outputSize, m_normalization);
    batch.labels = m_labels.index_select(0, rowTensor).to(m_device);
    batch.globalSize = count;
    batch.fixedShape = planned.fixedShape;
    batch.index = m_nextBatch;
    {
        std::lock_guard<std::mutex> lock(m_mutex);
        ++m_nextBatch;
    }
    m_changed.notify_all();
    return true;
}

} // namespace lbd

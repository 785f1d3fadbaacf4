#include "core/data/streamingbatcher.h"

#include "core/data/imagedecoder.h"

#include <chrono>
#include <unordered_map>

namespace lbd {
namespace {

using Clock = std::chrono::steady_clock;

int64_t nanosecondsSince(Clock::time_point start)
{
    return std::chrono::duration_cast<std::chrono::nanoseconds>(Clock::now() - start).count();
}

} // namespace

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
    resolveCaches(options.caches);
    startEpoch(1);
}

StreamingBatcher::~StreamingBatcher()
{
    stopWorkers();
}

void StreamingBatcher::resolveCaches(const std::vector<std::shared_ptr<const DatasetCache>>& caches)
{
    m_cacheOf.assign(m_files.size(), -1);
    m_cacheEntry.assign(m_files.size(), -1);
    if (caches.empty()) {
        return;
    }
    std::unordered_map<std::string, int64_t> row;
    row.reserve(m_files.size());
    for (size_t i = 0; i < m_files.size(); ++i) {
        row.emplace(m_files[i], static_cast<int64_t>(i));
    }
    for (size_t c = 0; c < caches.size(); ++c) {
        const auto& paths = caches[c]->sourcePaths();
        for (size_t e = 0; e < paths.size(); ++e) {
            const auto found = row.find(paths[e]);
            if (found != row.end() && m_cacheOf[size_t(found->second)] < 0) {
                m_cacheOf[size_t(found->second)] = static_cast<int32_t>(c);
                m_cacheEntry[size_t(found->second)] = static_cast<int64_t>(e);
            }
        }
    }
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
    m_slots.clear();
    m_stopping = false;
    m_decodeNs = 0;
    m_waitNs = m_copyNs = m_augmentNs = m_batchesTaken = m_imagesTaken = 0;
    for (int t = 0; t < m_threads; ++t) {
        m_workers.emplace_back([this] { workerLoop(); });
    }
}

int64_t StreamingBatcher::batchesPerEpoch() const
{
    return static_cast<int64_t>(m_plan.size());
}

InputTimings StreamingBatcher::inputTimings() const
{
    InputTimings t;
    t.batches = m_batchesTaken;
    t.images = m_imagesTaken;
    t.decodeSeconds = static_cast<double>(m_decodeNs.load()) * 1e-9;
    t.decodeThreads = m_threads;
    t.waitSeconds = static_cast<double>(m_waitNs) * 1e-9;
    t.copySeconds = static_cast<double>(m_copyNs) * 1e-9;
    t.augmentSeconds = static_cast<double>(m_augmentNs) * 1e-9;
    t.fromCache = !m_options.caches.empty();
    return t;
}

bool StreamingBatcher::takeChunk(Chunk& chunk)
{
    const int64_t end = std::min(batchesPerEpoch(), m_nextBatch + m_prefetch);
    if (m_nextToDecode >= end) {
        return false;
    }
    Slot& slot = m_slots[m_nextToDecode];
    if (!slot.images.defined()) {
        slot.count = shardOfBatch(m_plan[size_t(m_nextToDecode)].count, m_options).count;
        slot.remaining = slot.count;
        // Pinned on CUDA, so that the copy to the device can be asynchronous.
        slot.images = torch::empty({slot.count, m_format.channels, m_format.height, m_format.width},
                                   torch::TensorOptions().dtype(torch::kUInt8).pinned_memory(m_device.is_cuda()));
    }
    // Chunks small enough that every thread has work in the first batch, large enough to be cheap.
    const int64_t chunkSize = std::clamp<int64_t>((slot.count + m_threads - 1) / m_threads, 1, 8);
    chunk.batch = m_nextToDecode;
    chunk.first = slot.handedOut;
    chunk.count = std::min(chunkSize, slot.count - slot.handedOut);
    chunk.out = slot.images.data_ptr<uint8_t>() + chunk.first * m_format.bytesPerImage();
    slot.handedOut += chunk.count;
    if (slot.handedOut == slot.count) {
        ++m_nextToDecode;
    }
    return true;
}

void StreamingBatcher::loadImage(int64_t row, uint8_t* out) const
{
    const int32_t cache = m_cacheOf[size_t(row)];
    if (cache >= 0) {
        m_options.caches[size_t(cache)]->readImage(m_cacheEntry[size_t(row)], m_format, out);
    } else {
        decodeImageFile(m_files[size_t(row)], m_format, out);
    }
}

void StreamingBatcher::workerLoop()
{
    for (;;) {
        Chunk chunk;
        {
            std::unique_lock<std::mutex> lock(m_mutex);
            // Decode at most m_prefetch batches ahead of the consumer.
            m_changed.wait(lock, [&] { return m_stopping || takeChunk(chunk); });
            if (m_stopping) {
                return;
            }
        }
        const PlannedBatch& planned = m_plan[size_t(chunk.batch)];
        const int64_t offset = planned.start + shardOfBatch(planned.count, m_options).offset + chunk.first;
        std::exception_ptr error;
        const auto start = Clock::now();
        try {
            for (int64_t i = 0; i < chunk.count; ++i) {
                loadImage(m_order[size_t(offset + i)], chunk.out + i * m_format.bytesPerImage());
            }
        } catch (...) {
            error = std::current_exception();
        }
        m_decodeNs += nanosecondsSince(start);
        bool done = false;
        {
            std::lock_guard<std::mutex> lock(m_mutex);
            Slot& slot = m_slots[chunk.batch];
            if (error && !slot.error) {
                slot.error = error;
            }
            slot.remaining -= chunk.count;
            done = slot.remaining == 0;
        }
        if (done) {
            m_changed.notify_all();
        }
    }
}

bool StreamingBatcher::next(Batch& batch)
{
    if (m_nextBatch >= batchesPerEpoch()) {
        return false;
    }
    torch::Tensor images;
    {
        const auto waitStart = Clock::now();
        std::unique_lock<std::mutex> lock(m_mutex);
        m_changed.wait(lock, [&] {
            const auto slot = m_slots.find(m_nextBatch);
            return slot != m_slots.end() && slot->second.images.defined() && slot->second.handedOut == slot->second.count
                   && slot->second.remaining == 0;
        });
        m_waitNs += nanosecondsSince(waitStart);
        Slot slot = std::move(m_slots[m_nextBatch]);
        m_slots.erase(m_nextBatch);
        if (slot.error) {
            std::rethrow_exception(slot.error);
        }
        images = slot.images;
    }
    const PlannedBatch& planned = m_plan[static_cast<size_t>(m_nextBatch)];
    const int64_t start = planned.start;
    const int64_t count = planned.count;
    const ShardRange shard = shardOfBatch(count, m_options);
    std::vector<int64_t> rows(m_order.begin() + start + shard.offset, m_order.begin() + start + shard.offset + shard.count);
    const auto rowTensor = torch::tensor(rows, torch::kInt64);
    auto stageStart = Clock::now();
    // From pinned memory: asynchronous on the current stream (PrefetchingBatchSource's side stream
    // while training); the caching host allocator keeps the buffer until the copy has run.
    const auto deviceImages = images.to(m_device, /*non_blocking=*/m_device.is_cuda());
    batch.labels = m_labels.index_select(0, rowTensor).to(m_device);
    m_copyNs += nanosecondsSince(stageStart);
    stageStart = Clock::now();
    const bool augment = m_options.augment && m_augment.enabled;
    // Drawn for the whole batch, then this shard's rows: the same draws as one process.
    const auto params = augment ? drawAugmentParams(count, m_augment, m_rng).narrow(0, shard.offset, shard.count)
                                : torch::Tensor();
    batch.images = augment ? augmentBatch(deviceImages, params, m_augment, m_normalization)
                           : preprocessBatch(deviceImages, m_augment.outputSize, m_normalization);
    m_augmentNs += nanosecondsSince(stageStart);
    batch.globalSize = count;
    batch.fixedShape = planned.fixedShape;
    batch.index = m_nextBatch;
    ++m_batchesTaken;
    m_imagesTaken += shard.count;
    {
        std::lock_guard<std::mutex> lock(m_mutex);
        ++m_nextBatch;
    }
    m_changed.notify_all();
    return true;
}

} // namespace lbd
